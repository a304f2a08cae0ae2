#!/usr/bin/env bash
# SYN_DROPPED for real: gesturectl record is stopped (SIGSTOP) while two
# fingers go down and drag for ~2,800 events, far more than the kernel's
# per-reader buffer (~512 events for a 10-slot device), so the kernel drops
# what was queued and queues SYN_DROPPED, again and again; the frames after
# the last drop stay queued (~36 frames of 7 events here). After SIGCONT
# gesturectl must resynchronise (the fingers are still down: it learns
# where they are from the kernel's state, not from the lost events), keep
# the frames the kernel kept (libevdev's resync would discard them), warn,
# keep recording, and store the count in the file. Then both fingers lift:
# two strokes, each with the kept frames' samples and ending where the drag
# ended, dropped_events >= 1. (Touches that begin and end entirely in the
# gap are lost by design: the kernel's state no longer knows them.)
# timeout: 120
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

python3 - > flood.events <<'PY'
print("# EVEMU 1.3")
def event(t, type_, code, value):
    print("E: %d.%06d %04x %04x %04d" % (t // 1_000_000, t % 1_000_000, type_, code, value))
ABS, KEY, SYN = 3, 1, 0
SLOT, TRACKING, X, Y, TOUCH = 0x2f, 0x39, 0x35, 0x36, 0x14a
t = 0
for slot, tracking, x in ((0, 1, 1000), (1, 2, 3000)):
    event(t, ABS, SLOT, slot); event(t, ABS, TRACKING, tracking); event(t, ABS, X, x); event(t, ABS, Y, 1000)
event(t, KEY, TOUCH, 1); event(t, SYN, 0, 0)
for step in range(1, 401):
    t += 1000
    for slot, x in ((0, 1000), (1, 3000)):
        event(t, ABS, SLOT, slot); event(t, ABS, X, x + step); event(t, ABS, Y, 1000 + step)
    event(t, SYN, 0, 0)
PY
python3 - > lift.events <<'PY'
print("# EVEMU 1.3")
for line in ("0003 002f 0000", "0003 0039 -001", "0003 002f 0001", "0003 0039 -001", "0001 014a 0000", "0000 0000 0000"):
    print("E: 0.000000 " + line)
PY

create_device touchscreen.evemu
start_gesturectl_record record.log --device "$DEVICE_NODE" -o recorded.gesture.json --idle-timeout 1
kill -STOP "$RECORD_PID"
play_events "$DEVICE_NODE" "$CASE_WORK/flood.events"
kill -CONT "$RECORD_PID"
wait_for_log "$CASE_WORK/record.log" 'the kernel dropped events'
play_events "$DEVICE_NODE" "$CASE_WORK/lift.events"
wait_background "$RECORD_PID" 30
assert_equal 0 "$BACKGROUND_STATUS" "gesturectl record's exit status"
assert_log_contains record.log 'the kernel dropped events' "the warning about dropped events"
[[ -s recorded.gesture.json ]] || fail "gesturectl record wrote no file"
read -r dropped strokes samples ends < <(python3 -c '
import json, sys
g = json.load(open(sys.argv[1]))
s = g["strokes"]
counts = ",".join(str(len(stroke["samples"])) for stroke in s)
ends = ",".join("%d:%d" % tuple(stroke["samples"][-1][1:3]) for stroke in s)
print(g.get("metadata", {}).get("dropped_events", 0), len(s), counts or "-", ends or "-")' recorded.gesture.json)
note "measured: dropped_events=$dropped strokes=$strokes samples=$samples ends=$ends"
[[ $dropped -ge 1 ]] || fail "metadata.dropped_events is $dropped; expected at least 1"
assert_equal 2 "$strokes" "strokes (the two fingers, known from the resync)"
# Samples are [time, x, y] in device units: the drag ends at x+400, y 1400.
assert_equal "1400:1400,3400:1400" "$ends" "where the strokes end"
for count in ${samples//,/ }; do
    [[ $count -ge 20 ]] || fail "a stroke has $count samples; the ~36 frames the kernel kept after the last drop should give it at least 20 (libevdev's resync discards them: 2)"
done
