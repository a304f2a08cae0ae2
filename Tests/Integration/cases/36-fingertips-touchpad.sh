#!/usr/bin/env bash
# `gesturectl fingertips 3 --as touchpad` (issue 22, item 4) with a mouse
# source made through uinput (uinput_source.py; events injected into the
# event node never reach a grabbing reader), judged by one `libinput
# debug-events` on the fingertips' touchpad and their hover pen:
#
# 1. Moving the mouse with no button held moves the hover pen
#    ("gesturectl virtual touchpad pen", a tablet to libinput): its
#    TABLET_TOOL_AXIS events follow the motion.
# 2. A drag along an arc with the right button held (turn mode: 60 frames 8 ms
#    apart moving the handle a quarter turn clockwise around the fingertips'
#    centre, on its 21 mm circle) becomes libinput's 3-finger pinch: one
#    GESTURE_PINCH_BEGIN with 3 fingers, updates whose angle deltas add up to
#    a clear clockwise rotation (at least 30 degrees of the 90), an END that
#    is not cancelled, no swipe. The pen is back in proximity after the lift.
# 3. A mouse drag (the left button held, 75 frames of (+8, +3) counts 8 ms
#    apart: 34 mm on the touchpad at --speed 1) becomes libinput's 3-finger
#    swipe gesture: one GESTURE_SWIPE_BEGIN with 3 fingers, updates with 3
#    fingers that go right (the drag's way), an END that is not cancelled, no
#    pinch. The pen moves with the drag's first frames (no button yet), goes
#    out of proximity before the fingertips' first gesture event (its frame
#    is written before the touch), stays silent while they are down and
#    comes back after the lift.
# Nothing libinput complains about (no touch jump: bunched source frames reach
# a touchpad target at most every 8 ms); libinput on the grabbed mouse sees
# no motion; Ctrl-C takes the pen out of proximity. Every step waits on a line
# or an event, never on a fixed sleep.
#
# --spacing 21: libinput tracks the top- and bottom-most touches (here the
# outer two, 42 mm apart) and takes two touches closer than 40 mm across and
# 7 mm down for a swipe once 150 ms have passed without a decision; 42 mm
# keeps a slow start of the turn a pinch, and the swipe still ends inside
# the 110 mm pad.
# timeout: 300
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

start_uinput_source "$FIXTURES/mouse.evemu"
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

# The hover: 10 frames of (-2, 0), 8 ms apart, no button.
hover="$CASE_WORK/mouse-hover.events"
awk 'BEGIN { for (i = 0; i < 10; i++) { t = i * 0.008; printf "E: %.6f 0002 0000 -2\nE: %.6f 0000 0000 0\n", t, t } }' > "$hover"

# The turn: the right button down, the handle (which starts 21 mm right of
# the centre: 366.5 counts at 1920 counts across the 110 mm pad) moved along
# a quarter of its circle clockwise on the pad (y grows downwards) in 60
# frames, the button up; each frame's counts are the rounded positions'
# difference, so nothing is lost to rounding.
arc="$CASE_WORK/mouse-arc.events"
awk 'BEGIN {
    t = 0; r = 21 * 1920 / 110; pi = atan2(0, -1); px = int(r + 0.5); py = 0
    printf "E: %.6f 0001 0111 1\nE: %.6f 0000 0000 0\n", t, t; t += 0.008
    for (i = 1; i <= 60; i++) {
        a = i * pi / 2 / 60; x = int(r * cos(a) + 0.5); y = int(r * sin(a) + 0.5)
        printf "E: %.6f 0002 0000 %d\nE: %.6f 0002 0001 %d\nE: %.6f 0000 0000 0\n", t, x - px, t, y - py, t
        px = x; py = y; t += 0.008
    }
    printf "E: %.6f 0001 0111 0\nE: %.6f 0000 0000 0\n", t, t
}' > "$arc"

# --speed 1: the drag's 600 counts move the fingertips 34 mm (1920 counts
# cross the 110 mm touchpad), well past libinput's threshold for a swipe and
# short of the edge.
TIPS_LOG="$CASE_WORK/fingertips.log"
start_background fingertips.log "$GESTURECTL" fingertips 3 --device "$SOURCE_NODE" --as touchpad --spacing 21 \
    --speed 1 --idle 0
