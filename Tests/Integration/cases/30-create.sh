#!/usr/bin/env bash
# The guided create flow (issue 10) on a real kernel:
#   1. by keys, in a real terminal (tmux): two strokes drawn one after another
#      on an evemu touchscreen (evemu-play) are announced as they land;
#      Return stops; Review writes the SVG; Save asks for a name; the saved
#      gesture has two fingers that start together, at the positions drawn;
#      the screen (capture-pane) shows the lines of each step;
#   2. by one switch and no keyboard at all (standard input /dev/null,
#      --plain into a file): an evemu one-key switch stops the recording,
#      picks Review, then Save, then the suggested name; the transcript is
#      plain lines with no escape sequences, and the gesture is right;
#      then the same with a mouse drawing (press-drag-release strokes);
#   3. through the daemon, with no terminal: a long press of the same switch,
#      bound to {"create": {"device": …}}, starts the flow on the rig; the
#      switch alone records, saves in the daemon's library, and a subscriber
#      gets every line as a `create` event.
# Each first stroke is drawn as soon as the first instruction ("Draw the
# first stroke") shows: it comes only once the recording reads the device
# (issue 24: a switch user drawing when told lost the first dot).
# timeout: 300
# resources: switch
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

((IN_VM)) || skip "creates input devices: runs only inside the VM"
command -v tmux > /dev/null || fail "tmux is not installed (scripts/install-deps installs it)"

export GESTURECTL_LIBRARY=$CASE_WORK/library
export NO_COLOR=1

# The second stroke: the first one moved 20 mm (400 units) to the left.
awk '$1 == "E:" && $3 == "0003" && $4 == "0035" { $5 = $5 - 400 } { print }' \
    "$FIXTURES/touch-one-stroke.events" > "$CASE_WORK/second-stroke.events"
# Both strokes in one recording, the second 0.5 s after the first lifts:
# for the daemon's create flow, whose recording ends 3 s after the last
# lift, one evemu-play leaves no gap for a slow start of a second one.
{
    grep -v '^E:' "$FIXTURES/touch-one-stroke.events"
    grep '^E:' "$FIXTURES/touch-one-stroke.events"
    awk '$1 == "E:" { $2 = sprintf("%.6f", $2 + 0.74); print }' "$CASE_WORK/second-stroke.events"
} > "$CASE_WORK/two-strokes.events"

# check_saved FILE : two finger strokes, starting together, at the drawn positions.
check_saved() {
    python3 - "$1" "$ONE_STROKE_START_X" "$ONE_STROKE_START_Y" > "$CASE_WORK/saved-check.txt" <<'PY' || fail "the saved gesture is wrong: $(<"$CASE_WORK/saved-check.txt")"
import json, sys
gesture = json.load(open(sys.argv[1]))
x0, y0 = int(sys.argv[2]), int(sys.argv[3])
strokes = gesture["strokes"]
starts = sorted({s["samples"][0][0] for s in strokes})
firsts = sorted((s["samples"][0][1], s["samples"][0][2]) for s in strokes)
print(len(strokes), starts, firsts)
assert len(strokes) == 2, "not two strokes"
assert starts == [0], "the strokes do not start together"
assert firsts == [(x0 - 400, y0), (x0, y0)], "not where they were drawn"
assert all(s.get("kind", "finger") == "finger" for s in strokes)
PY
}

create_device touchscreen.evemu
touch=$DEVICE_NODE

# --- 1. keys, in a terminal ----------------------------------------------------
# The menu line is redrawn in place (no line break until it is left), so the
# terminal's steps are checked on the screen itself (capture-pane), polled
# until the expected text is there.
tmux new-session -d -s create -x 200 -y 50 "bash --norc --noprofile"
tmux send-keys -t create "'$GESTURECTL' create --device '$touch' --idle-timeout 60 --picture '$CASE_WORK/review.svg'; echo EXIT=\$?" Enter
# wait_for_screen ERE [NAME] [COUNT] : polls the screen until COUNT lines
# (default 1) match; keeps it as screen-NAME.txt.
wait_for_screen() {
    local pattern=$1 name=${2:-last} count=${3:-1} deadline=$((SECONDS + WAIT_TIMEOUT))
    while ((SECONDS < deadline)); do
        tmux capture-pane -p -S - -t create > "$CASE_WORK/screen-$name.txt"
        if (($(grep -c -E -- "$pattern" "$CASE_WORK/screen-$name.txt") >= count)); then return 0; fi
        sleep 0.2
    done
    fail "the screen never showed '$pattern' ($count times); it shows: $(grep -v '^$' "$CASE_WORK/screen-$name.txt" | tail -n 4 | tr '\n' '|')"
}

