#!/usr/bin/env bash
# Custom actions on a real kernel: a switch made with evemu-device (one key,
# KEY_F13) is bound in the daemon's configuration (by its name, not its
# eventN) to play "tap" on a double press;
#   1. a double press (evemu-event) plays the tap on the ready touchscreen,
#      seen by libinput (one touch down and up); the daemon logs the press
#      and the job;
#   2. the switch is unplugged and plugged in again (a new evemu-device): the
#      daemon finds it again, and a double press plays the tap again;
#   3. holding the key 3.5 s is the emergency stop (logged), and the daemon
#      keeps serving.
# timeout: 180
# resources: switch
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

((IN_VM)) || skip "creates input devices: runs only inside the VM"

SWITCH_NAME='gesturectl test switch'
# An evemu description of a USB-like switch with one key, KEY_F13 (183:
# byte 22 of the key mask, bit 7). Enough for udev's ID_INPUT_KEY.
cat > "$CASE_WORK/switch.evemu" <<EOF
# EVEMU 1.3
# A one-key switch: KEY_F13.
N: $SWITCH_NAME
I: 0003 1d6b 7a09 0100
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

# key VALUE : one KEY_F13 event and its SYN_REPORT on the switch.
key() { evemu-event --sync "$switch" --type EV_KEY --code KEY_F13 --value "$1" || fail "evemu-event failed"; }
# A double press in one evemu-play, at the kernel's own pace (50 ms down,
# 100 ms up, 50 ms down): four evemu-event starts in a loaded VM could
# stretch it past the double-press interval. The times start at 1 s:
# evemu-play sleeps only once a timestamp's seconds are above 0.
printf '%s\n' 'E: 1.000000 0001 00b7 0001' 'E: 1.000000 0000 0000 0000' 'E: 1.050000 0001 00b7 0000' 'E: 1.050000 0000 0000 0000' \
    'E: 1.150000 0001 00b7 0001' 'E: 1.150000 0000 0000 0000' 'E: 1.200000 0001 00b7 0000' 'E: 1.200000 0000 0000 0000' \
    > "$CASE_WORK/double-press.events"
double_press() { play_events "$switch" "$CASE_WORK/double-press.events"; }

create_device "$CASE_WORK/switch.evemu"
switch=$DEVICE_NODE
switch_pid=$DEVICE_PID
note "switch: $switch"

# The double interval is generous. The saved bindings are the case's own file (--bindings; a root
# daemon would otherwise use /var/lib/gesturectl/bindings.json).
cat > "$CASE_WORK/daemon.json" <<EOF
{"devices": ["touchscreen"], "double_press_ms": 1000, "long_press_ms": 1500, "emergency_stop_ms": 3000,
 "bindings": [{"trigger": {"device": "$SWITCH_NAME", "key": "KEY_F13", "press": "double"}, "action": {"play": "tap"}}]}
EOF
socket=$CASE_WORK/d.sock
start_background daemon.log "$GESTURECTL" daemon --socket "$socket" --config "$CASE_WORK/daemon.json" \
    --library "$CASE_WORK/library" --bindings "$CASE_WORK/bindings.json"
daemon_pid=$BACKGROUND_PID
wait_for_log "$CASE_WORK/daemon.log" 'ready: listening on'
wait_for_log "$CASE_WORK/daemon.log" "trigger KEY_F13 on $SWITCH_NAME: $SWITCH_NAME at /dev/input/event[0-9]+"
touchscreen=$(grep -o 'ready: touchscreen at /dev/input/event[0-9]*' "$CASE_WORK/daemon.log" | awk '{print $4}')
[[ -n $touchscreen ]] || fail "the daemon did not say where its touchscreen is"
libinput_watch "$touchscreen" libinput.log

# 1. A double press plays the tap.
double_press
wait_for_log "$CASE_WORK/daemon.log" 'KEY_F13 on .*: double press, job [0-9]+'
wait_for_lines "$LIBINPUT_LOG" 'TOUCH_UP' 1
assert_line_count "$LIBINPUT_LOG" 'TOUCH_DOWN' 1 "touches down after one double press"

# 2. Unplugged and plugged in again: found again, by its name.
stop_background "$switch_pid"
wait_for_log "$CASE_WORK/daemon.log" "KEY_F13 on $SWITCH_NAME: $SWITCH_NAME was unplugged"
create_device "$CASE_WORK/switch.evemu"
switch=$DEVICE_NODE
wait_for_lines "$CASE_WORK/daemon.log" "trigger KEY_F13 on $SWITCH_NAME: $SWITCH_NAME at /dev/input/event[0-9]+" 2
double_press
wait_for_lines "$LIBINPUT_LOG" 'TOUCH_UP' 2
assert_line_count "$LIBINPUT_LOG" 'TOUCH_DOWN' 2 "touches down after the second double press"

# 3. Held past the emergency-stop time.
key 1; sleep 3.5; key 0
wait_for_log "$CASE_WORK/daemon.log" 'emergency stop \(KEY_F13 on .* was held\)'
run_logged list "$GESTURECTL" --socket "$socket" list
assert_status 0
assert_line_count "$LIBINPUT_LOG" 'TOUCH_DOWN' 2 "touches down (the long press and the emergency stop play nothing)"
assert_libinput_content "$LIBINPUT_LOG"
kill -TERM "$daemon_pid"
wait_background "$daemon_pid" 30
assert_equal 0 "$BACKGROUND_STATUS" "the daemon's exit status after SIGTERM"
