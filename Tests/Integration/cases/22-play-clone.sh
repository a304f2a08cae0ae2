#!/usr/bin/env bash
# `gesturectl play --clone DEVICE`: the gesture is played on a uinput copy of
# a real device's description (here the fixture touchscreen made by
# evemu-device, chosen by its node): the copy carries the original's axes
# and ids under the name "gesturectl clone of …", and libinput sees the
# touch go down and up on it.
# timeout: 150
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

create_device touchscreen.evemu
original=$DEVICE_NODE
clone_name="gesturectl clone of $DEVICE_NAME"
libinput_watch_for "$clone_name" libinput-clone.log
start_gesturectl_play play.log "$clone_name" --clone "$original" two-finger-tap
libinput_wait_added "$PLAY_NODE"
clone_sysfs=/sys/class/input/${PLAY_NODE##*/}/device/id
vendor=$(<"$clone_sysfs/vendor") product=$(<"$clone_sysfs/product")
clone_ids="$(<"$clone_sysfs/bustype")/$vendor/$product/$(<"$clone_sysfs/version")"
assert_log_contains "$LIBINPUT_LOG" "DEVICE_ADDED +$clone_name .*cap:t .*size 200x125mm" "libinput's view of the clone"
finish_gesturectl_play 0
wait_for_lines "$LIBINPUT_LOG" 'TOUCH_UP' 2
assert_line_count "$LIBINPUT_LOG" 'TOUCH_DOWN' 2
assert_libinput_content "$LIBINPUT_LOG"
# The clone keeps the original's ids (read while the play was held on it).
want_vendor=$(cat "/sys/class/input/${original##*/}/device/id/vendor")
want_product=$(cat "/sys/class/input/${original##*/}/device/id/product")
note "measured: original vendor $want_vendor product $want_product; clone PRODUCT=$clone_ids"
assert_equal "$((16#$want_vendor))" "$((16#${vendor:-0}))" "the clone's vendor id"
assert_equal "$((16#$want_product))" "$((16#${product:-0}))" "the clone's product id"