wait_for_screen 'Draw the first stroke'
play_events "$touch" touch-one-stroke.events
wait_for_screen 'Recording from gesturectl test touchscreen'
# Measured in the device's millimetres (20 units/mm), not in any default's.
stroke_mm=$(python3 -c "import math; print(round(math.hypot(($ONE_STROKE_END_X - $ONE_STROKE_START_X) / $TOUCHSCREEN_RESOLUTION, ($ONE_STROKE_END_Y - $ONE_STROKE_START_Y) / $TOUCHSCREEN_RESOLUTION)))")
wait_for_screen "Stroke 1: swipe [a-z-]+ · [0-9.]+ s · $stroke_mm mm"
play_events "$touch" "$CASE_WORK/second-stroke.events"
wait_for_screen 'Stroke 2: swipe'
tmux send-keys -t create Enter
wait_for_screen 'Recording stopped: 2 strokes, 2 fingers'
wait_for_screen '^\[Review\]· Save' menu
assert_log_contains "$CASE_WORK/screen-menu.txt" '2 fingers · swipe .* What next\?' "the menu's title on the screen"
tmux send-keys -t create Enter
wait_for_screen "The picture is in $CASE_WORK/review.svg"
# The menu again after the review: its title a second time (the first is
# still on the screen, above the picture).
wait_for_screen '2 fingers · swipe .* What next\?' menu-again 2
xmllint --noout "$CASE_WORK/review.svg" || fail "the review picture is not well-formed XML"
tmux send-keys -t create Down
wait_for_screen '^ Review ·\[Save\]'
tmux send-keys -t create Enter
wait_for_screen 'Name to save as \(Return for 2-fingers-swipe'
tmux send-keys -t create -l 'two-strokes'
wait_for_screen 'Escape to go back\): two-strokes'
tmux send-keys -t create Enter
wait_for_screen 'Saved as two-strokes: 2 fingers · swipe' saved
wait_for_screen '^EXIT=0' exit
check_saved "$GESTURECTL_LIBRARY/two-strokes.gesture.json"
tmux kill-session -t create

# --- 2. one switch, no keyboard ------------------------------------------------
create_switch
switch=$SWITCH_NODE
press() { switch_press; }

# The interval leaves time for a press after its highlight line appears
# (an evemu-play start in a loaded guest can take over a second).
start_background switch-create.out "$GESTURECTL" create --plain --device "$touch" \
    --switch "$SWITCH_NAME" --switch-key KEY_F13 --switch-stops-recording \
    --scan-interval 3s --first-item-hold 0 --idle-timeout 60 --picture "$CASE_WORK/review2.svg" < /dev/null
create_pid=$BACKGROUND_PID
log=$CASE_WORK/switch-create.out
wait_for_log "$log" 'The switch is ready: gesturectl test switch'
wait_for_log "$log" '^Draw the first stroke'
play_events "$touch" touch-one-stroke.events
assert_log_contains "$log" 'Recording from gesturectl test touchscreen' "the recording's device line"
wait_for_log "$log" 'Stroke 1: swipe'
play_events "$touch" "$CASE_WORK/second-stroke.events"
wait_for_log "$log" 'Stroke 2: swipe'
press
switch_press_on "$log" '^Highlighted: Review \(1 of 7\)'
wait_for_log "$log" 'The picture is in'
switch_press_on "$log" '^Highlighted: Save \(2 of 7\)'
switch_press_on "$log" '^Highlighted: Save as 2-fingers-swipe'
wait_for_log "$log" '^Saved as 2-fingers-swipe[a-z0-9-]*: 2 fingers'
wait_background "$create_pid" 30
[[ $BACKGROUND_STATUS == 0 ]] || fail "gesturectl create by switch: exit status $BACKGROUND_STATUS ($(tail -n 3 "$log" | tr '\n' '|'))"
saved=$(sed -n 's/^Saved as \([a-z0-9-]*\): .*/\1/p' "$log")
check_saved "$GESTURECTL_LIBRARY/$saved.gesture.json"
# Plain mode: nothing but printable text and line breaks.
if LC_ALL=C grep -q -P '[\x00-\x09\x0b-\x1f\x7f]' "$log"; then
    fail "the plain transcript has control characters: $(LC_ALL=C grep -n -P '[\x00-\x09\x0b-\x1f\x7f]' "$log" | head -n 2 | cat -A)"
fi
note "transcript: $(wc -l < "$log") lines"

# --- 2b. one switch and a pointer (a mouse: press-drag-release strokes) --------
create_device mouse.evemu
mouse=$DEVICE_NODE
start_background switch-mouse.out "$GESTURECTL" create --plain --device "$mouse" \
    --switch "$SWITCH_NAME" --switch-key KEY_F13 --switch-stops-recording \
    --scan-interval 3s --first-item-hold 0 --idle-timeout 60 --picture "$CASE_WORK/review3.svg" < /dev/null
