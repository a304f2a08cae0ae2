#!/usr/bin/env bash
# The kernel side of the tier works: evemu-device creates the fixture
# touchscreen through uinput, udev classifies it, libinput adds it and, when
# fixture (a) is played into it, reports exactly one touch going down where
# the stroke starts, moving once per frame, and going up.
# timeout: 120
. "$INTEGRATION/lib.sh"

create_device touchscreen.evemu
udevadm info --query=property --name="$DEVICE_NODE" > udev-properties.txt
assert_log_contains udev-properties.txt '^ID_INPUT_TOUCHSCREEN=1$' "udev classification"

libinput_watch "$DEVICE_NODE"
assert_log_contains "$LIBINPUT_LOG" "DEVICE_ADDED +$TOUCHSCREEN_NAME .*size ${TOUCHSCREEN_WIDTH_MM}x${TOUCHSCREEN_HEIGHT_MM}mm" \
    "libinput's size of the touchscreen"

play_events "$DEVICE_NODE" touch-one-stroke.events
wait_for_log "$LIBINPUT_LOG" 'TOUCH_UP'

# Positions in mm are device units / resolution, printed with 2 decimals.
start_mm=$(printf '%d.00/%d.00mm' $((ONE_STROKE_START_X / TOUCHSCREEN_RESOLUTION)) $((ONE_STROKE_START_Y / TOUCHSCREEN_RESOLUTION)))
end_mm=$(printf '%d.00/%d.00mm' $((ONE_STROKE_END_X / TOUCHSCREEN_RESOLUTION)) $((ONE_STROKE_END_Y / TOUCHSCREEN_RESOLUTION)))
assert_line_count "$LIBINPUT_LOG" 'TOUCH_DOWN' 1 "touches down"
assert_log_contains "$LIBINPUT_LOG" "TOUCH_DOWN .*\($start_mm\)" "where the touch went down"
assert_line_count "$LIBINPUT_LOG" 'TOUCH_MOTION' "$ONE_STROKE_MOTION_FRAMES" "touch motion events"
assert_equal "($end_mm)" "$(grep 'TOUCH_MOTION' "$LIBINPUT_LOG" | tail -n 1 | grep -o '([0-9./]*mm)')" "where the last motion ended"
assert_line_count "$LIBINPUT_LOG" 'TOUCH_UP' 1 "touches up"
