#!/usr/bin/python3
"""Timing analysis for benchmarks/timing: what the observer saw versus the
intended schedule, per tool, as one table with ratios against gesturectl.

Usage: timing-analysis.py RESULTS [--markdown] [--per-run]

RESULTS is the folder benchmarks/timing filled: cases.txt, cases/CASE/
gesture.evemu (`play --print`: the intended schedule, times from the first
frame; libinput.evemu when libinput replay plays its own import of it),
runs/CASE/TOOL-N/ from timing-guest (observer.log from input-observer, an
evemu-style event log; probe.json, run.txt, and for gesturectl its --json
line in gesturectl.log), runs/recording/ for the recording case. Writes
summary.json beside them.

Definitions (all times are kernel timestamps, microseconds):
  runs            plays of the tool in this case (a short case plays the
                  floor and gesturectl --short-factor times as often as
                  the peers: benchmarks/timing)
  frames seen     observed frames matched to an intended frame, in order, by
                  their content: every event except EV_SYN and ABS_MT_SLOT,
                  and the observed frame may lack values the kernel dropped
                  as unchanged (see contained()); extra = observed frames
                  that match none. After a SYN_DROPPED in the observer's
                  stream (its own queue overflowed) the partial frame is
                  skipped and the next frames are matched anywhere ahead;
                  the frames it could not see are "unseen" in the
                  [N SYN_DROPPED: M unseen] note, not lost by the tool
  lateness        per matched frame: (observed − first observed) −
                  (intended − first intended); median, p99 and max of its
                  absolute value, pooled over all runs of a tool
  end drift       lateness of the last intended frame (signed: + is late);
                  median over runs, with the range
  start delay     first frame − when the tool was told to start, from
                  timing-probe.py (CLOCK_MONOTONIC): gesturectl: udev's "add"
                  (udevadm monitor) + --lead-in; evemu-play: when the probe
                  started it; libinput replay: when the probe answered
                  "Hit enter"; the C reference: when it said its first
                  frame was due (start_us= in reference.log); median over
                  runs
  bunched         consecutive observed frames less than 1 ms apart whose
                  intended frames are at least 8 ms apart
  jitter p99      p99 of |lateness − the run's median lateness|: the
                  frame-to-frame steadiness once a constant offset (a late
                  first frame) is taken out
  drift ms/min    the slope of the error over the gesture (least squares
                  over every matched frame), in ms per minute; median of runs
  SYN_DROPPED     SYN_DROPPED events the observer read (the kernel's buffer
                  for it overflowed: frames were lost to the observer)
  first offset    how far the first frame is from the cadence of the rest:
                  − the run's median lateness (+ = the first frame is late);
                  median over runs, with the range
  device ready    from launching the tool (gesturectl play, evemu-device,
                  libinput replay) to udev's "add" of its device (seconds,
                  /proc/uptime resolution: 10 ms); not part of the timing

Standard library only (Debian's /usr/bin/python3).
"""

import collections
import json
import math
import os
import statistics
import sys

FLOOR = "C reference (floor)"


def tool_label(tool):
    """The row's name for a run folder's tool: reference, gesturectl[.LABEL][+rt], evemu, libinput."""
    if tool == "reference":
        return FLOOR
    if tool.startswith("gesturectl"):
        base, realtime = tool.removesuffix("+rt"), tool.endswith("+rt")
        label = "gesturectl play" + (f" ({base.split('.', 1)[1]})" if "." in base else "")
        return label + (" --realtime" if realtime else "")
    return {"evemu": "evemu-play", "libinput": "libinput replay"}.get(tool, tool)


def tool_order(tool):
    return ({"reference": 0, "evemu": 2, "libinput": 3}.get(tool, 1), tool)
EV_SYN = 0
SYN_DROPPED = 3
EV_ABS = 3
ABS_MT_SLOT = 0x2F
BUNCHED_BELOW_US = 1_000
BUNCHED_INTENDED_AT_LEAST_US = 8_000
MATCH_WINDOW = 64


class AnalysisError(Exception):
    pass


def parse_time(text):
    """'12.345678' → microseconds, exactly (no floating point)."""
    seconds, _, fraction = text.partition(".")
    return int(seconds) * 1_000_000 + int((fraction + "000000")[:6])


def read_frames(path, drops=None):
    """Frames of an evemu file: [(time_us, signature)], split at SYN_REPORT.
    With a set as `drops`, the indices of the frames a SYN_DROPPED fell in
    are added to it: what the reader got of such a frame is partial (the
    kernel discarded the reader's queue), and the frames after it follow
    a gap."""
    frames = []
    events = []
    with open(path, encoding="utf-8", errors="replace") as file:
        for number, line in enumerate(file, 1):
            if not line.startswith("E: "):
                continue
            fields = line.split("#", 1)[0].split()
            if len(fields) != 5:
                raise AnalysisError(f"{path}:{number}: not an evemu event line: {line.rstrip()}")
            time = parse_time(fields[1])
            event_type, code, value = int(fields[2], 16), int(fields[3], 16), int(fields[4])
            if event_type == EV_SYN:
                if code == 0:
                    frames.append((time, tuple(sorted(events))))
                    events = []
                elif code == SYN_DROPPED and drops is not None:
                    drops.add(len(frames))
                continue
            if event_type == EV_ABS and code == ABS_MT_SLOT:
                continue
            events.append((event_type, code, value))
    return frames