TIPS_PID=$BACKGROUND_PID
wait_for_log "$TIPS_LOG" '^3 fingertips ready: move the pointer, hold the button to touch\.$'
wait_for_log "$TIPS_LOG" 'fingertips on /dev/input/event[0-9]+'
TIPS_NODE=$(grep -m 1 -o -E 'fingertips on /dev/input/event[0-9]+' "$TIPS_LOG" | grep -o -E '/dev/input/event[0-9]+')
PEN_NODE=$(grep -m 1 -o -E 'hover pen on /dev/input/event[0-9]+' "$TIPS_LOG" | grep -o -E '/dev/input/event[0-9]+' || true)
[[ -n $PEN_NODE ]] || fail "gesturectl fingertips names no hover pen: $(tr '\n' '|' < "$TIPS_LOG")"
assert_log_lacks "$TIPS_LOG" 'udev did not announce' "gesturectl fingertips"
assert_log_contains "$TIPS_LOG" "($VIRTUAL_TOUCHPAD_NAME)" "the device gesturectl names"
# One libinput context on both devices: one log, in the order libinput saw things.
start_background libinput-tips.log libinput debug-events --device "$TIPS_NODE" "$PEN_NODE"
LIBINPUT_PID=$BACKGROUND_PID
LIBINPUT_LOG="$CASE_WORK/libinput-tips.log"
wait_for_lines "$LIBINPUT_LOG" 'DEVICE_ADDED' 2 "$LIBINPUT_START_TIMEOUT"
assert_log_contains "$LIBINPUT_LOG" "DEVICE_ADDED +$VIRTUAL_TOUCHPAD_NAME .*cap:pg" "libinput's view of the fingertips' touchpad"
assert_log_contains "$LIBINPUT_LOG" "DEVICE_ADDED +$VIRTUAL_TOUCHPAD_NAME pen .*cap:T" "libinput's view of the hover pen"

# 1. The hover: moving with no button held moves the pen. First, so that
# libinput has set up its tablet tool (it reads libwacom's database then,
# seconds under emulation, while the touchpad's events wait) before the turn.
printf 'play %s\n' "$hover" >&"$SOURCE_FD"
wait_for_lines "$SOURCE_LOG" '^played$' 1
wait_for_lines "$LIBINPUT_LOG" 'TABLET_TOOL_AXIS' 1 "$LIBINPUT_START_TIMEOUT"

# 2. The turn: a pinch that rotates clockwise.
proximity_in='TABLET_TOOL_PROXIMITY.*proximity-in'
ins=$(grep -c -E "$proximity_in" "$LIBINPUT_LOG" || true)
printf 'play %s\n' "$arc" >&"$SOURCE_FD"
wait_for_lines "$SOURCE_LOG" '^played$' 2
wait_for_lines "$TIPS_LOG" '^3 fingertips up\.$' 1
wait_for_log "$LIBINPUT_LOG" 'GESTURE_PINCH_END'
# The pen is back in proximity after the lift.
wait_for_lines "$LIBINPUT_LOG" "$proximity_in" $((ins + 1))
turn_end=$(grep -n -m 1 'GESTURE_PINCH_END' "$LIBINPUT_LOG" | cut -d: -f1)
TURN_PART="$CASE_WORK/libinput-turn.log"
head -n "$turn_end" "$LIBINPUT_LOG" > "$TURN_PART"
assert_line_count "$TURN_PART" 'GESTURE_PINCH_BEGIN .*[[:space:]]3$' 1 "a 3-finger pinch begins"
assert_line_count_at_least "$TURN_PART" 'GESTURE_PINCH_UPDATE .*[[:space:]]3 ' 2 "3-finger pinch updates"
assert_log_lacks "$TURN_PART" 'GESTURE_PINCH_END .*cancelled' "the pinch's end"
assert_log_lacks "$TURN_PART" 'GESTURE_SWIPE_BEGIN' "no swipe while turning"
# Each update ends "SCALE @ ANGLE-DELTA"; libinput's angle grows clockwise.
angle=$(grep -E 'GESTURE_PINCH_UPDATE' "$TURN_PART" | sed -E 's/.*@[[:space:]]*(-?[0-9.]+)[[:space:]]*$/\1/' |
    awk '{ total += $1 } END { printf "%.1f", total }')
note "libinput's pinch: $(grep -c GESTURE_PINCH_UPDATE "$TURN_PART") updates, angle deltas adding up to $angle degrees"
awk -v angle="$angle" 'BEGIN { exit !(angle >= 30) }' ||
    fail "libinput's pinch turned $angle degrees; the quarter turn clockwise should give at least 30"

