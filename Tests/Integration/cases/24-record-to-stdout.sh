#!/usr/bin/env bash
# `gesturectl record -o -` writes the gesture, and nothing else, to standard
# output (a pipe), so that it composes: the output must be a valid gesture
# with the played stroke. (A path printed after the JSON once broke this.)
# timeout: 120
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

create_device touchscreen.evemu
# Standard output to its own file; standard error (the notes) to the log.
start_background record.log bash -c 'exec "$0" record --device "$1" -o - --idle-timeout 1 > recorded.gesture.json' \
    "$GESTURECTL" "$DEVICE_NODE"
RECORD_PID=$BACKGROUND_PID
wait_for_log "$CASE_WORK/record.log" 'recording from'
play_events "$DEVICE_NODE" touch-one-stroke.events
wait_background "$RECORD_PID" 30
assert_equal 0 "$BACKGROUND_STATUS" "gesturectl record's exit status"
run_logged validate "$GESTURECTL" validate recorded.gesture.json
assert_status 0
assert_log_contains "$CASE_WORK/validate.out" 'ok \(1 finger' "the recorded gesture read back"
