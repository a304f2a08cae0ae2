#!/usr/bin/env bash
# `gesturectl fingertips 3 --as touchpad` (issue 22, item 4) with a mouse
# source made through uinput (uinput_source.py; events injected into the
# event node never reach a grabbing reader): a mouse drag (the left button
# held, 75 frames of (+8, +3) counts 8 ms apart: 34 mm on the touchpad at
# --speed 1) becomes libinput's 3-finger swipe gesture on the virtual
# touchpad: one GESTURE_SWIPE_BEGIN with 3 fingers, updates with 3 fingers
# that go right (the drag's way), an END that is not cancelled, no pinch, and
# nothing libinput complains about (no touch jump: bunched source frames
# reach a touchpad target at most every 8 ms); libinput on the grabbed mouse
# sees no motion. Every step waits on a line or an event, never on a fixed
# sleep.
#
# A drag along an arc does not become a rotation: the fingertips keep their
# layout and move together (libinput would read a pair that turns while it
# moves as a two-finger scroll, not a pinch); see the report of issue 22.
# timeout: 180
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

fifo="$CASE_WORK/source.fifo"
SOURCE_LOG="$CASE_WORK/source.log"
mkfifo "$fifo"
udev_monitor_start
start_background source.log python3 "$INTEGRATION/uinput_source.py" "$FIXTURES/mouse.evemu" "$fifo"
wait_for_log "$SOURCE_LOG" ': /dev/input/event[0-9]+$'
SOURCE_NODE=$(grep -m 1 -o -E '/dev/input/event[0-9]+$' "$SOURCE_LOG")
exec {SOURCE_FD}>"$fifo"
wait_for_input_node "$SOURCE_NODE"
libinput_watch "$SOURCE_NODE" libinput-source.log
SOURCE_LIBINPUT_LOG=$LIBINPUT_LOG

# The drag: 3 frames of hovering, the button down, 75 frames of (+8, +3),
# the button up, 8 ms apart (fixtures/mouse-drag.events, three times as long).
drag="$CASE_WORK/mouse-long-drag.events"
awk 'BEGIN {
    t = 0
    for (i = 0; i < 3; i++) { printf "E: %.6f 0002 0000 4\nE: %.6f 0002 0001 2\nE: %.6f 0000 0000 0\n", t, t, t; t += 0.008 }
    printf "E: %.6f 0001 0110 1\nE: %.6f 0000 0000 0\n", t, t; t += 0.008
    for (i = 0; i < 75; i++) { printf "E: %.6f 0002 0000 8\nE: %.6f 0002 0001 3\nE: %.6f 0000 0000 0\n", t, t, t; t += 0.008 }
    printf "E: %.6f 0001 0110 0\nE: %.6f 0000 0000 0\n", t, t
}' > "$drag"

# --speed 1: the drag's 600 counts move the fingertips 34 mm (1920 counts
# cross the 110 mm touchpad), well past libinput's threshold for a swipe and
# short of the edge.
TIPS_LOG="$CASE_WORK/fingertips.log"
start_background fingertips.log "$GESTURECTL" fingertips 3 --device "$SOURCE_NODE" --as touchpad --spacing 15 \
    --speed 1 --idle 0
TIPS_PID=$BACKGROUND_PID
wait_for_log "$TIPS_LOG" '^3 fingertips ready: move the pointer, hold the button to touch\.$'
wait_for_log "$TIPS_LOG" 'fingertips on /dev/input/event[0-9]+'
TIPS_NODE=$(grep -m 1 -o -E 'fingertips on /dev/input/event[0-9]+' "$TIPS_LOG" | grep -o -E '/dev/input/event[0-9]+')
assert_log_lacks "$TIPS_LOG" 'udev did not announce' "gesturectl fingertips"
assert_log_contains "$TIPS_LOG" "($VIRTUAL_TOUCHPAD_NAME)" "the device gesturectl names"
libinput_watch "$TIPS_NODE" libinput-tips.log
assert_log_contains "$LIBINPUT_LOG" "DEVICE_ADDED +$VIRTUAL_TOUCHPAD_NAME .*cap:pg" "libinput's view of the fingertips' touchpad"

printf 'play %s\n' "$drag" >&"$SOURCE_FD"
wait_for_lines "$SOURCE_LOG" '^played$' 1
wait_for_log "$TIPS_LOG" '^3 fingertips up\.$'
wait_for_log "$LIBINPUT_LOG" 'GESTURE_SWIPE_END'
assert_log_contains "$TIPS_LOG" '^3 fingertips down\.$' "the state lines"
assert_line_count "$LIBINPUT_LOG" 'GESTURE_SWIPE_BEGIN .*[[:space:]]3$' 1 "a 3-finger swipe begins"
# libinput folds the motion before it recognises the swipe into the first
# update: a short drag under emulation gave 2.
assert_line_count_at_least "$LIBINPUT_LOG" 'GESTURE_SWIPE_UPDATE .*[[:space:]]3 ' 2 "3-finger swipe updates"
assert_log_lacks "$LIBINPUT_LOG" 'GESTURE_SWIPE_END .*cancelled' "the swipe's end"
assert_log_lacks "$LIBINPUT_LOG" 'GESTURE_PINCH_BEGIN' "no pinch"
assert_libinput_content "$LIBINPUT_LOG"
# The updates' unaccelerated motion ("(dx/ dy unaccelerated)") goes right, as the drag.
dx=$(grep -E 'GESTURE_SWIPE_UPDATE' "$LIBINPUT_LOG" | grep -o -E '\([[:space:]]*-?[0-9.]+/[[:space:]]*-?[0-9.]+ unaccelerated\)' |
    sed -E 's/^\([[:space:]]*(-?[0-9.]+)\/.*/\1/' | awk '{ total += $1 } END { printf "%.1f", total }')
note "libinput's swipe: $(grep -c GESTURE_SWIPE_UPDATE "$LIBINPUT_LOG") updates, dx adding up to $dx"
awk -v dx="$dx" 'BEGIN { exit !(dx > 0) }' || fail "libinput's swipe goes $dx along x; the drag went right"
assert_log_lacks "$SOURCE_LIBINPUT_LOG" 'POINTER_MOTION' "libinput on the grabbed mouse"

kill -INT "$TIPS_PID"
wait_background "$TIPS_PID" 30
assert_equal 0 "$BACKGROUND_STATUS" "gesturectl fingertips' status after Ctrl-C"
assert_log_contains "$TIPS_LOG" '^3 fingertips gone: stopped\.$' "the last state line"
printf 'quit\n' >&"$SOURCE_FD"
wait_for_lines "$SOURCE_LOG" '^quit$' 1
