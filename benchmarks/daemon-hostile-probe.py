#!/usr/bin/python3
"""Hostile-clients benchmark for benchmarks/daemon-hostile (issue 36): one
member's `version`, `play` and `cancel` latency and the daemon's memory, with
nobody else connected, beside six greedy clients of another member, and
beside hostile request lines, in one VM boot.

Usage:
  daemon-hostile-probe.py measure --binary PATH --result FILE --folder DIR
                                  [--iterations N] [--shows N] [--big-bytes N]
                                  [--hostile-rounds N]
                                                                  (in the VM, as root)
  daemon-hostile-probe.py table FILE                              (on the host)
  daemon-hostile-probe.py greedy SOCKET COUNT                     (member clients,
  daemon-hostile-probe.py innocent SOCKET N                        started by
  daemon-hostile-probe.py hostile SOCKET SECONDS KIND CONNECTIONS  measure)

measure: starts `gesturectl daemon` as root with group nogroup (gid 65534),
only the touchscreen ready and its socket, library and bindings in a 0755
folder of the guest's /tmp; waits for its "ready: listening" line; saves a
~1 MB one-finger gesture "big" as root. Then three scenarios, each with
the daemon's VmRSS before, its peak (VmHWM, reset through
/proc/PID/clear_refs at the scenario's start) and VmRSS once the scenario's
other clients are gone and the daemon is idle again:
  quiet    the innocent client alone;
  greedy   six clients of member uid 65533 each send COUNT (100) `show`s of
           "big" at once and never read; once all are sent, the innocent
           client runs; then the daemon is left to finish (its CPU time
           stops growing), the log's "holds the most" lines are counted,
           and the greedy clients are killed;
  hostile  clients of member uid 65533 that read their replies and keep
           sending, each with up to 16 lines unanswered: 16 connections of
           20 KiB lines whose "op" comes after 16 KiB of padding,
           4 of `{"id":"bind","op":"list"}`, 4 of lines full of the word
           "version" (and `"op":"version"` inside strings), 4 of malformed
           lines (cut short, a trailing comma, 40 levels deep, bytes that
           are not UTF-8, a key twice), and one that trickles a 32 MiB line
           at 2 MiB/s and never ends it; the innocent client runs once every
           connection has had its first reply.
innocent (member uid 65534 gid 65534, one connection): N iterations after 5
  warm-up ones of: `version`; `play` of the built-in `tap` with
  "wait": false (its reply carries the job); `cancel` of that job; each
  timed with time.monotonic_ns from just before the send to the reply (event
  lines skipped). Prints JSON.

table (on the host): the Markdown tables from the JSON result.

Standard library only (Debian's /usr/bin/python3).
"""

import argparse
import errno
import json
import os
import platform
import select
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

TIMEOUT_S = 60
# --native (see main): no ready device, no play.
NATIVE = False
WARM_UP = 5
GREEDY_UID = 65533
INNOCENT_UID = 65534
GROUP = 65534
WINDOW = 16  # hostile lines a connection leaves unanswered at most
HOSTILE = [("padded", 8), ("padded", 8), ("bind-id", 4), ("version-word", 4), ("malformed", 4), ("trickle", 1)]


# --- clients ------------------------------------------------------------------

class Connection:
    def __init__(self, path):
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.connect(path)
        self.lines = self.socket.makefile("rb")
        self.next_id = 0

    def encode(self, request):
        self.next_id += 1
        return self.next_id, (json.dumps({"id": self.next_id, **request}) + "\n").encode()

    def reply_to(self, request_id):
        """The reply with this id; event lines and other replies skipped."""
        while True:
            line = self.lines.readline()
            if not line:
                raise ConnectionError("the daemon closed the connection")
            message = json.loads(line)
            if "event" not in message and message.get("id") == request_id:
                return message

    def timed(self, request):
        request_id, line = self.encode(request)
        sent = time.monotonic_ns()
        self.socket.sendall(line)
        reply = self.reply_to(request_id)
        return (time.monotonic_ns() - sent) / 1e6, reply

    def call(self, request):
        _, reply = self.timed(request)
        if not reply.get("ok"):
            raise RuntimeError(f"{request.get('op')}: {reply}")
        return reply["result"]


