# shellcheck shell=bash
# shellcheck disable=SC2034,SC2119,SC2120 # variables and options are for the cases that source this
# Helpers for integration cases. A case is a bash script in cases/ that
# starts with:
#
#     . "$INTEGRATION/lib.sh"
#
# guest-main runs each case in a fresh tmpfs folder with this environment:
#   GESTURECTL    absolute path of the host-built gesturectl binary
#   REPO_ROOT     the checkout (read-only in the VM)
#   INTEGRATION   Tests/Integration (absolute)
#   FIXTURES      Tests/Integration/fixtures (absolute); expected.sh there
#                 holds the fixtures' numbers (lib.sh sources it)
#   CASE_NAME     the case's file name without .sh
#   CASE_WORK     the case's folder on a tmpfs, also its working directory;
#                 every regular file in it is copied to the logs afterwards
#   CASE_TIMEOUT  seconds the case has before it is killed
#   IN_VM         1 inside the VM, 0 on a host that has /dev/uinput
#
# Waiting is done on events (a udev monitor, inotify through `tail -f`),
# never with sleep loops: under emulation everything is several times
# slower, and fixed sleeps are either flaky or wasteful.
#
# Outcomes: return normally (or `exit 0`) to pass; `fail MESSAGE` to fail;
# `skip MESSAGE` to skip (exit 77). Every background process started through
# these helpers is stopped when the case exits.

set -Eeuo pipefail

: "${CASE_WORK:?lib.sh: CASE_WORK is not set (run cases through guest-main)}"
: "${FIXTURES:?lib.sh: FIXTURES is not set (run cases through guest-main)}"

# Default limit in seconds for one wait (a device to appear, a line in a log).
WAIT_TIMEOUT=${WAIT_TIMEOUT:-30}
# How long libinput may take to start and add its devices: it reads its
# quirks and, for a tablet (a hover pen), libwacom's whole database, which
# took over 30 s in the VM beside a second VM and busy loops on 2 cores.
LIBINPUT_START_TIMEOUT=${LIBINPUT_START_TIMEOUT:-120}

# shellcheck source=fixtures/expected.sh
. "$FIXTURES/expected.sh"

# Private folder for fifos (kept out of CASE_WORK, whose files are copied).
CASE_PRIVATE=$(mktemp -d "${CASE_WORK%/*}/.private.XXXXXX")

BACKGROUND_PIDS=()

# A clock for the waits below that start no process: `read -t` on a fifo
# that nobody writes (held open read-write, so that the open does not block).
mkfifo "$CASE_PRIVATE/clock"
exec {_LIB_CLOCK}<> "$CASE_PRIVATE/clock"

# pause SECONDS : waits SECONDS (a fraction) without starting a process.
pause() {
    read -r -t "$1" -u "$_LIB_CLOCK" _ || true
}

# running PID : whether PID is there and has not ended (not a zombie: a
# child of this shell stays one until it is waited for). Read by the shell
# from /proc/PID/stat, no process started.
running() {
    local line fields
    { read -r line < "/proc/$1/stat"; } 2>/dev/null || return 1
    # The state is the first field after the name, which is in parentheses
    # and may hold spaces and parentheses itself: read after the last ')'.
    read -r -a fields <<< "${line##*)}"
    [[ ${fields[0]:-Z} != Z ]]
}

# _wait_until_ended PID LIMIT : waits until PID has ended, at most LIMIT
# seconds; returns 1 when it is still running then. A loop in this shell, not
# a watchdog subshell: bash resets a subshell's traps only after it has
# started, so a SIGTERM meant to end the watchdog right after its start ran
# the case's TERM trap there instead, was lost, and the watchdog went on to
# kill a process that had ended long before and held `wait` for its whole
# sleep (a 60 s "did not end" failure of a play that had ended; found with
# a loop of 700 short processes, 23 hits).
_wait_until_ended() {
    local pid=$1 deadline=$((${EPOCHREALTIME/[.,]/} + $2 * 1000000)) step=0.002
    while running "$pid"; do
        ((${EPOCHREALTIME/[.,]/} < deadline)) || return 1
        pause "$step"
        # 2 ms at first (most ends are near), then 20 ms.
        step=0.02
    done
}

# --- outcomes and messages ---------------------------------------------------

