#!/usr/bin/env bash
# gesturectl menu with one switch and no keyboard at all (standard input is
# /dev/null): the evemu one-key switch of gesturectl-lib.sh, named by its name;
#   1. scanning highlights "Volume up", a press picks it: libinput sees
#      KEY_VOLUMEUP pressed and released once, on the virtual keyboard the
#      menu made when it opened; the menu says "Pressed volume up." and stays;
#   2. scanning reaches the saved gesture "tap", a press plays it on a
#      virtual touchscreen: libinput sees one touch down and up;
#   3. holding the switch 3.5 s is the emergency stop: the menu ends with
#      exit status 130.
# timeout: 180
# resources: alone
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

((IN_VM)) || skip "creates input devices: runs only inside the VM"

export GESTURECTL_LIBRARY=$CASE_WORK/library
run_logged synth "$GESTURECTL" synth tap --save tap
assert_status 0
cat > "$CASE_WORK/menu.json" <<EOF
{"items": [{"press": "volume-up"}, {"play": "tap"}]}
EOF

create_switch
# libinput on the whole seat: the touchscreen appears only at the play.
start_background libinput.log libinput debug-events
libinput_pid=$BACKGROUND_PID
wait_for_log "$CASE_WORK/libinput.log" "DEVICE_ADDED +$SWITCH_NAME" "$LIBINPUT_START_TIMEOUT"

# A long scan interval: an evemu-play start in a loaded VM can take over a second.
# The menu makes its touchscreen at the first play and has no start gate:
# libinput (on the seat) opens it as udev announces it, while the menu
# waits its lead-in. The one lead-in left in the tier, until the menu plays
# on ready devices (the structure issue).
menu_lead_in=4s
start_background menu.log "$GESTURECTL" menu --config "$CASE_WORK/menu.json" --switch "$SWITCH_NAME" --switch-key KEY_F13 \
    --scan-interval 3s --lead-in "$menu_lead_in" --as touchscreen
menu_pid=$BACKGROUND_PID
wait_for_log "$CASE_WORK/menu.log" "The switch is ready: $SWITCH_NAME"
wait_for_log "$CASE_WORK/libinput.log" 'DEVICE_ADDED +gesturectl virtual keyboard' "$LIBINPUT_START_TIMEOUT"

# 1. Volume up.
switch_press_on "$CASE_WORK/menu.log" '^Highlighted: Volume up \(1 of 3\)'
wait_for_log "$CASE_WORK/menu.log" '^Pressed volume up\.$'
wait_for_log "$CASE_WORK/libinput.log" 'KEYBOARD_KEY.*KEY_VOLUMEUP \(115\) released'
assert_line_count "$CASE_WORK/libinput.log" 'KEYBOARD_KEY.*KEY_VOLUMEUP \(115\) pressed' 1 "volume-up presses"

# 2. The saved gesture, after scanning starts again from the top.
switch_press_on "$CASE_WORK/menu.log" '^Highlighted: tap \(2 of 3\)' 30
wait_for_log "$CASE_WORK/menu.log" '^Played tap\.$' 40
wait_for_lines "$CASE_WORK/libinput.log" 'TOUCH_UP' 1
assert_line_count "$CASE_WORK/libinput.log" 'TOUCH_DOWN' 1 "touches down after playing tap"

# 3. The emergency stop.
switch_hold 3.5
wait_background "$menu_pid" 30
assert_equal 130 "$BACKGROUND_STATUS" "the menu's exit status after the emergency stop ($(tail -n 2 "$CASE_WORK/menu.log" | tr '\n' '|'))"
assert_log_contains "$CASE_WORK/menu.log" '^Emergency stop: everything was cancelled and released\.$' "the emergency stop's line"
assert_log_lacks "$CASE_WORK/menu.log" $'\e' "escape sequences in the plain transcript"
assert_libinput_content "$CASE_WORK/libinput.log"
stop_background "$libinput_pid"