def innocent(socket_path, iterations, play=True):
    connection = Connection(socket_path)
    times = {"version": [], "play": [], "cancel": []}
    errors = {"version": 0, "play": 0, "cancel": 0}
    cancel_codes = {}
    started = time.monotonic()
    for index in range(iterations + WARM_UP):
        version_ms, version = connection.timed({"op": "version"})
        if play:
            play_ms, played = connection.timed({"op": "play", "name": "tap", "wait": False})
            if not played.get("ok"):
                raise SystemExit(f"innocent: play: {played}")
            job = played["result"]["job"]
        else:
            # --native: no device to play on; the cancel of a job that is
            # not there takes the same path through the I/O thread.
            play_ms, played, job = None, {"ok": True}, 1
        cancel_ms, cancel = connection.timed({"op": "cancel", "job": job})
        code = "ok" if cancel.get("ok") else cancel.get("error", {}).get("code", "?")
        if index < WARM_UP:
            continue
        cancel_codes[code] = cancel_codes.get(code, 0) + 1
        for name, value, reply in (("version", version_ms, version), ("play", play_ms, played),
                                   ("cancel", cancel_ms, cancel)):
            if value is None:
                continue
            times[name].append(value)
            errors[name] += 0 if reply.get("ok") else 1
    json.dump({"times_ms": times, "errors": errors, "cancel_replies": cancel_codes,
               "seconds": time.monotonic() - started}, sys.stdout)


def greedy(socket_path, count):
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    client.connect(socket_path)
    client.sendall(b'{"id":1,"op":"show","name":"big"}\n' * count)
    print("sent", flush=True)
    while True:  # never reads; killed by measure
        signal.pause()


def hostile_lines(kind):
    """The lines one hostile connection sends, over and over."""
    if kind == "padded":
        lines = []
        for op in ("version", "list", "jobs"):
            head, tail = '{"id":1,"pad":"', f'","op":"{op}"}}\n'
            lines.append((head + "x" * (20 * 1024 - len(head) - len(tail) + 1) + tail).encode())
        return lines
    if kind == "bind-id":
        return [b'{"id":"bind","op":"list"}\n']
    if kind == "version-word":
        words = " ".join(["version"] * 120)
        return [('{"id":"version","version":"version","note":"' + words + '"}\n').encode(),
                ('{"id":3,"note":"' + '\\"op\\":\\"version\\", ' * 60 + '","op":"list","version":"version"}\n').encode(),
                ('{"id":4,"x":"' + "version " * 300 + '","op":"version"}\n').encode()]
    if kind == "malformed":
        return [b'{"id":1,"op":"version"\n', b'{"id":2,"op":"version",}\n', b"[" * 40 + b"]" * 40 + b"\n",
                b'{"id":3,"op":"ver\xff\xfesion"}\n', b'{"id":4,"op":"version","op":"cancel"}\n',
                b"version version version\n", b'{"id":5,"op":"version"}}\n', b'"op":"version"\n']
    raise SystemExit(f"hostile: unknown kind {kind}")


class HostileConnection:
    def __init__(self, path, lines):
        self.path, self.lines = path, lines
        self.sent = self.replies = self.reconnects = self.stalls = 0
        self.connect()

    def connect(self):
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.connect(self.path)
        self.socket.setblocking(False)
        self.pending = b""  # the rest of the line being written
        self.unanswered = 0
        self.partial = b""
        self.progress = time.monotonic()

    def wants_write(self):
        return bool(self.pending) or self.unanswered < WINDOW

    def write(self):
        if not self.pending:
            self.pending = self.lines[self.sent % len(self.lines)]
            self.sent += 1
            self.unanswered += 1
        try:
            written = self.socket.send(self.pending)
        except BlockingIOError:
            return
        self.pending = self.pending[written:]

    def read(self):
        try:
            data = self.socket.recv(1 << 20)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:  # closed by the daemon: counted, and again
            self.socket.close()
            self.reconnects += 1
            self.connect()
            return
        self.progress = time.monotonic()
        lines = (self.partial + data).split(b"\n")
        self.partial = lines.pop()
        for line in lines:
            if b'"event"' not in line:
                self.replies += 1
                self.unanswered = max(0, self.unanswered - 1)

    def check_stall(self, now):
        # A line left unanswered (none should be) must not stop the client.
        if self.unanswered and not self.pending and now - self.progress > 30:
            self.stalls += 1
            self.unanswered = 0
            self.progress = now


