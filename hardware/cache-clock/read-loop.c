/*
 * read-loop PATH N: pread() PATH N times unmarked (warm-up), then N times
 * between the cache-clock markers;
 * the example of marker placement for a benchmark (one window per run,
 * counts per operation = window counts / N).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define MARK_START() asm volatile(".byte 0x66,0x87,0xdb" ::: "memory")
#define MARK_STOP()  asm volatile(".byte 0x66,0x87,0xc9" ::: "memory")

int main(int argc, char **argv)
{
	static char buf[65536];
	long n, i;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: read-loop PATH N\n");
		return 2;
	}
	n = atol(argv[2]);
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || pread(fd, buf, sizeof(buf), 0) < 0) {
		perror(argv[1]);
		return 1;
	}
	for (i = 0; i < n; i++)
		if (pread(fd, buf, sizeof(buf), 0) < 0)
			return 1;
	MARK_START();
	for (i = 0; i < n; i++)
		if (pread(fd, buf, sizeof(buf), 0) < 0)
			return 1;
	MARK_STOP();
	printf("read-loop path=%s n=%ld\n", argv[1], n);
	return 0;
}
