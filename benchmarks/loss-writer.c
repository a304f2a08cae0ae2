/*
 * loss-writer: the writer of the recording-loss benchmark
 * (benchmarks/recording-loss).
 *
 * Makes a ten-finger touchscreen like gesturectl's own (axes 0–21600 ×
 * 0–13500, slots 0–9, BTN_TOUCH, INPUT_PROP_DIRECT) and writes FINGERS
 * fingers at RATE frames a second for SECONDS, every finger moving in
 * every frame, one write() a frame, on absolute deadlines
 * (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME), 1 ns timer slack), as
 * benchmarks/reference-injector.c does. The frames are made as they are
 * written (the positions are a function of the frame's number).
 *
 * What it does when it wakes up late is the point of the benchmark:
 *   --catch-up burst  write every frame whose deadline has passed, back to
 *                     back (what an absolute-deadline writer does, the
 *                     reference injector and the outside harness of
 *                     issue 24 included): after a stall of N ms the
 *                     reader's buffer gets N frames at once;
 *   --catch-up pace   never write two frames less than a period apart:
 *                     a late frame moves the deadlines after it (the
 *                     play drifts later); every frame is written, none
 *                     in a burst, so the reader gets the same frames as
 *                     with burst, only never bunched;
 *   --catch-up skip   write only the newest frame that is due, and skip
 *                     the older ones (never the touch-down or the lift):
 *                     at most one frame a deadline, as a real digitizer's
 *                     own clock makes them. A real device is not stalled
 *                     by the host's scheduler (its interrupt handler runs
 *                     before any reader); a uinput writer is, and what it
 *                     then writes late is its own stall, not the device's.
 *
 * Usage: loss-writer [--fingers N] [--rate HZ] [--seconds S] [--axes xy|y]
 *                    [--catch-up burst|pace|skip] [--lead-in MS] [--linger MS]
 *                    [--realtime PRIO] [--wait-for-line]
 *   --axes xy   every finger moves in x and y: 10 × (slot + x + y) +
 *               ABS_X + ABS_Y + SYN_REPORT = 33 events (792 bytes) a frame
 *               of ten fingers, as in the outside harness (default);
 *   --axes y    in y only, as benchmarks/timing's `ten-1k`: 22 events.
 *   --wait-for-line  wait for a line on standard input after the device
 *               is made; the lead-in counts from then.
 * Prints (stdout, key=value lines): node= once the device exists; after
 * the play: frames_due= (deadlines), frames_written=, position_frames=
 * (frames written that carry positions: every one but the lift),
 * frames_skipped=, late_frames= (written more than one period after their
 * deadline), catch_up_max= (the longest run of frames each written more
 * than one period late: a catch-up), burst_max= (the most frames written
 * within one period),
 * late_max_us=, late_p99_us=, writer_seconds=.
 *
 * Built by benchmarks/recording-loss with `cc -O2 $(pkg-config --cflags --libs libevdev)`.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <libevdev/libevdev-uinput.h>
#include <libevdev/libevdev.h>
#include <linux/input.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define MAX_FINGERS 10
#define X_MAX 21600
#define Y_MAX 13500
/* The fingers go back and forth over this many units, one unit a frame. */
#define TRAVEL 10000

