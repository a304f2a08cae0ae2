#!/usr/bin/env bash
# Buttons through the virtual keyboard, as udev and libinput see them:
#   1. refusals come before any device: a KEY_* the keyboard lacks, and
#      power without --force (exit status 2);
#   2. `gesturectl press volume-up`: udev adds "gesturectl virtual
#      keyboard" as a key device (ID_INPUT_KEY), libinput takes it for a
#      keyboard (cap:k) and reports KEY_VOLUMEUP pressed, then released,
#      once each, with no complaint;
#   3. through the daemon (its ready keyboard): a tap of mute; a `--down`
#      of KEY_PLAYPAUSE held while the client runs and released on its
#      SIGTERM (exit 130); a `--down` released when the daemon gets SIGTERM.
# timeout: 180
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

VIRTUAL_KEYBOARD_NAME='gesturectl virtual keyboard'

# 1. Refusals: nothing is created.
run_logged refused-key "$GESTURECTL" press KEY_A
assert_status 2
assert_log_contains "$CASE_WORK/refused-key.err" 'KEY_A is not a key' "the refusal of a key the keyboard lacks"
run_logged refused-power "$GESTURECTL" press power
assert_status 2
assert_log_contains "$CASE_WORK/refused-power.err" 'add --force' "the refusal of power without --force"

# 2. A local tap, held on its keyboard (--start-on-fd) until libinput
# debug-events has opened the keyboard udev announced.
gate_open
start_background press.log "$GESTURECTL" press volume-up --hold 300ms --lead-in "$PLAY_LEAD_IN" --start-on-fd 3 3<&"$GATE_FD"
press_pid=$BACKGROUND_PID
# Its own line names the node (udev has set it up by then); a name could be
# another case's keyboard.
node_from_log "$CASE_WORK/press.log" pressing "$VIRTUAL_KEYBOARD_NAME" "gesturectl press"
keyboard=$LOGGED_NODE
udevadm info --query=property --name="$keyboard" > "$CASE_WORK/udev-keyboard.log"
assert_log_contains "$CASE_WORK/udev-keyboard.log" '^ID_INPUT_KEY=1' "udev's class of the virtual keyboard"
libinput_watch "$keyboard" libinput-local.log
assert_log_contains "$LIBINPUT_LOG" "DEVICE_ADDED +$VIRTUAL_KEYBOARD_NAME .*cap:k" "libinput's view of the virtual keyboard"
gate_release "$GATE_FD"
wait_background "$press_pid" 60
assert_equal 0 "$BACKGROUND_STATUS" "gesturectl press's exit status ($(tail -n 2 "$CASE_WORK/press.log" | tr '\n' '|'))"
wait_for_log "$LIBINPUT_LOG" 'KEYBOARD_KEY.*KEY_VOLUMEUP \(115\) released'
assert_line_count "$LIBINPUT_LOG" 'KEYBOARD_KEY.*KEY_VOLUMEUP \(115\) pressed' 1 "volume-up presses"
assert_line_count "$LIBINPUT_LOG" 'KEYBOARD_KEY.*KEY_VOLUMEUP \(115\) released' 1 "volume-up releases"
assert_libinput_content "$LIBINPUT_LOG"
stop_background "$LIBINPUT_PID"

# 3. Through the daemon, on the keyboard it keeps ready.
socket=$CASE_WORK/d.sock
start_background daemon.log "$GESTURECTL" daemon --socket "$socket" --library "$CASE_WORK/library"
daemon_pid=$BACKGROUND_PID
wait_for_log "$CASE_WORK/daemon.log" 'ready: listening on'
ready_keyboard=$(grep -o 'ready: keyboard at /dev/input/event[0-9]*' "$CASE_WORK/daemon.log" | awk '{print $4}')
[[ -n $ready_keyboard ]] || fail "the daemon did not say where its keyboard is"
libinput_watch "$ready_keyboard" libinput-daemon.log
run_logged daemon-tap "$GESTURECTL" --socket "$socket" press mute
assert_status 0
wait_for_log "$LIBINPUT_LOG" 'KEYBOARD_KEY.*KEY_MUTE \(113\) released'
assert_line_count "$LIBINPUT_LOG" 'KEYBOARD_KEY.*KEY_MUTE \(113\) pressed' 1 "mute presses"

start_background hold.log "$GESTURECTL" --socket "$socket" press KEY_PLAYPAUSE --down
hold_pid=$BACKGROUND_PID
wait_for_log "$CASE_WORK/hold.log" 'holding KEY_PLAYPAUSE down|error:'
wait_for_log "$LIBINPUT_LOG" 'KEYBOARD_KEY.*KEY_PLAYPAUSE \(164\) pressed'
assert_line_count "$LIBINPUT_LOG" 'KEYBOARD_KEY.*KEY_PLAYPAUSE \(164\) released' 0 "KEY_PLAYPAUSE released while held"
kill -TERM "$hold_pid"
wait_background "$hold_pid" 30
assert_equal 130 "$BACKGROUND_STATUS" "the holding client's exit status after SIGTERM"
wait_for_log "$LIBINPUT_LOG" 'KEYBOARD_KEY.*KEY_PLAYPAUSE \(164\) released'

start_background hold-back.log "$GESTURECTL" --socket "$socket" press back --down
hold_back_pid=$BACKGROUND_PID
wait_for_log "$CASE_WORK/hold-back.log" 'holding back down|error:'
wait_for_log "$LIBINPUT_LOG" 'KEYBOARD_KEY.*KEY_BACK \(158\) pressed'
note "sending SIGTERM to the daemon (pid $daemon_pid)"
kill -TERM "$daemon_pid"
wait_background "$daemon_pid" 30
assert_equal 0 "$BACKGROUND_STATUS" "the daemon's exit status after SIGTERM"
assert_log_contains "$CASE_WORK/daemon.log" 'released 1 held key' "the daemon's release on SIGTERM"
wait_for_log "$LIBINPUT_LOG" 'KEYBOARD_KEY.*KEY_BACK \(158\) released'
stop_background "$hold_back_pid"
assert_libinput_content "$LIBINPUT_LOG"
