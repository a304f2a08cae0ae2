#!/usr/bin/python3
"""Start-up benchmark for benchmarks/startup: how long a process takes from
launch to printing its version, and from launch to its uinput device node,
for gesturectl binaries and evemu-device, in one process and on one clock.

Usage:
  startup-probe.py measure --result FILE --runs N --description FILE
                           --gesture NAME --binary LABEL=PATH...   (in the VM)
  startup-probe.py table FILE                                      (on the host)

measure (inside the VM, started by benchmarks/startup through scripts/vm-run):
  version  time.monotonic_ns() just before subprocess.Popen (fork + exec), to
           the first line of output (stdout and stderr) and to the exit.
           gesturectl: `--version`; evemu-device has no --version: `evemu-device
           --version` tries to open a file of that name, prints an error and
           exits (255), the same launch and teardown without a device.
  node     an inotify watch on /dev/input (ctypes on libc) opened before the
           launch; the time when IN_CREATE of an eventN is read. The node is
           made by devtmpfs when the tool's UI_DEV_CREATE returns, before udev
           runs. gesturectl: `play GESTURE --lead-in 2s`; evemu-device:
           `evemu-device DESCRIPTION` (gesturectl's own `play GESTURE --print`,
           so both devices are alike). The tool then gets SIGTERM; the next
           measurement waits for the node's removal and `udevadm settle`.
  frame    launch → the first frame's kernel timestamp (the node opened at
           its IN_CREATE, EVIOCSCLOCKID = CLOCK_MONOTONIC, the clock of the
           launch stamp), what a script that plays one gesture waits for:
           gesturectl `play GESTURE --lead-in 0`; evemu-device DESCRIPTION,
           and as soon as it prints the node `evemu-play NODE < DESCRIPTION`
           (the launch stamp is evemu-device's); `libinput replay RECORD`,
           its "Hit enter" answered as soon as it asks (with --libinput:
           its YAML loading under emulation is most of it).
  Run 0 is a warm-up (the first launch after boot reads the binary and its
  libraries through 9p; only the first binary pays for the libraries they
  share); it is reported separately, not in the medians. The tools are
  interleaved within a run, so a noisy moment hits all of them, and each run
  starts with another tool.

  Floors (--floor): programs that only print a line (a C one and a Swift
  one, built by benchmarks/startup), measured as `version`: what any C or
  Swift program costs to start here.

table (on the host): the Markdown table, with `ldd` of each binary filtered
to lines mentioning Foundation or icu.

Standard library only (Debian's /usr/bin/python3).
"""

import argparse
import ctypes
import fcntl
import json
import os
import platform
import select
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import time

IN_CREATE, IN_DELETE = 0x100, 0x200
INOTIFY_HEADER = struct.Struct("iIII")  # wd, mask, cookie, len; then the name
TIMEOUT_S = 60
EVEMU = "evemu-device"
LIBINPUT = "libinput replay"
# struct input_event on 64-bit Linux; _IOW('E', 0xa0, int) sets a reader's clock.
INPUT_EVENT = struct.Struct("llHHi")
EVIOCSCLOCKID = 0x400445A0


def milliseconds_since(start_ns):
    return (time.monotonic_ns() - start_ns) / 1e6


class InputWatch:
    """inotify on /dev/input: yields (mask, name, monotonic ns when read)."""

    def __init__(self):
        libc = ctypes.CDLL(None, use_errno=True)
        self.descriptor = libc.inotify_init1(os.O_CLOEXEC)
        if self.descriptor < 0 or libc.inotify_add_watch(self.descriptor, b"/dev/input", IN_CREATE | IN_DELETE) < 0:
            raise OSError(ctypes.get_errno(), "inotify on /dev/input")

    def wait(self, mask, timeout_s, child=None):
        """The name of the first eventN with `mask` and when it was read, or
        (None, None) after the timeout or when `child` exited first."""
        deadline = time.monotonic() + timeout_s
        while (remaining := deadline - time.monotonic()) > 0:
            if child is not None and child.poll() is not None:
                return None, None
            if not select.select([self.descriptor], [], [], min(remaining, 0.5))[0]:
                continue
            buffer, now = os.read(self.descriptor, 4096), time.monotonic_ns()
            while buffer:
                _, event_mask, _, length = INOTIFY_HEADER.unpack_from(buffer)
                name = buffer[INOTIFY_HEADER.size:INOTIFY_HEADER.size + length].rstrip(b"\0").decode()
                buffer = buffer[INOTIFY_HEADER.size + length:]
                if event_mask & mask and name.startswith("event"):
                    return name, now
        return None, None


