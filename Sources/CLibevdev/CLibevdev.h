// libevdev and its uinput helpers, plus accessors for the fields of
// struct input_event whose names depend on the architecture (64-bit time on
// 32-bit systems renames `time.tv_sec` to `__sec`); the kernel header's
// input_event_sec/input_event_usec macros hide that, but Swift cannot import
// macros that expand to member accesses.
#ifndef GESTURECTL_CLIBEVDEV_H
#define GESTURECTL_CLIBEVDEV_H

#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#include <linux/input.h>
#include <sys/ioctl.h>

static inline long long gesturectl_input_event_seconds(const struct input_event *event) {
    return (long long)event->input_event_sec;
}

static inline long long gesturectl_input_event_microseconds(const struct input_event *event) {
    return (long long)event->input_event_usec;
}

static inline void gesturectl_input_event_set_time(struct input_event *event, long long seconds,
                                                   long long microseconds) {
    event->input_event_sec = seconds;
    event->input_event_usec = microseconds;
}

// The state ioctls a reader needs after SYN_DROPPED (EVIOCGMTSLOTS,
// EVIOCGKEY, EVIOCGABS): their request numbers are function-like macros
// with sizeof, which Swift cannot import. Each returns ioctl's result
// (-1 and errno on failure).

/// EVIOCGMTSLOTS: `buffer[0]` is the ABS_MT_* code; the kernel fills
/// `buffer[1...count]` with that code's value in each slot.
static inline int gesturectl_evdev_get_mt_slots(int fd, int *buffer, unsigned int count) {
    return ioctl(fd, EVIOCGMTSLOTS((count + 1) * sizeof(int)), buffer);
}

/// EVIOCGKEY: the bitmask of keys down, `length` bytes.
static inline int gesturectl_evdev_get_keys(int fd, unsigned char *bits, unsigned int length) {
    return ioctl(fd, EVIOCGKEY(length), bits);
}

/// EVIOCGABS: an absolute axis's current value (and range).
static inline int gesturectl_evdev_get_abs(int fd, unsigned int code, struct input_absinfo *info) {
    return ioctl(fd, EVIOCGABS(code), info);
}

#endif
