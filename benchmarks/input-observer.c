/*
 * input-observer: the timing benchmark's observer (benchmarks/timing).
 *
 * Reads every event of one evdev node and prints it as an evemu `E:` line
 * (CLOCK_MONOTONIC kernel timestamps, type, code, value as evemu prints
 * them: "E: 12.000345 0003 0035 0120"), like
 * `evemu-record NODE` but cheap enough for ten fingers at 1 kHz under
 * emulation: one read() takes up to 256 events, lines go to a 4 MiB
 * buffer that is written out only when the device has been quiet for
 * 50 ms, at the end, or when the buffer is full. evemu-record formats and
 * writes every event as it comes (libevdev, one fprintf each) and, under
 * TCG, fell behind a 1 kHz ten-finger stream until the kernel dropped its
 * events (SYN_DROPPED) — a loss of the observer's, not of the player's.
 *
 * It also runs at SCHED_FIFO priority 45 with its memory locked when it
 * may (the guest runs as root): above `play --realtime` (40), so that it
 * is not the reader that falls behind. Without that, a stall of ~23 ms
 * (the kernel's buffer for a reader of ten fingers at 1 kHz) cost it
 * events (SYN_DROPPED) once a player kept pace, and the frames it then
 * missed are not the player's loss. It says on standard error when it
 * cannot.
 *
 * Usage: input-observer NODE
 * Prints "Waiting for events" (flushed) once the node is open, then the
 * events; ends when the device goes away or on SIGTERM/SIGINT (flushing
 * first). A SYN_DROPPED is printed like any other event (E: … 0000 0003 0).
 *
 * Built by benchmarks/timing with `cc -O2`.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stopping;

static void stop(int signal_number)
{
	(void)signal_number;
	stopping = 1;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: input-observer NODE\n");
		return 2;
	}
	int descriptor = open(argv[1], O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (descriptor < 0) {
		fprintf(stderr, "input-observer: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	int clock = CLOCK_MONOTONIC;
	if (ioctl(descriptor, EVIOCSCLOCKID, &clock) != 0) {
		fprintf(stderr, "input-observer: EVIOCSCLOCKID on %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	/* No SA_RESTART: poll() returns EINTR and the loop ends. */
	struct sigaction action = { .sa_handler = stop };
	sigaction(SIGTERM, &action, NULL);
	sigaction(SIGINT, &action, NULL);
	static char output[4 << 20];
	setvbuf(stdout, output, _IOFBF, sizeof output);
	/* Touched and locked now, not faulted in while events flow. */
	memset(output, 0, sizeof output);
	if (mlockall(MCL_CURRENT | MCL_FUTURE) != 0)
		fprintf(stderr, "input-observer: mlockall: %s; memory not locked\n", strerror(errno));
	struct sched_param priority = { .sched_priority = 45 };
	if (sched_setscheduler(0, SCHED_FIFO, &priority) != 0)
		fprintf(stderr, "input-observer: SCHED_FIFO 45: %s; reading at normal priority\n", strerror(errno));
	printf("# input-observer %s (CLOCK_MONOTONIC)\nWaiting for events\n", argv[1]);
	fflush(stdout);

	struct input_event events[256];
	struct pollfd wanted = { .fd = descriptor, .events = POLLIN };
	while (!stopping) {
		int ready = poll(&wanted, 1, 50);
		if (ready < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (ready == 0) {
			fflush(stdout);
			continue;
		}
		ssize_t size = read(descriptor, events, sizeof events);
		if (size < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			break; /* ENODEV: the device is gone */
		}
		if (size == 0)
			break;
		for (size_t i = 0; i < (size_t)size / sizeof *events; i++)
			printf("E: %ld.%06ld %04x %04x %04d\n", (long)events[i].input_event_sec,
			       (long)events[i].input_event_usec, events[i].type, events[i].code, events[i].value);
	}
	fflush(stdout);
	return 0;
}
