#!/usr/bin/env bash
# The engine's threads on a real kernel: while `gesturectl play` plays a slow
# gesture, the process has a thread the kernel calls gesturectl-play (timer
# slack 1 ns, so its wakes are exact) and the signal thread gesturectl-sig;
# it maps no Foundation and no ICU library (nor libsystemd, Dispatch's
# overlay or the regex modules, which every start paid for); SIGINT, SIGTERM and SIGHUP are
# blocked in every thread (read from a signalfd, never by a handler) and
# SIGPIPE is ignored. A SIGINT then ends the play as a cancel: exit 130,
# every finger lifted. With --realtime (the guest runs as root) the playing
# thread, and `record --realtime`'s recording thread gesturectl-rec, are
# SCHED_FIFO at priority 40, and the recording is the stroke drawn; a
# real-time play locks its memory as root and says so in --json, and
# without the right to lock it plays all the same and says it did not.
# timeout: 150
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

# Held at its start gate (play --start-on-fd) until the checks are done: the
# process and its playing thread exist and cannot end meanwhile, however
# slow the guest (a play that ended under load once left /proc/PID to read).
start_gesturectl_play play.log "$VIRTUAL_TOUCHSCREEN_NAME" "$REPO_ROOT/Recordings/three-finger-swipe-up.gesture.json" --speed 0.1
names=""
for task in /proc/"$PLAY_PID"/task/*; do names+="$(cat "$task/comm" 2>/dev/null || true) "; done
note "threads: $names"
play_task=""
for task in /proc/"$PLAY_PID"/task/*; do
    [[ $(cat "$task/comm" 2>/dev/null || true) == gesturectl-play ]] && play_task=$task
done
[[ -n $play_task ]] || fail "no thread named gesturectl-play among: $names"
[[ " $names " == *" gesturectl-sig "* ]] || fail "no thread named gesturectl-sig among: $names"
slack=$(awk '/^timerslack_ns/ {print $2}' "$play_task/status" 2>/dev/null || true)
[[ -z $slack ]] && slack=$(cat "$play_task/timerslack_ns" 2>/dev/null || true)
if [[ -n $slack ]]; then
    assert_equal 1 "$slack" "timer slack of gesturectl-play (ns)"
else
    note "this kernel does not show a thread's timer slack; not checked"
fi
if grep -Eiq 'libFoundation|libicu' /proc/"$PLAY_PID"/maps; then
    fail "gesturectl maps Foundation or ICU: $(grep -Eio '[^ /]*(Foundation|icu)[^ ]*' /proc/"$PLAY_PID"/maps | sort -u | tr '\n' ' ')"
fi
# Nor what each start paid for without using it (issue 9): libsystemd and
# its six libraries, Dispatch's Swift overlay, the regex modules.
if grep -Eq 'libsystemd|libgcrypt|libswiftDispatch|libswift_StringProcessing|libswift_RegexParser' /proc/"$PLAY_PID"/maps; then
    fail "gesturectl maps libraries it does not need at start: $(grep -Eo '[^ /]*(systemd|gcrypt|swiftDispatch|StringProcessing|RegexParser)[^ ]*' /proc/"$PLAY_PID"/maps | sort -u | tr '\n' ' ')"
fi
# SigBlk and SigIgn are hex masks; bit N-1 is signal N (HUP 1, INT 2, PIPE 13, TERM 15).
# Every thread, the concurrency pool's and Dispatch's included, must block
# them: a thread that did not would take the signal the default way.
for task in /proc/"$PLAY_PID"/task/*; do
    # A thread that ended since the listing (a worker) has nothing to check.
    status_text=$(cat "$task/status" 2>/dev/null) || continue
    sig_blocked=$(awk '/^SigBlk/ {print $2}' <<< "$status_text")
    [[ -n $sig_blocked ]] || continue
    blocked=$((16#$sig_blocked))
    for signal in 1 2 15; do
        ((blocked >> (signal - 1) & 1)) || fail "signal $signal is not blocked in thread $(cat "$task/comm" 2>/dev/null || true) (SigBlk $blocked)"
    done
done
sig_ignored=$(awk '/^SigIgn/ {print $2}' /proc/"$PLAY_PID"/status)
[[ -n $sig_ignored ]] || fail "no SigIgn line in /proc/$PLAY_PID/status"
ignored=$((16#$sig_ignored))
((ignored >> 12 & 1)) || fail "SIGPIPE is not ignored (SigIgn $ignored)"
begin_gesturectl_play
kill -INT "$PLAY_PID"
finish_gesturectl_play 130
assert_log_contains "$CASE_WORK/$PLAY_LOG" 'interrupted after [0-9]+ of [0-9]+ frames; every finger lifted' "gesturectl's message"

# thread_policy PID NAME : "POLICY PRIORITY" of PID's thread named NAME, from
# /proc/PID/task/TID/stat (fields 40 rt_priority and 41 policy; 1 = SCHED_FIFO).
# A play held at its start gate has its thread already; a recording's starts
# as it says "recording from", so a few tries cover a slow guest.
thread_policy() {
    local task stat fields attempt
    for ((attempt = 0; attempt < 100; attempt++)); do
        for task in /proc/"$1"/task/*; do
            [[ $(cat "$task/comm" 2>/dev/null) == "$2" ]] || continue
            read -r stat < "$task/stat"
            read -r -a fields <<< "${stat##*) }"
            echo "${fields[38]} ${fields[37]}"
            return
        done
        sleep 0.1
    done
    fail "no thread named $2 in process $1 within 10 s"
}

start_gesturectl_play play-rt.log "$VIRTUAL_TOUCHSCREEN_NAME" "$REPO_ROOT/Recordings/three-finger-swipe-up.gesture.json" --speed 0.1 --realtime --json
assert_equal "1 40" "$(thread_policy "$PLAY_PID" gesturectl-play)" "policy and priority of play --realtime's gesturectl-play"
# Root may lock memory: the frames and everything mapped stay in RAM.
locked_kb=$(awk '/^VmLck/ {print $2}' /proc/"$PLAY_PID"/status)
((${locked_kb:-0} > 0)) || fail "play --realtime as root locked no memory (VmLck ${locked_kb:-?} kB)"
begin_gesturectl_play
kill -INT "$PLAY_PID"
finish_gesturectl_play 130
assert_log_contains "$CASE_WORK/play-rt.log" '"memory_locked": true' "play --realtime --json as root"
# Without the right to lock (no CAP_IPC_LOCK, RLIMIT_MEMLOCK 0) the play
# still runs at real-time priority and says the memory was not locked.
run_logged play-rt-nolock prlimit --memlock=0:0 -- setpriv --bounding-set -ipc_lock -- \
    "$GESTURECTL" play tap --realtime --json --lead-in 0
assert_status 0
assert_log_contains "$CASE_WORK/play-rt-nolock.out" '"memory_locked": false' "play --realtime --json without the right to lock"

create_device touchscreen.evemu
start_gesturectl_record record-rt.log --device "$DEVICE_NODE" -o recorded.gesture.json --idle-timeout 1 --realtime
assert_equal "1 40" "$(thread_policy "$RECORD_PID" gesturectl-rec)" "policy and priority of record --realtime's gesturectl-rec"
play_events "$DEVICE_NODE" touch-one-stroke.events
wait_background "$RECORD_PID" 30
[[ $BACKGROUND_STATUS == 0 ]] || fail "gesturectl record --realtime: exit status $BACKGROUND_STATUS ($(tail -n 3 record-rt.log | tr '\n' '|'))"
"$GESTURECTL" show recorded.gesture.json > shown.txt 2>&1 || fail "gesturectl show of the recording failed: $(head -n 3 shown.txt)"
assert_log_contains shown.txt '^1 stroke, ' "what record --realtime recorded"