# 3. The swipe.
ins=$(grep -c -E "$proximity_in" "$LIBINPUT_LOG" || true)
printf 'play %s\n' "$drag" >&"$SOURCE_FD"
wait_for_lines "$SOURCE_LOG" '^played$' 3
wait_for_lines "$TIPS_LOG" '^3 fingertips up\.$' 2
wait_for_log "$LIBINPUT_LOG" 'GESTURE_SWIPE_END'
wait_for_lines "$LIBINPUT_LOG" "$proximity_in" $((ins + 1))
SWIPE_PART="$CASE_WORK/libinput-swipe.log"
tail -n +$((turn_end + 1)) "$LIBINPUT_LOG" > "$SWIPE_PART"
assert_line_count "$TIPS_LOG" '^3 fingertips down\.$' 2 "the state lines"
assert_line_count "$SWIPE_PART" 'GESTURE_SWIPE_BEGIN .*[[:space:]]3$' 1 "a 3-finger swipe begins"
# libinput folds the motion before it recognises the swipe into the first
# update: a short drag under emulation gave 2.
assert_line_count_at_least "$SWIPE_PART" 'GESTURE_SWIPE_UPDATE .*[[:space:]]3 ' 2 "3-finger swipe updates"
assert_log_lacks "$SWIPE_PART" 'GESTURE_SWIPE_END .*cancelled' "the swipe's end"
assert_log_lacks "$SWIPE_PART" 'GESTURE_PINCH_BEGIN' "no pinch"
# The updates' unaccelerated motion ("(dx/ dy unaccelerated)") goes right, as the drag.
dx=$(grep -E 'GESTURE_SWIPE_UPDATE' "$SWIPE_PART" | grep -o -E '\([[:space:]]*-?[0-9.]+/[[:space:]]*-?[0-9.]+ unaccelerated\)' |
    sed -E 's/^\([[:space:]]*(-?[0-9.]+)\/.*/\1/' | awk '{ total += $1 } END { printf "%.1f", total }')
note "libinput's swipe: $(grep -c GESTURE_SWIPE_UPDATE "$SWIPE_PART") updates, dx adding up to $dx"
awk -v dx="$dx" 'BEGIN { exit !(dx > 0) }' || fail "libinput's swipe goes $dx along x; the drag went right"
# The pen, around the swipe: in proximity, moving (the hover and the drag's
# first frames), out of proximity before the fingertips' first gesture event,
# silent while they are down, back in after the lift.
awk '
    /TABLET_TOOL_PROXIMITY.*proximity-out/ && !out { out = NR }
    /TABLET_TOOL_PROXIMITY.*proximity-in/ && out && !back { back = NR }
    /GESTURE_/ && !gesture { gesture = NR }
    /TABLET_TOOL_AXIS/ && !axis { axis = NR }
    /TABLET_TOOL_AXIS/ && out && !back { moved_while_down = NR }
    END {
        if (!axis || !out || !gesture || !back) { print "missing: axis " axis ", out " out ", gesture " gesture ", back " back; exit 1 }
        if (!(axis < out && out < gesture && gesture < back)) { print "order: axis " axis ", out " out ", gesture " gesture ", back " back; exit 1 }
        if (moved_while_down) { print "pen axis event while down at line " moved_while_down; exit 1 }
    }' "$SWIPE_PART" > "$CASE_WORK/pen-order.txt" ||
    fail "the hover pen around the swipe (lines of libinput-swipe.log): $(cat "$CASE_WORK/pen-order.txt")"
assert_libinput_content "$LIBINPUT_LOG"
assert_log_lacks "$SOURCE_LIBINPUT_LOG" 'POINTER_MOTION' "libinput on the grabbed mouse"

kill -INT "$TIPS_PID"
wait_background "$TIPS_PID" 30
assert_equal 0 "$BACKGROUND_STATUS" "gesturectl fingertips' status after Ctrl-C"
assert_log_contains "$TIPS_LOG" '^3 fingertips gone: stopped\.$' "the last state line"
# The pen left proximity before it was removed.
wait_for_lines "$LIBINPUT_LOG" 'DEVICE_REMOVED' 2
last_proximity=$(grep 'TABLET_TOOL_PROXIMITY' "$LIBINPUT_LOG" | tail -n 1)
[[ $last_proximity == *proximity-out* ]] || fail "the hover pen's last proximity event: $last_proximity"
printf 'quit\n' >&"$SOURCE_FD"
wait_for_lines "$SOURCE_LOG" '^quit$' 1