def signature(events):
    return tuple(sorted((t, c, v) for t, c, v in events if t != EV_SYN and not (t == EV_ABS and c == ABS_MT_SLOT)))


def contained(observed_signature, intended_counter):
    """The observed frame holds nothing the intended frame lacks. The kernel
    drops a value equal to the one it already has (an axis, a slot's
    position), so a frame may arrive with fewer events than were written —
    e.g. on a device that outlives one replay (libinput replay's) — but
    never with others."""
    if not observed_signature:
        return False
    return not (collections.Counter(observed_signature) - intended_counter)


def match(intended, observed, drops=frozenset()):
    """Pairs (intended index, observed index), in order: each observed frame
    goes to the next intended frame (within a window) that contains it.

    After a SYN_DROPPED (`drops`: observed indices whose frame it cut) the
    reader lost an unknown number of frames: the partial frame is skipped
    and the next observed frames are looked for anywhere ahead, so that
    everything after the observer's own overflow still counts (before,
    every later frame was outside the window and counted as extra).
    Returns (pairs, partial frames skipped, intended frames that fell in
    the gaps after a SYN_DROPPED)."""
    counters = [collections.Counter(frame_signature) for _, frame_signature in intended]
    sets = [frozenset(frame_signature) for _, frame_signature in intended]
    pairs = []
    next_intended = 0
    realigning = False
    partial = 0
    in_drops = 0
    for observed_index, (_, observed_signature) in enumerate(observed):
        if observed_index in drops:
            partial += 1
            realigning = True
            continue
        window_end = len(intended) if realigning else min(len(intended), next_intended + MATCH_WINDOW)
        observed_set = frozenset(observed_signature)
        for intended_index in range(next_intended, window_end):
            if observed_set <= sets[intended_index] and contained(observed_signature, counters[intended_index]):
                if realigning:
                    in_drops += intended_index - next_intended
                    realigning = False
                pairs.append((intended_index, observed_index))
                next_intended = intended_index + 1
                break
    return pairs, partial, in_drops


def read_keys(path):
    values = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as file:
            for line in file:
                key, separator, value = line.rstrip("\n").partition("=")
                if separator:
                    values[key] = value
    return values


def parse_duration_us(text):
    for suffix, factor in (("us", 1), ("ms", 1_000), ("s", 1_000_000)):
        if text.endswith(suffix):
            return round(float(text[: -len(suffix)]) * factor)
    return round(float(text) * 1_000_000)


def percentile(sorted_values, fraction):
    """Nearest rank."""
    if not sorted_values:
        return None
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[rank - 1]