def hostile(socket_path, seconds, kind, connections):
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    started = time.monotonic()
    if kind == "trickle":
        return trickle(socket_path, seconds, stopping)
    clients = [HostileConnection(socket_path, hostile_lines(kind)) for _ in range(connections)]
    announced = False
    while not stopping and time.monotonic() - started < seconds:
        readers = [client.socket for client in clients]
        writers = [client.socket for client in clients if client.wants_write()]
        try:
            readable, writable, _ = select.select(readers, writers, [], 0.5)
        except InterruptedError:
            continue
        for client in clients:
            if client.socket in readable:
                client.read()
            if client.socket in writable and client.wants_write():
                client.write()
        now = time.monotonic()
        for client in clients:
            client.check_stall(now)
        if not announced and all(client.replies for client in clients):
            print("ready", flush=True)
            announced = True
    print(json.dumps({"kind": kind, "connections": connections,
                      "lines_sent": sum(c.sent for c in clients), "replies": sum(c.replies for c in clients),
                      "reconnects": sum(c.reconnects for c in clients), "stalls": sum(c.stalls for c in clients),
                      "in_flight": sum(c.unanswered for c in clients),
                      "seconds": time.monotonic() - started}), flush=True)


def trickle(socket_path, seconds, stopping):
    """A 32 MiB line at 2 MiB/s, never finished; reads whatever comes."""
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    client.connect(socket_path)
    client.sendall(b'{"id":1,"op":"version","pad":"')
    client.setblocking(False)
    print("ready", flush=True)
    started = time.monotonic()
    pending, total, limit, closed = b"", 0, 32 << 20, False
    while not stopping and not closed and time.monotonic() - started < seconds:
        if not pending and total < limit and total < (time.monotonic() - started) * (2 << 20):
            pending = b"x" * (64 << 10)
        try:
            readable, writable, _ = select.select([client], [client] if pending else [], [], 0.05)
        except InterruptedError:
            continue
        try:
            if writable:
                written = client.send(pending)
                pending, total = pending[written:], total + written
            if readable and not client.recv(1 << 16):
                closed = f"closed by the daemon after {total} bytes"
        except BlockingIOError:
            pass
        except OSError as error:
            closed = f"{errno.errorcode.get(error.errno, error)} after {total} bytes"
    print(json.dumps({"kind": "trickle", "connections": 1, "bytes_sent": total, "closed": closed,
                      "seconds": time.monotonic() - started}), flush=True)


# --- measure (root, in the VM) ------------------------------------------------------

def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))]


def summary(values):
    if not values:
        return None
    return {"count": len(values), "p50": statistics.median(values), "p99": percentile(values, 0.99),
            "max": max(values)}


def status_kib(pid, key):
    with open(f"/proc/{pid}/status", encoding="utf-8") as file:
        for line in file:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    raise KeyError(key)


def cpu_ticks(pid):
    with open(f"/proc/{pid}/stat", encoding="utf-8") as file:
        fields = file.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def wait_idle(pid, what, timeout_s=300):
    """Polls until the daemon's CPU time grows by at most 10% over a second
    and its RSS by at most 1 MiB: it has finished what the scenario gave it."""
    hertz = os.sysconf("SC_CLK_TCK")
    deadline = time.monotonic() + timeout_s
    samples = []
    while time.monotonic() < deadline:
        samples.append((time.monotonic(), cpu_ticks(pid), status_kib(pid, "VmRSS")))
        window = [sample for sample in samples if sample[0] >= samples[-1][0] - 1.0]
        if samples[-1][0] - samples[0][0] >= 1.0 and window[0][0] <= samples[-1][0] - 0.9:
            if window[-1][1] - window[0][1] <= 0.1 * hertz and abs(window[-1][2] - window[0][2]) <= 1024:
                return
        time.sleep(0.1)
    print(f"hostile-probe: the daemon was still busy {timeout_s} s after {what}", flush=True)