static void die(const char *what)
{
	fprintf(stderr, "loss-writer: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void usage(void)
{
	fprintf(stderr, "usage: loss-writer [--fingers N] [--rate HZ] [--seconds S] [--axes xy|y] "
	                "[--catch-up burst|pace|skip] [--lead-in MS] [--linger MS] [--realtime PRIO] [--wait-for-line]\n");
	exit(2);
}

static int64_t now_ns(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

static void sleep_until_ns(int64_t deadline)
{
	struct timespec at = { .tv_sec = deadline / 1000000000, .tv_nsec = deadline % 1000000000 };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL) == EINTR)
		;
}

static int compare_int64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static void put(struct input_event *events, size_t *count, unsigned type, unsigned code, int value)
{
	events[(*count)++] = (struct input_event){ .type = (unsigned short)type, .code = (unsigned short)code, .value = value };
}

/* Frame `index` of `last` (the lift): touch-down at 0, moves, lift at `last`. */
static size_t make_frame(struct input_event *events, long index, long last, int fingers, int move_x)
{
	size_t count = 0;
	long phase = index % (2 * TRAVEL);
	int offset = (int)(phase < TRAVEL ? phase : 2 * TRAVEL - phase);
	for (int finger = 0; finger < fingers; finger++) {
		put(events, &count, EV_ABS, ABS_MT_SLOT, finger);
		if (index == last) {
			put(events, &count, EV_ABS, ABS_MT_TRACKING_ID, -1);
			continue;
		}
		if (index == 0)
			put(events, &count, EV_ABS, ABS_MT_TRACKING_ID, finger + 1);
		if (move_x || index == 0)
			put(events, &count, EV_ABS, ABS_MT_POSITION_X, 500 + finger * 1100 + (move_x ? offset : 0));
		put(events, &count, EV_ABS, ABS_MT_POSITION_Y, 1000 + offset);
	}
	if (index == 0)
		put(events, &count, EV_KEY, BTN_TOUCH, 1);
	if (index == last) {
		put(events, &count, EV_KEY, BTN_TOUCH, 0);
	} else {
		/* Pointer emulation (the first finger), as a real driver sends it. */
		if (move_x || index == 0)
			put(events, &count, EV_ABS, ABS_X, 500 + (move_x ? offset : 0));
		put(events, &count, EV_ABS, ABS_Y, 1000 + offset);
	}
	put(events, &count, EV_SYN, SYN_REPORT, 0);
	return count;
}

int main(int argc, char **argv)
{
	long fingers = 10, rate = 1000, seconds = 12, lead_in_ms = 1000, linger_ms = 1000, realtime = 0;
	int move_x = 1, skip = 0, pace = 0, wait_for_line = 0;
	for (int i = 1; i < argc; i++) {
		const char *option = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(option, "--wait-for-line") == 0) {
			wait_for_line = 1;
			continue;
		}
		if (!value)
			usage();
		i++;
		if (strcmp(option, "--fingers") == 0)
			fingers = strtol(value, NULL, 10);
		else if (strcmp(option, "--rate") == 0)
			rate = strtol(value, NULL, 10);
		else if (strcmp(option, "--seconds") == 0)
			seconds = strtol(value, NULL, 10);
		else if (strcmp(option, "--lead-in") == 0)
			lead_in_ms = strtol(value, NULL, 10);
		else if (strcmp(option, "--linger") == 0)
			linger_ms = strtol(value, NULL, 10);
		else if (strcmp(option, "--realtime") == 0)
			realtime = strtol(value, NULL, 10);
		else if (strcmp(option, "--axes") == 0 && (strcmp(value, "xy") == 0 || strcmp(value, "y") == 0))
			move_x = strcmp(value, "xy") == 0;
		else if (strcmp(option, "--catch-up") == 0 && strcmp(value, "burst") == 0)
			skip = pace = 0;
		else if (strcmp(option, "--catch-up") == 0 && strcmp(value, "pace") == 0)
			pace = 1;
		else if (strcmp(option, "--catch-up") == 0 && strcmp(value, "skip") == 0)
			skip = 1;
		else
			usage();
	}
	if (fingers < 1 || fingers > MAX_FINGERS || rate < 1 || rate > 10000 || seconds < 1)
		usage();

	struct libevdev *device = libevdev_new();
	libevdev_set_name(device, "loss-writer touchscreen");
	libevdev_set_id_bustype(device, BUS_VIRTUAL);
	libevdev_enable_property(device, INPUT_PROP_DIRECT);
	libevdev_enable_event_code(device, EV_KEY, BTN_TOUCH, NULL);
	struct input_absinfo x = { .maximum = X_MAX, .resolution = 100 }, y = { .maximum = Y_MAX, .resolution = 100 };
	struct input_absinfo slot = { .maximum = MAX_FINGERS - 1 }, tracking = { .maximum = 65535 };
	libevdev_enable_event_code(device, EV_ABS, ABS_X, &x);
	libevdev_enable_event_code(device, EV_ABS, ABS_Y, &y);
	libevdev_enable_event_code(device, EV_ABS, ABS_MT_SLOT, &slot);
	libevdev_enable_event_code(device, EV_ABS, ABS_MT_POSITION_X, &x);
	libevdev_enable_event_code(device, EV_ABS, ABS_MT_POSITION_Y, &y);
	libevdev_enable_event_code(device, EV_ABS, ABS_MT_TRACKING_ID, &tracking);

	long last = seconds * rate + 1; /* frames 0…last-1 carry positions; `last` lifts */
	int64_t period = 1000000000 / rate;
	int64_t *lateness = calloc((size_t)last + 1, sizeof *lateness);
	if (!lateness)
		die("calloc");
	if (prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0) != 0)
		die("prctl(PR_SET_TIMERSLACK)");
	if (realtime > 0) {
		struct sched_param parameter = { .sched_priority = (int)realtime };
		if (sched_setscheduler(0, SCHED_FIFO, &parameter) != 0)
			die("sched_setscheduler(SCHED_FIFO)");
	}
	struct libevdev_uinput *uinput;
	int error = libevdev_uinput_create_from_device(device, LIBEVDEV_UINPUT_OPEN_MANAGED, &uinput);
	if (error != 0) {
		errno = -error;
		die("libevdev_uinput_create_from_device");
	}
	int descriptor = libevdev_uinput_get_fd(uinput);
	const char *node = libevdev_uinput_get_devnode(uinput);
	printf("node=%s\n", node ? node : "");
	fflush(stdout);
	if (wait_for_line) {
		char answer[64];
		if (!fgets(answer, sizeof answer, stdin)) {
			fprintf(stderr, "loss-writer: standard input ended before the line to start\n");
			return 1;
		}
	}

	struct input_event events[4 * MAX_FINGERS + 8];
	long written = 0, skipped = 0, late = 0, burst = 0, burst_max = 0, run = 0, run_max = 0;
	int64_t start = now_ns() + lead_in_ms * 1000000, burst_start = 0, previous = 0;
	for (long index = 0; index <= last; index++) {
		int64_t due = start + index * period;
		/* A pacing writer's deadline is a period after its last write. */
		if (pace && index > 0 && due < previous + period)
			due = previous + period;
		sleep_until_ns(due);
		int64_t now = now_ns();
		/* A skipping writer writes only the newest frame due. */
		if (skip && index > 0 && index + 1 < last && now >= due + period) {
			skipped++;
			continue;
		}
		size_t count = make_frame(events, index, last, (int)fingers, move_x);
		ssize_t size = (ssize_t)(count * sizeof events[0]);
		now = now_ns();
		if (write(descriptor, events, (size_t)size) != size)
			die("write");
		previous = now;
		lateness[written++] = now - due;
		if (now - due > period) {
			late++;
			if (++run > run_max)
				run_max = run;
		} else {
			run = 0;
		}
		if (burst > 0 && now - burst_start < period) {
			burst++;
		} else {
			burst = 1;
			burst_start = now;
		}
		if (burst > burst_max)
			burst_max = burst;
	}
	int64_t ended = now_ns();
	qsort(lateness, (size_t)written, sizeof *lateness, compare_int64);
	size_t rank = (size_t)((double)written * 0.99 + 0.999999);
	printf("frames_due=%ld\nframes_written=%ld\nposition_frames=%ld\nframes_skipped=%ld\nlate_frames=%ld\n"
	       "catch_up_max=%ld\nburst_max=%ld\nlate_max_us=%lld\nlate_p99_us=%lld\nwriter_seconds=%.3f\n",
	       last + 1, written, written - 1, skipped, late, run_max, burst_max, (long long)(lateness[written - 1] / 1000),
	       (long long)(lateness[(rank ? rank : 1) - 1] / 1000), (double)(ended - start) / 1e9);
	fflush(stdout);
	sleep_until_ns(ended + linger_ms * 1000000);
	libevdev_uinput_destroy(uinput);
	libevdev_free(device);
	free(lateness);
	return 0;
}
