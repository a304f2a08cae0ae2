#!/usr/bin/python3
"""Live fingertips latency for benchmarks/fingertips: the source event's
kernel time → the frame it causes on the output device, as an observer on
that device sees it, for `gesturectl fingertips 3` beside a C pass-through
floor and interception-tools, in one VM boot.

Usage:
  fingertips-probe.py measure --binary PATH --tools DIR --result FILE
                              --folder DIR [--runs N] [--touch-frames N]
                              [--mouse-frames N]                  (in the VM)
  fingertips-probe.py table FILE                                  (on the host)

measure (inside the VM, started by benchmarks/fingertips through
scripts/vm-run). Two sources, made by DIR/source-writer (C, uinput):
  touch   a one-contact touchscreen at 120 Hz (--touch-frames, default 1200:
          10 s): down, a drag of 4 units a frame, up;
  mouse   a mouse at 1 kHz (--mouse-frames, default 3000: 3 s): the left
          button held, 1 count right and a wheel step every frame.
For each source, --runs rounds, the tools interleaved in every round (floor,
gesturectl, interception-tools), each on a fresh source device:
  floor       DIR/pass-through NODE: EVIOCGRAB, a uinput copy, every frame
              written to the copy as read, one write() a frame;
  gesturectl  `gesturectl fingertips 3 --device NODE --idle 0`: for the
              touchscreen, 3 fingertips on its copy; for the mouse, on the
              built-in touchscreen (the button held puts them down;
              --speed 0.25, so that 3000 frames stay on it);
  interception-tools  `interception -g NODE | uinput -d NODE` (Debian names
              the `intercept` tool `interception`).
Once the tool holds the source and DIR/input-observer (SCHED_FIFO 45, kernel
timestamps on CLOCK_MONOTONIC) reads its output device, the writer (at
SCHED_FIFO 50) writes the frames on absolute deadlines and prints
CLOCK_MONOTONIC just before and after each write(): the kernel stamps the
source frame inside that write, so "before" is the source event's kernel
time to within the write's duration (reported: the median write).
Every source frame changes the output and says which frame it is (the
touch contact's x; the mouse's wheel value, or through gesturectl the
fingertips' centre, which moves a fixed step a frame): each frame seen on
the output is matched to the source frame it comes from, so a tool that
loses frames shows them as not shown and its later frames keep their own
source times. The added latency of a frame is its output frame's kernel
timestamp − the source frame's. Not shown: lost, or (gesturectl) merged
into a later frame when it read several at once. Motion lost (the mouse):
counts of REL_X that never reached the output (through gesturectl: the
fingertips' last position short of where the source's motion put it), e.g.
when the tool fell behind the kernel's buffer and the kernel dropped
events (SYN_DROPPED in the tool's reading; the column "SYN_DROPPED seen" is
what the observer read on the output).
CPU per source frame: the tool's processes' time on a CPU (the sum of
/proc/PID/task/*/schedstat) from just before the first frame to once the
last has been seen, divided by the frames written.

table (on the host): the Markdown tables from the JSON result and the
issue's targets.

Standard library only (Debian's /usr/bin/python3).
"""

import argparse
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import time

TIMEOUT_S = 60
SOURCES = {"touch": ("a 120 Hz touchscreen", 120), "mouse": ("a 1 kHz mouse", 1000)}
TOOLS = ["floor", "gesturectl", "interception"]
LABELS = {
    "floor": "C pass-through (floor)",
    "gesturectl": "gesturectl fingertips 3",
    "interception": "interception-tools",
}


def say(text):
    print(f"fingertips-probe: {text}", file=sys.stderr, flush=True)


def wait_for(predicate, what, timeout_s=TIMEOUT_S):
    deadline = time.monotonic() + timeout_s
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out waiting for {what}")
        time.sleep(0.01)


