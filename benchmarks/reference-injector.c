/*
 * reference-injector: the floor of the timing benchmark (benchmarks/timing).
 *
 * Plays the frames of an evemu file (the device description and the `E:`
 * lines that `gesturectl export --format evemu` writes) on a uinput device
 * made from the same description, as simply and as exactly as this kernel
 * allows:
 *   - every frame is built before the device exists (one array of
 *     struct input_event per frame, SYN_REPORT included);
 *   - the deadlines are absolute on CLOCK_MONOTONIC:
 *     clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, start + frame time);
 *   - the thread's timer slack is 1 ns (prctl(PR_SET_TIMERSLACK));
 *   - one write() per frame (the kernel stamps every event of a frame with
 *     the same time);
 *   - nothing else: no statistics while playing, and no rule for being
 *     late: a frame whose deadline has passed is written at once, so
 *     after a stall the frames it was late for go out back to back (a
 *     catch-up no real device makes: see benchmarks/recording-loss).
 * It is our benchmark's tool, not product code: libevdev makes the device
 * (libevdev_uinput_create_from_device), everything after is plain syscalls.
 *
 * Usage: reference-injector [--lead-in MS] [--linger MS] [--repeat N]
 *                           [--realtime PRIO] [--wait-for-line] FILE.evemu
 *   --lead-in MS    start playing MS after the device was created (default
 *                   1000): the observers open the node meanwhile
 *   --linger MS     keep the device MS after the last frame (default 1000)
 *   --repeat N      play the frames N times back to back (the gap between
 *                   plays is the gap between the last frame and the first)
 *   --realtime PRIO SCHED_FIFO at PRIO (needs CAP_SYS_NICE or RLIMIT_RTPRIO)
 *   --wait-for-line wait for a line on standard input after the device is
 *                   made (the benchmark sends one once its observers have
 *                   the node open); the lead-in counts from then
 * Prints (stdout, one line each, key=value): node= once the device exists,
 * start_us= (CLOCK_MONOTONIC µs the first frame is due), then, after the
 * play, frames=, late_max_us= and late_p99_us= (user space: how late each
 * write() began against its deadline).
 *
 * Built by benchmarks/timing with `cc -O2 $(pkg-config --cflags --libs libevdev)`.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
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

struct frame {
	int64_t time_us;          /* from the file's first frame */
	size_t count;             /* events, SYN_REPORT included */
	struct input_event *events;
};

static void die(const char *what)
{
	fprintf(stderr, "reference-injector: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void fail(const char *message, const char *detail)
{
	fprintf(stderr, "reference-injector: %s%s%s\n", message, detail ? ": " : "", detail ? detail : "");
	exit(1);
}

static int64_t now_us(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000;
}

static void sleep_until_us(int64_t deadline)
{
	struct timespec at = { .tv_sec = deadline / 1000000, .tv_nsec = (deadline % 1000000) * 1000 };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL) == EINTR)
		;
}

static int compare_int64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Reads the description into `device` and the frames into `frames`. */
static size_t read_evemu(FILE *file, struct libevdev *device, struct frame **frames_out)
{
	char line[4096];
	unsigned char masks[EV_MAX + 1][KEY_MAX / 8 + 1];
	size_t mask_length[EV_MAX + 1] = { 0 };
	struct input_absinfo abs[ABS_MAX + 1];
	int has_abs[ABS_MAX + 1] = { 0 };
	unsigned char properties[INPUT_PROP_MAX / 8 + 1] = { 0 };
	size_t property_length = 0;
	size_t capacity = 1024, count = 0, event_capacity = 0, event_count = 0;
	struct frame *frames = calloc(capacity, sizeof *frames);
	struct input_event *pending = NULL;
	int64_t first_time = -1;

	memset(masks, 0, sizeof masks);
	if (!frames)
		die("calloc");
	while (fgets(line, sizeof line, file)) {
		if (strncmp(line, "N: ", 3) == 0) {
			line[strcspn(line, "\n")] = 0;
			libevdev_set_name(device, line + 3);
		} else if (strncmp(line, "I: ", 3) == 0) {
			unsigned bus, vendor, product, version;
			if (sscanf(line + 3, "%x %x %x %x", &bus, &vendor, &product, &version) == 4) {
				libevdev_set_id_bustype(device, bus);
				libevdev_set_id_vendor(device, vendor);
				libevdev_set_id_product(device, product);
				libevdev_set_id_version(device, version);
			}
		} else if (strncmp(line, "P: ", 3) == 0) {
			char *cursor = line + 3, *end;
			unsigned long byte;
			while ((byte = strtoul(cursor, &end, 16)), end != cursor) {
				if (property_length < sizeof properties)
					properties[property_length++] = (unsigned char)byte;
				cursor = end;
			}
		} else if (strncmp(line, "B: ", 3) == 0) {
			char *cursor, *end;
			unsigned long type = strtoul(line + 3, &cursor, 16), byte;
			if (type > EV_MAX)
				continue;
			while ((byte = strtoul(cursor, &end, 16)), end != cursor) {
				if (mask_length[type] < sizeof masks[type])
					masks[type][mask_length[type]++] = (unsigned char)byte;
				cursor = end;
			}
		} else if (strncmp(line, "A: ", 3) == 0) {
			unsigned code;
			int minimum, maximum, fuzz, flat, resolution = 0;
			if (sscanf(line + 3, "%x %d %d %d %d %d", &code, &minimum, &maximum, &fuzz, &flat, &resolution) >= 5
			    && code <= ABS_MAX) {
				abs[code] = (struct input_absinfo){ .minimum = minimum, .maximum = maximum, .fuzz = fuzz,
					.flat = flat, .resolution = resolution };
				has_abs[code] = 1;
			}
		} else if (strncmp(line, "E: ", 3) == 0) {
			long seconds, micros;
			unsigned type, code;
			int value;
			if (sscanf(line + 3, "%ld.%ld %x %x %d", &seconds, &micros, &type, &code, &value) != 5)
				fail("not an event line", line);
			if (event_count == event_capacity) {
				event_capacity = event_capacity ? event_capacity * 2 : 64;
				pending = realloc(pending, event_capacity * sizeof *pending);
				if (!pending)
					die("realloc");
			}
			pending[event_count++] = (struct input_event){ .type = type, .code = code, .value = value };
			if (type == EV_SYN && code == SYN_REPORT) {
				int64_t time = (int64_t)seconds * 1000000 + micros;
				if (first_time < 0)
					first_time = time;
				if (count == capacity) {
					capacity *= 2;
					frames = realloc(frames, capacity * sizeof *frames);
					if (!frames)
						die("realloc");
				}
				frames[count].time_us = time - first_time;
				frames[count].count = event_count;
				frames[count].events = malloc(event_count * sizeof *pending);
				if (!frames[count].events)
					die("malloc");
				memcpy(frames[count].events, pending, event_count * sizeof *pending);
				count++;
				event_count = 0;
			}
		}
	}
	free(pending);
	for (unsigned type = 1; type <= EV_MAX; type++) {
		if (type == EV_REP || !(type / 8 < mask_length[0] && (masks[0][type / 8] >> (type % 8)) & 1))
			continue;
		libevdev_enable_event_type(device, type);
		for (unsigned code = 0; code < mask_length[type] * 8; code++) {
			if (!((masks[type][code / 8] >> (code % 8)) & 1))
				continue;
			if (type == EV_ABS) {
				if (code > ABS_MAX || !has_abs[code])
					fail("an axis without an A: line", NULL);
				libevdev_enable_event_code(device, type, code, &abs[code]);
			} else {
				libevdev_enable_event_code(device, type, code, NULL);
			}
		}
	}
	for (unsigned property = 0; property < property_length * 8; property++)
		if ((properties[property / 8] >> (property % 8)) & 1)
			libevdev_enable_property(device, property);
	*frames_out = frames;
	return count;
}

