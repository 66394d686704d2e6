# cgscale: see README.md ("Layout"). Every target is one script.
.PHONY: run test deps base worktree export build selftests check pytest submit bench help
SHELL := /bin/bash

run:            ## build, boot, demo hierarchy, the series' selftests, summary
	scripts/run.sh
test:           ## the test command (what .ci/run runs)
	scripts/test.sh
deps:           ## install host packages, virtme-ng and b4
	scripts/install-deps.sh
base:           ## fetch, verify and unpack the pinned base
	scripts/get-base.sh
worktree:       ## create build/linux: base commit + git am patches/ (FORCE=1 to reset)
	scripts/make-worktree.sh $(if $(FORCE),--force)
export:         ## export build/linux's series back to patches/
	scripts/export-series.sh
build:          ## build the patched kernel (CONFIG=test|bench)
	scripts/build-kernel.sh $(or $(CONFIG),test)
selftests:      ## build the cgroup selftests for the patched kernel
	scripts/build-selftests.sh
check:          ## host checks on the series only
	scripts/check-series.sh
pytest:         ## the harness's own unit tests
	python3 -m pytest -q tests
submit:         ## per-maintainer-tree mails with b4 under build/submit/ (nothing is sent)
	submit/prepare-submission.sh
bench:          ## the A/B benchmarks, all or BENCH=NAME (outside CI: docs/benchmarks.md)
	bench/bench.sh $(BENCH)
help:           ## this list
	@grep -E '^[a-z-]+:.*## ' Makefile | sed 's/:.*## /\t/'
