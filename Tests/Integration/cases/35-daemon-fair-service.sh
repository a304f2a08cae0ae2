#!/usr/bin/env bash
# The daemon serves everyone fairly on a real kernel (issue 21): while one
# client streams 5,000 pipelined `bind`s and another sends a 60 MiB line,
# a third client plays a three-finger long press again and again, cancelling each
# mid-play (20 times, and on until the load is answered). Each cancel is answered, and the fingers are seen lifted on the
# ready touchscreen (by our own evdev reader with CLOCK_MONOTONIC
# timestamps, set with EVIOCSCLOCKID), within 100 ms at p99 of sending it
# (or, on a machine so loaded that even a `version` round trip, measured
# beside each cancel, is slow: within 4 × that round trip's p99; a cancel
# held behind the load would take seconds).
# Then SIGTERM with thousands of requests still queued: the daemon exits 0
# within 5 s, and its bindings file holds the last bind written.
# timeout: 300
. "$INTEGRATION/lib.sh"
. "$INTEGRATION/gesturectl-lib.sh"

((IN_VM)) || skip "keeps a ready touchscreen: runs only inside the VM"
# The load is the issue's with the shipped (release) binary from the package
# this run built; a debug build under emulation is some fifty times slower,
# so without the package the load is lighter (5,000 binds take 200 s there).
if [[ -n ${GESTURECTL_DEB:-} ]]; then
    dpkg-deb -x "$GESTURECTL_DEB" "$CASE_PRIVATE/deb" || fail "cannot unpack $GESTURECTL_DEB"
    daemon_binary=$CASE_PRIVATE/deb/usr/bin/gesturectl
    binds=5000 line_mib=60
else
    daemon_binary=$GESTURECTL
    binds=1000 line_mib=16
    note "no package (GESTURECTL_DEB): the debug build, $binds binds and a $line_mib MiB line"
fi
socket=$CASE_WORK/d.sock
printf '{"devices": ["touchscreen"], "queue_limit": 100}\n' > "$CASE_WORK/daemon.json"
mkdir -p "$CASE_WORK/library"
"$GESTURECTL" synth long-press --fingers 3 --duration 5s -o "$CASE_WORK/library/hold.gesture.json" \
    || fail "cannot make the long press"

start_background daemon.log "$daemon_binary" daemon --socket "$socket" --config "$CASE_WORK/daemon.json" \
    --library "$CASE_WORK/library" --bindings "$CASE_WORK/bindings.json"
daemon_pid=$BACKGROUND_PID
wait_for_log "$CASE_WORK/daemon.log" 'ready: listening on'
touchscreen=$(grep -o 'ready: touchscreen at /dev/input/event[0-9]*' "$CASE_WORK/daemon.log" | awk '{print $4}')
[[ -n $touchscreen ]] || fail "the daemon did not say where its touchscreen is"

python3 - "$socket" "$touchscreen" "$CASE_WORK/latency.txt" "$binds" "$line_mib" <<'PYTHON' || fail "the cancel latencies (see latency.txt)"
import fcntl, json, multiprocessing, os, select, socket, struct, sys, threading, time

path, node, report = sys.argv[1:4]
binds, line_mib = int(sys.argv[4]), int(sys.argv[5])
EVIOCSCLOCKID = 0x400445A0
EV_KEY, BTN_TOUCH = 1, 0x14A

def connect():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    return s

# The touchscreen's events, stamped on CLOCK_MONOTONIC by the kernel.
device = os.open(node, os.O_RDONLY | os.O_NONBLOCK)
fcntl.ioctl(device, EVIOCSCLOCKID, struct.pack("i", time.CLOCK_MONOTONIC))
pending = b""
def touch_changes(timeout):
    """BTN_TOUCH values with their kernel times, read within timeout seconds."""
    global pending
    found = []
    ready, _, _ = select.select([device], [], [], timeout)
    if not ready:
        return found
    try:
        pending += os.read(device, 24 * 256)
    except BlockingIOError:
        return found
    while len(pending) >= 24:
        sec, usec, kind, code, value = struct.unpack("qqHHi", pending[:24])
        pending = pending[24:]
        if kind == EV_KEY and code == BTN_TOUCH:
            found.append((value, sec + usec / 1e6))
    return found

def wait_touch(value, within):
    end = time.monotonic() + within
    while time.monotonic() < end:
        for got, stamp in touch_changes(0.5):
            if got == value:
                return stamp
    raise SystemExit(f"BTN_TOUCH {value} not seen within {within} s")

