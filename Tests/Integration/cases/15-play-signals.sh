#!/usr/bin/env bash
# d. Nothing is left pressed when playing is interrupted. The library's
# three-finger swipe, slowed down 20-30 times (5-7.5 s, so that a loaded
# guest still signals it mid-play), is held until its observers read the
# device (play --start-on-fd) and interrupted once all three fingers are down and have moved a few frames:
#   1. SIGINT, on a touchscreen: libinput sees a TOUCH_UP for every TOUCH_DOWN;
#   2. SIGTERM, on a touchscreen: the same;
#   3. SIGHUP (terminal closed), on a touchpad: libinput ends the 3-finger
#      swipe (GESTURE_SWIPE_END).
# Each time gesturectl exits 130 and says it was interrupted, and
# evemu-record of the node shows one last frame that lifts all three slots
# (SYN_REPORT 0), after which no slot is down and no key (BTN_TOUCH,
# BTN_TOOL_*) is pressed.
# timeout: 240
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

gesture=$REPO_ROOT/Recordings/three-finger-swipe-up.gesture.json
# Three frames' worth of motion of three fingers: well inside the gesture
# (30 frames), not at its start.
motion_lines_before_signal=9
# Slowed down 30 times (7.5 s): a loaded guest still signals it mid-play.
speed=0.03

# interrupt_touchscreen SIGNAL
interrupt_touchscreen() {
    local signal=$1
    libinput_watch_for "$VIRTUAL_TOUCHSCREEN_NAME" "libinput-$signal.log"
    evemu_record_watch_for "$VIRTUAL_TOUCHSCREEN_NAME" "evemu-record-$signal.log"
    start_gesturectl_play "play-$signal.log" "$VIRTUAL_TOUCHSCREEN_NAME" "$gesture" --speed "$speed"
    libinput_wait_added "$PLAY_NODE"
    evemu_record_wait_ready "$PLAY_NODE"
    begin_gesturectl_play
    wait_for_lines "$LIBINPUT_LOG" 'TOUCH_DOWN' 3
    wait_for_lines "$LIBINPUT_LOG" 'TOUCH_MOTION' "$motion_lines_before_signal"
    note "sending SIG$signal to gesturectl play (pid $PLAY_PID)"
    kill -"$signal" "$PLAY_PID"
    finish_gesturectl_play 130
    assert_log_contains "$CASE_WORK/$PLAY_LOG" 'interrupted after [0-9]+ of [0-9]+ frames' "SIG$signal: gesturectl's message"
    wait_for_lines "$LIBINPUT_LOG" 'TOUCH_UP' 3
    local motions
    motions=$(count_lines "$LIBINPUT_LOG" 'TOUCH_MOTION')
    ((motions < 29 * 3)) || fail "SIG$signal: libinput saw all $motions motions: the play was not interrupted"
    gesturectl_check "libinput-$signal" touches-lifted "$LIBINPUT_LOG"
    assert_libinput_content "$LIBINPUT_LOG"
    wait_for_lines "$EVEMU_RECORD_LOG" '^E: .* 0003 0039 -001' 3
    gesturectl_check "evemu-$signal" last-frame-lifts "$EVEMU_RECORD_LOG" 3
    note "SIG$signal: interrupted after $motions TOUCH_MOTION lines: $(grep -o 'interrupted after.*' "$CASE_WORK/$PLAY_LOG")"
    stop_background "$LIBINPUT_PID" "$EVEMU_RECORD_PID"
}

interrupt_touchscreen INT
interrupt_touchscreen TERM

libinput_watch_for "$VIRTUAL_TOUCHPAD_NAME" libinput-HUP.log
evemu_record_watch_for "$VIRTUAL_TOUCHPAD_NAME" evemu-record-HUP.log
# 20 times slower (5 s) on the touchpad: libinput's swipe still begins
# after a few frames of motion.
start_gesturectl_play play-HUP.log "$VIRTUAL_TOUCHPAD_NAME" "$gesture" --speed 0.05 --as touchpad
libinput_wait_added "$PLAY_NODE"
evemu_record_wait_ready "$PLAY_NODE"
begin_gesturectl_play
wait_for_log "$LIBINPUT_LOG" 'GESTURE_SWIPE_BEGIN .*[[:space:]]3$'
wait_for_lines "$LIBINPUT_LOG" 'GESTURE_SWIPE_UPDATE' 2
note "sending SIGHUP to gesturectl play (pid $PLAY_PID)"
kill -HUP "$PLAY_PID"
finish_gesturectl_play 130
assert_log_contains "$CASE_WORK/$PLAY_LOG" 'interrupted after' "SIGHUP: gesturectl's message"
wait_for_log "$LIBINPUT_LOG" 'GESTURE_SWIPE_END'
assert_line_count "$LIBINPUT_LOG" 'GESTURE_SWIPE_BEGIN' 1 "SIGHUP: swipes begun"
assert_line_count "$LIBINPUT_LOG" 'GESTURE_SWIPE_END' 1 "SIGHUP: swipes ended"
assert_libinput_content "$LIBINPUT_LOG"
wait_for_lines "$EVEMU_RECORD_LOG" '^E: .* 0003 0039 -001' 3
gesturectl_check evemu-HUP last-frame-lifts "$EVEMU_RECORD_LOG" 3
note "SIGHUP: $(grep -o 'interrupted after.*' "$CASE_WORK/$PLAY_LOG"); libinput: $(grep 'GESTURE_SWIPE_END' "$LIBINPUT_LOG" | tr -s ' \t' ' ')"