def measure_version(command):
    started = time.monotonic_ns()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    first_line = child.stdout.readline()
    line_ms = milliseconds_since(started)
    child.stdout.read()
    status = child.wait()
    return {"line_ms": line_ms, "exit_ms": milliseconds_since(started), "status": status,
            "line": first_line.decode(errors="replace").strip()}


def measure_node(command, watch):
    with tempfile.TemporaryFile() as log:
        started = time.monotonic_ns()
        child = subprocess.Popen(command, stdout=log, stderr=log, stdin=subprocess.DEVNULL)
        node, seen = watch.wait(IN_CREATE, TIMEOUT_S, child)
        child.send_signal(signal.SIGTERM)
        try:
            status = child.wait(TIMEOUT_S)
        except subprocess.TimeoutExpired:
            child.kill()
            status = child.wait()
        if node is None:
            log.seek(0)
            sys.exit(f"startup-probe: no node from {command} (status {status}): {log.read().decode(errors='replace')}")
    watch.wait(IN_DELETE, TIMEOUT_S)
    subprocess.run(["udevadm", "settle", "--timeout=30"], check=False)
    return {"node_ms": (seen - started) / 1e6, "status": status, "node": node}


def open_node(name):
    """/dev/input/NAME for reading with CLOCK_MONOTONIC stamps; devtmpfs
    makes the node before its permissions settle, so it may take a few tries."""
    for _ in range(2000):
        try:
            descriptor = os.open("/dev/input/" + name, os.O_RDONLY | os.O_CLOEXEC)
            fcntl.ioctl(descriptor, EVIOCSCLOCKID, struct.pack("i", time.CLOCK_MONOTONIC))
            return descriptor
        except OSError:
            time.sleep(0.001)
    sys.exit(f"startup-probe: cannot open /dev/input/{name}")


def first_frame_ns(descriptor, timeout_s=TIMEOUT_S):
    """The kernel timestamp (ns of CLOCK_MONOTONIC) of the first event read."""
    ready = select.select([descriptor], [], [], timeout_s)[0]
    if not ready:
        return None
    seconds, microseconds, _, _, _ = INPUT_EVENT.unpack_from(os.read(descriptor, INPUT_EVENT.size * 64))
    return (seconds * 1_000_000 + microseconds) * 1000


def stop(child):
    child.send_signal(signal.SIGTERM)
    try:
        return child.wait(TIMEOUT_S)
    except subprocess.TimeoutExpired:
        child.kill()
        return child.wait()


