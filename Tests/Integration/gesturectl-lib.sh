# shellcheck shell=bash
# shellcheck disable=SC2034 # variables are for the cases that source this
# Helpers for the gesturectl cases (10 and up), on top of lib.sh. A case
# starts with:
#
#     . "$INTEGRATION/lib.sh"
#     . "$INTEGRATION/gesturectl-lib.sh"
#
# The checks that compare files event by event or sample by sample are in
# gesturectl_check.py (Debian's python3, no packages); gesturectl_check runs
# them and fails the case with their reason.

# The names of the virtual devices `gesturectl play` creates (README, and
# VirtualDeviceProfile.swift).
VIRTUAL_TOUCHSCREEN_NAME='gesturectl virtual touchscreen'
VIRTUAL_TOUCHPAD_NAME='gesturectl virtual touchpad'
VIRTUAL_MOUSE_NAME='gesturectl virtual mouse'

# How long `gesturectl play` and `press` wait after the play is told to
# start before the first frame. The plays of start_gesturectl_play are held
# on their ready device (`play --start-on-fd`) until the case has seen its
# observers take the device up (libinput_wait_added, evemu_record_wait_ready)
# and says go (begin_gesturectl_play), so no lead-in has to be long enough
# "usually": it is 0. A play without observers starts when the case
# finishes it.
PLAY_LEAD_IN=${PLAY_LEAD_IN:-0}

# Lines libinput prints when it finds a device or its events wrong.
LIBINPUT_COMPLAINTS='kernel bug|client bug|bug:|overflow|missing|invalid|ignoring|not supported|touch jump'
# Lines in which libinput says that it, or its client (debug-events), ran
# late: "client bug: timer ...: scheduled expiry is in the past (-152ms),
# your system is too slow", "event processing lagging behind by 32ms, your
# system is too slow". Under emulation, on a busy host, they say nothing
# about our devices or events, so they are left out before the complaints
# are looked for (and counted in the case's output). Every other "client
# bug" or "kernel bug" line still fails the case.
LIBINPUT_LATENESS='your system is too slow'

# gesturectl_check NAME COMMAND ARGUMENT... : runs gesturectl_check.py
# COMMAND, keeping its output in check-NAME.log and its `measured:` lines in
# the case's output; fails the case with the check's reason.
gesturectl_check() {
    local name=$1
    shift
    local log="$CASE_WORK/check-$name.log" status=0
    python3 "$INTEGRATION/gesturectl_check.py" "$@" > "$log" 2>&1 || status=$?
    local line
    while IFS= read -r line; do
        if [[ $line == measured:* ]]; then note "$name: ${line#measured: }"; fi
    done < "$log"
    if ((status != 0)); then
        fail "$name: $(grep -m 1 '^CHECK FAILED:' "$log" | sed 's/^CHECK FAILED: //' || tail -n 1 "$log")"
    fi
}

# start_gesturectl_record LOG ARGUMENT... : starts `gesturectl record
# ARGUMENT...` in the background (stdout and stderr in LOG) and returns once
# it has opened the device and said so ("recording from"): from then on
# the kernel queues every event for it. Sets RECORD_PID.
start_gesturectl_record() {
    local log=$1
    shift
    start_background "$log" "$GESTURECTL" record "$@"
    RECORD_PID=$BACKGROUND_PID
    wait_for_log "$CASE_WORK/$log" 'recording from|error:'
    assert_log_contains "$CASE_WORK/$log" 'recording from' "gesturectl record's start"
}

# start_gesturectl_play LOG DEVICE-NAME ARGUMENT... : starts `gesturectl play
# --lead-in $PLAY_LEAD_IN --start-on-fd 3 ARGUMENT...` in the background and
# returns once its virtual device (named DEVICE-NAME) exists, udev has set it
# up, and the play waits on it ("playing on NODE" in LOG): the process and
# its playing thread are there, no frame is written yet. Sets PLAY_PID,
# PLAY_NODE (from gesturectl's own line, not from the name: a case beside
# this one may have a device of that name) and PLAY_LOG. Then start the
# observers on PLAY_NODE (libinput_wait_added, evemu_record_wait_ready,
# after libinput_watch_for / evemu_record_watch_for) and begin_gesturectl_play;
# finish_gesturectl_play begins it if the case has not.
start_gesturectl_play() {
    local log=$1 device_name=$2
    shift 2
    gate_open
    PLAY_GATE_FD=$GATE_FD
    start_background "$log" "$GESTURECTL" play --lead-in "$PLAY_LEAD_IN" --start-on-fd 3 "$@" 3<&"$GATE_FD"
    PLAY_PID=$BACKGROUND_PID
    PLAY_LOG=$log
    node_from_log "$CASE_WORK/$log" 'playing on' "$device_name" "gesturectl play"
    PLAY_NODE=$LOGGED_NODE
    note "gesturectl play (pid $PLAY_PID) waits on $PLAY_NODE ($device_name)"
}
PLAY_GATE_FD=