# note MESSAGE... : a time-stamped line in the case's output.
note() {
    # bash's own clock: a `date` per line is a process start, slow under emulation.
    local now=$EPOCHREALTIME
    printf '[%(%H:%M:%S)T.%s] %s\n' "${now%[.,]*}" "${now#*[.,]}" "$*" >&2
}

# fail MESSAGE... : ends the case as failed with MESSAGE as the reason.
fail() {
    printf '%s\n' "$*" > "$CASE_WORK/.fail-reason"
    printf 'FAIL: %s\n' "$*" >&2
    exit 1
}

# skip MESSAGE... : ends the case as skipped (exit 77) with MESSAGE.
skip() {
    printf '%s\n' "$*" > "$CASE_WORK/.skip-reason"
    printf 'SKIP: %s\n' "$*" >&2
    exit 77
}

# --- background processes ----------------------------------------------------

# start_background LOG COMMAND... : runs COMMAND in the background with its
# stdout and stderr in $CASE_WORK/LOG (line-buffered, so the log follows the
# process). Sets BACKGROUND_PID. Stopped by stop_background or at exit.
# SIGINT and SIGQUIT are reset to their defaults: bash without job control
# starts background commands with both ignored, which would hide how a
# program really reacts to `kill -INT`.
start_background() {
    local log=$1
    shift
    env --default-signal=INT,QUIT stdbuf -oL -eL "$@" > "$CASE_WORK/$log" 2>&1 < /dev/null &
    BACKGROUND_PID=$!
    BACKGROUND_PIDS+=("$BACKGROUND_PID")
    # Back only once the child has left bash (exec'd env): until then it
    # holds the case's TERM trap (bash resets a subshell's traps only after
    # it has started), so a `kill` sent at once ran that trap there and was
    # lost, and the process lived on (lib-selftest's odd name, once beside
    # a CPU hog). An exec resets caught signals to their defaults.
    # Until the exec, the child's command line is this shell's own (a fork).
    local shell child waited=0
    shell=$(tr '\0' ' ' < "/proc/$$/cmdline")
    while child=$(tr '\0' ' ' < "/proc/$BACKGROUND_PID/cmdline" 2>/dev/null) && [[ $child == "$shell" ]]; do
        ((waited++ < 1000)) || fail "$1 (pid $BACKGROUND_PID) did not start within 10s"
        sleep 0.01
    done
    note "started $* (pid $BACKGROUND_PID, log $log)"
}

