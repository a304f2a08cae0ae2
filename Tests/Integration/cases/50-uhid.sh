#!/usr/bin/env bash
# `gesturectl play --to uhid`: devices made through /dev/uhid and driven by
# the kernel's own HID drivers, seen by independent tools.
#   1. UhidDevice's Swift suite ("uhid devices"): the generated touchscreen
#      is bound by hid-multitouch, whose GET_REPORT (Contact Count Maximum)
#      and SET_REPORT (Device Mode) were answered at once; a boot mouse is
#      bound, its evdev node found by the uniq it was created with, its
#      reports read back as events.
#   2. A two-finger drag played --to uhid: hid-multitouch binds the
#      touchscreen (evemu-record shows INPUT_PROP_DIRECT, 10 slots and the
#      resolution the profile's millimetres give); libinput sees both
#      fingers go down together, move and lift, at the file's millimetres.
#   3. SIGINT mid-play --to uhid: exit 130, every finger lifted.
#   4. A mouse drag --to uhid: libinput sees a pointer whose left button is
#      pressed, moves and is released.
#   5. `press volume-up --to uhid`: the HID consumer-control button reaches
#      libinput as KEY_VOLUMEUP pressed and released once.
#   6. The daemon with "outputs": ["uinput", "uhid"]: its ready uhid
#      touchscreen (made at start) plays a client's `play --to uhid`, seen
#      by libinput with both fingers.
# (Access to /dev/uhid through the shipped udev rule: case 17.)
# timeout: 360
# resources: uhid
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

modprobe uhid || skip "no uhid module in this kernel"
modprobe hid-multitouch || skip "no hid-multitouch module in this kernel"
[[ -c /dev/uhid ]] || fail "/dev/uhid is missing after 'modprobe uhid'"

# 1. The Swift suite, from the host-built test binary (as case 18 runs its suites).
binary=$GESTURECTL_BUILD_DIR/gesturectlPackageTests.xctest
not_runnable() { if [[ ${CI:-} == true ]]; then fail "$@"; else skip "$@"; fi; }
[[ -x $binary ]] || not_runnable "no test build ($binary): run 'swift build --build-tests' before the tier"
run_logged swift-testing env NO_COLOR=1 "$binary" --testing-library swift-testing --filter 'UhidKernelTests'
grep -E '(passed|failed|skipped)' swift-testing.err > results.txt || true
while IFS= read -r line; do note "$line"; done < results.txt
assert_status 0
assert_log_lacks swift-testing.err 'skipped' "skipped Swift tests"
assert_log_contains swift-testing.err 'Suite "uhid devices" passed' "UhidKernelTests"

# The evdev device hid-multitouch makes from the HID touchscreen
# (HIDTouchscreenLayout's name; the driver adds no suffix to it).
UHID_TOUCHSCREEN_NAME='gesturectl HID touchscreen'

# 2. A two-finger drag: the built-in two-finger scroll (both fingers start
# together; recorded on a 216 x 135 mm touchscreen, the profile's size).
# Built-in files, not synth and merge: each gesturectl start costs seconds
# under emulation.
drag2=$REPO_ROOT/Recordings/two-finger-scroll-down.gesture.json
size=216x135mm
libinput_watch_for "$UHID_TOUCHSCREEN_NAME" libinput-touch.log
evemu_record_watch_for "$UHID_TOUCHSCREEN_NAME" evemu-record-touch.log
start_gesturectl_play touch.log "$UHID_TOUCHSCREEN_NAME" --to uhid "$drag2"
libinput_wait_added "$PLAY_NODE"
evemu_record_wait_ready "$PLAY_NODE"
assert_log_contains "$LIBINPUT_LOG" "DEVICE_ADDED +$UHID_TOUCHSCREEN_NAME .*cap:t .*size $size" "libinput's view of the HID touchscreen (the profile's millimetres)"
finish_gesturectl_play 0
assert_log_contains "$CASE_WORK/touch.log" "playing on $PLAY_NODE \\(gesturectl virtual touchscreen, through uhid\\)" "gesturectl's note"
wait_for_lines "$LIBINPUT_LOG" 'TOUCH_UP' 2
assert_libinput_content "$LIBINPUT_LOG"
gesturectl_check libinput-touch libinput-touch "$drag2" "$LIBINPUT_LOG" --touch-down-together
# What hid-multitouch made of the descriptor, as evemu-record describes it:
# a direct-touch device, 10 slots, 100 units/mm on both axes (the physical
# ranges), USB ids.
record=$EVEMU_RECORD_LOG
assert_log_contains "$record" '^# Input device ID: bus 0x03 vendor 0x4753' "the HID device's bus and vendor"
assert_log_contains "$record" 'Property +type 1 \(INPUT_PROP_DIRECT\)' "INPUT_PROP_DIRECT"
python3 - "$record" > axes.txt <<'PY' || fail "evemu-record's description: $(tail -n 1 axes.txt)"
import re, sys
text = open(sys.argv[1]).read()
def axis(code):
    block = re.search(r"Event code %d \([A-Z_]+\)\n((?:#\s+[A-Z][a-z]+\s+-?\d+\n)+)" % code, text)
    if not block:
        sys.exit("no axis %d" % code)
    return dict((k, int(v)) for k, v in re.findall(r"#\s+([A-Z][a-z]+)\s+(-?\d+)", block.group(1)))
