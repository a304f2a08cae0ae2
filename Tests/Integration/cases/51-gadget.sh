#!/usr/bin/env bash
# `gesturectl gadget up|status|down` and `play --to gadget`, looped back by
# dummy_hcd: the gadget binds to dummy_udc.0, the host side (this same
# kernel) binds hid-multitouch and libinput adds a 10-touch 216x135 mm
# touchscreen; a two-finger drag played through /dev/hidg0 reaches libinput
# as two fingers down together, moving at the file's millimetres, and two
# lifts; `gadget status --json` says configured; a host that stops reading
# makes the play fail with "the host is not reading"; `gadget down` removes the
# configfs folder and the host's device, and a play then names the fix.
# timeout: 150
# resources: uhid
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

modprobe dummy_hcd || skip "no dummy_hcd in this kernel"
modprobe libcomposite || skip "no libcomposite in this kernel"
modprobe usb_f_hid || skip "no usb_f_hid in this kernel"
modprobe hid-multitouch || true
HOST_NAME='gesturectl HID touchscreen'

"$GESTURECTL" synth swipe --direction right --fingers 2 --distance 40 --duration 300ms -o drag.gesture.json

udev_monitor_start
libinput_watch_seat_for "$HOST_NAME" libinput.log
# configfs is mounted by `gadget up` when it is not.
run_logged up "$GESTURECTL" gadget up
assert_status 0
assert_log_contains up.out 'bound to dummy_udc\.0' "gadget up's report"
wait_for_input_device "$HOST_NAME"
libinput_wait_added "$DEVICE_NODE"
assert_log_contains "$LIBINPUT_LOG" "DEVICE_ADDED +$HOST_NAME .*cap:t .*size 216x135mm ntouches 10" "libinput's view of the host-side touchscreen"

run_logged status "$GESTURECTL" gadget status --json
assert_status 0
python3 - status.out <<'PY' || fail "gadget status --json: $(cat status.out)"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["exists"] and s["udc"] == "dummy_udc.0" and s["state"] == "configured" and s["configured"], s
t = [f for f in s["functions"] if f["name"] == "touchscreen"][0]
assert t["devnode"].startswith("/dev/hidg") and t["contacts"] == 10 and t["width_mm"] == 216 and t["height_mm"] == 135, t
PY

run_logged play "$GESTURECTL" play --to gadget drag.gesture.json
assert_status 0
wait_for_lines "$LIBINPUT_LOG" 'TOUCH_UP' 2
assert_libinput_content "$LIBINPUT_LOG"
gesturectl_check libinput libinput-touch drag.gesture.json "$LIBINPUT_LOG" --touch-down-together

# A host that stops reading (its HID driver unbound; the UDC stays
# configured): the play fails with the message, it does not hang.
for interface in /sys/bus/usb/drivers/usbhid/*:*; do echo -n "${interface##*/}" > /sys/bus/usb/drivers/usbhid/unbind; done
run_logged play-unread "$GESTURECTL" play --to gadget drag.gesture.json
[[ $RUN_STATUS != 0 ]] || fail "play --to gadget to a host that does not read succeeded"
assert_log_contains play-unread.err 'the host is not reading \(is the cable in a host.s port, is the host awake\?\)' "play to a host that does not read"
assert_log_contains play-unread.err 'the lift could not be written either' "play to a host that does not read"

run_logged down "$GESTURECTL" gadget down
assert_status 0
[[ ! -e /sys/kernel/config/usb_gadget/gesturectl ]] || fail "gadget down left /sys/kernel/config/usb_gadget/gesturectl"
wait_for_log "$LIBINPUT_LOG" 'DEVICE_REMOVED'
run_logged play-after "$GESTURECTL" play --to gadget drag.gesture.json
[[ $RUN_STATUS != 0 ]] || fail "play --to gadget without a gadget succeeded"
assert_log_contains play-after.err 'gesturectl gadget up' "play --to gadget without a gadget"
