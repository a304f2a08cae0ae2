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

#endif
