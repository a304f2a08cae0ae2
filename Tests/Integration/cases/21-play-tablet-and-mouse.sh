#!/usr/bin/env bash
# `gesturectl play --as tablet` and `--as mouse`, as libinput sees them:
# the virtual tablet is a tablet (cap:T) whose pen comes into proximity,
# touches down, moves and lifts, and leaves proximity; the virtual mouse is
# a pointer (cap:p) whose left button is pressed, moves, and is released.
# Nothing is left pressed and libinput complains about nothing.
# timeout: 150
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

"$GESTURECTL" synth swipe --direction right --distance 60 --duration 300ms -o drag.gesture.json

# libinput loads libwacom's whole database of tablets when it adds a
# tablet: under emulation slower than any lead-in, so that the frames went
# out (and the device went) before libinput read them. The play is held on
# its device until libinput has added it (start_gesturectl_play's gate).
libinput_watch_for 'gesturectl virtual tablet' libinput-tablet.log
start_gesturectl_play tablet.log 'gesturectl virtual tablet' --as tablet drag.gesture.json
libinput_wait_added "$PLAY_NODE"
tablet_log=$LIBINPUT_LOG
assert_log_contains "$tablet_log" 'DEVICE_ADDED +gesturectl virtual tablet .*cap:T' "libinput's view of the virtual tablet"
finish_gesturectl_play 0
wait_for_lines "$tablet_log" 'TABLET_TOOL_PROXIMITY.*proximity-out' 1
assert_log_contains "$tablet_log" 'TABLET_TOOL_PROXIMITY.*proximity-in' "the pen coming into proximity"
assert_log_contains "$tablet_log" 'TABLET_TOOL_TIP.*down' "the pen touching down"
assert_log_contains "$tablet_log" 'TABLET_TOOL_AXIS' "the pen moving"
assert_log_contains "$tablet_log" 'TABLET_TOOL_TIP.*up' "the pen lifting"
assert_libinput_content "$tablet_log"
stop_background "$LIBINPUT_PID"

libinput_watch_for "$VIRTUAL_MOUSE_NAME" libinput-mouse.log
start_gesturectl_play mouse.log "$VIRTUAL_MOUSE_NAME" --as mouse drag.gesture.json
libinput_wait_added "$PLAY_NODE"
mouse_log=$LIBINPUT_LOG
assert_log_contains "$mouse_log" "DEVICE_ADDED +$VIRTUAL_MOUSE_NAME .*cap:p" "libinput's view of the virtual mouse"
finish_gesturectl_play 0
wait_for_lines "$mouse_log" 'POINTER_BUTTON.*BTN_LEFT.*released' 1
assert_log_contains "$mouse_log" 'POINTER_BUTTON.*BTN_LEFT.*pressed' "the left button pressed"
motions=$(count_lines "$mouse_log" 'POINTER_MOTION')
[[ $motions -ge 5 ]] || fail "libinput saw $motions POINTER_MOTION events; expected the drag's motion"
note "measured: $motions POINTER_MOTION events"
assert_libinput_content "$mouse_log"