def analyse_run(folder, tool, intended):
    run = read_keys(os.path.join(folder, "run.txt"))
    record = os.path.join(folder, "observer.log")
    if not os.path.exists(record):  # results from before input-observer
        record = os.path.join(folder, "evemu-record.log")
    drops = set()
    observed = read_frames(record, drops) if os.path.exists(record) else []
    syn_dropped = 0
    if os.path.exists(record):
        with open(record, encoding="utf-8", errors="replace") as file:
            syn_dropped = sum(1 for line in file if line.startswith("E: ") and line.split()[2:4] == ["0000", "0003"])
    pairs, partial, in_drops = match(intended, observed, drops)
    result = {
        "name": os.path.basename(folder), "expected": len(intended), "seen": len(pairs),
        "extra": len(observed) - len(pairs) - partial, "in_drops": in_drops, "errors": [], "end_drift": None, "bunched": 0,
        "start_delay": None, "start_note": None, "first_offset": None, "syn_dropped": syn_dropped, "slope": None, "self_report": None, "jitter": [], "device_ready": None,
    }
    if run.get("launched_us") and run.get("udev_add_us"):
        result["device_ready"] = int(run["udev_add_us"]) - int(run["launched_us"])
    if pairs:
        first_intended, first_observed = pairs[0]
        anchor_intended = intended[first_intended][0]
        anchor_observed = observed[first_observed][0]
        for intended_index, observed_index in pairs:
            lateness = (observed[observed_index][0] - anchor_observed) - (intended[intended_index][0] - anchor_intended)
            result["errors"].append(lateness)
            if intended_index == len(intended) - 1:
                result["end_drift"] = lateness
        offset = statistics.median(result["errors"])
        result["jitter"] = [error - offset for error in result["errors"]]
        result["first_offset"] = -offset
        if len(pairs) >= 2:
            times = [intended[intended_index][0] - anchor_intended for intended_index, _ in pairs]
            mean_time, mean_error = statistics.fmean(times), statistics.fmean(result["errors"])
            spread = sum((time - mean_time) ** 2 for time in times)
            if spread > 0:
                covariance = sum((time - mean_time) * (error - mean_error) for time, error in zip(times, result["errors"]))
                result["slope"] = covariance / spread * 60_000_000  # µs of error per minute
        for (intended_a, observed_a), (intended_b, observed_b) in zip(pairs, pairs[1:]):
            if observed_b != observed_a + 1:
                continue
            observed_gap = observed[observed_b][0] - observed[observed_a][0]
            intended_gap = intended[intended_b][0] - intended[intended_a][0]
            if observed_gap < BUNCHED_BELOW_US and intended_gap >= BUNCHED_INTENDED_AT_LEAST_US:
                result["bunched"] += 1

    probe_path = os.path.join(folder, "probe.json")
    if os.path.exists(probe_path):
        with open(probe_path, encoding="utf-8") as file:
            probe = json.load(file)
        if probe.get("first_frame_us") is None:
            result["start_note"] = "the probe saw no frame"
        elif not contained(signature(map(tuple, probe.get("first_frame_events", []))),
                           collections.Counter(intended[0][1])):
            result["start_note"] = "the probe's first frame is not the gesture's first (it opened the device too late)"
        elif tool.startswith("gesturectl"):
            if run.get("udev_add_us") and run.get("lead_in"):
                told = int(run["udev_add_us"]) + parse_duration_us(run["lead_in"])
                result["start_delay"] = probe["first_frame_us"] - told
            else:
                result["start_note"] = "no udev add time"
        elif tool == "reference":
            log = read_keys(os.path.join(folder, "reference.log"))
            if log.get("start_us"):
                result["start_delay"] = probe["first_frame_us"] - int(log["start_us"])
            else:
                result["start_note"] = "no start_us in reference.log"
        elif "told_to_start_us" in probe:
            result["start_delay"] = probe["first_frame_us"] - probe["told_to_start_us"]
    else:
        result["start_note"] = "no probe result"

    if tool.startswith("gesturectl"):
        log = os.path.join(folder, "gesturectl.log")
        if os.path.exists(log):
            with open(log, encoding="utf-8", errors="replace") as file:
                for line in file:
                    if line.startswith("{"):
                        try:
                            result["self_report"] = json.loads(line)
                        except ValueError:
                            pass
    return result


def summarise(runs):
    errors = sorted(abs(error) for run in runs for error in run["errors"])
    drifts = [run["end_drift"] for run in runs if run["end_drift"] is not None]
    delays = [run["start_delay"] for run in runs if run["start_delay"] is not None]
    jitter = sorted(abs(value) for run in runs for value in run["jitter"])
    ready = [run["device_ready"] for run in runs if run["device_ready"] is not None]
    offsets = [run["first_offset"] for run in runs if run["first_offset"] is not None]
    slopes = [run["slope"] for run in runs if run["slope"] is not None]
    return {
        "runs": len(runs),
        "seen": sum(run["seen"] for run in runs), "expected": sum(run["expected"] for run in runs),
        "extra": sum(run["extra"] for run in runs),
        "in_drops": sum(run.get("in_drops", 0) for run in runs),
        "start_delay": statistics.median(delays) if delays else None,
        "start_range": (min(delays), max(delays)) if delays else None,
        "median": statistics.median(errors) if errors else None,
        "p99": percentile(errors, 0.99), "max": errors[-1] if errors else None,
        "end_drift": statistics.median(drifts) if drifts else None,
        "drift_range": (min(drifts), max(drifts)) if drifts else None,
        "bunched": sum(run["bunched"] for run in runs),
        "jitter": percentile(jitter, 0.99),
        "device_ready": statistics.median(ready) if ready else None,
        "missing_end": sum(1 for run in runs if run["end_drift"] is None),
        "first_offset": statistics.median(offsets) if offsets else None,
        "drift_per_minute": statistics.median(slopes) if slopes else None,
        "syn_dropped": sum(run["syn_dropped"] for run in runs),
        "offset_range": (min(offsets), max(offsets)) if offsets else None,
    }


def milliseconds(value, digits=2):
    return "–" if value is None else f"{value / 1000:.{digits}f}"


def ratio_text(label, peer, ours):
    if peer is None or ours is None:
        return None
    if abs(ours) < 1:
        return f"{label} {milliseconds(abs(peer))} ms vs gesturectl's 0 ms"
    factor = abs(peer) / abs(ours)
    shown = f"{factor:.0f}" if factor >= 10 else f"{factor:.2f}" if factor < 1 else f"{factor:.1f}"
    verdict = " (gesturectl is worse here)" if factor < 1 else ""
    return f"{label} {shown}× gesturectl's{verdict} ({milliseconds(abs(peer))} vs {milliseconds(abs(ours))} ms)"