# stop_background [PID...] : stops the given background processes (default:
# all started by this case): SIGTERM, and SIGKILL if still there after 5 s.
stop_background() {
    local pids=("$@")
    if ((${#pids[@]} == 0)); then pids=("${BACKGROUND_PIDS[@]}"); fi
    local pid
    for pid in "${pids[@]}"; do
        kill -TERM "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        _wait_until_ended "$pid" 5 || kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    local remaining=()
    for pid in "${BACKGROUND_PIDS[@]}"; do
        if [[ " ${pids[*]} " != *" $pid "* ]]; then remaining+=("$pid"); fi
    done
    BACKGROUND_PIDS=("${remaining[@]}")
}

# A command that fails outside fail() ends the case through `set -e`; keep
# which one as the reason (only for the case's own shell, not subshells).
_lib_error() {
    local status=$1 command=$2 line=$3
    if [[ $BASHPID == "$$" && ! -e $CASE_WORK/.fail-reason ]]; then
        printf 'line %s: %s failed (exit status %s)\n' "$line" "$command" "$status" > "$CASE_WORK/.error-reason"
    fi
}
trap '_lib_error $? "$BASH_COMMAND" "$LINENO"' ERR

# wait_background PID [TIMEOUT] : waits until a background process ends and
# sets BACKGROUND_STATUS to its exit status (e.g. 130 after SIGINT, unless it
# handles the signal). Fails the case, killing the process, if it is still
# running after TIMEOUT seconds.
wait_background() {
    local pid=$1 limit=${2:-$WAIT_TIMEOUT} hung=false
    if ! _wait_until_ended "$pid" "$limit"; then
        # What each of the process's threads was doing (name, state, kernel
        # wait channel and stack), kept in hung-PID.threads before the
        # kill: a hang says where it hangs.
        hung=true
        _thread_dump "$pid" > "$CASE_WORK/hung-$pid.threads" 2>&1
        kill -KILL "$pid" 2>/dev/null || true
    fi
    BACKGROUND_STATUS=0
    wait "$pid" || BACKGROUND_STATUS=$?
    local remaining=() other
    for other in "${BACKGROUND_PIDS[@]}"; do
        if [[ $other != "$pid" ]]; then remaining+=("$other"); fi
    done
    BACKGROUND_PIDS=("${remaining[@]}")
    [[ $hung == false ]] || fail "process $pid did not end within ${limit}s (killed; its threads: hung-$pid.threads)"
    note "process $pid ended with status $BACKGROUND_STATUS"
}

# _thread_dump PID : each thread of PID: its name, state, wait channel and
# kernel stack (root reads /proc/PID/task/TID/stack).
_thread_dump() {
    local task
    for task in /proc/"$1"/task/*; do
        echo "== thread ${task##*/} $(cat "$task/comm" 2>/dev/null) state $(awk '{print $3}' "$task/stat" 2>/dev/null) wchan $(cat "$task/wchan" 2>/dev/null)"
        cat "$task/stack" 2>/dev/null
    done
}

_lib_cleanup() {
    local status=$?
    # A subshell (e.g. one killed right after it started, before bash
    # reset its traps) inherits this trap: only the case's own shell may
    # stop its processes and delete its folder.
    if [[ $BASHPID != "$$" ]]; then exit "$status"; fi
    if ((${#BACKGROUND_PIDS[@]} > 0)); then stop_background; fi
    rm -rf "$CASE_PRIVATE"
    exit "$status"
}
trap _lib_cleanup EXIT
# The runner's timeout ends a case with SIGTERM (then SIGKILL 10 s later):
# exit on it, so that the EXIT traps run and undo what the case changed on
# the guest (a group, a rule) before the next case starts. A case killed by
# its timeout once left the group that case 40 needs absent.
trap 'exit 143' TERM

# --- waiting on logs -----------------------------------------------------------

# wait_for_log FILE PATTERN [TIMEOUT] : waits until a line of FILE matches the
# extended regular expression PATTERN (lines already there count). Follows
# the file with inotify (tail -f on tmpfs), no polling. Fails the case on
# timeout, quoting the end of FILE.
wait_for_log() {
    wait_for_lines "$1" "$2" 1 "${3:-$WAIT_TIMEOUT}"
}

# wait_for_lines FILE PATTERN COUNT [TIMEOUT] : like wait_for_log, until COUNT
# lines match (e.g. the third TOUCH_UP).
wait_for_lines() {
    local file=$1 pattern=$2 count=$3 limit=${4:-$WAIT_TIMEOUT}
    [[ -e $file ]] || : > "$file"
    local follow tail_pid found
    exec {follow}< <(exec tail -n +1 -f -- "$file")
    tail_pid=$!
    # --line-buffered: when timeout ends grep, the lines it found must
    # already be in the pipe, not in grep's buffer.
    found=$(timeout "$limit" grep --line-buffered -m "$count" -E -- "$pattern" <&"$follow" | wc -l) || true
    exec {follow}<&-
    # SIGKILL: a SIGTERM that reaches the process substitution before it
    # has become tail is lost with the trap bash resets there.
    kill -KILL "$tail_pid" 2>/dev/null || true
    if ((found < count)); then
        fail "$found of $count lines matching '$pattern' in ${file##*/} within ${limit}s; it ends with: $(tail -n 5 -- "$file" | tr '\n' '|')"
    fi
}

# wait_for_path TEST PATH [TIMEOUT] : waits until `[[ TEST PATH ]]` holds
# (e.g. -S for a socket another process creates), looking every 50 ms, and
# fails the case when it does not within TIMEOUT seconds (default
# WAIT_TIMEOUT). For files made by programs that print nothing when they
# are ready (systemd-socket-activate).
wait_for_path() {
    local test=$1 path=$2 limit=${3:-$WAIT_TIMEOUT}
    local deadline=$((${EPOCHREALTIME/[.,]/} + limit * 1000000))
    until test "$test" "$path"; do
        ((${EPOCHREALTIME/[.,]/} < deadline)) || fail "$path did not appear (test $test) within ${limit}s"
        pause 0.05
    done
}

# count_lines FILE PATTERN : prints how many lines of FILE match PATTERN (ERE).
count_lines() {
    grep -c -E -- "$2" "$1" || true
}

# --- udev: waiting for a new input device --------------------------------------

UDEV_MONITOR_FD=
declare -A _udev_name_by_devpath=()
declare -A _udev_event_node_by_parent=()

# udev_monitor_start : starts `udevadm monitor --udev --property` for the input
# subsystem and returns once it listens. Call it BEFORE creating a device, so
# that its "add" cannot be missed. Its output is kept in udev-monitor.log.
udev_monitor_start() {
    if [[ -n $UDEV_MONITOR_FD ]]; then return 0; fi
    local fifo="$CASE_PRIVATE/udev-monitor.fifo"
    mkfifo "$fifo"
    stdbuf -oL udevadm monitor --udev --subsystem-match=input --property > "$fifo" 2>&1 &
    BACKGROUND_PIDS+=("$!")
    # Read-write open: does not block waiting for the writer.
    exec {UDEV_MONITOR_FD}<> "$fifo"
    local line
    # udevadm prints this header after it has bound its netlink socket.
    while IFS= read -r -t "$WAIT_TIMEOUT" -u "$UDEV_MONITOR_FD" line; do
        printf '%s\n' "$line" >> "$CASE_WORK/udev-monitor.log"
        if [[ $line == "UDEV - the event which udev sends out after rule processing" ]]; then
            return 0
        fi
    done
    fail "udevadm monitor did not start within ${WAIT_TIMEOUT}s"
}

# wait_for_input_device NAME [TIMEOUT] : waits until udev has finished adding
# an input device named NAME (its rules ran: ID_INPUT_* set, permissions
# applied) and sets DEVICE_NODE to its /dev/input/eventN. Needs
# udev_monitor_start before the device was created.
wait_for_input_device() {
    local wanted=$1 limit=${2:-$WAIT_TIMEOUT}
    [[ -n $UDEV_MONITOR_FD ]] || fail "wait_for_input_device: call udev_monitor_start before creating the device"
    # Microseconds, from bash's own clock (no process per line read).
    local deadline=$((${EPOCHREALTIME/[.,]/} + limit * 1000000))
    while true; do
        # Devices seen earlier (by this or a previous call) count too.
        local parent
        for parent in "${!_udev_event_node_by_parent[@]}"; do
            if [[ ${_udev_name_by_devpath[$parent]:-} == "$wanted" ]]; then
                DEVICE_NODE=${_udev_event_node_by_parent[$parent]}
                unset "_udev_event_node_by_parent[$parent]"
                note "udev added '$wanted' as $DEVICE_NODE"
                return 0
            fi
        done
        _udev_next_line "$deadline" "an input device named '$wanted' within ${limit}s"
    done
}

# _udev_next_line DEADLINE WHAT : reads the udev monitor's next line (into
# udev-monitor.log and _udev_parse_line), or fails the case saying that udev
# did not add WHAT once DEADLINE (microseconds, bash's clock) has passed.
_udev_next_line() {
    local deadline=$1 what=$2 line left remaining
    left=$((deadline - ${EPOCHREALTIME/[.,]/}))
    printf -v remaining '%d.%06d' $((left / 1000000)) $((left % 1000000))
    if ((left <= 0)) || ! IFS= read -r -t "$remaining" -u "$UDEV_MONITOR_FD" line; then
        fail "udev did not add $what (see udev-monitor.log)"
    fi
    printf '%s\n' "$line" >> "$CASE_WORK/udev-monitor.log"
    _udev_parse_line "$line"
}

# _udev_parse_line LINE : one line of `udevadm monitor --property`; at the
# blank line that ends an "add", remembers the device's name (by devpath),
# its event node (by parent devpath) and the node itself.
_udev_action="" _udev_devpath="" _udev_devname="" _udev_name=""
declare -A _udev_added_nodes=()
_udev_parse_line() {
    local line=$1
    case $line in
        ACTION=*) _udev_action=${line#ACTION=} ;;
        DEVPATH=*) _udev_devpath=${line#DEVPATH=} ;;
        DEVNAME=*) _udev_devname=${line#DEVNAME=} ;;
        NAME=*) _udev_name=${line#NAME=}; _udev_name=${_udev_name#\"}; _udev_name=${_udev_name%\"} ;;
        "")
            if [[ $_udev_action == add ]]; then
                if [[ -n $_udev_name ]]; then _udev_name_by_devpath[$_udev_devpath]=$_udev_name; fi
                if [[ $_udev_devname == /dev/input/event* ]]; then
                    _udev_event_node_by_parent[${_udev_devpath%/*}]=$_udev_devname
                    _udev_added_nodes[$_udev_devname]=1
                fi
            fi
            _udev_action="" _udev_devpath="" _udev_devname="" _udev_name=""
            ;;
    esac
}

# wait_for_input_node NODE [TIMEOUT] : waits until udev has finished adding
# the input device whose event node is NODE (/dev/input/eventN), as
# wait_for_input_device does for a name. A node cannot be another case's
# device, whatever the names: cases that run side by side use this.
wait_for_input_node() {
    local wanted=$1 limit=${2:-$WAIT_TIMEOUT}
    [[ -n $UDEV_MONITOR_FD ]] || fail "wait_for_input_node: call udev_monitor_start before creating the device"
    local deadline=$((${EPOCHREALTIME/[.,]/} + limit * 1000000))
    while [[ -z ${_udev_added_nodes[$wanted]:-} ]]; do
        _udev_next_line "$deadline" "$wanted within ${limit}s"
    done
    DEVICE_NODE=$wanted
    local parent
    for parent in "${!_udev_event_node_by_parent[@]}"; do
        if [[ ${_udev_event_node_by_parent[$parent]} == "$wanted" ]]; then unset "_udev_event_node_by_parent[$parent]"; fi
    done
    note "udev added $wanted"
}

# find_event_node NAME : sets DEVICE_NODE to the /dev/input/eventN of an
# existing device named NAME (from sysfs; does not wait for udev). Fails when
# there is none or more than one.
find_event_node() {
    local wanted=$1 found=() entry name
    for entry in /sys/class/input/event*; do
        # Another case's device can go between the glob and the read.
        name=$(cat "$entry/device/name" 2>/dev/null) || continue
        if [[ $name == "$wanted" ]]; then
            found+=("/dev/input/${entry##*/}")
        fi
    done
    ((${#found[@]} == 1)) || fail "expected one input device named '$wanted', found ${#found[@]}: ${found[*]:-none}"
    DEVICE_NODE=${found[0]}
}

# --- devices and observers -----------------------------------------------------

# create_device DESCRIPTION : creates a uinput device from an evemu description
# (a file in $FIXTURES or a path) with evemu-device, waits until udev has
# added it, and sets DEVICE_NODE, DEVICE_NAME and DEVICE_PID (the evemu-device
# process that keeps it alive; stop_background DEVICE_PID removes it).
create_device() {
    local description=$1
    [[ -f $description ]] || description="$FIXTURES/$description"
    [[ -f $description ]] || fail "create_device: no description file '$1'"
    DEVICE_NAME=$(sed -n 's/^N: //p' "$description" | head -n 1)
    [[ -n $DEVICE_NAME ]] || fail "create_device: no 'N:' line in $description"
    udev_monitor_start
    local log="evemu-device-${description##*/}.$((++_create_device_count)).log"
    start_background "$log" evemu-device "$description"
    DEVICE_PID=$BACKGROUND_PID
    # evemu-device prints "NAME: /dev/input/eventN" once it made the device:
    # its own node, whatever other devices of that name exist meanwhile.
    wait_for_log "$CASE_WORK/$log" ': /dev/input/event[0-9]+$'
    local node
    node=$(grep -m 1 -o -E '/dev/input/event[0-9]+$' "$CASE_WORK/$log")
    wait_for_input_node "$node"
}
_create_device_count=0

# libinput_watch NODE [LOG] : runs `libinput debug-events --device NODE` in the
# background into LOG (default libinput-<eventN>.log) and returns once it has
# printed DEVICE_ADDED, so that every later event is seen. Sets LIBINPUT_LOG
# and LIBINPUT_PID. Note: libinput prints the first frame's time as a wrapped
# value (+4294967.xxx s); judge times relative to later frames.
libinput_watch() {
    local node=$1 log=${2:-libinput-${1##*/}.log}
    start_background "$log" libinput debug-events --device "$node"
    LIBINPUT_PID=$BACKGROUND_PID
    LIBINPUT_LOG="$CASE_WORK/$log"
    wait_for_log "$LIBINPUT_LOG" 'DEVICE_ADDED' "$LIBINPUT_START_TIMEOUT"
}

# evemu_record_watch NODE [LOG] : runs `evemu-record NODE` in the background
# into LOG (default evemu-record-<eventN>.log: the device description, then
# `E:` lines) and returns once it waits for events. Sets EVEMU_RECORD_LOG and
# EVEMU_RECORD_PID. An independent record of what reached the device.
evemu_record_watch() {
    local node=$1 log=${2:-evemu-record-${1##*/}.log}
    start_background "$log" evemu-record "$node"
    EVEMU_RECORD_PID=$BACKGROUND_PID
    EVEMU_RECORD_LOG="$CASE_WORK/$log"
    wait_for_log "$EVEMU_RECORD_LOG" 'Waiting for events'
}

# --- observers of a device that a program under test creates ---------------
# A device that a program under test creates and then writes into must be
# observed from its first frame on. gesturectl's plays and presses are held
# on their device until told (--start-on-fd, start_gesturectl_play), so their
# observers are started on the device's node once it exists, and the play
# goes once they read it: nothing to race, and no name to match (a device of
# the same name in a case running beside this one cannot be taken for it).
#
#   libinput_watch_for NAME LOG        (before the play: says where to log)
#   start_gesturectl_play LOG NAME ... (the device exists, the play is held)
#   libinput_wait_added "$PLAY_NODE"   (libinput debug-events on the node, added)
#   begin_gesturectl_play              (or finish_gesturectl_play)
#
# For a device that no gate holds (a USB gadget's host side), observe the
# whole seat before it exists: libinput_watch_seat_for NAME LOG.

# libinput_watch_for NAME LOG : the next libinput_wait_added NODE watches NODE
# (named NAME) into LOG. Sets LIBINPUT_LOG and LIBINPUT_NAME.
libinput_watch_for() {
    LIBINPUT_NAME=$1
    LIBINPUT_LOG="$CASE_WORK/$2"
    _libinput_deferred=1
}
_libinput_deferred=0

# libinput_wait_added NODE : after libinput_watch_for, starts `libinput
# debug-events --device NODE` into its LOG and returns once libinput has
# added it (DEVICE_ADDED): every later event is seen. Sets LIBINPUT_PID. After
# libinput_watch_seat_for, waits for the device's DEVICE_ADDED instead and
# checks that it is NODE.
libinput_wait_added() {
    local node=$1 added
    if ((_libinput_deferred)); then
        _libinput_deferred=0
        start_background "${LIBINPUT_LOG##*/}" libinput debug-events --device "$node"
        LIBINPUT_PID=$BACKGROUND_PID
    fi
    wait_for_log "$LIBINPUT_LOG" "DEVICE_ADDED" "$LIBINPUT_START_TIMEOUT"
    added=$(grep -m 1 -o -E '^[- ]?event[0-9]+[[:space:]]+DEVICE_ADDED' "$LIBINPUT_LOG" | grep -o -E 'event[0-9]+' || true)
    [[ $added == "${node##*/}" ]] \
        || fail "libinput added '$LIBINPUT_NAME' as '${added:-nothing}', expected ${node##*/}"
}

# libinput_watch_seat_for NAME LOG : runs `libinput debug-events --udev seat0`
# in the background (it adds every new device itself as udev announces it)
# and returns once it listens to udev. LOG keeps only the lines about the
# device named NAME (found by its DEVICE_ADDED line: its eventN) and
# libinput's lines about no device at all; the whole output is in LOG's name
# with .seat.log. Sets LIBINPUT_LOG, LIBINPUT_PID (stopping it ends the
# filter too) and LIBINPUT_NAME. Then, once the device exists:
# libinput_wait_added NODE. NAME must be unique to this case.
libinput_watch_seat_for() {
    local name=$1 log=$2
    local seat_log="$CASE_WORK/${log%.log}.seat.log"
    : > "$seat_log"
    _libinput_deferred=0
    start_background "${seat_log##*/}" libinput debug-events --udev seat0
    LIBINPUT_PID=$BACKGROUND_PID
    LIBINPUT_LOG="$CASE_WORK/$log"
    LIBINPUT_NAME=$name
    # libinput listens to udev before it adds the devices already there, so
    # its first DEVICE_ADDED (the guest's own keyboard, power button…) says
    # that it listens (the guest always has some: power button, keyboard).
    wait_for_log "$seat_log" 'DEVICE_ADDED' "$LIBINPUT_START_TIMEOUT"
    start_background "$log" bash -c 'tail -n +1 -f --pid="$1" -- "$2" | python3 "$3" "$4"' \
        libinput-filter "$LIBINPUT_PID" "$seat_log" "$INTEGRATION/libinput-device-lines.py" "$name"
}

# evemu_record_watch_for NAME LOG : the next evemu_record_wait_ready NODE
# records NODE (named NAME) into LOG. Sets EVEMU_RECORD_LOG.
evemu_record_watch_for() {
    EVEMU_RECORD_LOG="$CASE_WORK/$2"
}

# evemu_record_wait_ready NODE : after evemu_record_watch_for, runs
# `evemu-record NODE` into its LOG and returns once it waits for events.
# Sets EVEMU_RECORD_PID.
evemu_record_wait_ready() {
    evemu_record_watch "$1" "${EVEMU_RECORD_LOG##*/}"
}

# play_events NODE RECORDING : plays an evemu event recording (a file in
# $FIXTURES or a path) into NODE with evemu-play and waits until it is done.
play_events() {
    local node=$1 recording=$2
    [[ -f $recording ]] || recording="$FIXTURES/$recording"
    [[ -f $recording ]] || fail "play_events: no recording file '$2'"
    note "evemu-play $node < ${recording##*/}"
    evemu-play "$node" < "$recording" || fail "evemu-play $node < ${recording##*/} failed"
}

# --- running commands ----------------------------------------------------------

# run_logged NAME COMMAND... : runs COMMAND in the foreground with stdout in
# $CASE_WORK/NAME.out and stderr in NAME.err; sets RUN_STATUS (never fails by
# itself, so that the case can assert the status).
run_logged() {
    local name=$1
    shift
    note "run: $*"
    RUN_NAME=$name
    RUN_STATUS=0
    "$@" > "$CASE_WORK/$name.out" 2> "$CASE_WORK/$name.err" < /dev/null || RUN_STATUS=$?
    note "exit status $RUN_STATUS"
}

# --- assertions ----------------------------------------------------------------

# assert_equal EXPECTED ACTUAL WHAT
assert_equal() {
    [[ $1 == "$2" ]] || fail "$3: expected '$1', got '$2'"
}

# assert_status EXPECTED : checks RUN_STATUS of the last run_logged.
assert_status() {
    [[ $RUN_STATUS == "$1" ]] \
        || fail "$RUN_NAME: expected exit status $1, got $RUN_STATUS (stderr: $(head -c 400 "$CASE_WORK/$RUN_NAME.err" | tr '\n' '|'))"
}

# assert_log_contains FILE PATTERN [WHAT] : some line matches PATTERN (ERE).
assert_log_contains() {
    grep -q -E -- "$2" "$1" || fail "${3:-${1##*/}}: no line matches '$2'"
}

# assert_log_lacks FILE PATTERN [WHAT] : no line matches PATTERN (ERE).
assert_log_lacks() {
    local hit
    hit=$(grep -m 1 -E -- "$2" "$1" || true)
    [[ -z $hit ]] || fail "${3:-${1##*/}}: unexpected line matching '$2': $hit"
}

# assert_line_count FILE PATTERN EXPECTED [WHAT] : exactly EXPECTED lines match.
assert_line_count() {
    local count
    count=$(count_lines "$1" "$2")
    [[ $count == "$3" ]] || fail "${4:-${1##*/}}: expected $3 lines matching '$2', found $count"
}

# assert_line_count_at_least FILE PATTERN MINIMUM [WHAT]
assert_line_count_at_least() {
    local count
    count=$(count_lines "$1" "$2")
    ((count >= $3)) || fail "${4:-${1##*/}}: expected at least $3 lines matching '$2', found $count"
}