# node_from_log LOG WORDS NAME WHAT : waits until gesturectl's line "WORDS …
# /dev/input/eventN" is in LOG (or an error), sets LOGGED_NODE to that node
# and checks that the device there is named NAME. WHAT names the program in
# the failure. Its own line, not a name: a case beside this one may have a
# device of that name.
node_from_log() {
    local log=$1 words=$2 name=$3 what=$4 found
    wait_for_log "$log" "($words .*/dev/input/event[0-9]+|error:)"
    LOGGED_NODE=$(grep -m 1 -o -E "$words .*/dev/input/event[0-9]+" "$log" | grep -o -E '/dev/input/event[0-9]+$' || true)
    [[ -n $LOGGED_NODE ]] || fail "$what did not start: $(tail -n 2 "$log" | tr '\n' '|')"
    found=$(<"/sys/class/input/${LOGGED_NODE##*/}/device/name")
    [[ $found == "$name" ]] || fail "$what's device $LOGGED_NODE is named '$found', expected '$name'"
}

# begin_gesturectl_play : lets the play started by start_gesturectl_play go
# (writes a byte to its start descriptor); its lead-in and frames follow.
begin_gesturectl_play() {
    [[ -n $PLAY_GATE_FD ]] || return 0
    note "telling gesturectl play (pid $PLAY_PID) to start"
    gate_release "$PLAY_GATE_FD"
    PLAY_GATE_FD=
}

# gate_open : a start gate for `gesturectl play|press --start-on-fd 3`: a fifo
# this shell holds open read-write (so that no open blocks), as GATE_FD. Pass
# it to the command as `--start-on-fd 3 3<&"$GATE_FD"`; gate_release GATE_FD
# lets the command go.
gate_open() {
    local gate="$CASE_PRIVATE/start-gate.$((++_gate_count))"
    mkfifo "$gate" || fail "mkfifo $gate failed"
    exec {GATE_FD}<> "$gate"
}
_gate_count=0

# gate_release FD : writes one byte to the gate FD (from gate_open) and
# closes this shell's end.
gate_release() {
    local gate_fd=$1
    printf 'go\n' >&"$gate_fd" || fail "could not write to the start gate (fd $gate_fd)"
    exec {gate_fd}>&-
}

# finish_gesturectl_play [EXPECTED-STATUS] : begins the play started by
# start_gesturectl_play if the case has not, waits until it ends and checks
# its exit status (default 0, or 130 after a signal).
finish_gesturectl_play() {
    local expected=${1:-0}
    begin_gesturectl_play
    wait_background "$PLAY_PID" 60
    [[ $BACKGROUND_STATUS == "$expected" ]] \
        || fail "gesturectl play: exit status $BACKGROUND_STATUS, expected $expected ($(tail -n 3 "$CASE_WORK/$PLAY_LOG" | tr '\n' '|'))"
}

# assert_libinput_content LOG : libinput printed no complaint about the device
# or its events.
assert_libinput_content() {
    local late hit
    late=$(grep -c -E -- "$LIBINPUT_LATENESS" "$1" || true)
    ((late == 0)) || note "libinput ran late $late time(s) (\"your system is too slow\"): not a fault of the device"
    hit=$(grep -v -E -- "$LIBINPUT_LATENESS" "$1" | grep -m 1 -E -- "$LIBINPUT_COMPLAINTS" || true)
    [[ -z $hit ]] || fail "libinput's messages: unexpected line matching '$LIBINPUT_COMPLAINTS': $hit"
}

# --- a one-key switch ----------------------------------------------------------

# The switch the assist cases press: one key, KEY_F13 (183: byte 22 of the key
# mask, bit 7), enough for udev's ID_INPUT_KEY.
SWITCH_NAME=${SWITCH_NAME:-'gesturectl test switch'}

