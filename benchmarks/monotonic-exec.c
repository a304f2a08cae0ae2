/*
 * monotonic-exec: benchmarks/button-place's clock for a command's start.
 *
 * Usage: monotonic-exec FILE COMMAND [ARGUMENT...]
 * Appends CLOCK_MONOTONIC ("SECONDS.NANOSECONDS\n") to FILE, then execs
 * COMMAND in this process: the time just before the command is started,
 * on the clock of the kernel's input timestamps (EVIOCSCLOCKID
 * CLOCK_MONOTONIC). A shell has no such clock, and a Python to read it
 * starts in about a second under emulation.
 *
 * Built by benchmarks/button-place with `cc -O2`.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: monotonic-exec FILE COMMAND [ARGUMENT...]\n");
		return 2;
	}
	FILE *file = fopen(argv[1], "a");
	if (file == NULL) {
		fprintf(stderr, "monotonic-exec: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	fprintf(file, "%lld.%09ld\n", (long long)now.tv_sec, now.tv_nsec);
	if (fclose(file) != 0) {
		fprintf(stderr, "monotonic-exec: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "monotonic-exec: %s: %s\n", argv[2], strerror(errno));
	return 127;
}