int main(int argc, char **argv)
{
	long lead_in_ms = 1000, linger_ms = 1000, repeat = 1, realtime = 0, wait_for_line = 0;
	const char *path = NULL;
	for (int i = 1; i < argc; i++) {
		if (i + 1 < argc && strcmp(argv[i], "--lead-in") == 0)
			lead_in_ms = strtol(argv[++i], NULL, 10);
		else if (i + 1 < argc && strcmp(argv[i], "--linger") == 0)
			linger_ms = strtol(argv[++i], NULL, 10);
		else if (i + 1 < argc && strcmp(argv[i], "--repeat") == 0)
			repeat = strtol(argv[++i], NULL, 10);
		else if (i + 1 < argc && strcmp(argv[i], "--realtime") == 0)
			realtime = strtol(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--wait-for-line") == 0)
			wait_for_line = 1;
		else if (argv[i][0] != '-' && !path)
			path = argv[i];
		else
			fail("usage: reference-injector [--lead-in MS] [--linger MS] [--repeat N] [--realtime PRIO] [--wait-for-line] FILE.evemu", NULL);
	}
	if (!path || repeat < 1)
		fail("usage: reference-injector [--lead-in MS] [--linger MS] [--repeat N] [--realtime PRIO] [--wait-for-line] FILE.evemu", NULL);

	FILE *file = fopen(path, "r");
	if (!file)
		die(path);
	struct libevdev *device = libevdev_new();
	struct frame *frames;
	size_t count = read_evemu(file, device, &frames);
	fclose(file);
	if (count == 0)
		fail("no frames in", path);
	int64_t period = frames[count - 1].time_us + (count > 1 ? frames[1].time_us - frames[0].time_us : 0);
	size_t total = count * (size_t)repeat;
	int64_t *lateness = calloc(total, sizeof *lateness);
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
		if (!fgets(answer, sizeof answer, stdin))
			fail("standard input ended before the line to start", NULL);
	}
	int64_t start = now_us() + lead_in_ms * 1000;
	printf("start_us=%lld\n", (long long)start);
	fflush(stdout);

	for (long play = 0; play < repeat; play++) {
		for (size_t i = 0; i < count; i++) {
			int64_t due = start + play * period + frames[i].time_us;
			sleep_until_us(due);
			lateness[play * count + i] = now_us() - due;
			ssize_t size = (ssize_t)(frames[i].count * sizeof(struct input_event));
			if (write(descriptor, frames[i].events, size) != size)
				die("write");
		}
	}
	int64_t last = now_us();
	qsort(lateness, total, sizeof *lateness, compare_int64);
	size_t rank = (size_t)((double)total * 0.99 + 0.999999);
	printf("frames=%zu\nlate_max_us=%lld\nlate_p99_us=%lld\n", total, (long long)lateness[total - 1],
	       (long long)lateness[(rank ? rank : 1) - 1]);
	fflush(stdout);
	sleep_until_us(last + linger_ms * 1000);
	libevdev_uinput_destroy(uinput);
	libevdev_free(device);
	return 0;
}