def read_text(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            return file.read()
    except FileNotFoundError:
        return ""


def cpu_ns(pids):
    total = 0
    for pid in pids:
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/schedstat", encoding="ascii") as file:
                    total += int(file.read().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            pass
    return total


def holds(pid, node):
    """Whether process PID has NODE open."""
    try:
        for entry in os.listdir(f"/proc/{pid}/fd"):
            try:
                if os.readlink(f"/proc/{pid}/fd/{entry}") == node:
                    return True
            except OSError:
                pass
    except OSError:
        pass
    return False


def node_named(name, exclude):
    """The event node of an input device called NAME, other than EXCLUDE."""
    for entry in sorted(os.listdir("/sys/class/input")):
        if not entry.startswith("event"):
            continue
        node = f"/dev/input/{entry}"
        if node == exclude:
            continue
        try:
            with open(f"/sys/class/input/{entry}/device/name", encoding="utf-8") as file:
                if file.read().strip() == name and os.path.exists(node):
                    return node
        except OSError:
            pass
    return None


def stop(process, sig=signal.SIGTERM):
    if process.poll() is None:
        try:
            os.kill(process.pid, sig)
        except ProcessLookupError:
            pass
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def start_tool(tool, arguments, node, folder):
    """Starts TOOL on the source NODE; its output node and processes."""
    log = open(os.path.join(folder, f"{tool}.log"), "w", encoding="utf-8")
    if tool == "floor":
        process = subprocess.Popen([os.path.join(arguments.tools, "pass-through"), node], stdout=log, stderr=log)
        path = log.name
        text = wait_for(lambda: "ready\n" in read_text(path) and read_text(path), "the floor's ready line")
        output = next(line[5:] for line in text.splitlines() if line.startswith("node="))
        return output, [process]
    if tool == "gesturectl":
        process = subprocess.Popen(
            [arguments.binary, "fingertips", "3", "--device", node, "--idle", "0", "--speed", str(MOUSE_SPEED)],
            stdout=log, stderr=log)
        path = log.name

        def ready():
            text = read_text(path)
            if process.poll() is not None:
                raise RuntimeError(f"gesturectl fingertips ended: {text.strip()}")
            if "fingertips ready" not in text:
                return None
            for word in text.split():
                if word.startswith("/dev/input/event") and word != node:
                    return word
            return None

        return wait_for(ready, "gesturectl's ready line and device"), [process]
    name = read_text(f"/sys/class/input/{os.path.basename(node)}/device/name").strip()
    reader = subprocess.Popen(["interception", "-g", node], stdout=subprocess.PIPE, stderr=log)
    writer = subprocess.Popen(["uinput", "-d", node], stdin=reader.stdout, stdout=log, stderr=log)
    reader.stdout.close()
    output = wait_for(lambda: node_named(name, node), "uinput's copy of the source")
    wait_for(lambda: holds(reader.pid, node), "interception to open the source")
    return output, [writer, reader]


def frames_seen(path):
    """The observed frames: (kernel µs, {"lift": bool, "x": mean x of the
    contacts down or None, "wheel": REL_WHEEL or None, "rel_x": REL_X}), and
    SYN_DROPPED seen."""
    frames, dropped = [], 0
    slot, slots, xs = 0, {}, {}
    wheel, lifted, motion = None, False, 0
    for line in read_text(path).splitlines():
        if not line.startswith("E: "):
            continue
        fields = line.split()
        kind, code, value = int(fields[2], 16), int(fields[3], 16), int(fields[4])
        if kind == 0 and code == 0:
            seconds, _, micros = fields[1].partition(".")
            down = [xs[s] for s, active in slots.items() if active and s in xs]
            frames.append((int(seconds) * 1_000_000 + int(micros),
                           {"lift": lifted and not down, "x": sum(down) / len(down) if down else None, "wheel": wheel,
                            "rel_x": motion}))
            wheel, lifted, motion = None, False, 0
        elif kind == 0 and code == 3:
            dropped += 1
        elif kind == 3 and code == 0x2F:
            slot = value
        elif kind == 3 and code == 0x39:
            slots[slot] = value >= 0
            lifted = lifted or value < 0
        elif kind == 3 and code == 0x35:
            xs[slot] = value
        elif kind == 2 and code == 8:
            wheel = value
        elif kind == 2 and code == 0:
            motion += value
    return frames, dropped


# What each source frame says of its number (source-writer.c): the touch
# contact's x is 400 + 4·i modulo 3200; the mouse's wheel is i mod 1000 + 1
# and, through gesturectl at --speed MOUSE_SPEED, the fingertips' centre
# moves TOUCHSCREEN_UNITS_PER_COUNT · MOUSE_SPEED units a frame.
MOUSE_SPEED = 0.25
TOUCHSCREEN_UNITS_PER_COUNT = 21_600 / 1920  # the built-in touchscreen at speed 1
TOUCHSCREEN_MIDDLE = 10_800


def source_index(source, tool, frame, previous, count):
    """The number of the source frame an observed frame comes from: the
    first one after PREVIOUS that fits what it says; None when it says
    nothing."""
    if frame["lift"]:
        return count - 1
    if source == "touch" and frame["x"] is not None:
        residue, period = round((frame["x"] - 400) / 4) % 800, 800
    elif source == "mouse" and tool == "gesturectl" and frame["x"] is not None:
        # The centre starts in the middle (10800) and frame i leaves it
        # i + 1 counts right of it.
        return round((frame["x"] - TOUCHSCREEN_MIDDLE) / (TOUCHSCREEN_UNITS_PER_COUNT * MOUSE_SPEED)) - 1
    elif source == "mouse" and frame["wheel"] is not None:
        residue, period = (frame["wheel"] - 1) % 1000, 1000
    else:
        return None
    index = previous + 1
    return index + (residue - index) % period


def one_run(arguments, source, tool, folder):
    os.makedirs(folder, exist_ok=True)
    rate = SOURCES[source][1]
    count = arguments.touch_frames if source == "touch" else arguments.mouse_frames
    writer = subprocess.Popen(
        [os.path.join(arguments.tools, "source-writer"), source, str(rate), str(count)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    node = writer.stdout.readline().strip().removeprefix("node=")
    if not node.startswith("/dev/input/event"):
        raise RuntimeError(f"source-writer said {node!r}")
    wait_for(lambda: os.path.exists(node), f"{node}")
    output, processes = start_tool(tool, arguments, node, folder)
    observed = os.path.join(folder, "observer.log")
    with open(observed, "w", encoding="utf-8") as log:
        observer = subprocess.Popen([os.path.join(arguments.tools, "input-observer"), output], stdout=log, stderr=log)
    wait_for(lambda: "Waiting for events" in read_text(observed), "the observer")
    pids = [process.pid for process in processes]
    cpu_before = cpu_ns(pids)
    writer.stdin.write("go\n")
    writer.stdin.flush()
    sent = []
    for line in writer.stdout:
        if line.strip() == "done":
            break
        _, before, after = line.split()
        sent.append((int(before), int(after)))
    with open(os.path.join(folder, "source.txt"), "w", encoding="utf-8") as file:
        file.writelines(f"{index} {before} {after}\n" for index, (before, after) in enumerate(sent))
    if len(sent) != count:
        raise RuntimeError(f"source-writer wrote {len(sent)} of {count} frames")
    # The observer writes out after 50 ms without input: wait until it has
    # every frame, or nothing more came for 2 s.
    last, since = -1, time.monotonic()
    while True:
        seen = len(frames_seen(observed)[0])
        if seen >= count:
            break
        if seen != last:
            last, since = seen, time.monotonic()
        elif time.monotonic() - since > 2:
            break
        time.sleep(0.05)
    cpu_after = cpu_ns(pids)
    stop(observer)
    frames, dropped = frames_seen(observed)
    for process in processes:
        stop(process, signal.SIGINT if tool == "gesturectl" else signal.SIGTERM)
    writer.stdin.close()
    writer.wait(timeout=30)
    latencies, matched, previous, unknown = [], set(), -1, 0
    for seen, frame in frames:
        index = source_index(source, tool, frame, previous, count)
        if index is None or not 0 <= index < count or index in matched:
            unknown += 1
            continue
        matched.add(index)
        previous = index
        latencies.append(seen - sent[index][0] // 1000)
    # The mouse's motion that never arrived, in counts: every source frame
    # moves 1 count right; through gesturectl the fingertips show the
    # motion of every frame but the last (which lifts them).
    motion_lost = None
    if source == "mouse":
        if tool == "gesturectl":
            shown = [source_index(source, tool, frame, 0, count) for _, frame in frames if frame["x"] is not None]
            motion_lost = (count - 1) - ((shown[-1] + 1) if shown else 0)
        else:
            motion_lost = count - sum(frame["rel_x"] for _, frame in frames)
    # Through gesturectl the mouse's frames are numbered by the motion that
    # arrived, so after k counts were lost every later frame reads k frames
    # early and its latency k ms too high: the latencies above are upper
    # bounds. Numbered as if every count lost had been lost before it, each
    # frame gives a lower bound (exact for the frames after the last loss).
    latencies_low = None
    if source == "mouse" and tool == "gesturectl" and motion_lost:
        latencies_low = []
        for seen, frame in frames:
            index = source_index(source, tool, frame, 0, count)
            if index is not None and 0 <= index < count:
                latencies_low.append(seen - sent[min(count - 1, index + motion_lost)][0] // 1000)
    return {
        "latencies_low_us": latencies_low,
        "motion_lost": motion_lost,
        "sent": count,
        "seen": len(frames),
        "matched": len(matched),
        "unmatched": unknown,
        "syn_dropped": dropped,
        "latencies_us": latencies,
        "write_us": statistics.median((after - before) / 1000 for before, after in sent),
        "cpu_ns": cpu_after - cpu_before,
        "output": output,
    }


def percentile(values, fraction):
    ordered = sorted(values)
    if not ordered:
        return None
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def lower_bounds(runs):
    """The runs' latencies, each run's lower bounds where it has them; None
    when no run has any."""
    if not any(run.get("latencies_low_us") for run in runs):
        return None
    return [value for run in runs for value in (run.get("latencies_low_us") or run["latencies_us"])]


def measure(arguments):
    results = {"kernel": platform.release(), "runs": arguments.runs, "sources": {}}
    for source, (description, rate) in SOURCES.items():
        runs = {tool: [] for tool in TOOLS}
        for round_number in range(1, arguments.runs + 1):
            for tool in TOOLS:
                say(f"{source}, run {round_number}: {tool}")
                folder = os.path.join(arguments.folder, source, f"{tool}-{round_number}")
                try:
                    runs[tool].append(one_run(arguments, source, tool, folder))
                except (RuntimeError, OSError, subprocess.TimeoutExpired) as error:
                    say(f"{source}, run {round_number}, {tool} failed: {error}")
                    runs[tool].append({"error": str(error)})
        summary = {}
        for tool, done in runs.items():
            good = [run for run in done if "error" not in run]
            latencies = [value for run in good for value in run["latencies_us"]]
            sent = sum(run["sent"] for run in good)
            summary[tool] = {
                "runs": len(good),
                "errors": [run["error"] for run in done if "error" in run],
                "sent": sent,
                "seen": sum(run["seen"] for run in good),
                "lost": sum(run["sent"] - run["matched"] for run in good),
                "unmatched": sum(run["unmatched"] for run in good),
                "motion_lost": None if source == "touch" else sum(run["motion_lost"] for run in good),
                "syn_dropped": sum(run["syn_dropped"] for run in good),
                "p50_us": percentile(latencies, 0.50),
                "p99_us": percentile(latencies, 0.99),
                "max_us": max(latencies) if latencies else None,
                # The lower bounds where a run's frame numbers are (see one_run), its own latencies elsewhere.
                "p50_low_us": percentile(low, 0.50) if (low := lower_bounds(good)) else None,
                "p99_low_us": percentile(low, 0.99) if low else None,
                "write_us": statistics.median(run["write_us"] for run in good) if good else None,
                "cpu_us_per_frame": sum(run["cpu_ns"] for run in good) / 1000 / sent if sent else None,
            }
        results["sources"][source] = {"description": description, "rate": rate, "tools": summary}
    with open(arguments.result, "w", encoding="utf-8") as file:
        json.dump(results, file, indent=1)
    say("done")


def ratio(value, floor):
    if value is None or not floor:
        return "–"
    return f"{value / floor:.2f}"


def number(value, digits=0):
    return "–" if value is None else f"{value:,.{digits}f}"


def table(path):
    with open(path, encoding="utf-8") as file:
        results = json.load(file)
    print(f"Guest kernel {results['kernel']}; {results['runs']} runs of each tool per source, interleaved.\n")
    verdicts = []
    for source, entry in results["sources"].items():
        tools = entry["tools"]
        floor = tools["floor"]
        frames = (tools["floor"]["sent"] or 1) // max(1, tools["floor"]["runs"])
        print(f"**Source: {entry['description']}** ({frames} frames a run)\n")
        print("| tool | runs | frames shown/sent | not shown | motion lost (counts) | SYN_DROPPED seen | p50 µs | p99 µs | max µs "
              "| p50 × floor | p99 × floor | CPU µs/frame | CPU × floor |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for tool in TOOLS:
            row = tools[tool]
            print(
                f"| {LABELS[tool]} | {row['runs']} | {row['sent'] - row['lost']}/{row['sent']} | {row['lost']} "
                f"| {number(row['motion_lost'])} | {row['syn_dropped']} "
                f"| {number(row['p50_us'])} | {number(row['p99_us'])} | {number(row['max_us'])} "
                f"| {ratio(row['p50_us'], floor['p50_us'])} | {ratio(row['p99_us'], floor['p99_us'])} "
                f"| {number(row['cpu_us_per_frame'], 1)} | {ratio(row['cpu_us_per_frame'], floor['cpu_us_per_frame'])} |")
            for error in row["errors"]:
                print(f"\n{LABELS[tool]}: a run failed: {error}")
        writes = ", ".join(f"{LABELS[tool]} {number(tools[tool]['write_us'], 1)}" for tool in TOOLS)
        print(f"\nThe source's write() took (median) {writes} µs: the uncertainty of the source's time.")
        unmatched = {LABELS[tool]: tools[tool]["unmatched"] for tool in TOOLS if tools[tool]["unmatched"]}
        if unmatched:
            print(f"\nFrames seen that match no source frame: {unmatched}.")
        print()
        ours, peer = tools["gesturectl"], tools["interception"]
        if ours["p99_us"] is not None and floor["p99_us"]:
            verdicts.append(
                (f"{source}: p99 ≤ 1.5 × the floor's ({ours['p99_us']:,} vs {1.5 * floor['p99_us']:,.0f} µs)",
                 ours["p99_us"] <= 1.5 * floor["p99_us"]))
        if ours["p99_us"] is not None and peer["p99_us"] is not None:
            verdicts.append(
                (f"{source}: p99 below interception-tools' ({ours['p99_us']:,} vs {peer['p99_us']:,} µs)",
                 ours["p99_us"] < peer["p99_us"]))
        if ours.get("p99_low_us") is not None:
            print(f"gesturectl's latencies above are upper bounds: it lost {ours['motion_lost']} counts, and a frame after a loss "
                  f"of k counts reads k ms late. Numbered as if every count lost had been lost before it (lower bounds, exact "
                  f"after the last loss): p50 {ours['p50_low_us']:,} µs, p99 {ours['p99_low_us']:,} µs.\n")
            if floor["p99_us"] and peer["p99_us"] is not None:
                verdicts.append(
                    (f"{source}, lower bounds: p99 ≤ 1.5 × the floor's ({ours['p99_low_us']:,} vs {1.5 * floor['p99_us']:,.0f} µs)",
                     ours["p99_low_us"] <= 1.5 * floor["p99_us"]))
                verdicts.append(
                    (f"{source}, lower bounds: p99 below interception-tools' ({ours['p99_low_us']:,} vs {peer['p99_us']:,} µs)",
                     ours["p99_low_us"] < peer["p99_us"]))
        if source == "mouse":
            verdicts.append((f"mouse: nothing lost at 1 kHz ({ours['motion_lost']} counts of motion lost; "
                             f"the floor lost {floor['motion_lost']})", ours["motion_lost"] == 0 and ours["runs"] > 0))
    print("Targets:\n")
    for text, met in verdicts:
        print(f"- {'met' if met else 'NOT met'}: {text}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("measure")
    run.add_argument("--binary", required=True)
    run.add_argument("--tools", required=True)
    run.add_argument("--result", required=True)
    run.add_argument("--folder", required=True)
    run.add_argument("--runs", type=int, default=3)
    run.add_argument("--touch-frames", type=int, default=1200)
    run.add_argument("--mouse-frames", type=int, default=3000)
    show = commands.add_parser("table")
    show.add_argument("file")
    arguments = parser.parse_args()
    if arguments.command == "measure":
        measure(arguments)
    else:
        table(arguments.file)


if __name__ == "__main__":
    main()
