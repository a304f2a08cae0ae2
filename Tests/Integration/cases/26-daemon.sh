#!/usr/bin/env bash
# The daemon on a real kernel, observed by libinput:
#   1. `gesturectl daemon` makes its ready devices and says "ready"; a
#      client (`gesturectl --socket … play`) plays a two-finger tap on the
#      ready touchscreen and libinput sees both touches go down and up; the
#      documentation's ten-line Python client gets the protocol version;
#      100 clients at once all get their replies;
#   2. who may connect: the socket's mode (0660, group gesturectl) refuses a
#      user outside the group (exit 4); with the socket opened to everyone
#      (chmod 0666) the daemon's own peer check refuses them
#      (`permission-denied`, exit 4, a log line); a member is served;
#   3. SIGTERM mid-play: the waiting client is told its play was cancelled,
#      libinput sees every finger lifted, the daemon exits 0 and removes its
#      socket; STOPPING=1 and READY=1 arrive on NOTIFY_SOCKET;
#   4. socket activation through systemd-socket-activate: the first client
#      starts the daemon, which takes the socket it was handed.
# timeout: 360
# resources: group
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

((IN_VM)) || skip "creates groups and ready devices: runs only inside the VM"
# The socket's folder is open to everyone (the users below must reach it).
socket_dir=$(mktemp -d /run/gesturectl-daemon-test.XXXXXX)
chmod 755 "$socket_dir"
socket=$socket_dir/d.sock
member_uid=61011
outsider_uid=61012
! getent group gesturectl > /dev/null || fail "a group 'gesturectl' exists already; this case needs a clean system"
groupadd -r gesturectl
gid=$(getent group gesturectl | cut -d: -f3)
trap 'status=$?; groupdel gesturectl 2>/dev/null || true; rm -rf "$socket_dir"; (exit "$status"); _lib_cleanup' EXIT

# A datagram socket that collects what the daemon tells systemd.
python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.bind(sys.argv[1])
with open(sys.argv[2], "a", buffering=1) as out:
    out.write("bound\n")
    while True: out.write(s.recv(4096).decode().replace("\n", " ") + "\n")
' "$CASE_WORK/notify.sock" "$CASE_WORK/notify.log" &
BACKGROUND_PIDS+=($!)
wait_for_log "$CASE_WORK/notify.log" '^bound$'

NOTIFY_SOCKET=$CASE_WORK/notify.sock start_background daemon.log "$GESTURECTL" daemon --socket "$socket"
daemon_pid=$BACKGROUND_PID
wait_for_log "$CASE_WORK/daemon.log" 'ready: listening on'
wait_for_log "$CASE_WORK/notify.log" 'READY=1'
assert_equal "root gesturectl 660" "$(stat -c '%U %G %a' "$socket")" "the socket's owner, group and mode"
touchscreen=$(grep -o 'ready: touchscreen at /dev/input/event[0-9]*' "$CASE_WORK/daemon.log" | awk '{print $4}')
[[ -n $touchscreen ]] || fail "the daemon did not say where its touchscreen is"
note "ready touchscreen: $touchscreen"

# 1. A play through the socket, seen by libinput on the device made at start.
libinput_watch "$touchscreen" libinput.log
run_logged play "$GESTURECTL" --socket "$socket" play two-finger-tap --json
assert_status 0
assert_log_contains "$CASE_WORK/play.out" '"outcome": "completed"' "the client's JSON"
wait_for_lines "$LIBINPUT_LOG" 'TOUCH_UP' 2
assert_line_count "$LIBINPUT_LOG" 'TOUCH_DOWN' 2 "touches down"
assert_libinput_content "$LIBINPUT_LOG"
run_logged python-client env GESTURECTL_SOCKET="$socket" python3 -c "$(python3 -c '
import re, sys
print(re.search(r"```python\n(.*?)```", open(sys.argv[1]).read(), re.S).group(1))' "$REPO_ROOT/docs/PROTOCOL.md")"
assert_status 0
assert_log_contains "$CASE_WORK/python-client.out" "'protocol': 1" "the documented Python client"

# 1b. 100 clients at once (one Python process, a thread each): every one
# gets its own replies, matched by id, and a play on the touchpad each
# tenth client runs one after another with the others. (Its 47 s under
# emulation are the 200 requests, not the plays: 25th instead of tenth
# saved nothing measurable.)
run_logged hundred-clients python3 -c '
import json, socket, sys, threading
path, errors = sys.argv[1], []
def client(n):
    try:
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(120)
            s.connect(path)
            lines = s.makefile("rw", encoding="utf-8", newline="\n")
            requests = [{"op": "version"}, {"op": "list"}]
            if n % 10 == 0: requests.append({"op": "play", "name": "tap", "as": "touchpad"})
            for i, request in enumerate(requests):
                lines.write(json.dumps({"id": f"{n}-{i}", **request}) + "\n"); lines.flush()
                reply = json.loads(lines.readline())
                if reply.get("id") != f"{n}-{i}" or not reply.get("ok"): errors.append((n, i, reply))
    except Exception as error:
        errors.append((n, repr(error)))
