#!/usr/bin/env bash
# The other two fixture recordings mean what they say, seen by libinput:
# (b) three separate touches, one after another, each starting and ending
# where expected.sh says; (c) a mouse that moves, presses the left button,
# drags and releases it.
# timeout: 180
. "$INTEGRATION/lib.sh"

mm() { printf '%d.00/%d.00mm' $(($1 / TOUCHSCREEN_RESOLUTION)) $(($2 / TOUCHSCREEN_RESOLUTION)); }

# (b) three strokes
create_device touchscreen.evemu
touchscreen=$DEVICE_NODE
libinput_watch "$touchscreen"
play_events "$touchscreen" touch-three-strokes.events
wait_for_lines "$LIBINPUT_LOG" 'TOUCH_UP' "$THREE_STROKES_COUNT"
assert_line_count "$LIBINPUT_LOG" 'TOUCH_DOWN' "$THREE_STROKES_COUNT" "touches down"
assert_line_count "$LIBINPUT_LOG" 'TOUCH_UP' "$THREE_STROKES_COUNT" "touches up"
for stroke in 1 2 3; do
    start_x_name=THREE_STROKES_${stroke}_START_X start_y_name=THREE_STROKES_${stroke}_START_Y
    assert_equal "($(mm "${!start_x_name}" "${!start_y_name}"))" \
        "$(grep 'TOUCH_DOWN' "$LIBINPUT_LOG" | sed -n "${stroke}p" | grep -o '([0-9./]*mm)')" \
        "start of stroke $stroke"
done

# (c) mouse drag
create_device mouse.evemu
mouse=$DEVICE_NODE
libinput_watch "$mouse"
play_events "$mouse" mouse-drag.events
wait_for_log "$LIBINPUT_LOG" 'POINTER_BUTTON .*BTN_LEFT .*released'
assert_line_count "$LIBINPUT_LOG" 'POINTER_BUTTON .*BTN_LEFT .*pressed' 1 "left presses"
assert_line_count "$LIBINPUT_LOG" 'POINTER_BUTTON .*BTN_LEFT .*released' 1 "left releases"
assert_line_count_at_least "$LIBINPUT_LOG" 'POINTER_MOTION' 2 "pointer motion events"