def table(rows, markdown):
    header = ["tool", "runs", "frames seen/expected", "start delay ms", "first offset ms (range)", "lateness median ms",
              "p99 ms", "max ms", "end drift ms (range)", "drift ms/min", "bunched", "jitter p99 ms", "device ready s"]
    body = []
    for label, summary in rows:
        frames = f"{summary['seen']}/{summary['expected']}"
        if summary["extra"]:
            frames += f" (+{summary['extra']} extra)"
        if summary["syn_dropped"]:
            frames += f" [{summary['syn_dropped']} SYN_DROPPED"
            frames += f": {summary['in_drops']} unseen]" if summary["in_drops"] else "]"
        drift = milliseconds(summary["end_drift"])
        if summary["drift_range"]:
            low, high = summary["drift_range"]
            drift += f" ({milliseconds(low)}…{milliseconds(high)})"
        if summary["missing_end"]:
            drift += f" [{summary['missing_end']} run(s) lost the last frame]"
        offset = milliseconds(summary["first_offset"])
        if summary["offset_range"] and summary["runs"] > 1:
            low, high = summary["offset_range"]
            offset += f" ({milliseconds(low)}…{milliseconds(high)})"
        body.append([label, str(summary["runs"]), frames, milliseconds(summary["start_delay"]), offset, milliseconds(summary["median"], 3),
                     milliseconds(summary["p99"], 3), milliseconds(summary["max"], 3), drift,
                     milliseconds(summary["drift_per_minute"], 3), str(summary["bunched"]),
                     milliseconds(summary["jitter"], 3),
                     "–" if summary["device_ready"] is None else f"{summary['device_ready'] / 1e6:.2f}"])
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|"]
        lines += ["| " + " | ".join(row) + " |" for row in body]
        return "\n".join(lines)
    widths = [max(len(row[column]) for row in [header] + body) for column in range(len(header))]
    def line(row):
        return "  ".join(cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(row))
    return "\n".join([line(header), line(["-" * width for width in widths])] + [line(row) for row in body])


def floor_table(rows, markdown):
    """Each tool's figures divided by the C reference's, run in the same boot."""
    floor = dict(rows).get(FLOOR)
    if not floor:
        return None
    keys = [("p99", "p99 × floor"), ("max", "max × floor"), ("median", "median × floor"),
            ("jitter", "jitter p99 × floor"), ("end_drift", "end drift (abs) × floor"),
            ("drift_per_minute", "drift/min (abs) × floor"),
            ("first_offset", "first offset (abs) × floor"), ("start_delay", "start delay × floor")]
    header = ["tool"] + [title for _, title in keys]
    body = []
    for label, summary in rows:
        row = [label]
        for key, _ in keys:
            ours, base = summary[key], floor[key]
            if ours is None or base is None:
                row.append("–")
            elif abs(base) < 50:  # under 0.05 ms: a ratio would mean nothing
                row.append(f"({milliseconds(abs(ours))} vs {milliseconds(abs(base))} ms)")
            else:
                row.append(f"{abs(ours) / abs(base):.1f}×")
        body.append(row)
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|"]
        return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in body])
    widths = [max(len(row[column]) for row in [header] + body) for column in range(len(header))]
    def line(row):
        return "  ".join(cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(row))
    return "\n".join([line(header), line(["-" * width for width in widths])] + [line(row) for row in body])


