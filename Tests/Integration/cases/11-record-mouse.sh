#!/usr/bin/env bash
# a2. A mouse drag: evemu-play moves the fixture mouse, presses the left
# button, drags and releases it (fixture mouse-drag) while `gesturectl
# record` records it and evemu-record reads the same node. The file has one
# pointer stroke with the left button that starts where the hover left the
# pointer (from the centre of the 1920x1080 virtual screen) and whose
# displacement is the sum of REL_X/REL_Y evemu-record saw during the drag;
# positions exact, times exactly the kernel's and within the played file's
# tolerance (gesturectl_check.py, compare_played_times).
# timeout: 120
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

create_device mouse.evemu
evemu_record_watch "$DEVICE_NODE"
start_gesturectl_record record.log --device "$DEVICE_NODE" -o recorded.gesture.json --idle-timeout 1 --screen 1920x1080

play_events "$DEVICE_NODE" mouse-drag.events
wait_background "$RECORD_PID" 30
[[ $BACKGROUND_STATUS == 0 ]] || fail "gesturectl record: exit status $BACKGROUND_STATUS ($(tail -n 3 record.log | tr '\n' '|'))"
assert_log_contains record.log 'stopped: idle timeout' "why the recording stopped"

wait_for_log "$EVEMU_RECORD_LOG" '^E: .* 0001 0110 0000'
gesturectl_check record record-mouse recorded.gesture.json "$FIXTURES/mouse-drag.events" "$EVEMU_RECORD_LOG" --screen 1920x1080
# The same numbers as the fixture's own account of itself (expected.sh).
python3 -c '
import json, sys
samples = json.load(open("recorded.gesture.json"))["strokes"][0]["samples"]
print(samples[-1][1] - samples[0][1], samples[-1][2] - samples[0][2])' > displacement.txt
assert_equal "$MOUSE_DRAG_DX $MOUSE_DRAG_DY" "$(<displacement.txt)" "drag displacement (expected.sh)"
