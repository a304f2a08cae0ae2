#!/usr/bin/env bash
# The touchpad fixture is a real clickpad to libinput: fixture
# touchpad-swipe3 (three fingers moving right together) is one 3-finger
# swipe. evemu-record, reading the same node at the same time, sees all
# three contacts begin and end.
# timeout: 120
. "$INTEGRATION/lib.sh"

create_device touchpad.evemu
udevadm info --query=property --name="$DEVICE_NODE" > udev-properties.txt
assert_log_contains udev-properties.txt '^ID_INPUT_TOUCHPAD=1$' "udev classification"

libinput_watch "$DEVICE_NODE"
assert_log_contains "$LIBINPUT_LOG" "DEVICE_ADDED +$TOUCHPAD_NAME .*cap:pg? .*size ${TOUCHPAD_WIDTH_MM}x${TOUCHPAD_HEIGHT_MM}mm" \
    "libinput's view of the touchpad"
evemu_record_watch "$DEVICE_NODE"

play_events "$DEVICE_NODE" touchpad-swipe3.events
wait_for_log "$LIBINPUT_LOG" 'GESTURE_SWIPE_END'
assert_line_count "$LIBINPUT_LOG" "GESTURE_SWIPE_BEGIN .*[[:space:]]$SWIPE3_FINGERS\$" 1 "3-finger swipe begins"
assert_line_count_at_least "$LIBINPUT_LOG" "GESTURE_SWIPE_UPDATE .*[[:space:]]$SWIPE3_FINGERS " $((SWIPE3_MOTION_FRAMES / 2)) "3-finger swipe updates"
assert_log_lacks "$LIBINPUT_LOG" 'GESTURE_SWIPE_END .*cancelled' "swipe end"

# evemu-record is drained once the last frame (all fingers up) is in it.
wait_for_lines "$EVEMU_RECORD_LOG" '^E: .* 0003 0039 -001' "$SWIPE3_FINGERS"
assert_line_count "$EVEMU_RECORD_LOG" '^E: .* 0003 0039 000[1-9]' "$SWIPE3_FINGERS" "contacts begun (evemu-record)"
