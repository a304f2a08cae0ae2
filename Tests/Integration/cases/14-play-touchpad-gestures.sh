#!/usr/bin/env bash
# c. Gestures played `--as touchpad` are touchpad gestures to libinput: the
# library's three-finger swipes up and left (touchscreen gestures, mapped
# onto the virtual clickpad) give GESTURE_SWIPE_BEGIN with 3 fingers,
# updates that go the swipe's way, and an END that is not cancelled;
# pinch-in and pinch-out give GESTURE_PINCH_BEGIN with their finger count,
# a scale that ends below (in) or above (out) 1, and a regular END.
# libinput accepts the device as a clickpad and complains about nothing
# (no "touch jump", which bunched frames used to cause).
# timeout: 300
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

recordings=$REPO_ROOT/Recordings
fingers_of() { python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["strokes"]))' "$1"; }

# play_on_touchpad NAME GESTURE-TYPE : plays Recordings/NAME on a virtual
# touchpad observed by libinput, and checks the gesture it reports.
play_on_touchpad() {
    local name=$1 type=$2 fingers
    fingers=$(fingers_of "$recordings/$name.gesture.json")
    libinput_watch_for "$VIRTUAL_TOUCHPAD_NAME" "libinput-$name.log"
    start_gesturectl_play "play-$name.log" "$VIRTUAL_TOUCHPAD_NAME" "$recordings/$name.gesture.json" --as touchpad
    libinput_wait_added "$PLAY_NODE"
    assert_log_contains "$LIBINPUT_LOG" "DEVICE_ADDED +$VIRTUAL_TOUCHPAD_NAME .*cap:pg" "libinput's view of the virtual touchpad"
    finish_gesturectl_play 0
    wait_for_log "$LIBINPUT_LOG" "GESTURE_${type}_END"
    assert_line_count "$LIBINPUT_LOG" "GESTURE_${type}_BEGIN .*[[:space:]]$fingers\$" 1 "$name: $fingers-finger ${type,,} begins"
    assert_line_count_at_least "$LIBINPUT_LOG" "GESTURE_${type}_UPDATE .*[[:space:]]$fingers " 3 "$name: ${type,,} updates"
    assert_log_lacks "$LIBINPUT_LOG" "GESTURE_${type}_END .*cancelled" "$name: ${type,,} end"
    local other=PINCH
    if [[ $type == PINCH ]]; then other=SWIPE; fi
    assert_log_lacks "$LIBINPUT_LOG" "GESTURE_${other}_BEGIN" "$name: no ${other,,}"
    assert_libinput_content "$LIBINPUT_LOG"
    gesturectl_check "$name" libinput-gesture "$LIBINPUT_LOG" "$recordings/$name.gesture.json"
    stop_background "$LIBINPUT_PID"
    note "$name: libinput reported $(grep -m 1 "GESTURE_${type}_BEGIN" "$LIBINPUT_LOG" | tr -s ' \t' ' ') and $(count_lines "$LIBINPUT_LOG" "GESTURE_${type}_UPDATE") updates"
}

for name in three-finger-swipe-up three-finger-swipe-left; do
    [[ $(fingers_of "$recordings/$name.gesture.json") == 3 ]] || fail "$name does not have 3 strokes"
done
play_on_touchpad three-finger-swipe-up SWIPE
play_on_touchpad three-finger-swipe-left SWIPE
play_on_touchpad pinch-in PINCH
play_on_touchpad pinch-out PINCH