def analyse_case(results, name, runs_folder, environment, markdown, per_run):
    """Prints one case's tables and returns its figures (for summary.json)."""
    case_folder = os.path.join(results, "cases", name) if name else results
    intended = read_frames(os.path.join(case_folder, "gesture.evemu"))
    if not intended:
        raise AnalysisError(f"{case_folder}/gesture.evemu holds no frames")
    # libinput replay may play its own import of the frames (a repeat).
    libinput_path = os.path.join(case_folder, "libinput.evemu")
    libinput_intended = read_frames(libinput_path) if os.path.exists(libinput_path) else intended
    case_keys = read_keys(os.path.join(runs_folder, "case.txt"))

    rows = []
    details = []
    self_reports = []
    entries = os.listdir(runs_folder) if os.path.isdir(runs_folder) else []
    def launched(tool):
        """When the tool's first run started (guest uptime): the gesturectl
        binaries play in the order given, the build under test last."""
        return int(read_keys(os.path.join(runs_folder, f"{tool}-1", "run.txt")).get("launched_us") or 0)

    tools = sorted({entry.rsplit("-", 1)[0] for entry in entries
                    if os.path.isdir(os.path.join(runs_folder, entry)) and entry.rsplit("-", 1)[-1].isdigit()},
                   key=lambda tool: (tool_order(tool)[0], launched(tool) if tool.startswith("gesturectl") else 0, tool))
    for tool in tools:
        label = tool_label(tool)
        folders = sorted(
            (os.path.join(runs_folder, entry) for entry in entries
             if entry.rsplit("-", 1)[0] == tool and entry.rsplit("-", 1)[-1].isdigit()),
            key=lambda path: int(path.rsplit("-", 1)[1]))
        runs = [analyse_run(folder, tool, libinput_intended if tool == "libinput" else intended) for folder in folders]
        if not runs:
            continue
        rows.append((label, summarise(runs)))
        for run in runs:
            details.append((run["name"], summarise([run]), run["start_note"]))
            if run["self_report"]:
                self_reports.append((label, run["self_report"]))
    skipped = {}
    for tool in ("libinput",):
        for folder in (runs_folder, case_folder):
            path = os.path.join(folder, f"{tool}.skip")
            if os.path.exists(path) and tool_label(tool) not in skipped:
                with open(path, encoding="utf-8") as file:
                    skipped[tool_label(tool)] = file.read().strip()

    duration = intended[-1][0] - intended[0][0]
    print(f"## Case {name or 'gesture'}: {len(intended)} frames over {duration / 1e6:.3f} s"
          + (f" (play {case_keys['play_arguments']})" if case_keys.get("play_arguments") else "")
          + f", on '{case_keys.get('device_name', '?')}'")
    print()
    print(table(rows, markdown))
    for label, reason in skipped.items():
        print(f"{label}: skipped: {reason}")
    ratios = floor_table(rows, markdown)
    if ratios:
        print()
        print("Ratios to the floor (the C reference in the same boot; 1.0× = as good as this kernel and machine allow):")
        print()
        print(ratios)
    if per_run:
        print()
        print(table([(run_name, summary) for run_name, summary, _ in details], markdown))
    notes = [f"{run_name}: start delay not measured: {note}" for run_name, _, note in details if note]
    if notes:
        print()
        print("\n".join(notes))

    # The peers against gesturectl: the last gesturectl row without --realtime
    # (the build under test when several are compared).
    ours_label = next((label for label, _ in reversed(rows)
                       if label.startswith("gesturectl") and not label.endswith("--realtime")), None)
    ours = dict(rows).get(ours_label)
    if ours:
        print()
        print(f"Against {ours_label}:")
        for label, summary in rows:
            if label.startswith("gesturectl") or label == FLOOR:
                continue
            parts = [ratio_text(title, summary[key], ours[key]) for title, key in
                     (("end drift", "end_drift"), ("p99 lateness", "p99"), ("max lateness", "max"),
                      ("start delay", "start_delay"), ("jitter p99", "jitter"))]
            parts = [part for part in parts if part]
            if summary["bunched"] or ours["bunched"]:
                parts.append(f"bunched frames {summary['bunched']} vs gesturectl's {ours['bunched']}")
            print(f"- {label}: " + "; ".join(parts) + ".")
    if self_reports:
        print()
        for label in dict.fromkeys(label for label, _ in self_reports):
            reports = [report for report_label, report in self_reports if report_label == label]
            p99 = statistics.median(report.get("lateness_p99_us", 0) for report in reports)
            maximum = max(report.get("lateness_max_us", 0) for report in reports)
            print(f"{label}, its own --json (lateness against its absolute deadlines, user space): "
                  f"p99 {p99 / 1000:.3f} ms (median of runs), max {maximum / 1000:.3f} ms.")
    print()
    return {"frames": len(intended), "duration_us": duration, "play_arguments": case_keys.get("play_arguments", ""),
            "device": case_keys.get("device_name"), "tools": {label: summary for label, summary in rows},
            "skipped": skipped, "runs": {run_name: summary for run_name, summary, _ in details},
            "self_reports": [{"tool": label, **report} for label, report in self_reports]}


def analyse_recordings(results, markdown):
    """Every recording pass there is: recording (the gesturectl recorders
    given) and, with --realtime, recording-realtime."""
    passes = {}
    for name, title in (("recording", "Recording"), ("recording-realtime", "Recording, gesturectl record --realtime")):
        figures = analyse_recording(results, markdown, name, title)
        if figures is not None:
            passes[name] = figures
    return passes


