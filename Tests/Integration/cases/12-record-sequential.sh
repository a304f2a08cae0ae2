#!/usr/bin/env bash
# a3. AssistiveTouch's "Create New Gesture": `gesturectl record --sequential`
# while evemu-play draws three strokes one after another on the fixture
# touchscreen (fixture touch-three-strokes: three contacts, 300 ms apart).
# The file has three finger strokes, one per contact, that all start at 0
# (merged to start together), each with exactly the positions drawn and the
# kernel's time since its own first contact (evemu-record of the same node);
# the device has room for the three fingers (slots >= 3).
# timeout: 120
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

create_device touchscreen.evemu
evemu_record_watch "$DEVICE_NODE"
start_gesturectl_record record.log --sequential --device "$DEVICE_NODE" -o recorded.gesture.json --idle-timeout 1

play_events "$DEVICE_NODE" touch-three-strokes.events
wait_background "$RECORD_PID" 30
[[ $BACKGROUND_STATUS == 0 ]] || fail "gesturectl record: exit status $BACKGROUND_STATUS ($(tail -n 3 record.log | tr '\n' '|'))"
assert_log_contains record.log 'stopped: idle timeout' "why the recording stopped"

wait_for_lines "$EVEMU_RECORD_LOG" '^E: .* 0003 0039 -001' "$THREE_STROKES_COUNT"
gesturectl_check record record-touch recorded.gesture.json "$FIXTURES/touch-three-strokes.events" "$EVEMU_RECORD_LOG" --sequential
# Independently of the checker: the strokes start together in the JSON.
python3 -c '
import json
gesture = json.load(open("recorded.gesture.json"))
print(len(gesture["strokes"]), *sorted({s["samples"][0][0] for s in gesture["strokes"]}))' > starts.txt
assert_equal "$THREE_STROKES_COUNT 0" "$(<starts.txt)" "stroke count and start times"