def measure_frame(tool, watch, description):
    """Launch → device node → first frame, for one tool (see the docstring)."""
    children = []
    with tempfile.TemporaryFile() as log:
        started = time.monotonic_ns()
        if tool["label"] == EVEMU:
            device = subprocess.Popen(["evemu-device", description], stdout=subprocess.PIPE, stderr=log,
                                      stdin=subprocess.DEVNULL)
            children.append(device)
            node, seen = watch.wait(IN_CREATE, TIMEOUT_S, device)
            descriptor = open_node(node) if node else None
            # evemu-device prints "NAME: /dev/input/eventN" once it exists.
            line = device.stdout.readline().decode(errors="replace")
            player = subprocess.Popen(["evemu-play", line.rsplit(":", 1)[-1].strip()], stdin=open(description, "rb"),
                                      stdout=log, stderr=log)
            children.append(player)
        elif tool["label"] == LIBINPUT:
            environment = dict(os.environ, PATH="/usr/bin:" + os.environ.get("PATH", ""), PYTHONUNBUFFERED="1")
            replay = subprocess.Popen(["libinput", "replay", tool["record"]], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=log, env=environment)
            children.append(replay)
            node, seen = watch.wait(IN_CREATE, 180, replay)
            descriptor = open_node(node) if node else None
            prompt = b""
            while b"Hit enter" not in prompt:
                chunk = os.read(replay.stdout.fileno(), 4096)
                if not chunk:
                    break
                prompt += chunk
            replay.stdin.write(b"\n")
            replay.stdin.flush()
        else:
            player = subprocess.Popen(tool["frame"], stdout=log, stderr=log, stdin=subprocess.DEVNULL)
            children.append(player)
            node, seen = watch.wait(IN_CREATE, TIMEOUT_S, player)
            descriptor = open_node(node) if node else None
        first = first_frame_ns(descriptor) if descriptor is not None else None
        if descriptor is not None:
            os.close(descriptor)
        # Players end by themselves (gesturectl after its tap, evemu-play);
        # evemu-device and libinput replay (which asks again) are stopped.
        for child in reversed(children):
            if child is children[-1] and tool["label"] != LIBINPUT and _wait_briefly(child):
                continue
            stop(child)
        if first is None:
            log.seek(0)
            sys.exit(f"startup-probe: no first frame from {tool['label']}: {log.read().decode(errors='replace')}")
    watch.wait(IN_DELETE, TIMEOUT_S)
    subprocess.run(["udevadm", "settle", "--timeout=30"], check=False)
    return {"frame_node_ms": (seen - started) / 1e6, "frame_ms": (first - started) / 1e6}


def _wait_briefly(child):
    """True when `child` ended by itself within the timeout."""
    try:
        child.wait(TIMEOUT_S)
        return True
    except subprocess.TimeoutExpired:
        return False


def measure(arguments):
    tools = [{"label": label, "path": path,
              "version": [path, "--version"],
              "node": [path, "play", arguments.gesture, "--lead-in", "2s"],
              "frame": [path, "play", arguments.gesture, "--lead-in", "0"]}
             for label, _, path in (binary.partition("=") for binary in arguments.binary)]
    # Floors: programs that only print a line, measured like --version.
    tools += [{"label": label, "path": path, "version": [path], "floor": True}
              for label, _, path in (floor.partition("=") for floor in arguments.floor)]
    tools.append({"label": EVEMU, "path": "/usr/bin/evemu-device",
                  "version": ["evemu-device", "--version"], "node": ["evemu-device", arguments.description]})
    libinput = [{"label": LIBINPUT, "path": "/usr/bin/libinput", "record": arguments.libinput}] if arguments.libinput else []
    watch = InputWatch()
    samples = []
    for run in range(arguments.runs + 1):
        # Each run starts with another tool, so no tool always follows the same one.
        order = tools[run % len(tools):] + tools[:run % len(tools)]
        for kind in ("version", "node", "frame"):
            for tool in order + (libinput if kind == "frame" else []):
                if tool.get("floor") and kind != "version":
                    continue
                if kind == "frame":
                    sample = measure_frame(tool, watch, arguments.description)
                elif kind == "version":
                    sample = measure_version(tool[kind])
                else:
                    sample = measure_node(tool[kind], watch)
                samples.append({"tool": tool["label"], "kind": kind, "run": run, **sample})
                print(f"startup-probe: run {run} {tool['label']} {kind}:",
                      {key: round(value, 1) if isinstance(value, float) else value for key, value in sample.items()},
                      flush=True)
    environment = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "kernel": platform.release(),
                   "cpus": os.cpu_count(), "runs": arguments.runs, "gesture": arguments.gesture}
    with open(arguments.result, "w", encoding="utf-8") as output:
        json.dump({"environment": environment, "tools": tools + libinput, "samples": samples}, output, indent=1)