slot, x, y = axis(47), axis(53), axis(54)
print("slots %d..%d; x 0..%d at %d/mm; y 0..%d at %d/mm" % (slot["Min"], slot["Max"], x["Max"], x["Resolution"], y["Max"], y["Resolution"]))
if slot["Max"] != 9: sys.exit("ABS_MT_SLOT max %d, expected 9 (10 contacts)" % slot["Max"])
if not (x["Resolution"] == y["Resolution"] == 100): sys.exit("resolution %d/%d, expected 100 units/mm" % (x["Resolution"], y["Resolution"]))
PY
note "hid-multitouch's axes: $(cat axes.txt)"
stop_background "$LIBINPUT_PID" "$EVEMU_RECORD_PID"

# 3. SIGINT mid-play: the drag slowed down 30 times (7.5 s, so that a loaded
# guest still interrupts it mid-play), interrupted once both fingers are
# down and have moved a few frames.
libinput_watch_for "$UHID_TOUCHSCREEN_NAME" libinput-INT.log
evemu_record_watch_for "$UHID_TOUCHSCREEN_NAME" evemu-record-INT.log
start_gesturectl_play play-INT.log "$UHID_TOUCHSCREEN_NAME" --to uhid "$drag2" --speed 0.03
libinput_wait_added "$PLAY_NODE"
evemu_record_wait_ready "$PLAY_NODE"
begin_gesturectl_play
wait_for_lines "$LIBINPUT_LOG" 'TOUCH_DOWN' 2
wait_for_lines "$LIBINPUT_LOG" 'TOUCH_MOTION' 6
kill -INT "$PLAY_PID"
finish_gesturectl_play 130
assert_log_contains "$CASE_WORK/$PLAY_LOG" 'interrupted after [0-9]+ of [0-9]+ frames' "SIGINT: gesturectl's message"
wait_for_lines "$LIBINPUT_LOG" 'TOUCH_UP' 2
gesturectl_check libinput-INT touches-lifted "$LIBINPUT_LOG"
assert_libinput_content "$LIBINPUT_LOG"
wait_for_lines "$EVEMU_RECORD_LOG" '^E: .* 0003 0039 -001' 2
gesturectl_check evemu-INT last-frame-lifts "$EVEMU_RECORD_LOG" 2
note "SIGINT: $(grep -o 'interrupted after.*' "$CASE_WORK/$PLAY_LOG")"
stop_background "$LIBINPUT_PID" "$EVEMU_RECORD_PID"