def cpu_sample(pid):
    """(the guest's busy and total ticks from /proc/stat, the daemon's ticks, now)."""
    with open("/proc/stat", encoding="utf-8") as file:
        values = [int(value) for value in file.readline().split()[1:]]
    return sum(values) - values[3] - values[4], sum(values), cpu_ticks(pid), time.monotonic(), thread_ticks(pid)


def thread_ticks(pid):
    """The daemon's CPU ticks by thread name (threads of one name added)."""
    ticks = {}
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/stat", encoding="utf-8") as file:
                text = file.read()
        except FileNotFoundError:
            continue
        name = text[text.index("(") + 1:text.rindex(")")]
        fields = text.rsplit(")", 1)[1].split()
        ticks[name] = ticks.get(name, 0) + int(fields[11]) + int(fields[12])
    return ticks


def cpu_share(before, after):
    """The guest's CPUs busy (/proc/stat) and the daemon's CPU time over the
    wall time (% of one CPU; /proc/stat's ticks, sampled, fall behind under
    emulation, so they are no denominator for it)."""
    total = (after[1] - before[1]) or 1
    seconds = after[3] - before[3]
    return {"guest_busy_percent": 100 * (after[0] - before[0]) / total,
            "daemon_percent_of_one_cpu": 100 * (after[2] - before[2]) / os.sysconf("SC_CLK_TCK") / seconds,
            "threads_percent_of_one_cpu": {
                name: 100 * (ticks - before[4].get(name, 0)) / os.sysconf("SC_CLK_TCK") / seconds
                for name, ticks in after[4].items() if ticks > before[4].get(name, 0)}}


def log_text(folder):
    with open(os.path.join(folder, "daemon.log"), "rb") as file:
        return file.read().decode(errors="replace")


def start_daemon(binary, folder, devices=("touchscreen",)):
    # The socket in the guest's own /tmp (sticky 1777), in a 0755 folder of
    # root's: the daemon refuses a folder another user could change.
    local = tempfile.mkdtemp(prefix="gesturectl-hostile-")
    os.chmod(local, 0o755)
    socket_path = os.path.join(local, "d.sock")
    config = os.path.join(local, "daemon.json")
    with open(config, "w", encoding="utf-8") as file:
        json.dump({"group": "nogroup", "devices": list(devices), "library": os.path.join(local, "library"),
                   "queue_limit": 1000}, file)
    log = open(os.path.join(folder, "daemon.log"), "wb")
    started = time.monotonic()
    daemon = subprocess.Popen([binary, "daemon", "--socket", socket_path, "--config", config,
                               "--bindings", os.path.join(local, "bindings.json")],
                              stdout=log, stderr=log, stdin=subprocess.DEVNULL)
    while "ready: listening" not in (text := log_text(folder)):
        if daemon.poll() is not None or time.monotonic() - started > TIMEOUT_S:
            sys.exit(f"hostile-probe: the daemon did not become ready (status {daemon.poll()}):\n{text}")
        time.sleep(0.01)
    return daemon, socket_path


def big_gesture(size):
    samples, time_us = [], 0
    length = 0
    while length < size:
        sample = f"[{time_us},10800,6750]"
        samples.append(sample)
        length += len(sample) + 1
        time_us += 1000
    return json.loads('{"format":1,"name":"big","device":{"kind":"touchscreen",'
                      '"x":{"min":0,"max":21600,"resolution":100},"y":{"min":0,"max":13500,"resolution":100},'
                      '"width_mm":216,"height_mm":135,"slots":10},'
                      '"strokes":[{"kind":"finger","samples":[' + ",".join(samples) + "]}]}")


def member(uid, *arguments, stdout=subprocess.PIPE):
    return subprocess.Popen([sys.executable, os.path.abspath(__file__), *map(str, arguments)],
                            user=uid, group=GROUP, extra_groups=[], stdout=stdout, stdin=subprocess.DEVNULL)


def wait_lines(processes, word, what):
    """Reads one line from each process's stdout until each said `word`."""
    deadline = time.monotonic() + TIMEOUT_S
    waiting = {process.stdout: process for process in processes}
    while waiting:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            sys.exit(f"hostile-probe: {len(waiting)} {what} client(s) did not say '{word}' within {TIMEOUT_S} s")
        for stream in select.select(list(waiting), [], [], remaining)[0]:
            line = stream.readline().decode().strip()
            if line != word:
                sys.exit(f"hostile-probe: a {what} client said {line!r} (status {waiting[stream].poll()})")
            del waiting[stream]