def analyse_recording(results, markdown, pass_name="recording", title="Recording"):
    """A recording pass: what each recorder kept of the frames the C
    reference wrote, the SYN_DROPPED it saw, and its CPU time."""
    folder = os.path.join(results, "runs", pass_name)
    keys = read_keys(os.path.join(folder, "recording.txt"))
    if not keys.get("frames_sent"):
        return None
    sent = int(keys["frames_sent"])
    ticks = int(keys.get("ticks_per_second") or 100)
    with open(os.path.join(results, "cases", "recording", "gesture.json"), encoding="utf-8") as file:
        sent_samples = [len(stroke["samples"]) for stroke in json.load(file)["strokes"]]
    repeat_path = os.path.join(results, "cases", "recording", "repeat")
    repeat = 1
    if os.path.exists(repeat_path):
        with open(repeat_path, encoding="utf-8") as file:
            repeat = int(file.read().strip() or 1)
    sent_total = sum(sent_samples) * repeat

    def cpu(name):
        value = keys.get(f"cpu_{name}", "")
        return int(value) / ticks if value.isdigit() else None

    rows = []
    evemu_path = os.path.join(folder, "evemu-record.log")
    if os.path.exists(evemu_path):
        frames = dropped = 0
        with open(evemu_path, encoding="utf-8", errors="replace") as file:
            for line in file:
                if line.startswith("E: "):
                    fields = line.split()
                    if fields[2] == "0000" and fields[3] == "0000":
                        frames += 1
                    elif fields[2] == "0000" and fields[3] == "0003":
                        dropped += 1
        rows.append({"recorder": "evemu-record", "kept": frames, "syn_dropped": dropped, "cpu_s": cpu("evemu")})
    libinput_path = os.path.join(folder, "libinput-record.yml")
    if os.path.exists(libinput_path):
        frames = dropped = 0
        with open(libinput_path, encoding="utf-8", errors="replace") as file:
            for line in file:
                stripped = line.strip()
                if stripped.startswith("- evdev:"):
                    frames += 1
                elif stripped.startswith("- ["):
                    values = [part.strip() for part in stripped[3:].split("]", 1)[0].split(",")]
                    if len(values) == 5 and values[2:] == ["0", "3", "0"]:
                        dropped += 1
        rows.append({"recorder": "libinput record", "kept": frames, "syn_dropped": dropped, "cpu_s": cpu("libinput")})
    # One gesturectl recorder per binary (gesturectl-recorders.txt); results
    # from before that have one, gesturectl.gesture.json.
    recorders_path = os.path.join(folder, "gesturectl-recorders.txt")
    if os.path.exists(recorders_path):
        with open(recorders_path, encoding="utf-8") as file:
            ours = [(line.strip(), f"gesturectl.{line.strip()}") for line in file if line.strip()]
    else:
        ours = [("gesturectl", "gesturectl")]
    for tool, cpu_key in ours:
        ours_path = os.path.join(folder, f"{tool}.gesture.json")
        if not os.path.exists(ours_path):
            continue
        with open(ours_path, encoding="utf-8") as file:
            recorded = json.load(file)
        samples = [recorded_samples(stroke) for stroke in recorded.get("strokes", [])]
        dropped = recorded.get("recording", {}).get("dropped_events", recorded.get("dropped_events"))
        if dropped is None:
            dropped = next((value for key, value in _walk(recorded) if key == "dropped_events"), None)
        cpu_s = cpu(cpu_key) if f"cpu_{cpu_key}" in keys else cpu("gesturectl")
        rows.append({"recorder": tool_label(tool).replace("gesturectl play", "gesturectl record"), "kept": sum(samples),
                     "kept_range": (min(samples), max(samples)) if samples else None, "strokes": len(samples),
                     "syn_dropped": dropped, "cpu_s": cpu_s, "per_finger": True})
    print(f"## {title}: the C reference wrote {sent} frames (ten fingers at 1 kHz, {len(sent_samples)} fingers × "
          f"{max(sent_samples)} samples × {repeat} plays)"
          f" in {keys.get('writer_seconds', '?')} s; {len(rows)} recorders read the device at the same time")
    print()
    header = ["recorder", "kept / sent", "lost", "SYN_DROPPED", "CPU s", "CPU ms per frame sent"]
    body = []
    for row in rows:
        expected = sent_total if row.get("per_finger") else sent
        kept = row["kept"]
        if row.get("kept_range"):
            low, high = row["kept_range"]
            kept_text = f"{kept} / {expected} samples ({row['strokes']} strokes of {low}–{high})"
        else:
            kept_text = f"{kept} / {expected} frames"
        lost = 100 * (expected - kept) / expected if expected else 0
        row["lost_percent"] = lost
        row["cpu_ms_per_frame"] = None if row["cpu_s"] is None else row["cpu_s"] * 1000 / sent
        body.append([row["recorder"], kept_text, f"{lost:.2f} %",
                     "–" if row["syn_dropped"] is None else str(row["syn_dropped"]),
                     "–" if row["cpu_s"] is None else f"{row['cpu_s']:.2f}",
                     "–" if row["cpu_ms_per_frame"] is None else f"{row['cpu_ms_per_frame']:.3f}"])
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|"]
        print("\n".join(lines + ["| " + " | ".join(row) + " |" for row in body]))
    else:
        widths = [max(len(row[column]) for row in [header] + body) for column in range(len(header))]
        for row in [header, ["-" * width for width in widths]] + body:
            print("  ".join(cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(row)))
    print("CPU: utime + stime from /proc/PID/stat once the writer had finished and evemu-record had drained "
          f"({ticks} ticks a second). gesturectl record keeps samples (one per finger per frame, a stroke per "
          "touch); the others, frames. CPU per frame is against the frames sent.")
    print()
    return {"frames_sent": sent, "writer_seconds": keys.get("writer_seconds"), "recorders": rows,
            "gesturectl_status": {key: value for key, value in keys.items() if key.startswith("status_gesturectl")}
            or keys.get("gesturectl_status")}


