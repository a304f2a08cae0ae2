#!/usr/bin/env bash
# gesturectl menu with one switch and no keyboard at all (standard input is
# /dev/null): a switch made with evemu-device (KEY_F13), named by its name;
#   1. scanning highlights "Volume up", a press picks it: libinput sees
#      KEY_VOLUMEUP pressed and released once, on the virtual keyboard the
#      menu made when it opened; the menu says "Pressed volume up." and stays;
#   2. scanning reaches the saved gesture "tap", a press plays it on a
#      virtual touchscreen: libinput sees one touch down and up;
#   3. holding the switch 3.5 s is the emergency stop: the menu ends with
#      exit status 130.
# timeout: 180
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

((IN_VM)) || skip "creates input devices: runs only inside the VM"

SWITCH_NAME='gesturectl menu switch'
# A one-key switch: KEY_F13 (183: byte 22 of the key mask, bit 7).
cat > "$CASE_WORK/switch.evemu" <<EOF
# EVEMU 1.3
N: $SWITCH_NAME
I: 0003 1d6b 7a0a 0100
P: 00 00 00 00 00 00 00 00
B: 00 03 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 80 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
EOF
key() { evemu-event --sync "$switch" --type EV_KEY --code KEY_F13 --value "$1" || fail "evemu-event failed"; }
press() { key 1; sleep 0.05; key 0; }

export GESTURECTL_LIBRARY=$CASE_WORK/library
run_logged synth "$GESTURECTL" synth tap --save tap
assert_status 0
cat > "$CASE_WORK/menu.json" <<EOF
{"items": [{"press": "volume-up"}, {"play": "tap"}]}
EOF

create_device "$CASE_WORK/switch.evemu"
switch=$DEVICE_NODE
# libinput on the whole seat: the touchscreen appears only at the play.
start_background libinput.log libinput debug-events
libinput_pid=$BACKGROUND_PID
wait_for_log "$CASE_WORK/libinput.log" "DEVICE_ADDED +$SWITCH_NAME"

# A long scan interval and long press: each evemu-event is a process start
# in a loaded VM (a press meant short was once held 0.86 s).
start_background menu.log "$GESTURECTL" menu --config "$CASE_WORK/menu.json" --switch "$SWITCH_NAME" --switch-key KEY_F13 \
    --scan-interval 3s --long-press 2s --lead-in "$PLAY_LEAD_IN" --as touchscreen
menu_pid=$BACKGROUND_PID
wait_for_log "$CASE_WORK/menu.log" "The switch is ready: $SWITCH_NAME" 20
wait_for_log "$CASE_WORK/libinput.log" 'DEVICE_ADDED +gesturectl virtual keyboard' 20

# 1. Volume up.
wait_for_log "$CASE_WORK/menu.log" '^Highlighted: Volume up \(1 of 3\)' 20
press
wait_for_log "$CASE_WORK/menu.log" '^Pressed volume up\.$' 20
wait_for_log "$CASE_WORK/libinput.log" 'KEYBOARD_KEY.*KEY_VOLUMEUP \(115\) released' 20
assert_line_count "$CASE_WORK/libinput.log" 'KEYBOARD_KEY.*KEY_VOLUMEUP \(115\) pressed' 1 "volume-up presses"

# 2. The saved gesture, after scanning starts again from the top.
wait_for_log "$CASE_WORK/menu.log" '^Highlighted: tap \(2 of 3\)' 30
press
wait_for_log "$CASE_WORK/menu.log" '^Played tap\.$' 40
wait_for_lines "$CASE_WORK/libinput.log" 'TOUCH_UP' 1 20
assert_line_count "$CASE_WORK/libinput.log" 'TOUCH_DOWN' 1 "touches down after playing tap"

# 3. The emergency stop.
key 1; sleep 3.5; key 0
wait_background "$menu_pid" 30
assert_equal 130 "$BACKGROUND_STATUS" "the menu's exit status after the emergency stop ($(tail -n 2 "$CASE_WORK/menu.log" | tr '\n' '|'))"
assert_log_contains "$CASE_WORK/menu.log" '^Emergency stop: everything was cancelled and released\.$' "the emergency stop's line"
assert_log_lacks "$CASE_WORK/menu.log" $'\e' "escape sequences in the plain transcript"
assert_libinput_content "$CASE_WORK/libinput.log"
stop_background "$libinput_pid"
