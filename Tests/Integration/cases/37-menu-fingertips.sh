#!/usr/bin/env bash
# A switch user turns on 3-finger input from `gesturectl menu` with one switch
# and a mouse, nothing else (issue 22: standard input is /dev/null):
#   1. the default top level scans to "Gestures menu" (AssistiveTouch's
#      name for live multi-finger input); a press opens it;
#   2. it scans to "3 fingertips"; a press starts them on the mouse: the menu
#      says "3 fingertips ready: …" once the mouse is grabbed and read and
#      the virtual touchscreen exists;
#   3. a mouse drag (uinput_source.py, the left button held) becomes three
#      touches on the fingertips' virtual touchscreen, as libinput on the
#      seat sees them: three TOUCH_DOWN, motion, three TOUCH_UP;
#   4. a press of the switch stops them: "3 fingertips gone: stopped.", the
#      virtual touchscreen goes, and the Gestures menu is back;
#   5. holding the switch is the emergency stop: exit status 130.
# Every step waits on a line or an event, never on a fixed sleep.
# timeout: 240
# resources: alone
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

((IN_VM)) || skip "creates input devices: runs only inside the VM"

# No menu.json: the defaults, as a new user gets them.
export HOME=$CASE_WORK/home XDG_CONFIG_HOME=$CASE_WORK/home/.config
export GESTURECTL_LIBRARY=$CASE_WORK/library
mkdir -p "$HOME"

create_switch
start_uinput_source "$FIXTURES/mouse.evemu"

# libinput on the whole seat: the fingertips' touchscreen appears only once
# they start.
start_background libinput.log libinput debug-events
libinput_pid=$BACKGROUND_PID
wait_for_log "$CASE_WORK/libinput.log" "DEVICE_ADDED +$SWITCH_NAME" "$LIBINPUT_START_TIMEOUT"

# A scan interval long enough for a press to land on the item it was meant
# for in a loaded VM (evemu-play can take over a second to start).
MENU_LOG="$CASE_WORK/menu.log"
# --fingertips-idle 0: under load libinput (reading libwacom's data for the
# hover pen) can take longer than the 5 s idle time to report the drag, and
# the fingertips must still be there for the switch to stop them.
start_background menu.log "$GESTURECTL" menu --switch "$SWITCH_NAME" --switch-key KEY_F13 --scan-interval 2.5s \
    --device "$SOURCE_NODE" --fingertips-idle 0
menu_pid=$BACKGROUND_PID
wait_for_log "$MENU_LOG" "The switch is ready: $SWITCH_NAME"
assert_log_contains "$MENU_LOG" 'Saved gestures menu · Create New Gesture · Gestures menu' "the default top level"

# 1. Gestures menu (the 8th item of the top level).
switch_press_on "$MENU_LOG" '^Highlighted: Gestures menu \(8 of 9\)' 60
# 2. 3 fingertips.
switch_press_on "$MENU_LOG" '^Highlighted: 3 fingertips \(2 of 5\)' 30
wait_for_log "$MENU_LOG" '^3 fingertips ready: move the pointer, hold the button to touch\. To stop them, press the switch or Escape\.$' 30
wait_for_log "$CASE_WORK/libinput.log" "DEVICE_ADDED +$VIRTUAL_TOUCHSCREEN_NAME" "$LIBINPUT_START_TIMEOUT"

# 3. The drag: three fingers down at once, moving, three up.
printf 'play %s\n' "$FIXTURES/mouse-drag.events" >&"$SOURCE_FD"
wait_for_lines "$SOURCE_LOG" '^played$' 1 30
wait_for_log "$MENU_LOG" '^3 fingertips up\.$'
wait_for_lines "$CASE_WORK/libinput.log" 'TOUCH_UP' 3
assert_log_contains "$MENU_LOG" '^3 fingertips down\.$' "the state lines"
assert_line_count "$CASE_WORK/libinput.log" 'TOUCH_DOWN' 3 "touches down for one drag"
assert_line_count_at_least "$CASE_WORK/libinput.log" 'TOUCH_MOTION' 3 "touch motion during the drag"
assert_log_lacks "$CASE_WORK/libinput.log" 'POINTER_MOTION' "libinput on the grabbed mouse"

# 4. A press stops them; the Gestures menu is back.
switch_press
wait_for_log "$MENU_LOG" '^3 fingertips gone: stopped\.$'
wait_for_log "$CASE_WORK/libinput.log" "DEVICE_REMOVED +$VIRTUAL_TOUCHSCREEN_NAME"
wait_for_lines "$MENU_LOG" '^Gestures\. Choose one, or go back\.' 2

# 5. The emergency stop.
switch_hold 3.5
wait_background "$menu_pid" 30
assert_equal 130 "$BACKGROUND_STATUS" "the menu's exit status after the emergency stop ($(tail -n 2 "$MENU_LOG" | tr '\n' '|'))"
assert_log_lacks "$MENU_LOG" $'\e' "escape sequences in the plain transcript"
assert_libinput_content "$CASE_WORK/libinput.log"
stop_background "$libinput_pid"
printf 'quit\n' >&"$SOURCE_FD"
wait_for_lines "$SOURCE_LOG" '^quit$' 1