# The load, in processes of their own (not threads: the measuring client
# must not wait for the interpreter's lock): 5,000 pipelined binds (their
# replies read and counted), and a 60 MiB line (a save whose gesture is one
# long string: read, then refused).
bind_replies = multiprocessing.Value("i", 0)
big_reply = multiprocessing.Array("c", 200)
def binder():
    # The load's own processes yield to the measuring client (nice 10), so
    # that what is measured is the daemon, not this guest's two CPUs.
    os.nice(10)
    s = connect()
    lines = b"".join(
        json.dumps({"id": n, "op": "bind",
                    "trigger": {"device": "046d:c52b", "key": "KEY_F13", "press": "single"},
                    "action": {"press": "volume-up" if n % 2 == 0 else "mute"}}).encode() + b"\n"
        for n in range(binds))
    sender = threading.Thread(target=s.sendall, args=(lines,))
    sender.start()
    buffer = b""
    while bind_replies.value < binds:
        chunk = s.recv(1 << 16)
        if not chunk:
            break
        buffer += chunk
        bind_replies.value += buffer.count(b"\n")
        buffer = buffer[buffer.rfind(b"\n") + 1:]
    sender.join()
def big_line():
    os.nice(10)
    s = connect()
    s.sendall(b'{"id": 1, "op": "save", "name": "huge", "gesture": "' + b"x" * (line_mib << 20) + b'"}\n')
    big_reply.value = s.makefile("rb").readline()[:199]

loaders = [multiprocessing.Process(target=binder), multiprocessing.Process(target=big_line)]
for thread in loaders:
    thread.start()

player = connect()
player.settimeout(60)
replies = player.makefile("rb")
def progress(text):
    print(f"{time.monotonic():.1f} {text}", file=sys.stderr, flush=True)
def call(request):
    player.sendall(json.dumps(request).encode() + b"\n")
    while True:
        line = json.loads(replies.readline())
        if "event" not in line:
            return line

latencies, replies_ms, lifts_ms, versions_ms = [], [], [], []
# At least 20 rounds, and on until the load is answered: every cancel is
# measured under it.
round = -1
while round < 19 or (any(loader.is_alive() for loader in loaders) and round < 400):
    round += 1
    started = call({"id": round, "op": "play", "name": "hold", "wait": False})
    assert started.get("ok"), started
    job = started["result"]["job"]
    if round % 10 == 0:
        progress(f"round {round}: job {job} queued; {bind_replies.value} binds answered")
    wait_touch(1, 60)
    # The floor beside it: a request served as soon as it is read, no device.
    asked = time.clock_gettime(time.CLOCK_MONOTONIC)
    assert call({"id": 2000 + round, "op": "version"}).get("ok")
    versions_ms.append((time.clock_gettime(time.CLOCK_MONOTONIC) - asked) * 1000)
    sent = time.clock_gettime(time.CLOCK_MONOTONIC)
    player.sendall(json.dumps({"id": 1000 + round, "op": "cancel", "job": job}).encode() + b"\n")
    reply = json.loads(replies.readline())
    answered = time.clock_gettime(time.CLOCK_MONOTONIC)
    assert reply.get("ok"), reply
    lifted = wait_touch(0, 30)
    latencies.append((max(answered, lifted) - sent) * 1000)
    replies_ms.append((answered - sent) * 1000)
    lifts_ms.append((lifted - sent) * 1000)
    # The play's own end (cancelled) comes on the connection too; skip it.
progress("cancels done; waiting for the load to be answered")
for thread in loaders:
    thread.join(timeout=240)
def percentiles(values):
    values = sorted(values)
    return f"p50 {values[len(values) // 2]:.1f}, p99 {values[min(len(values) - 1, int(len(values) * 0.99))]:.1f}"
latencies.sort()
p50 = latencies[len(latencies) // 2]
p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
versions_ms.sort()
version_p99 = versions_ms[min(len(versions_ms) - 1, int(len(versions_ms) * 0.99))]
limit = max(100, 4 * version_p99)
with open(report, "w") as out:
    out.write(f"cancel to reply and lift, ms: p50 {p50:.1f}, p99 {p99:.1f}, max {latencies[-1]:.1f} "
              f"(reply {percentiles(replies_ms)}; lift {percentiles(lifts_ms)}; each: {', '.join(f'{v:.0f}' for v in latencies)}); "
              f"binds answered {bind_replies.value}; {line_mib} MiB line: {big_reply.value[:120]!r}; "
              f"version round trip beside each cancel: {percentiles(versions_ms)}; limit {limit:.1f} ms\n")
print(open(report).read(), end="")
if p99 > limit:
    raise SystemExit(f"p99 {p99:.1f} ms is over {limit:.1f} ms")
if bind_replies.value != binds:
    raise SystemExit(f"only {bind_replies.value} of {binds} binds answered")
PYTHON
note "$(cat "$CASE_WORK/latency.txt")"
grep -q '"mute"' "$CASE_WORK/bindings.json" || fail "bindings.json does not hold the last bind (see bindings.json)"

# SIGTERM with thousands of requests queued: gone within 5 s.
python3 - "$socket" <<'PYTHON'
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
s.sendall(b'{"id": 1, "op": "list"}\n' * 3000)
print("queued")
PYTHON
started=$SECONDS
kill -TERM "$daemon_pid"
wait_background "$daemon_pid" 10
took=$((SECONDS - started))
assert_equal 0 "$BACKGROUND_STATUS" "the daemon's exit status after SIGTERM"
((took <= 5)) || fail "the daemon took $took s to stop"
note "stopped $took s after SIGTERM with 3,000 requests queued"
