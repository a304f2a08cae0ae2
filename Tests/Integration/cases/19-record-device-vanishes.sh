#!/usr/bin/env bash
# The device is unplugged mid-recording: evemu-play draws a stroke, then the
# evemu-device process (the device's owner) is killed, which destroys the
# device. gesturectl record must keep what it had: write the file, say that
# the device vanished, and exit 1 (issue 3: "Device unplugged
# mid-recording: save the strokes so far, say so, exit non-zero").
# timeout: 120
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

create_device touchscreen.evemu
start_gesturectl_record record.log --device "$DEVICE_NODE" -o recorded.gesture.json

play_events "$DEVICE_NODE" touch-one-stroke.events
kill -TERM "$DEVICE_PID"
wait_background "$RECORD_PID" 30
assert_equal 1 "$BACKGROUND_STATUS" "gesturectl record's exit status after the device vanished"
assert_log_contains record.log 'the device vanished' "what gesturectl said"
[[ -s recorded.gesture.json ]] || fail "gesturectl record wrote nothing although a stroke was drawn"
strokes=$("$GESTURECTL" describe --json recorded.gesture.json | python3 -c 'import json,sys; print(json.load(sys.stdin)["strokes"])')
assert_equal 1 "$strokes" "strokes kept from before the device vanished"
