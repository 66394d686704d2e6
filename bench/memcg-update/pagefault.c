// SPDX-License-Identifier: GPL-2.0
/*
 * pagefault: memcg stat update-path cost, after will-it-scale's page_fault
 * tests.
 *
 *   pagefault TEST MODE TASKS LOOPS MIB
 *
 * TEST 1: anonymous private memory (page_fault1)
 *      2: private mapping of a tmpfs file, write faults (page_fault2)
 *      3: shared mapping of a tmpfs file, write faults (page_fault3)
 * MODE process|thread: TASKS processes, or TASKS threads of one process.
 * Each task maps MIB MiB, writes one byte per page, unmaps, LOOPS times.
 * Prints one JSON line: guest ns (retired instructions under QEMU
 * -icount shift=0) per page fault, over all tasks.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

static int test, loops;
static size_t size;

static void *worker(void *arg)
{
	long page = sysconf(_SC_PAGESIZE);
	int fd = -1;

	(void)arg;
	if (test != 1) {
		fd = memfd_create("pagefault", 0);
		if (fd < 0 || ftruncate(fd, size))
			die("memfd");
	}
	for (int l = 0; l < loops; l++) {
		char *p;

		if (test == 1)
			p = mmap(NULL, size, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		else
			p = mmap(NULL, size, PROT_READ | PROT_WRITE,
				 test == 2 ? MAP_PRIVATE : MAP_SHARED, fd, 0);
		if (p == MAP_FAILED)
			die("mmap");
		for (size_t off = 0; off < size; off += page)
			p[off] = 1;
		munmap(p, size);
	}
	if (fd >= 0)
		close(fd);
	return NULL;
}

int main(int argc, char **argv)
{
	int tasks, threads;
	long long t0, t1;
	double faults;

	bench_prog = "pagefault";
	if (argc != 6) {
		fprintf(stderr, "usage: pagefault TEST(1|2|3) process|thread TASKS LOOPS MIB\n");
		return 2;
	}
	test = atoi(argv[1]);
	threads = !strcmp(argv[2], "thread");
	tasks = atoi(argv[3]);
	loops = atoi(argv[4]);
	size = (size_t)atoi(argv[5]) << 20;
	if (test < 1 || test > 3 || tasks < 1 || loops < 1 || !size) {
		fprintf(stderr, "pagefault: bad arguments\n");
		return 2;
	}

	t0 = now_ns();
	if (threads) {
		pthread_t tid[64];

		for (int i = 0; i < tasks && i < 64; i++)
			if (pthread_create(&tid[i], NULL, worker, NULL))
				die("pthread_create");
		for (int i = 0; i < tasks && i < 64; i++)
			pthread_join(tid[i], NULL);
	} else {
		for (int i = 0; i < tasks; i++) {
			pid_t pid = fork();

			if (pid < 0)
				die("fork");
			if (!pid) {
				worker(NULL);
				_exit(0);
			}
		}
		while (wait(NULL) > 0)
			;
	}
	t1 = now_ns();
	faults = (double)tasks * loops * (size / sysconf(_SC_PAGESIZE));
	printf("{\"metric\": \"page_fault%d_per_%s\", \"unit\": \"ns\", \"better\": \"lower\", \"value\": %.1f}\n",
	       test, threads ? "thread" : "process", (t1 - t0) / faults);
	return 0;
}