def table(result_file):
    with open(result_file, encoding="utf-8") as file:
        result = json.load(file)
    environment, tools, samples = result["environment"], result["tools"], result["samples"]

    def values(label, key, first=False):
        return [sample[key] for sample in samples if sample["tool"] == label and key in sample
                and (sample["run"] == 0) == first]

    def cell(label, key):
        data = values(label, key)
        return f"{statistics.median(data):.0f} ({min(data):.0f}–{max(data):.0f})" if data else "–"

    def ratio(label, key):
        data = values(label, key)
        return f"{statistics.median(data) / statistics.median(values(EVEMU, key)):.1f}×" if data else "–"

    print("ldd, lines mentioning Foundation or icu:\n")
    links = {}
    for tool in tools:
        if "version" not in tool:
            continue
        lines = subprocess.run(["ldd", tool["path"]], capture_output=True, text=True).stdout.splitlines()
        lines = [line.strip() for line in lines if "foundation" in line.lower() or "icu" in line.lower()]
        links[tool["label"]] = f"yes ({len(lines)} libraries)" if lines else "no"
        print(f"    {tool['label']} ({tool['path']}):" + "".join(f"\n        {line}" for line in lines or ["(none)"]))
    print(f"\n{environment['date']}, guest kernel {environment['kernel']}, {environment['cpus']} vCPUs, "
          f"{environment['runs']} runs after a warm-up; ms, median (min–max):\n")
    print("| tool | links Foundation/ICU | `--version`: launch → line | → exit | × evemu | "
          "launch → device node | × evemu | first launch: exit / node |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for tool in tools:
        label = tool["label"]
        if "version" not in tool:
            continue
        first = "/".join(f"{values(label, key, first=True)[0]:.0f}" if values(label, key, first=True) else "–"
                         for key in ("exit_ms", "node_ms"))
        print(f"| {label} | {links[label]} | {cell(label, 'line_ms')} | {cell(label, 'exit_ms')} | "
              f"{ratio(label, 'exit_ms')} | {cell(label, 'node_ms')} | {ratio(label, 'node_ms')} | {first} |")
    if any("frame_ms" in sample for sample in samples):
        print("\nLaunch → device node → first frame (kernel timestamp): gesturectl `play GESTURE --lead-in 0`; "
              "evemu-device, then evemu-play as soon as it prints the node; libinput replay, Enter as soon as it asks. "
              "ms, median (min–max):\n")
        print("| tool | launch → node | launch → first frame | × evemu-device + evemu-play | first launch: frame |")
        print("|---|---:|---:|---:|---:|")
        for tool in tools:
            label = tool["label"]
            if not values(label, "frame_ms"):
                continue
            first = values(label, "frame_ms", first=True)
            print(f"| {label if label != EVEMU else 'evemu-device + evemu-play'} | {cell(label, 'frame_node_ms')} | "
                  f"{cell(label, 'frame_ms')} | {ratio(label, 'frame_ms')} | {first[0]:.0f} |" if first else "")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=["measure", "table"])
    parser.add_argument("file", nargs="?", help="table: the result file")
    parser.add_argument("--result", help="measure: where to write the JSON result")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--description", help="measure: evemu description for evemu-device")
    parser.add_argument("--gesture", default="tap")
    parser.add_argument("--libinput", help="measure: a libinput record file of the gesture (adds libinput replay)")
    parser.add_argument("--binary", action="append", default=[], help="measure: LABEL=PATH (repeatable)")
    parser.add_argument("--floor", action="append", default=[],
                        help="measure: LABEL=PATH of a program that only prints a line (repeatable; --version only)")
    arguments = parser.parse_args()
    if arguments.mode == "table":
        table(arguments.file)
    else:
        measure(arguments)


if __name__ == "__main__":
    main()
