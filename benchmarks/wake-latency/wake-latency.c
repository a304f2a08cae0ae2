/*
 * How late the timer wakes a thread, by how long it slept (issue 9: why the
 * first frame after a lead-in came later against its cadence than the
 * frames after it). Run it in the VM (it needs no device):
 *
 *     cc -O2 -o /tmp/wake-latency benchmarks/wake-latency/wake-latency.c
 *     scripts/vm-run -- /tmp/wake-latency [ROUNDS]
 *
 * Each round measures, with a timer slack of 1 ns as the players have, the
 * overshoot (wake − deadline, CLOCK_MONOTONIC) of
 *   - a 1 s clock_nanosleep (the C reference's first frame after its lead-in)
 *   - 60 clock_nanosleeps at 120 Hz, mean (a play's steady frames)
 *   - a 1 s timerfd + poll (gesturectl's first frame before SystemClock
 *     slept the last stretch of long waits)
 *   - a 1 s wait as SystemClock now does it: timerfd + poll until 2 ms
 *     before the deadline, then one clock_nanosleep
 *   - 60 waits at 120 Hz done so, mean
 * and prints them in µs, one round a line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

static int64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void sleep_until(int64_t deadline)
{
	struct timespec t = { deadline / 1000000000, deadline % 1000000000 };
	int result;
	while ((result = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL)) == EINTR)
		;
	if (result != 0) {
		fprintf(stderr, "wake-latency: clock_nanosleep: %s\n", strerror(result));
		exit(1);
	}
}

static void timer_until(int timer, int64_t deadline)
{
	struct itimerspec at = { { 0, 0 }, { deadline / 1000000000, deadline % 1000000000 } };
	struct pollfd poll_fd = { timer, POLLIN, 0 };
	uint64_t expiries;
	if (timerfd_settime(timer, TFD_TIMER_ABSTIME, &at, NULL) != 0) {
		perror("wake-latency: timerfd_settime");
		exit(1);
	}
	while (poll(&poll_fd, 1, -1) < 0)
		;
	if (read(timer, &expiries, sizeof expiries) < 0)
		perror("wake-latency: read timerfd");
}

/* How a wait is done: as the C reference does, on the timer as gesturectl
 * did, or as SystemClock does now (the timer until 2 ms before, then a sleep). */
enum way { NANOSLEEP, TIMER, TIMER_THEN_SLEEP };

/* The mean overshoot, in µs, of `count` waits one `period` (ns) apart. */
static long long overshoot_us(int timer, enum way way, int64_t period, int count)
{
	int64_t start = now_ns(), sum = 0;
	for (int wait = 1; wait <= count; wait++) {
		int64_t deadline = start + wait * period;
		if (way == TIMER)
			timer_until(timer, deadline);
		else if (way == TIMER_THEN_SLEEP)
			timer_until(timer, deadline - 2000000);
		if (way != TIMER)
			sleep_until(deadline);
		sum += now_ns() - deadline;
	}
	return (long long)(sum / count / 1000);
}

int main(int argc, char **argv)
{
	char *end = NULL;
	long rounds = argc > 1 ? strtol(argv[1], &end, 10) : 5;
	if (argc > 2 || (end && (*end != '\0' || end == argv[1])) || rounds < 1 || rounds > 1000) {
		fprintf(stderr, "usage: wake-latency [ROUNDS]   (1…1000, default 5)\n");
		return 2;
	}
	int timer = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (timer < 0 || prctl(PR_SET_TIMERSLACK, 1) != 0) {
		perror("wake-latency: setup");
		return 1;
	}
	const int64_t second = 1000000000, frame = 8333333; /* 120 Hz */
	printf("overshoot µs: 1 s nanosleep | 120 Hz nanosleeps, mean | 1 s timerfd | 1 s timerfd to -2 ms, then nanosleep"
	       " | 120 Hz so, mean\n");
	for (long round = 1; round <= rounds; round++) {
		long long long_sleep = overshoot_us(timer, NANOSLEEP, second, 1);
		long long frames = overshoot_us(timer, NANOSLEEP, frame, 60);
		long long long_timer = overshoot_us(timer, TIMER, second, 1);
		long long two_stage = overshoot_us(timer, TIMER_THEN_SLEEP, second, 1);
		long long two_stage_frames = overshoot_us(timer, TIMER_THEN_SLEEP, frame, 60);
		printf("round %ld: %lld | %lld | %lld | %lld | %lld\n", round, long_sleep, frames, long_timer, two_stage,
		       two_stage_frames);
		if (fflush(stdout) != 0) {
			perror("wake-latency: standard output");
			return 1;
		}
	}
	return 0;
}