def run_innocent(daemon, socket_path, iterations):
    before = cpu_sample(daemon.pid)
    process = member(INNOCENT_UID, "innocent", socket_path, iterations, *(["noplay"] if NATIVE else []))
    output, _ = process.communicate(timeout=1800)
    if process.returncode != 0:
        sys.exit(f"hostile-probe: the innocent client failed (status {process.returncode})")
    return {**json.loads(output), "cpu": cpu_share(before, cpu_sample(daemon.pid))}


class Scenario:
    def __init__(self, daemon, folder, name):
        self.pid, self.folder, self.name = daemon.pid, folder, name
        wait_idle(self.pid, f"before {name}")
        self.log_start = len(log_text(folder))
        self.rss_before = status_kib(self.pid, "VmRSS")
        with open(f"/proc/{self.pid}/clear_refs", "w", encoding="utf-8") as file:
            file.write("5")  # resets VmHWM to the current RSS
        self.started = time.monotonic()
        print(f"hostile-probe: {name}: daemon RSS {self.rss_before / 1024:.1f} MiB", flush=True)

    def peak(self):
        self.rss_peak = status_kib(self.pid, "VmHWM")
        self.log = log_text(self.folder)[self.log_start:]

    def finish(self, innocent_result, **extra):
        wait_idle(self.pid, f"the end of {self.name}")
        rss_after = status_kib(self.pid, "VmRSS")
        times = innocent_result["times_ms"]
        result = {"rss_kib": {"before": self.rss_before, "peak": self.rss_peak, "after": rss_after},
                  "version_ms": summary(times["version"]), "play_ms": summary(times["play"]),
                  "cancel_ms": summary(times["cancel"]), "errors": innocent_result["errors"],
                  "cancel_replies": innocent_result["cancel_replies"],
                  "innocent_seconds": innocent_result["seconds"], "cpu": innocent_result["cpu"],
                  "scenario_seconds": time.monotonic() - self.started,
                  "cut_off": self.log.count("holds the most"),
                  "disconnected": self.log.count(" disconnected ("), "samples_ms": times, **extra}
        print(f"hostile-probe: {self.name}: " + ", ".join(
            f"{op} p50 {result[op + '_ms']['p50']:.2f} p99 {result[op + '_ms']['p99']:.2f} ms"
            for op in ("version", "play", "cancel") if result[op + '_ms'])
            + f"; RSS {self.rss_before / 1024:.1f} / {self.rss_peak / 1024:.1f} / {rss_after / 1024:.1f} MiB"
            + f"; cut off {result['cut_off']}", flush=True)
        return result