# 4. The mouse (hid-generic keeps HIDMouseLayout's name).
UHID_MOUSE_NAME='gesturectl HID mouse'
libinput_watch_for "$UHID_MOUSE_NAME" libinput-mouse.log
start_gesturectl_play mouse.log "$UHID_MOUSE_NAME" --to uhid --as mouse "$REPO_ROOT/Recordings/edge-swipe-from-left.gesture.json"
libinput_wait_added "$PLAY_NODE"
mouse_log=$LIBINPUT_LOG
assert_log_contains "$mouse_log" "DEVICE_ADDED +$UHID_MOUSE_NAME .*cap:p" "libinput's view of the uhid mouse"
finish_gesturectl_play 0
assert_log_contains "$CASE_WORK/mouse.log" "playing on $PLAY_NODE \\($VIRTUAL_MOUSE_NAME, through uhid\\)" "gesturectl's note"
wait_for_lines "$mouse_log" 'POINTER_BUTTON.*BTN_LEFT.*released' 1
assert_log_contains "$mouse_log" 'POINTER_BUTTON.*BTN_LEFT.*pressed' "the left button pressed"
motions=$(count_lines "$mouse_log" 'POINTER_MOTION')
[[ $motions -ge 5 ]] || fail "libinput saw $motions POINTER_MOTION events; expected the drag's motion"
note "mouse: $motions POINTER_MOTION events"
assert_libinput_content "$mouse_log"
stop_background "$LIBINPUT_PID"

# 5. A button through uhid: hid-generic makes one evdev device per
# application collection, named after it.
UHID_CONSUMER_NAME='gesturectl HID buttons Consumer Control'
udev_monitor_start
gate_open
start_background press.log "$GESTURECTL" press volume-up --to uhid --hold 300ms --lead-in "$PLAY_LEAD_IN" --start-on-fd 3 3<&"$GATE_FD"
press_pid=$BACKGROUND_PID
wait_for_input_device "$UHID_CONSUMER_NAME"
libinput_watch "$DEVICE_NODE" libinput-press.log
gate_release "$GATE_FD"
wait_background "$press_pid" 60
assert_equal 0 "$BACKGROUND_STATUS" "press --to uhid's exit status ($(tail -n 2 "$CASE_WORK/press.log" | tr '\n' '|'))"
wait_for_log "$LIBINPUT_LOG" 'KEYBOARD_KEY.*KEY_VOLUMEUP \(115\) released'
assert_line_count "$LIBINPUT_LOG" 'KEYBOARD_KEY.*KEY_VOLUMEUP \(115\) pressed' 1 "volume-up presses through uhid"
assert_line_count "$LIBINPUT_LOG" 'KEYBOARD_KEY.*KEY_VOLUMEUP \(115\) released' 1 "volume-up releases through uhid"
assert_libinput_content "$LIBINPUT_LOG"
stop_background "$LIBINPUT_PID"

# 6. The daemon's uhid output: a ready HID touchscreen made at start.
socket=$CASE_WORK/d.sock
printf '%s\n' '{"devices": ["touchscreen"], "outputs": ["uinput", "uhid"]}' > daemon.json
start_background daemon.log "$GESTURECTL" daemon --socket "$socket" --library "$CASE_WORK/library" --config "$CASE_WORK/daemon.json"
daemon_pid=$BACKGROUND_PID
wait_for_log "$CASE_WORK/daemon.log" 'ready: listening on|error'
ready_uhid=$(grep -o 'ready: touchscreen (uhid) at /dev/input/event[0-9]*' "$CASE_WORK/daemon.log" | awk '{print $5}')
[[ -n $ready_uhid ]] || fail "the daemon did not say where its uhid touchscreen is ($(tail -n 3 "$CASE_WORK/daemon.log" | tr '\n' '|'))"
libinput_watch "$ready_uhid" libinput-daemon.log
assert_log_contains "$LIBINPUT_LOG" "DEVICE_ADDED +$UHID_TOUCHSCREEN_NAME .*cap:t" "libinput's view of the daemon's uhid touchscreen"
run_logged daemon-play "$GESTURECTL" --socket "$socket" play "$drag2" --to uhid
assert_status 0
wait_for_lines "$LIBINPUT_LOG" 'TOUCH_UP' 2
gesturectl_check libinput-daemon libinput-touch "$drag2" "$LIBINPUT_LOG" --touch-down-together
assert_libinput_content "$LIBINPUT_LOG"
kill -TERM "$daemon_pid"
wait_background "$daemon_pid" 30
assert_equal 0 "$BACKGROUND_STATUS" "the daemon's exit status after SIGTERM"
stop_background "$LIBINPUT_PID"
