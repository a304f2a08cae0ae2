#!/usr/bin/env bash
# `gesturectl play --to uhid`: devices made through /dev/uhid and driven by
# the kernel's own HID drivers, seen by independent tools.
#   1. UhidDevice's Swift suite ("uhid devices"): a boot mouse is bound, its
#      evdev node found by the uniq it was created with, its reports read
#      back as events.
#   2. A two-finger drag played --to uhid: hid-multitouch binds the
#      touchscreen (evemu-record shows INPUT_PROP_DIRECT, 10 slots and the
#      resolution the profile's millimetres give); libinput sees both
#      fingers go down together, move and lift, at the file's millimetres.
#   3. SIGINT mid-play --to uhid: exit 130, every finger lifted.
#   4. A mouse drag --to uhid: libinput sees a pointer whose left button is
#      pressed, moves and is released.
#   5. Without access to /dev/uhid: exit 4 and what to do.
# timeout: 240
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

modprobe uhid || skip "no uhid module in this kernel"
modprobe hid-multitouch || skip "no hid-multitouch module in this kernel"
[[ -c /dev/uhid ]] || fail "/dev/uhid is missing after 'modprobe uhid'"

# 1. The Swift suite, from the host-built test binary (as case 18 runs its suites).
binary=$(dirname "$GESTURECTL")/gesturectlPackageTests.xctest
not_runnable() { if [[ ${CI:-} == true ]]; then fail "$@"; else skip "$@"; fi; }
[[ -x $binary ]] || not_runnable "no test build ($binary): run 'swift build --build-tests' before the tier"
run_logged swift-testing env NO_COLOR=1 "$binary" --testing-library swift-testing --filter 'UhidKernelTests'
grep -E '(passed|failed|skipped)' swift-testing.err > results.txt || true
while IFS= read -r line; do note "$line"; done < results.txt
assert_status 0
assert_log_lacks swift-testing.err 'skipped' "skipped Swift tests"
assert_log_contains swift-testing.err 'Suite "uhid devices" passed' "UhidKernelTests"

# 4. The mouse (hid-generic keeps the name).
"$GESTURECTL" synth swipe --direction right --distance 60 --duration 300ms -o drag.gesture.json
libinput_watch_for "$VIRTUAL_MOUSE_NAME" libinput-mouse.log
start_gesturectl_play mouse.log "$VIRTUAL_MOUSE_NAME" --to uhid --as mouse drag.gesture.json
libinput_wait_added "$PLAY_NODE"
mouse_log=$LIBINPUT_LOG
assert_log_contains "$mouse_log" "DEVICE_ADDED +$VIRTUAL_MOUSE_NAME .*cap:p" "libinput's view of the uhid mouse"
finish_gesturectl_play 0
assert_log_contains "$CASE_WORK/mouse.log" "playing on $PLAY_NODE \\($VIRTUAL_MOUSE_NAME, through uhid\\)" "gesturectl's note"
wait_for_lines "$mouse_log" 'POINTER_BUTTON.*BTN_LEFT.*released' 1
assert_log_contains "$mouse_log" 'POINTER_BUTTON.*BTN_LEFT.*pressed' "the left button pressed"
motions=$(count_lines "$mouse_log" 'POINTER_MOTION')
[[ $motions -ge 5 ]] || fail "libinput saw $motions POINTER_MOTION events; expected the drag's motion"
note "mouse: $motions POINTER_MOTION events"
assert_libinput_content "$mouse_log"
stop_background "$LIBINPUT_PID"

# 5. Without access: /dev/uhid is root's (0600) here; an outsider is refused.
outsider_uid=61002
run_logged play-outsider setpriv --reuid="$outsider_uid" --regid="$outsider_uid" --clear-groups env HOME=/tmp \
    "$GESTURECTL" play "$REPO_ROOT/Recordings/tap.gesture.json" --to uhid --lead-in 0 --linger 0
assert_status 4
assert_log_contains play-outsider.err "write access to /dev/uhid .*gesturectl" "what to do without access"
note "outsider: $(head -n 1 play-outsider.err)"