def measure(arguments):
    os.makedirs(arguments.folder, exist_ok=True)
    daemon, socket_path = start_daemon(arguments.binary, arguments.folder, () if NATIVE else ("touchscreen",))
    results, alone = {}, None
    try:
        root = Connection(socket_path)
        gesture = big_gesture(arguments.big_bytes)
        root.call({"op": "save", "name": "big", "gesture": gesture, "force": True})
        shown = root.call({"op": "show", "name": "big"})
        show_bytes = len(json.dumps({"id": 1, "ok": True, "result": shown}, separators=(",", ":")))
        print(f"hostile-probe: saved 'big'; a show's reply is about {show_bytes} bytes", flush=True)
        # What one request of the greedy and hostile clients costs a worker, alone.
        alone = {op: summary([root.timed(request)[0] for _ in range(10)])
                 for op, request in (("show_big", {"op": "show", "name": "big"}), ("list", {"op": "list"}))}
        print(f"hostile-probe: alone: show big p50 {alone['show_big']['p50']:.1f} ms, "
              f"list p50 {alone['list']['p50']:.1f} ms", flush=True)

        scenario = Scenario(daemon, arguments.folder, "quiet")
        quiet = run_innocent(daemon, socket_path, arguments.iterations)
        scenario.peak()
        results["quiet"] = scenario.finish(quiet)

        scenario = Scenario(daemon, arguments.folder, "greedy")
        greedy_clients = [member(GREEDY_UID, "greedy", socket_path, arguments.shows) for _ in range(6)]
        wait_lines(greedy_clients, "sent", "greedy")
        innocent_result = run_innocent(daemon, socket_path, arguments.iterations)
        wait_idle(daemon.pid, "the greedy clients' shows")
        busy_seconds = time.monotonic() - scenario.started
        scenario.peak()
        for process in greedy_clients:
            process.kill()
        for process in greedy_clients:
            process.wait(TIMEOUT_S)
        results["greedy"] = scenario.finish(innocent_result, greedy_clients=6, shows_each=arguments.shows,
                                            show_reply_bytes=show_bytes, daemon_busy_seconds=busy_seconds)

        for round_number in range(1, arguments.hostile_rounds + 1):
            name = "hostile" if round_number == 1 else f"hostile {round_number}"
            scenario = Scenario(daemon, arguments.folder, name)
            hostile_clients = [member(GREEDY_UID, "hostile", socket_path, 1800, kind, count) for kind, count in HOSTILE]
            wait_lines(hostile_clients, "ready", "hostile")
            innocent_result = run_innocent(daemon, socket_path, arguments.iterations)
            scenario.peak()
            stats = []
            for process in hostile_clients:
                process.send_signal(signal.SIGTERM)
            for process in hostile_clients:
                output, _ = process.communicate(timeout=TIMEOUT_S)
                stats.append(json.loads(output.decode().strip().splitlines()[-1]))
            results[name] = scenario.finish(innocent_result, hostile_clients=stats)
    finally:
        daemon.send_signal(signal.SIGTERM)
        status = daemon.wait(TIMEOUT_S)
    environment = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "kernel": platform.release(),
                   "cpus": os.cpu_count(), "iterations": arguments.iterations, "daemon_exit": status,
                   "big_bytes": arguments.big_bytes, "alone_ms": alone}
    with open(arguments.result, "w", encoding="utf-8") as output:
        json.dump({"environment": environment, "scenarios": results}, output, indent=1)


# --- table (on the host) ------------------------------------------------------

