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
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) != 0)
		;
}

static void timer_until(int timer, int64_t deadline)
{
	struct itimerspec at = { { 0, 0 }, { deadline / 1000000000, deadline % 1000000000 } };
	struct pollfd poll_fd = { timer, POLLIN, 0 };
	uint64_t expiries;
	timerfd_settime(timer, TFD_TIMER_ABSTIME, &at, NULL);
	while (poll(&poll_fd, 1, -1) < 0)
		;
	if (read(timer, &expiries, sizeof expiries) < 0)
		perror("read timerfd");
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 5;
	int timer = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (timer < 0 || prctl(PR_SET_TIMERSLACK, 1) != 0) {
		perror("wake-latency: setup");
		return 1;
	}
	printf("overshoot µs: 1 s nanosleep | 120 Hz nanosleeps, mean | 1 s timerfd | 1 s timerfd to -2 ms, then nanosleep"
	       " | 120 Hz so, mean\n");
	for (int round = 0; round < rounds; round++) {
		int64_t deadline = now_ns() + 1000000000;
		sleep_until(deadline);
		int64_t long_sleep = now_ns() - deadline;

		int64_t start = now_ns(), sum = 0;
		for (int frame = 1; frame <= 60; frame++) {
			deadline = start + frame * 8333333LL;
			sleep_until(deadline);
			sum += now_ns() - deadline;
		}

		deadline = now_ns() + 1000000000;
		timer_until(timer, deadline);
		int64_t long_timer = now_ns() - deadline;

		deadline = now_ns() + 1000000000;
		timer_until(timer, deadline - 2000000);
		sleep_until(deadline);
		int64_t two_stage = now_ns() - deadline;

		start = now_ns();
		int64_t two_stage_sum = 0;
		for (int frame = 1; frame <= 60; frame++) {
			deadline = start + frame * 8333333LL;
			timer_until(timer, deadline - 2000000);
			sleep_until(deadline);
			two_stage_sum += now_ns() - deadline;
		}

		printf("round %d: %lld | %lld | %lld | %lld | %lld\n", round + 1, (long long)long_sleep / 1000,
		       (long long)sum / 60 / 1000, (long long)long_timer / 1000, (long long)two_stage / 1000,
		       (long long)two_stage_sum / 60 / 1000);
		fflush(stdout);
	}
	return 0;
}
