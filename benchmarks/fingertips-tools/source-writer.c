/*
 * source-writer: the synthetic source of benchmarks/fingertips.
 *
 * Makes a uinput device, either a one-contact touchscreen (protocol B,
 * 4000 x 2500 units at 20 units/mm = 200 x 125 mm, INPUT_PROP_DIRECT) or a
 * mouse (REL_X, REL_Y, BTN_LEFT, BTN_RIGHT), prints "node=/dev/input/eventN"
 * once it exists, waits for a line on standard input (the benchmark sends
 * one once the tool under test has grabbed the node and the observer reads
 * its output), then writes FRAMES frames at RATE Hz on absolute
 * CLOCK_MONOTONIC deadlines, one write() per frame, and prints for every
 * frame "FRAME BEFORE_NS AFTER_NS": CLOCK_MONOTONIC just before and just
 * after its write(). The kernel stamps the frame's events inside that write
 * (uinput → input core → evdev), so BEFORE is the source event's time to
 * within the write's own duration (both are printed).
 *
 * Every frame changes something, so that the input core passes every frame
 * (it drops a frame whose values are all unchanged), and says which frame
 * it is, so that the benchmark can tell the frames a tool lost:
 *   touch  frame 0: a contact down at x = 400; frame i < N−1: the contact at
 *          x = 400 + (4·i mod 3200), y = 1250; frame N−1: the contact lifts.
 *          x gives i modulo 800 (passed through as it is, or the centre of
 *          the fingertips on a copy of the screen);
 *   mouse  BTN_LEFT down in frame 0 and up in frame N−1; every frame REL_X
 *          +1 (the fingertips' centre: i itself) and REL_WHEEL (i mod 1000)
 *          + 1 (i modulo 1000, passed through as it is).
 * It runs at SCHED_FIFO 50 with its memory locked when it may, so that it is
 * not preempted between reading the clock and writing.
 *
 * Usage: source-writer touch|mouse RATE FRAMES
 * Built by benchmarks/fingertips with `cc -O2`.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/uinput.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "source-writer: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void set(int descriptor, unsigned long request, int value)
{
	if (ioctl(descriptor, request, value) != 0)
		die("ioctl");
}

static void axis(int descriptor, int code, int maximum, int resolution)
{
	struct uinput_abs_setup setup = { .code = code };
	setup.absinfo.maximum = maximum;
	setup.absinfo.resolution = resolution;
	set(descriptor, UI_SET_ABSBIT, code);
	if (ioctl(descriptor, UI_ABS_SETUP, &setup) != 0)
		die("UI_ABS_SETUP");
}

static int64_t now_ns(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

static size_t add(struct input_event *events, size_t count, int type, int code, int value)
{
	events[count] = (struct input_event){ .type = type, .code = code, .value = value };
	return count + 1;
}

int main(int argc, char **argv)
{
	if (argc != 4 || (strcmp(argv[1], "touch") != 0 && strcmp(argv[1], "mouse") != 0)) {
		fprintf(stderr, "usage: source-writer touch|mouse RATE FRAMES\n");
		return 2;
	}
	int touch = strcmp(argv[1], "touch") == 0;
	long rate = strtol(argv[2], NULL, 10), frames = strtol(argv[3], NULL, 10);
	if (rate < 1 || rate > 10000 || frames < 3 || frames > 1000000) {
		fprintf(stderr, "source-writer: RATE 1…10000 and FRAMES 3…1000000\n");
		return 2;
	}
	int descriptor = open("/dev/uinput", O_WRONLY | O_CLOEXEC);
	if (descriptor < 0)
		die("/dev/uinput");
	struct uinput_setup setup = { .id = { .bustype = BUS_USB, .vendor = 0x1d6b, .version = 1 } };
	if (touch) {
		setup.id.product = 0x7b01;
		snprintf(setup.name, sizeof setup.name, "fingertips-bench touchscreen");
		set(descriptor, UI_SET_PROPBIT, INPUT_PROP_DIRECT);
		set(descriptor, UI_SET_EVBIT, EV_KEY);
		set(descriptor, UI_SET_KEYBIT, BTN_TOUCH);
		set(descriptor, UI_SET_EVBIT, EV_ABS);
		axis(descriptor, ABS_X, 4000, 20);
		axis(descriptor, ABS_Y, 2500, 20);
		axis(descriptor, ABS_MT_SLOT, 9, 0);
		axis(descriptor, ABS_MT_TRACKING_ID, 65535, 0);
		axis(descriptor, ABS_MT_POSITION_X, 4000, 20);
		axis(descriptor, ABS_MT_POSITION_Y, 2500, 20);
	} else {
		setup.id.product = 0x7b02;
		snprintf(setup.name, sizeof setup.name, "fingertips-bench mouse");
		set(descriptor, UI_SET_EVBIT, EV_KEY);
		set(descriptor, UI_SET_KEYBIT, BTN_LEFT);
		set(descriptor, UI_SET_KEYBIT, BTN_RIGHT);
		set(descriptor, UI_SET_EVBIT, EV_REL);
		set(descriptor, UI_SET_RELBIT, REL_X);
		set(descriptor, UI_SET_RELBIT, REL_Y);
		set(descriptor, UI_SET_RELBIT, REL_WHEEL);
	}
	if (ioctl(descriptor, UI_DEV_SETUP, &setup) != 0)
		die("UI_DEV_SETUP");
	if (ioctl(descriptor, UI_DEV_CREATE) != 0)
		die("UI_DEV_CREATE");
	char sysname[64] = "";
	if (ioctl(descriptor, UI_GET_SYSNAME(sizeof sysname), sysname) < 0)
		die("UI_GET_SYSNAME");
	/* The event node: the one eventN folder under the device's sysfs folder. */
	char command[256];
	snprintf(command, sizeof command, "ls /sys/devices/virtual/input/%s | grep -m1 '^event'", sysname);
	FILE *listing = popen(command, "r");
	char event[32] = "";
	if (listing == NULL || fgets(event, sizeof event, listing) == NULL)
		die("the device's event node");
	pclose(listing);
	event[strcspn(event, "\n")] = 0;
	printf("node=/dev/input/%s\n", event);
	fflush(stdout);

	/* Every frame and the result array made before the first write. */
	struct input_event (*batch)[8] = calloc((size_t)frames, sizeof *batch);
	size_t *sizes = calloc((size_t)frames, sizeof *sizes);
	int64_t *before = calloc((size_t)frames, sizeof *before), *after = calloc((size_t)frames, sizeof *after);
	if (batch == NULL || sizes == NULL || before == NULL || after == NULL)
		die("calloc");
	for (long i = 0; i < frames; i++) {
		size_t n = 0;
		if (touch) {
			int x = 400 + (int)((4 * i) % 3200);
			if (i == 0) {
				n = add(batch[i], n, EV_ABS, ABS_MT_SLOT, 0);
				n = add(batch[i], n, EV_ABS, ABS_MT_TRACKING_ID, 1);
				n = add(batch[i], n, EV_ABS, ABS_MT_POSITION_X, x);
				n = add(batch[i], n, EV_ABS, ABS_MT_POSITION_Y, 1250);
				n = add(batch[i], n, EV_KEY, BTN_TOUCH, 1);
				n = add(batch[i], n, EV_ABS, ABS_X, x);
				n = add(batch[i], n, EV_ABS, ABS_Y, 1250);
			} else if (i == frames - 1) {
				n = add(batch[i], n, EV_ABS, ABS_MT_TRACKING_ID, -1);
				n = add(batch[i], n, EV_KEY, BTN_TOUCH, 0);
			} else {
				n = add(batch[i], n, EV_ABS, ABS_MT_POSITION_X, x);
				n = add(batch[i], n, EV_ABS, ABS_X, x);
			}
		} else {
			if (i == 0)
				n = add(batch[i], n, EV_KEY, BTN_LEFT, 1);
			if (i == frames - 1)
				n = add(batch[i], n, EV_KEY, BTN_LEFT, 0);
			n = add(batch[i], n, EV_REL, REL_X, 1);
			n = add(batch[i], n, EV_REL, REL_WHEEL, (int)(i % 1000) + 1);
		}
		sizes[i] = add(batch[i], n, EV_SYN, SYN_REPORT, 0);
	}
	prctl(PR_SET_TIMERSLACK, 1UL);
	if (mlockall(MCL_CURRENT | MCL_FUTURE) != 0)
		fprintf(stderr, "source-writer: mlockall: %s\n", strerror(errno));
	struct sched_param priority = { .sched_priority = 50 };
	if (sched_setscheduler(0, SCHED_FIFO, &priority) != 0)
		fprintf(stderr, "source-writer: SCHED_FIFO 50: %s\n", strerror(errno));

	char line[64];
	if (fgets(line, sizeof line, stdin) == NULL)
		return 1;
	int64_t period = 1000000000 / rate, start = now_ns() + 20000000;
	for (long i = 0; i < frames; i++) {
		int64_t due = start + i * period;
		struct timespec deadline = { .tv_sec = due / 1000000000, .tv_nsec = due % 1000000000 };
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL) == EINTR)
			;
		before[i] = now_ns();
		if (write(descriptor, batch[i], sizes[i] * sizeof batch[i][0]) < 0)
			die("write");
		after[i] = now_ns();
	}
	for (long i = 0; i < frames; i++)
		printf("%ld %lld %lld\n", i, (long long)before[i], (long long)after[i]);
	printf("done\n");
	fflush(stdout);
	/* Kept until told (end of input), so that the tool's reads end cleanly. */
	while (fgets(line, sizeof line, stdin) != NULL)
		;
	ioctl(descriptor, UI_DEV_DESTROY);
	return 0;
}
