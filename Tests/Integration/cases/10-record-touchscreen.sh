#!/usr/bin/env bash
# a1. A human stand-in draws on a touchscreen: evemu-device creates the
# fixture touchscreen, evemu-play draws fixture touch-one-stroke while
# `gesturectl record --idle-timeout 1` records it, and evemu-record reads the
# same node. The file has one finger stroke whose positions are exactly the
# played ones (device units, a sample per frame and one at the lift), whose
# times are exactly the kernel's timestamps as evemu-record saw them, and
# within the tolerance of gesturectl_check.py (compare_played_times) of the
# played file's times: evemu-play itself falls behind under emulation.
# timeout: 120
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

create_device touchscreen.evemu
evemu_record_watch "$DEVICE_NODE"
start_gesturectl_record record.log --device "$DEVICE_NODE" -o recorded.gesture.json --idle-timeout 1

play_events "$DEVICE_NODE" touch-one-stroke.events
wait_background "$RECORD_PID" 30
[[ $BACKGROUND_STATUS == 0 ]] || fail "gesturectl record: exit status $BACKGROUND_STATUS ($(tail -n 3 record.log | tr '\n' '|'))"
assert_log_contains record.log 'stopped: idle timeout' "why the recording stopped"
[[ -s recorded.gesture.json ]] || fail "gesturectl record wrote no recorded.gesture.json"

# evemu-record has everything once the lift is in it.
wait_for_log "$EVEMU_RECORD_LOG" '^E: .* 0003 0039 -001'
gesturectl_check record record-touch recorded.gesture.json "$FIXTURES/touch-one-stroke.events" "$EVEMU_RECORD_LOG"