create_pid=$BACKGROUND_PID
log=$CASE_WORK/switch-mouse.out
wait_for_log "$log" '^Draw the first stroke'
play_events "$mouse" mouse-drag.events
wait_for_log "$log" 'Stroke 1: '
play_events "$mouse" mouse-drag.events
wait_for_log "$log" 'Stroke 2: '
press
switch_press_on "$log" '^Highlighted: Save \(2 of 7\)'
switch_press_on "$log" '^Highlighted: Save as '
wait_for_log "$log" '^Saved as [a-z0-9-]*: 2 pointers'
wait_background "$create_pid" 30
[[ $BACKGROUND_STATUS == 0 ]] || fail "gesturectl create with a mouse: exit status $BACKGROUND_STATUS ($(tail -n 3 "$log" | tr '\n' '|'))"
saved=$(sed -n 's/^Saved as \([a-z0-9-]*\): .*/\1/p' "$log")
# The pointer starts at the centre of the 1920x1080 virtual screen; each
# drag is pressed after its hover and leaves the pointer where it ended.
python3 - "$GESTURECTL_LIBRARY/$saved.gesture.json" "$MOUSE_DRAG_HOVER_DX" "$MOUSE_DRAG_HOVER_DY" "$MOUSE_DRAG_DX" "$MOUSE_DRAG_DY" \
    > "$CASE_WORK/mouse-check.txt" <<'PY' || fail "the saved mouse gesture is wrong: $(<"$CASE_WORK/mouse-check.txt")"
import json, sys
gesture = json.load(open(sys.argv[1]))
hx, hy, dx, dy = map(int, sys.argv[2:])
strokes = gesture["strokes"]
starts = sorted({s["samples"][0][0] for s in strokes})
firsts = sorted((s["samples"][0][1], s["samples"][0][2]) for s in strokes)
print(len(strokes), starts, firsts, [s.get("kind") for s in strokes])
assert len(strokes) == 2 and starts == [0]
assert all(s.get("kind") == "pointer" for s in strokes)
first = (960 + hx, 540 + hy)
second = (first[0] + dx + hx, first[1] + dy + hy)
assert firsts == sorted([first, second]), (firsts, first, second)
PY

# --- 3. through the daemon: a bound switch, no terminal ------------------------
printf '%s\n' 'E: 1.000000 0001 00b7 0001' 'E: 1.000000 0000 0000 0000' \
    'E: 2.200000 0001 00b7 0000' 'E: 2.200000 0000 0000 0000' > "$CASE_WORK/long-press.events"
cat > "$CASE_WORK/daemon.json" <<JSON
{"devices": ["keyboard"],
 "bindings": [{"trigger": {"device": "$SWITCH_NAME", "key": "KEY_F13", "press": "long"},
               "action": {"create": {"device": "$TOUCHSCREEN_NAME", "stops_recording": true,
                                     "scan_interval_ms": 3000, "first_item_hold_ms": 0}}}]}
JSON
socket=$CASE_WORK/d.sock
start_background daemon.log "$GESTURECTL" daemon --socket "$socket" --config "$CASE_WORK/daemon.json" \
    --library "$CASE_WORK/daemon-library" --bindings "$CASE_WORK/bindings.json"
daemon_pid=$BACKGROUND_PID
daemon_log=$CASE_WORK/daemon.log
wait_for_log "$daemon_log" 'ready: listening on'
wait_for_log "$daemon_log" "trigger KEY_F13 on $SWITCH_NAME: $SWITCH_NAME at /dev/input/event[0-9]+"
# A subscriber, as a rig's script would be (standard library only).
start_background subscriber.log python3 -u -c '
import json, socket, sys
client = socket.socket(socket.AF_UNIX)
client.connect(sys.argv[1])
client.sendall(b"{\"id\": 1, \"op\": \"subscribe\", \"events\": [\"create\"]}\n")
for line in client.makefile():
    print(line.strip(), flush=True)
' "$socket"
wait_for_log "$CASE_WORK/subscriber.log" '"ok": true'
play_events "$switch" "$CASE_WORK/long-press.events"
wait_for_log "$daemon_log" 'create: Draw the first stroke'
play_events "$touch" "$CASE_WORK/two-strokes.events"
wait_for_log "$daemon_log" "create: Recording from $TOUCHSCREEN_NAME"
wait_for_log "$daemon_log" 'create: Stroke 1: swipe'
wait_for_log "$daemon_log" 'create: Stroke 2: swipe'
press
switch_press_on "$daemon_log" 'create: Highlighted: Save \(2 of 7\)'
switch_press_on "$daemon_log" 'create: Highlighted: Save as 2-fingers-swipe'
wait_for_log "$daemon_log" 'create: Saved as 2-fingers-swipe[a-z0-9-]*: 2 fingers'
saved=$(sed -n 's/.*create: Saved as \([a-z0-9-]*\): .*/\1/p' "$daemon_log" | head -n 1)
check_saved "$CASE_WORK/daemon-library/$saved.gesture.json"
wait_for_log "$CASE_WORK/subscriber.log" '"event": "create", "line": "Saved as '
assert_log_contains "$CASE_WORK/subscriber.log" '"line": "Stroke 2: swipe' "the subscriber's stroke line"
assert_log_contains "$CASE_WORK/subscriber.log" '"spoken": "Stroke 2\. swipe [a-z-]*, [0-9.]* seconds?, [0-9]* millimetres\."' "the spoken form"
kill -TERM "$daemon_pid"
wait_background "$daemon_pid" 30
assert_equal 0 "$BACKGROUND_STATUS" "the daemon's exit status after SIGTERM"