# create_switch : makes the switch with evemu-device, waits for udev and starts
# its presser (switch_press, switch_press_on, switch_hold); sets
# SWITCH_NODE (and DEVICE_NODE, DEVICE_PID as create_device).
create_switch() {
    {
        echo '# EVEMU 1.3'
        echo "N: $SWITCH_NAME"
        echo 'I: 0003 1d6b 7a09 0100'
        echo 'P: 00 00 00 00 00 00 00 00'
        echo 'B: 00 03 00 00 00 00 00 00 00'
        for line in 0 1 2 3 4 5 6 7 8 9 10 11; do
            if ((line == 2)); then echo 'B: 01 00 00 00 00 00 00 80 00'; else echo 'B: 01 00 00 00 00 00 00 00 00'; fi
        done
    } > "$CASE_WORK/switch.evemu"
    create_device "$CASE_WORK/switch.evemu"
    SWITCH_NODE=$DEVICE_NODE
    # Its hand (switch_presser.py): a press when due starts no process.
    local commands=$CASE_PRIVATE/switch-commands replies=$CASE_PRIVATE/switch-replies
    rm -f "$commands" "$replies"
    mkfifo "$commands" "$replies" || fail "mkfifo for the switch presser failed"
    # Both ends held read-write here, so that no open blocks.
    exec {SWITCH_COMMANDS}<> "$commands" {SWITCH_REPLIES}<> "$replies"
    python3 "$INTEGRATION/switch_presser.py" "$SWITCH_NODE" < "$commands" > "$replies" 2>> "$CASE_WORK/switch-presser.log" &
    BACKGROUND_PIDS+=("$!")
    note "started switch_presser.py $SWITCH_NODE (pid $!)"
}

# _switch_command COMMAND WAIT : sends COMMAND to the switch's presser and
# sets SWITCH_REPLY to its answer (waiting up to WAIT seconds).
_switch_command() {
    printf '%s\n' "$1" >&"$SWITCH_COMMANDS"
    read -r -t "$2" -u "$SWITCH_REPLIES" SWITCH_REPLY \
        || fail "the switch presser did not answer '${1%%$'\t'*}' within $2 s (see switch-presser.log)"
}

# switch_press : one short press of the switch, now.
switch_press() {
    note "switch press"
    _switch_command press 30
}

# switch_press_on FILE ERE [TIMEOUT] : presses the switch as soon as a line
# of FILE matches ERE (from FILE's first line, as wait_for_log looks), within
# TIMEOUT seconds (default WAIT_TIMEOUT); fails the case otherwise. Use it
# for a press meant for a highlighted item: the presser looks every 10 ms
# and starts no process, so the press lands while the item is highlighted
# even beside a CPU hog (a wait_for_log and a switch_press took seconds).
switch_press_on() {
    local file=$1 pattern=$2 limit=${3:-$WAIT_TIMEOUT}
    _switch_command "press-on $limit"$'\t'"$file"$'\t'"$pattern" $((limit + 30))
    [[ $SWITCH_REPLY == pressed* ]] \
        || fail "0 of 1 lines matching '$pattern' in ${file##*/} within ${limit}s (no press); it ends with: $(tail -n 5 -- "$file" | tr '\n' '|')"
    note "switch press on: ${SWITCH_REPLY#pressed }"
}

# switch_hold SECONDS : holds the switch down that long (the emergency stop).
switch_hold() {
    note "switch held for $1 s"
    _switch_command "hold $1" $((${1%.*} + 30))
}

# start_uinput_source DESCRIPTION.evemu : a source device driven through its
# own uinput descriptor (uinput_source.py: events injected into the event
# node never reach a reader that grabbed it, as gesturectl fingertips does);
# sets SOURCE_NODE, SOURCE_PID, SOURCE_FD (its commands) and SOURCE_LOG
# (source.log, its answers) once udev has announced it.
start_uinput_source() {
    local fifo="$CASE_WORK/source.fifo"
    SOURCE_LOG="$CASE_WORK/source.log"
    mkfifo "$fifo"
    udev_monitor_start
    start_background source.log python3 "$INTEGRATION/uinput_source.py" "$1" "$fifo"
    SOURCE_PID=$BACKGROUND_PID
    wait_for_log "$SOURCE_LOG" ': /dev/input/event[0-9]+$'
    SOURCE_NODE=$(grep -m 1 -o -E '/dev/input/event[0-9]+$' "$SOURCE_LOG")
    exec {SOURCE_FD}>"$fifo"
    wait_for_input_node "$SOURCE_NODE"
}

# source_command COMMAND ANSWER : sends COMMAND to the uinput source, waits
# for its Nth ANSWER line (`played`, `frame`, `quit`).
declare -A _source_answers=()
source_command() {
    printf '%s\n' "$1" >&"$SOURCE_FD" || fail "the source did not take '$1'"
    _source_answers[$2]=$((${_source_answers[$2]:-0} + 1))
    wait_for_lines "$SOURCE_LOG" "^$2\$" "${_source_answers[$2]}"
}

# source_send COMMAND ANSWER : sends COMMAND and does not wait for its answer
# (the next source_command with the same ANSWER waits for both): two
# commands as close together as asked, not a wait's process starts apart
# (hundreds of ms under emulation on a loaded host).
source_send() {
    printf '%s\n' "$1" >&"$SOURCE_FD" || fail "the source did not take '$1'"
    _source_answers[$2]=$((${_source_answers[$2]:-0} + 1))
}
