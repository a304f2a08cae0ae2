/*
 * pass-through: the C floor of benchmarks/fingertips.
 *
 * Takes the source for itself (EVIOCGRAB), makes a uinput copy of it
 * (libevdev_uinput_create_from_device: the same name, ids and axes), and
 * writes every frame it reads to the copy as it came: the events since the
 * last SYN_REPORT, the SYN_REPORT included, in one write(). Nothing else:
 * no state, no allocation after start, normal priority (as the tools it is
 * the floor of). What a reader and a writer on this kernel cost at least.
 *
 * Usage: pass-through NODE
 * Prints "node=/dev/input/eventN" (the copy) and then "ready" once the
 * source is grabbed; ends on SIGTERM/SIGINT or when the source goes away.
 * Built by benchmarks/fingertips with
 * `cc -O2 $(pkg-config --cflags --libs libevdev)`.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libevdev/libevdev-uinput.h>
#include <libevdev/libevdev.h>
#include <linux/input.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
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
		fprintf(stderr, "usage: pass-through NODE\n");
		return 2;
	}
	int source = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (source < 0) {
		fprintf(stderr, "pass-through: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	struct libevdev *device = NULL;
	int error = libevdev_new_from_fd(source, &device);
	if (error < 0) {
		fprintf(stderr, "pass-through: libevdev on %s: %s\n", argv[1], strerror(-error));
		return 1;
	}
	struct libevdev_uinput *copy = NULL;
	error = libevdev_uinput_create_from_device(device, LIBEVDEV_UINPUT_OPEN_MANAGED, &copy);
	if (error < 0) {
		fprintf(stderr, "pass-through: uinput: %s\n", strerror(-error));
		return 1;
	}
	if (ioctl(source, EVIOCGRAB, 1) != 0) {
		fprintf(stderr, "pass-through: EVIOCGRAB on %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	int output = libevdev_uinput_get_fd(copy);
	struct sigaction action = { .sa_handler = stop };
	sigaction(SIGTERM, &action, NULL);
	sigaction(SIGINT, &action, NULL);
	printf("node=%s\nready\n", libevdev_uinput_get_devnode(copy));
	fflush(stdout);

	struct input_event events[256], frame[256];
	size_t pending = 0;
	while (!stopping) {
		ssize_t size = read(source, events, sizeof events);
		if (size < 0) {
			if (errno == EINTR)
				continue;
			break; /* ENODEV: the source is gone */
		}
		if (size == 0)
			break;
		for (size_t i = 0; i < (size_t)size / sizeof *events; i++) {
			if (pending < sizeof frame / sizeof *frame)
				frame[pending++] = events[i];
			if (events[i].type == EV_SYN && events[i].code == SYN_REPORT) {
				if (write(output, frame, pending * sizeof *frame) < 0 && errno != EINTR)
					stopping = 1;
				pending = 0;
			}
		}
	}
	ioctl(source, EVIOCGRAB, 0);
	libevdev_uinput_destroy(copy);
	libevdev_free(device);
	return 0;
}
