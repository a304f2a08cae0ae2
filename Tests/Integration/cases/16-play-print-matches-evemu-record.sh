#!/usr/bin/env bash
# e. `gesturectl play --print` says exactly what playing writes: for a
# merged 3-finger gesture on the virtual touchscreen, the library's
# three-finger swipe on the virtual touchpad (BTN_TOOL_TRIPLETAP), and a
# one-finger swipe on the virtual mouse (BTN_LEFT, REL_X/REL_Y), the
# device description (N, I, P, B, A lines) and every frame (type, code,
# value, frame boundaries, SYN_REPORT value) that evemu-record reads from
# the played device equal the --print output. Absolute times are not
# compared; the frames' distance from the schedule is reported.
# timeout: 200
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

"$GESTURECTL" synth swipe --direction up --distance 40 --duration 400ms --centre 60,70 -o up.gesture.json
"$GESTURECTL" synth swipe --direction right --distance 30 --duration 300ms --centre 108,40 -o right.gesture.json
"$GESTURECTL" synth swipe --direction down --distance 25 --duration 250ms --centre 160,60 -o down.gesture.json
"$GESTURECTL" merge up.gesture.json right.gesture.json down.gesture.json -o merged.gesture.json

# compare_play LABEL DEVICE-NAME GESTURE [PLAY-OPTION...]
compare_play() {
    local label=$1 device_name=$2 gesture=$3
    shift 3
    run_logged "print-$label" "$GESTURECTL" play "$gesture" --print "$@"
    assert_status 0
    evemu_record_watch_for "$device_name" "evemu-record-$label.log"
    start_gesturectl_play "play-$label.log" "$device_name" "$gesture" --json "$@"
    evemu_record_wait_ready "$PLAY_NODE"
    finish_gesturectl_play 0
    # The device lingers after the last frame, and evemu-record reads it
    # before it goes: everything is in the log once the play has ended.
    note "$label: gesturectl play --json: $(grep -m 1 '^{' "$CASE_WORK/$PLAY_LOG")"
    gesturectl_check "$label" compare-evemu "print-$label.out" "$EVEMU_RECORD_LOG"
    stop_background "$EVEMU_RECORD_PID"
}

compare_play touchscreen "$VIRTUAL_TOUCHSCREEN_NAME" merged.gesture.json
compare_play touchpad "$VIRTUAL_TOUCHPAD_NAME" "$REPO_ROOT/Recordings/three-finger-swipe-up.gesture.json" --as touchpad
compare_play mouse "$VIRTUAL_MOUSE_NAME" up.gesture.json --as mouse