def recorded_samples(stroke):
    """The samples of a recorded stroke that stand for frames sent: all but
    the lift's, which the recorder adds at the lift's time with the last
    position (a sample that repeats the one before it; a moving sample
    never does, the recorder keeps only changes), and which the sent
    gesture has no sample for."""
    samples = stroke.get("samples", [])
    if len(samples) > 1 and list(samples[-1])[1:] == list(samples[-2])[1:]:
        return len(samples) - 1
    return len(samples)


def analyse_startup(results):
    """The start-up case: startup-probe.py's own tables, and the medians the
    targets need. None without it."""
    path = os.path.join(results, "startup", "results.json")
    if not os.path.exists(path):
        return None
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "startup_probe", os.path.join(os.path.dirname(os.path.abspath(__file__)), "startup-probe.py"))
    probe = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(probe)
    print("## Start-up (benchmarks/startup-probe.py in this boot)")
    print()
    probe.table(path)
    print()
    with open(path, encoding="utf-8") as file:
        samples = json.load(file)["samples"]
    medians = {}
    for sample in samples:
        if sample["run"] == 0:
            continue
        for key in ("exit_ms", "node_ms", "frame_node_ms", "frame_ms"):
            if key in sample:
                medians.setdefault(sample["tool"], {}).setdefault(key, []).append(sample[key])
    return {tool: {key: statistics.median(values) for key, values in keys.items()} for tool, keys in medians.items()}


def print_targets(figures, recording, markdown, startup=None):
    """Issue 9's targets, each against this run's figures: met, not met, or
    out of reach here (the floor itself misses it). Returns them for
    summary.json."""
    rows = []

    def ours_label(tools):
        return next((label for label in reversed(list(tools))
                     if label.startswith("gesturectl") and not label.endswith("--realtime")), None)

    def verdict(ok):
        return "met" if ok else "not met"

    offsets = []
    for name, case in figures.items():
        tools = case["tools"]
        ours = ours_label(tools)
        if not ours:
            continue
        mine, floor, peer = tools[ours], tools.get(FLOOR), tools.get("libinput replay")
        offsets += [run["first_offset"] for run_name, run in case["runs"].items()
                    if tool_label(run_name.rsplit("-", 1)[0]) == ours and run["first_offset"] is not None]
        if mine["first_offset"] is not None:
            rows.append(("first frame on its cadence: median offset ≤ 1 ms", name,
                         f"{mine['first_offset'] / 1000:.2f} ms",
                         f"floor {floor['first_offset'] / 1000:.2f} ms" if floor and floor["first_offset"] is not None else "",
                         verdict(abs(mine["first_offset"]) <= 1000)))
        if floor and floor["p99"] and mine["p99"] is not None:
            rows.append(("p99 ≤ 2× the C reference's", name, f"{mine['p99'] / 1000:.2f} ms",
                         f"{mine['p99'] / floor['p99']:.2f}× the floor's {floor['p99'] / 1000:.2f} ms",
                         verdict(mine["p99"] <= 2 * floor["p99"])))
        if peer and peer["p99"] and mine["p99"] is not None:
            reach = ""
            ok = mine["p99"] * 5 <= peer["p99"]
            if not ok and floor and floor["p99"] and floor["p99"] * 5 > peer["p99"]:
                reach = f"; out of reach here: the floor's own p99 is {floor['p99'] / peer['p99']:.2f}× libinput replay's"
            rows.append(("p99 ≤ 1/5 of libinput replay's", name, f"{mine['p99'] / 1000:.2f} ms",
                         f"{mine['p99'] / peer['p99']:.2f}× libinput replay's {peer['p99'] / 1000:.2f} ms{reach}",
                         verdict(ok) if ok or not reach else "out of reach here"))
        if name == "drag-60s" and mine["drift_per_minute"] is not None:
            rows.append(("drift < 1 ms per minute", name, f"{mine['drift_per_minute'] / 1000:.3f} ms/min",
                         f"floor {floor['drift_per_minute'] / 1000:.3f} ms/min" if floor and floor["drift_per_minute"] is not None else "",
                         verdict(abs(mine["drift_per_minute"]) < 1000)))
        if name == "ten-1k":
            missing = mine["expected"] - mine["seen"] - mine.get("in_drops", 0)
            detail = (f"{mine['seen']}/{mine['expected']} seen, {mine['extra']} altered or merged, "
                      f"{missing} missing, {mine.get('in_drops', 0)} unseen behind the observer's "
                      f"{mine['syn_dropped']} SYN_DROPPED")
            self_reported = [report for report in case["self_reports"] if report["tool"] == ours]
            written = [report.get("frames") for report in self_reported if report.get("frames") is not None]
            rows.append(("ten fingers at 1 kHz: no frame lost, merged or altered", name, detail,
                         f"gesturectl wrote {'/'.join(str(count) for count in written)} frames" if written else "",
                         verdict(mine["extra"] == 0 and missing == 0)))
    if offsets:
        rows.append(("first frame on its cadence: median offset ≤ 1 ms", "all cases, every run",
                     f"{statistics.median(offsets) / 1000:.2f} ms over {len(offsets)} runs", "",
                     verdict(abs(statistics.median(offsets)) <= 1000)))
    for pass_name, figures_of_pass in (recording or {}).items():
        recorders = {row["recorder"]: row for row in figures_of_pass["recorders"]}
        evemu = recorders.get("evemu-record")
        for label, row in recorders.items():
            if not label.startswith("gesturectl"):
                continue
            lost, cpu = row["lost_percent"], row["cpu_ms_per_frame"]
            if evemu:
                rows.append(("recording at 1 kHz: no loss (or < 1 % and fewer than evemu-record)", f"{pass_name}: {label}",
                             f"{lost:.2f} % lost", f"evemu-record {evemu['lost_percent']:.2f} %",
                             "met" if lost == 0 else verdict(lost < 1 and lost < evemu["lost_percent"])))
            if cpu is not None:
                peer_cpu = evemu["cpu_ms_per_frame"] if evemu else None
                rows.append(("recorder CPU a frame ≤ 0.385 ms and ≤ evemu-record's", f"{pass_name}: {label}",
                             f"{cpu:.3f} ms", f"evemu-record {peer_cpu:.3f} ms" if peer_cpu is not None else "",
                             verdict(cpu <= 0.385 and (peer_cpu is None or cpu <= peer_cpu))))
    if startup:
        evemu = startup.get("evemu-device", {}).get("frame_ms")
        swift = startup.get("Swift hello", {}).get("exit_ms")
        for label, medians in startup.items():
            if not label.startswith("gesturectl") or "frame_ms" not in medians or not evemu:
                continue
            reach = ""
            if swift and swift >= evemu:
                reach = f"; out of reach here: a Swift program that only prints a line needs {swift:.0f} ms"
            ok = medians["frame_ms"] <= evemu
            rows.append(("launch → first frame ≤ evemu-device + evemu-play", f"start-up: {label}",
                         f"{medians['frame_ms']:.0f} ms (node at {medians.get('frame_node_ms', 0):.0f} ms)",
                         f"{medians['frame_ms'] / evemu:.1f}× evemu-device + evemu-play's {evemu:.0f} ms{reach}",
                         verdict(ok) if ok or not reach else "out of reach here"))
    if not rows:
        return []
    print("## The targets in this run (issue 9)")
    print()
    header = ["target", "case", "gesturectl", "against", "verdict"]
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "|".join(["---"] * len(header)) + "|")
        for row in rows:
            print("| " + " | ".join(row) + " |")
    else:
        for row in rows:
            print(f"- {row[0]} [{row[1]}]: {row[2]}" + (f" ({row[3]})" if row[3] else "") + f": {row[4]}")
    print()
    return [dict(zip(header, row)) for row in rows]


