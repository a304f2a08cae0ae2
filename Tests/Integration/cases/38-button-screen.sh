#!/usr/bin/env bash
# The on-screen button end to end on a real kernel (issue 38): sway on its
# libinput backend (headless output, pixman, a seatd session, run as an
# unprivileged user of the group input) reads the daemon's ready
# touchscreen and a uinput mouse this case moves (absolute, as QEMU's
# tablet is: sway's cursor lands on the pixel asked for). wev is full
# screen beneath gesturectl-button (GESTURECTL_BUTTON_DEBUG=1: it logs every
# pointer and touch event it gets). The daemon (root, its own socket, the
# group input let in) keeps a touchscreen ready and has two gestures:
# three-finger-swipe-up and slow-three-finger-swipe-up, the same at 2 %
# speed (12.5 s; first in the menu, by its name).
#   1. The mouse taps the button: the menu opens (menu.json: Saved gestures
#      first); it clicks Saved gestures, then three-finger-swipe-up (the
#      sub-menu found on grim's pictures, button_screen.py), then
#      a place on the screen: the button asks the daemon to play it there;
#      wev gets three touch-downs in one frame, every finger lifted, and the
#      box around the touches is centred on the tap (±12 px); the button's
#      process gets no touch event at all.
#   2. The slow one, placed elsewhere: once wev has its three fingers down,
#      a tap on the busy button stops it: the button says so, wev sees every
#      finger lifted (an up for each, or a cancel), the daemon's `jobs` is
#      empty; still no touch event reached the button.
# timeout: 180
# resources: alone
# (alone: sway's libinput reads every input device of the guest, and another
# case's mouse or touchscreen would move its cursor or touch wev.)
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"
. "$INTEGRATION/button-session.sh"

# check NAME COMMAND ARGUMENT... : button_screen.py COMMAND, its output in
# check-NAME.log and its `measured:` lines in the case's output; fails the
# case with its reason.
check() {
    local name=$1 log="$CASE_WORK/check-$1.log" status=0 line
    shift
    python3 "$helper" "$@" > "$log" 2>&1 || status=$?
    while IFS= read -r line; do
        if [[ $line == measured:* ]]; then note "$name: ${line#measured: }"; fi
    done < "$log"
    ((status == 0)) || fail "$name: $(grep -m 1 '^CHECK FAILED:' "$log" | sed 's/^CHECK FAILED: //' || tail -n 1 "$log")"
}

# --- 1. tap, Saved gestures, three-finger-swipe-up, a place: wev gets the touches ---
open_saved_gestures 1
click "$SUB_X" "$SUB_SECOND_Y"
wait_for_log "$CASE_WORK/button.log" "^gesturectl-button: placing 'three-finger-swipe-up'"
pause 0.3
tap_x=640 tap_y=400
click "$tap_x" "$tap_y"
wait_for_log "$CASE_WORK/button.log" "^gesturectl-button: playing 'three-finger-swipe-up' at 50%, 55.56% of monitor 0"
wait_for_log "$CASE_WORK/button.log" "^gesturectl-button: played 'three-finger-swipe-up'|Could not play|failed while it played"
assert_log_contains "$CASE_WORK/button.log" "^gesturectl-button: played 'three-finger-swipe-up'" "the button's log"
wait_for_lines "$CASE_WORK/wev.log" 'wl_touch\] up' 3 10
wev_lines=$(wc -l < "$CASE_WORK/wev.log")

# --- 2. the slow one, stopped by a tap on the busy button ------------------------------
open_saved_gestures 2
click "$SUB_X" "$SUB_FIRST_Y"
wait_for_log "$CASE_WORK/button.log" "^gesturectl-button: placing 'slow-three-finger-swipe-up'"
pause 0.3
slow_x=400 slow_y=250
click "$slow_x" "$slow_y"
wait_for_log "$CASE_WORK/button.log" "^gesturectl-button: job [0-9]+ is 'slow-three-finger-swipe-up'"
wait_for_lines "$CASE_WORK/wev.log" 'wl_touch\] down' 6 20
click "$centre_x" "$centre_y"
wait_for_log "$CASE_WORK/button.log" '^gesturectl-button: stopping job [0-9]+'
wait_for_log "$CASE_WORK/button.log" 'Stopped .*slow-three-finger-swipe-up.*every finger lifted'
# (The first play's three ups, then at least one of this one's.)
wait_for_lines "$CASE_WORK/wev.log" 'wl_touch\] (cancel|up)' 4 10
pause 0.5
# What wev got (1 and 2) and the daemon's jobs, in one Python.
check wev-and-jobs touches "$CASE_WORK/wev.log" 1 "$wev_lines" "$tap_x" "$tap_y" whole \
    -- touches "$CASE_WORK/wev.log" $((wev_lines + 1)) 0 "$slow_x" "$slow_y" cut -- jobs "$socket"

# --- the button got pointer events, and never a touch ------------------------------------
assert_log_contains "$CASE_WORK/button.log" '^gesturectl-button: debug: 4 local' "the button's debug lines (a button press)"
assert_log_lacks "$CASE_WORK/button.log" '^gesturectl-button: debug: (37|38|39|40) local' "the button's debug lines (touch events)"
stop_background "$button_pid"
