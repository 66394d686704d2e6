#!/bin/bash
# psi-kubepods benchmark, guest side: guest.sh BINDIR
# PSI's cost on a Kubernetes-shaped tree under mixed load (kubepods.c:
# 2 QoS classes x KUBE_PODS pods x KUBE_CONTAINERS containers, request/
# response pairs and batch jobs, three periodic services beside them),
# with PSI on and off (the boot variants). The same workload in
# bench/bin/psi-census.sh --series counts how many of the walked groups
# mirror there. Then the same tree with one pod of two containers a
# class, a sparse node.
set -o pipefail
bin=$1
"$bin/kubepods" /sys/fs/cgroup "${KUBE_PODS:-8}" "${KUBE_CONTAINERS:-3}" "${KUBE_ROUNDS:-2000}" || exit 1
"$bin/kubepods" /sys/fs/cgroup 1 2 "${KUBE_ROUNDS:-2000}" | sed 's/"kubepods_/"kubepods_sparse_/' || exit 1
