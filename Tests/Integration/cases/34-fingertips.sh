#!/usr/bin/env bash
# `gesturectl fingertips 3` (issue 22) with a touchscreen source made through
# uinput (uinput_source.py: events injected into the event node, as
# evemu-play does, never reach a grabbing reader):
#   1. one finger's stroke on the source becomes a 3-finger swipe on the
#      fingertips' touchscreen, as libinput sees it: a copy of the source
#      (name "gesturectl clone of ...", 200x125 mm), three TOUCH_DOWN in one
#      frame 18 mm apart around the finger, moving together to where the
#      finger ends, three TOUCH_UP, no complaint; libinput on the source itself
#      sees nothing (the grab);
#   2. SIGKILL with the fingertips down: the virtual device goes with the
#      process, and the source is given back (libinput on it sees the next
#      stroke);
#   3. the source unplugged mid-drag: every fingertip is lifted (three
#      TOUCH_UP before the device goes), "was unplugged", exit 1.
# Every step waits on a line or an event, never on a fixed sleep.
# timeout: 180
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

# start_fingertips LOG : gesturectl fingertips 3 on the source (no idle end:
# the steps of a slow guest take seconds), until its ready line and the line
# naming its device; sets TIPS_PID, TIPS_LOG, TIPS_NODE. gesturectl waited
# for udev's "add" before saying either (a second device may reuse the
# first one's node, so the case's own monitor cannot tell them apart).
start_fingertips() {
    TIPS_LOG="$CASE_WORK/$1"
    start_background "$1" "$GESTURECTL" fingertips 3 --device "$SOURCE_NODE" --idle 0
    TIPS_PID=$BACKGROUND_PID
    wait_for_log "$TIPS_LOG" '^3 fingertips ready: touch the screen with one finger'
    wait_for_log "$TIPS_LOG" 'fingertips on /dev/input/event[0-9]+'
    TIPS_NODE=$(grep -m 1 -o -E 'fingertips on /dev/input/event[0-9]+' "$TIPS_LOG" | grep -o -E '/dev/input/event[0-9]+')
    assert_log_lacks "$TIPS_LOG" 'udev did not announce' "gesturectl fingertips"
}

# One finger down in the middle of the source (100 x 50 mm), and up again.
finger_down='frame 3:0x2f:0 3:0x39:50 3:0x35:2000 3:0x36:1000 1:0x14a:1 3:0:2000 3:1:1000'
finger_up='frame 3:0x39:-1 1:0x14a:0'

# --- 1. a one-finger stroke becomes a 3-finger swipe --------------------------
start_uinput_source "$FIXTURES/touchscreen.evemu"
libinput_watch "$SOURCE_NODE" libinput-source.log
SOURCE_LIBINPUT_LOG=$LIBINPUT_LOG
start_fingertips fingertips.log
libinput_watch "$TIPS_NODE" libinput-tips.log
assert_log_contains "$LIBINPUT_LOG" 'DEVICE_ADDED +gesturectl clone of gesturectl test touchscreen .*cap:t .*size 200x125mm' \
    "libinput's view of the fingertips' touchscreen (a copy of the source)"
source_command "play $FIXTURES/touch-one-stroke.events" played
wait_for_lines "$LIBINPUT_LOG" 'TOUCH_UP' 3
# The stroke goes from (800, 600) to (3200, 1900) at 20 units/mm.
gesturectl_check fingertips libinput-fingertips "$LIBINPUT_LOG" 3 18 40,30 160,95
assert_libinput_content "$LIBINPUT_LOG"
assert_log_lacks "$SOURCE_LIBINPUT_LOG" 'TOUCH_DOWN' "libinput on the grabbed source"
assert_log_contains "$TIPS_LOG" '^3 fingertips down\.$' "the state lines"
assert_log_contains "$TIPS_LOG" '^3 fingertips up\.$' "the state lines"

# --- 2. SIGKILL with the fingertips down ---------------------------------------
source_command "$finger_down" frame
wait_for_lines "$LIBINPUT_LOG" 'TOUCH_DOWN' 6
kill -KILL "$TIPS_PID"
wait_background "$TIPS_PID" 30
assert_equal 137 "$BACKGROUND_STATUS" "gesturectl fingertips' status after SIGKILL"
wait_for_log "$LIBINPUT_LOG" 'DEVICE_REMOVED'
udevadm settle --timeout=30
[[ ! -e $TIPS_NODE ]] || fail "$TIPS_NODE is still there after SIGKILL"
source_command "$finger_up" frame
source_command "play $FIXTURES/touch-one-stroke.events" played
wait_for_log "$SOURCE_LIBINPUT_LOG" 'TOUCH_UP'
note "after SIGKILL the source reached libinput again: given back"

# --- 3. the source unplugged mid-drag --------------------------------------------
start_fingertips fingertips-unplugged.log
libinput_watch "$TIPS_NODE" libinput-tips-unplugged.log
source_command "$finger_down" frame
wait_for_lines "$LIBINPUT_LOG" 'TOUCH_DOWN' 3
printf 'quit\n' >&"$SOURCE_FD"
wait_background "$TIPS_PID" 30
assert_equal 1 "$BACKGROUND_STATUS" "gesturectl fingertips' status after the source was unplugged"
assert_log_contains "$TIPS_LOG" 'was unplugged; every fingertip lifted' "what gesturectl said"
assert_log_contains "$TIPS_LOG" '^3 fingertips gone: the source was unplugged\.$' "the last state line"
wait_for_lines "$LIBINPUT_LOG" 'TOUCH_UP' 3
wait_for_log "$LIBINPUT_LOG" 'DEVICE_REMOVED'
gesturectl_check lifted touches-lifted "$LIBINPUT_LOG"
assert_libinput_content "$LIBINPUT_LOG"
