#!/usr/bin/env bash
# Recording through the daemon: `gesturectl daemon` reads a touchscreen that
# evemu-device creates from the fixture; `gesturectl --socket … record
# --device NODE --idle-timeout 1 -o out.gesture.json` asks it to record
# while evemu-play draws fixture touch-one-stroke and evemu-record reads the
# same node. The client writes the file as a local recording would (its path
# printed, exit 0, stopped by the idle timeout), the stroke is checked as
# case 10 checks a local one (gesturectl_check.py record-touch), and a
# subscriber to the `record` event got the stroke as it was drawn.
# timeout: 180
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

socket=$CASE_WORK/d.sock
start_background daemon.log "$GESTURECTL" daemon --socket "$socket" --library "$CASE_WORK/library"
wait_for_log "$CASE_WORK/daemon.log" 'ready: listening on|error:'
assert_log_contains "$CASE_WORK/daemon.log" 'ready: listening on' "the daemon's start"

# A subscriber to the record event, one line per event.
python3 -c '
import json, socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
lines = s.makefile("rw", encoding="utf-8", newline="\n")
lines.write(json.dumps({"id": 1, "op": "subscribe", "events": ["record"]}) + "\n"); lines.flush()
with open(sys.argv[2], "a", buffering=1) as out:
    for line in lines: out.write(line)
' "$socket" "$CASE_WORK/events.log" &
BACKGROUND_PIDS+=($!)
wait_for_log "$CASE_WORK/events.log" '"ok": true'

create_device touchscreen.evemu
evemu_record_watch "$DEVICE_NODE"
start_background record.log "$GESTURECTL" --socket "$socket" record --device "$DEVICE_NODE" --idle-timeout 1 -o "$CASE_WORK/out.gesture.json"
RECORD_PID=$BACKGROUND_PID
wait_for_log "$CASE_WORK/record.log" 'recording through the daemon|error:'
assert_log_contains "$CASE_WORK/record.log" 'recording through the daemon' "gesturectl record's start"

play_events "$DEVICE_NODE" touch-one-stroke.events
wait_background "$RECORD_PID" 30
[[ $BACKGROUND_STATUS == 0 ]] || fail "gesturectl --socket … record: exit status $BACKGROUND_STATUS ($(tail -n 3 "$CASE_WORK/record.log" | tr '\n' '|'))"
assert_log_contains "$CASE_WORK/record.log" 'stopped: idle timeout' "why the recording stopped"
assert_log_contains "$CASE_WORK/record.log" "^$CASE_WORK/out.gesture.json\$" "the printed path"
[[ -s $CASE_WORK/out.gesture.json ]] || fail "gesturectl record wrote no out.gesture.json"
assert_log_contains "$CASE_WORK/events.log" '"event": "record"' "the stroke pushed to the subscriber"

wait_for_log "$EVEMU_RECORD_LOG" '^E: .* 0003 0039 -001'
gesturectl_check record record-touch "$CASE_WORK/out.gesture.json" "$FIXTURES/touch-one-stroke.events" "$EVEMU_RECORD_LOG"