def table(result_file):
    with open(result_file, encoding="utf-8") as file:
        result = json.load(file)
    environment, scenarios = result["environment"], result["scenarios"]
    quiet = scenarios["quiet"]
    print(f"{environment['date']}, guest kernel {environment['kernel']}, {environment['cpus']} vCPUs; "
          f"{environment['iterations']} iterations of version, play (`tap`, no wait) and cancel after "
          f"{WARM_UP} warm-up ones, by another member than the greedy or hostile clients; ms, and the "
          f"daemon's RSS in MiB:\n")
    print("| scenario | version p50 / p99 | play p50 / p99 | cancel p50 / p99 | daemon RSS before / peak / after |")
    print("|---|---:|---:|---:|---:|")
    for name, data in scenarios.items():
        cells = [f"{data[op + '_ms']['p50']:.2f} / {data[op + '_ms']['p99']:.2f}" if data[op + '_ms'] else "—"
                 for op in ("version", "play", "cancel")]
        rss = data["rss_kib"]
        print(f"| {name} | " + " | ".join(cells)
              + f" | {rss['before'] / 1024:.0f} / {rss['peak'] / 1024:.0f} / {rss['after'] / 1024:.0f} |")
    print("\nRatios to quiet (p50 / p99):\n")
    print("| scenario | version | play | cancel |")
    print("|---|---:|---:|---:|")
    for name, data in scenarios.items():
        if name == "quiet":
            continue
        cells = [f"{data[op + '_ms']['p50'] / quiet[op + '_ms']['p50']:.1f}× / "
                 f"{data[op + '_ms']['p99'] / quiet[op + '_ms']['p99']:.1f}×" if data[op + '_ms'] else "—"
                 for op in ("version", "play", "cancel")]
        print(f"| {name} | " + " | ".join(cells) + " |")
    greedy = scenarios.get("greedy")
    if greedy:
        print(f"\nGreedy: {greedy['greedy_clients']} clients × {greedy['shows_each']} shows of a "
              f"{greedy['show_reply_bytes'] / 1e6:.2f} MB reply; {greedy['cut_off']} cut off "
              f"(\"holds the most\"); the daemon was busy {greedy['daemon_busy_seconds']:.0f} s, the innocent "
              f"client ran {greedy['innocent_seconds']:.0f} s of it.")
    hostile = scenarios.get("hostile")
    if hostile:
        parts = []
        for stats in hostile["hostile_clients"]:
            if stats["kind"] == "trickle":
                parts.append(f"trickle: {stats['bytes_sent'] / (1 << 20):.0f} MiB sent"
                             + (f", {stats['closed']}" if stats["closed"] else ""))
            else:
                parts.append(f"{stats['kind']} ×{stats['connections']}: {stats['lines_sent']} lines, "
                             f"{stats['replies']} replies, {stats['reconnects']} reconnects"
                             + (f", {stats['stalls']} times nothing answered in 30 s" if stats["stalls"] else ""))
        print(f"\nHostile ({hostile['innocent_seconds']:.0f} s): " + "; ".join(parts)
              + f"; {hostile['cut_off']} cut off.")
    alone = environment.get("alone_ms")
    if alone:
        print(f"\nOne request alone (root, before the scenarios): `show` of big p50 {alone['show_big']['p50']:.0f} ms "
              f"(max {alone['show_big']['max']:.0f}), `list` p50 {alone['list']['p50']:.0f} ms (max {alone['list']['max']:.0f}).")
    print("While the innocent client ran: " + "; ".join(
        f"{name} guest CPUs {data['cpu']['guest_busy_percent']:.0f}% busy, daemon "
        f"{data['cpu']['daemon_percent_of_one_cpu']:.0f}% of a CPU ("
        + ", ".join(f"{thread} {share:.0f}%" for thread, share in sorted(
            data["cpu"].get("threads_percent_of_one_cpu", {}).items(), key=lambda item: -item[1])[:4]) + ")"
        for name, data in scenarios.items()) + ".")
    print()
    for name, op, goal in (("greedy", "version", 100), ("greedy", "play", 100), ("greedy", "cancel", 100),
                           ("hostile", "cancel", 10)):
        if name in scenarios and scenarios[name][op + "_ms"]:
            value = scenarios[name][op + "_ms"]["p99"]
            print(f"Goal {op} p99 ≤ {goal} ms beside the {name} clients: "
                  f"{'met' if value <= goal else 'not met'} ({value:.2f} ms).")
    for name, data in scenarios.items():
        errors = {op: count for op, count in data["errors"].items() if count and op != "cancel"}
        if errors:
            print(f"{name}: errors {errors}")
        print(f"{name}: cancel replies {data['cancel_replies']}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=["measure", "table", "greedy", "innocent", "hostile"])
    parser.add_argument("rest", nargs="*", help="table: FILE; greedy: SOCKET COUNT; innocent: SOCKET N; "
                                                "hostile: SOCKET SECONDS KIND CONNECTIONS")
    parser.add_argument("--binary", help="measure: the gesturectl binary")
    parser.add_argument("--result", help="measure: where to write the JSON result")
    parser.add_argument("--folder", help="measure: a writable folder for the daemon's log")
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--shows", type=int, default=100, help="shows each greedy client sends")
    parser.add_argument("--hostile-rounds", type=int, default=1,
                        help="hostile scenarios one after another (does RSS after them keep growing?)")
    parser.add_argument("--big-bytes", type=int, default=1_000_000, help="the size of the gesture 'big'")
    parser.add_argument("--native", action="store_true",
                        help="measure on this machine, without uinput: no ready device and no play; the cancel "
                             "is of a job that is not there (the same path through the I/O thread)")
    arguments = parser.parse_args()
    global NATIVE
    NATIVE = arguments.native
    rest = arguments.rest
    if arguments.mode == "table":
        table(rest[0])
    elif arguments.mode == "greedy":
        greedy(rest[0], int(rest[1]))
    elif arguments.mode == "innocent":
        innocent(rest[0], int(rest[1]), play=rest[2:] != ["noplay"])
    elif arguments.mode == "hostile":
        hostile(rest[0], float(rest[1]), rest[2], int(rest[3]))
    else:
        measure(arguments)


if __name__ == "__main__":
    main()
