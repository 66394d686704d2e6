// SPDX-License-Identifier: GPL-2.0
/* The psi census's kubepods workload, built for this benchmark too */
#include "../psi/kubepods.c"