def _walk(value):
    """(key, value) pairs of every object nested in a JSON value."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield key, item
            yield from _walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item)


def main(arguments):
    markdown = "--markdown" in arguments
    per_run = "--per-run" in arguments
    positional = [argument for argument in arguments if not argument.startswith("--")]
    if len(positional) != 1:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    results = positional[0]
    if not os.path.isdir(results):
        raise AnalysisError(f"{results}: not a results folder of benchmarks/timing")
    runs_folder = os.path.join(results, "runs")
    environment = read_keys(os.path.join(runs_folder, "environment.txt"))
    print(f"{environment.get('runs', '?')} runs per tool, interleaved (a short case plays the floor and gesturectl "
          f"more often: its runs column); guest: kernel {environment.get('kernel', '?')}, "
          f"{environment.get('cpus', '?')} CPU(s), libinput {environment.get('libinput', '?')}, "
          f"evemu {environment.get('evemu', '?')}, {environment.get('date', '?')}, "
          f"guest load average at the start {environment.get('load_average', '?')}")
    print("Lateness = |error| of each frame's time relative to the first frame; seen by input-observer "
          "(kernel timestamps). first offset = how late the first frame is against the cadence of the rest.")
    print()
    cases_path = os.path.join(results, "cases.txt")
    figures = {}
    if os.path.exists(cases_path):
        with open(cases_path, encoding="utf-8") as file:
            names = [line.strip() for line in file if line.strip()]
        for name in names:
            figures[name] = analyse_case(results, name, os.path.join(runs_folder, name), environment, markdown, per_run)
    else:  # a results folder from before the cases
        figures["gesture"] = analyse_case(results, "", runs_folder, environment, markdown, per_run)
    recording = analyse_recordings(results, markdown)
    startup = analyse_startup(results)
    targets = print_targets(figures, recording, markdown, startup)
    with open(os.path.join(results, "summary.json"), "w", encoding="utf-8") as output:
        json.dump({"environment": environment, "cases": figures, "recording": recording, "startup": startup,
                   "targets": targets}, output, indent=1)
        output.write("\n")
    print(f"JSON: {os.path.join(results, 'summary.json')}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except (AnalysisError, OSError, ValueError) as error:
        print(f"timing-analysis: {error}", file=sys.stderr)
        sys.exit(1)
