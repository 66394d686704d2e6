/*
 * Calibration program for the cache-clock plugin (runs in the guest).
 *   calib shared N   two threads pinned to CPU 0 and 1 take turns writing
 *                    one 64-byte line N times each; the turn flag is in the
 *                    line and a waiting thread sleeps in futex(), so every
 *                    write follows the other CPU's write (a forced transfer)
 *   calib padded N   each thread writes its own 64-byte line N times
 *   calib spin N     both threads write the one shared line N times each,
 *                    without taking turns (transfers = vCPU turn switches)
 * The start marker (xchg %bx,%bx) comes after both threads are pinned and
 * waiting, the stop marker (xchg %cx,%cx) after both are joined.
 * Prints the virtual addresses of the lines written.
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MARK_START() asm volatile(".byte 0x66,0x87,0xdb" ::: "memory")
#define MARK_STOP()  asm volatile(".byte 0x66,0x87,0xc9" ::: "memory")

struct line { volatile int turn; int pad; volatile long count[2]; } __attribute__((aligned(64)));
static struct line shared;
static struct line padded[2];
static long n;
static int mode; /* 0 shared, 1 padded, 2 spin */
static pthread_barrier_t go;

static void futex(volatile int *a, int op, int v)
{
	syscall(SYS_futex, a, op, v, NULL, NULL, 0);
}

static void *worker(void *arg)
{
	int i = (int)(long)arg;
	cpu_set_t set;
	long k;

	CPU_ZERO(&set);
	CPU_SET(i, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		exit(1);
	}
	pthread_barrier_wait(&go);
	for (k = 0; k < n; k++) {
		if (mode == 0) {
			while (shared.turn != i)
				futex(&shared.turn, FUTEX_WAIT_PRIVATE, 1 - i);
			shared.count[i]++;
			shared.turn = 1 - i;
			futex(&shared.turn, FUTEX_WAKE_PRIVATE, 1);
		} else if (mode == 1) {
			padded[i].count[0]++;
		} else {
			shared.count[i]++;
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[2];
	long i;

	if (argc != 3 || (strcmp(argv[1], "shared") && strcmp(argv[1], "padded") &&
			  strcmp(argv[1], "spin"))) {
		fprintf(stderr, "usage: calib shared|padded|spin N\n");
		return 2;
	}
	mode = !strcmp(argv[1], "shared") ? 0 : !strcmp(argv[1], "padded") ? 1 : 2;
	n = atol(argv[2]);
	pthread_barrier_init(&go, NULL, 3);
	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	MARK_START();
	pthread_barrier_wait(&go);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	MARK_STOP();
	if (mode == 1)
		printf("calib mode=%s n=%ld lines=%p,%p\n", argv[1], n,
		       (void *)&padded[0], (void *)&padded[1]);
	else
		printf("calib mode=%s n=%ld lines=%p\n", argv[1], n, (void *)&shared);
	return 0;
}