threads = [threading.Thread(target=client, args=(n,)) for n in range(100)]
for t in threads: t.start()
for t in threads: t.join()
print(f"{100 - len({e[0] for e in errors})} of 100 clients served; errors: {errors[:3]}")
sys.exit(1 if errors else 0)' "$socket"
assert_status 0
note "$(cat "$CASE_WORK/hundred-clients.out")"

# 2. Who may connect: first the socket's mode, then the daemon's own check
# with the file permissions out of the way.
run_logged outsider-mode setpriv --reuid="$outsider_uid" --regid="$outsider_uid" --clear-groups "$GESTURECTL" --socket "$socket" list
assert_status 4
assert_log_contains "$CASE_WORK/outsider-mode.err" "join the group" "the hint when the socket's mode refuses"
chmod 0666 "$socket"
run_logged outsider setpriv --reuid="$outsider_uid" --regid="$outsider_uid" --clear-groups "$GESTURECTL" --socket "$socket" list
assert_status 4
assert_log_contains "$CASE_WORK/outsider.err" 'may not use this daemon' "the refusal"
run_logged member setpriv --reuid="$member_uid" --regid="$member_uid" --groups="$gid" "$GESTURECTL" --socket "$socket" list --json
assert_status 0
assert_log_contains "$CASE_WORK/member.out" '"name": "tap"' "the member's list"
assert_log_contains "$CASE_WORK/daemon.log" "refused: uid $outsider_uid" "the daemon's log line"
chmod 0660 "$socket"

# 3. SIGTERM while a slow three-finger swipe plays. libinput is how the
# case sees the play under way, and under load it reads the events seconds
# late: at --speed 0.1 (2.5 s) a stress round saw the 6th motion only after
# the play had ended. At 0.02 it lasts 12.5 s, and SIGTERM cuts it short.
start_background slow.log "$GESTURECTL" --socket "$socket" play three-finger-swipe-up --speed 0.02
slow_pid=$BACKGROUND_PID
wait_for_lines "$LIBINPUT_LOG" 'TOUCH_DOWN' 5
wait_for_lines "$LIBINPUT_LOG" 'TOUCH_MOTION' 6
note "sending SIGTERM to the daemon (pid $daemon_pid)"
kill -TERM "$daemon_pid"
wait_background "$daemon_pid" 30
assert_equal 0 "$BACKGROUND_STATUS" "the daemon's exit status after SIGTERM"
# Said apart, so that a play that ended first is not told as a wrong status.
assert_log_contains "$CASE_WORK/daemon.log" 'stopping: cancelling 1 job\(s\)' "the play running at SIGTERM"
wait_background "$slow_pid" 30
assert_equal 130 "$BACKGROUND_STATUS" "the waiting client's exit status"
assert_log_contains "$CASE_WORK/slow.log" 'cancelled after [0-9]+ frames; every finger lifted' "the client's message"
wait_for_lines "$LIBINPUT_LOG" 'TOUCH_UP' 5
gesturectl_check libinput-term touches-lifted "$LIBINPUT_LOG"
[[ ! -e $socket ]] || fail "the daemon left its socket behind"
wait_for_log "$CASE_WORK/notify.log" 'STOPPING=1'
stop_background "$LIBINPUT_PID"

# 4. Socket activation: systemd-socket-activate listens, starts the daemon
# on the first connection and hands it the socket.
activated=$CASE_WORK/activated.sock
start_background activate.log systemd-socket-activate -l "$activated" -E GESTURECTL_BUILTINS="$REPO_ROOT/Recordings" \
    "$GESTURECTL" daemon --library "$CASE_WORK/library"
activator_pid=$BACKGROUND_PID
wait_for_path -S "$activated"
run_logged activated-list "$GESTURECTL" --socket "$activated" list --json
assert_status 0
assert_log_contains "$CASE_WORK/activated-list.out" '"name": "tap"' "the activated daemon's list"
assert_log_contains "$CASE_WORK/activate.log" 'listening on the socket systemd handed over' "the daemon took the handed socket"
kill -TERM "$activator_pid" 2>/dev/null || true
wait_background "$activator_pid" 30
