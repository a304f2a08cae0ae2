#!/usr/bin/env bash
# b. `gesturectl play` of a merged gesture onto its virtual touchscreen, as
# libinput sees it: three one-finger strokes made apart (synth) and merged
# into one 3-finger gesture (`gesturectl merge`, aligned by start) go down
# in libinput's first touch frame together (one timestamp), every position
# libinput reports (TOUCH_DOWN and TOUCH_MOTION, in mm) is within 0.5 mm of
# the file's (units / the gesture's resolution), in order, and each finger
# has its TOUCH_UP. libinput reports the gesture's size for the device and
# no complaint about it.
# timeout: 150
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

# Different places, directions and lengths, so that the fingers also lift
# at different times.
"$GESTURECTL" synth swipe --direction up --distance 40 --duration 400ms --centre 60,70 -o up.gesture.json
"$GESTURECTL" synth swipe --direction right --distance 30 --duration 300ms --centre 108,40 -o right.gesture.json
"$GESTURECTL" synth swipe --direction down --distance 25 --duration 250ms --centre 160,60 -o down.gesture.json
"$GESTURECTL" merge up.gesture.json right.gesture.json down.gesture.json -o merged.gesture.json
size=$(python3 -c 'import json; d = json.load(open("merged.gesture.json"))["device"]; print("%gx%gmm" % (d["width_mm"], d["height_mm"]))')

libinput_watch_for "$VIRTUAL_TOUCHSCREEN_NAME" libinput.log
start_gesturectl_play play.log "$VIRTUAL_TOUCHSCREEN_NAME" merged.gesture.json
libinput_wait_added "$PLAY_NODE"
assert_log_contains "$LIBINPUT_LOG" "DEVICE_ADDED +$VIRTUAL_TOUCHSCREEN_NAME .*cap:t .*size $size" "libinput's view of the virtual touchscreen"
finish_gesturectl_play 0
wait_for_lines "$LIBINPUT_LOG" 'TOUCH_UP' 3

assert_libinput_content "$LIBINPUT_LOG"
gesturectl_check libinput libinput-touch merged.gesture.json "$LIBINPUT_LOG" --touch-down-together
