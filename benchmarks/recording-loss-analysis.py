#!/usr/bin/python3
"""The recording-loss benchmark's table (benchmarks/recording-loss).

Reads DIR/runs/ROUND-MODE-LABEL/ as benchmarks/recording-loss-guest left
them and prints one row a run:

- writer: frames written (position frames + the lift), frames it skipped
  (--catch-up skip), how long it wrote (a pacing writer drifts later), the
  longest catch-up of a bursting writer (consecutive frames each written
  more than a period late, back to back) and the most frames it wrote
  within one period (1 ms at 1 kHz);
- gesturectl record: samples kept against samples sent (one per finger per
  frame written: the lift adds a sample at its time), lost %, SYN_DROPPED
  (the recorder's "the kernel dropped events; N so far"), strokes, CPU
  (utime + stime) per frame written, and its reading thread's longest wait
  runnable but not running (schedstats wait_max; not kept for SCHED_FIFO
  threads, so left out with --realtime);
- evemu-record (modes with +evemu): frames kept against frames written,
  SYN_DROPPED.

Usage: recording-loss-analysis.py DIR [--markdown]
"""
import json
import os
import re
import sys


def key_values(path):
    values = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            for line in file:
                name, equals, value = line.strip().partition("=")
                if equals:
                    values[name] = value
    except FileNotFoundError:
        pass
    return values


def recorded(folder):
    """Samples, strokes and SYN_DROPPED of gesturectl record's run."""
    samples = strokes = 0
    try:
        with open(os.path.join(folder, "gesture.json"), encoding="utf-8") as file:
            gesture = json.load(file)
        for stroke in gesture.get("strokes", []):
            strokes += 1
            samples += len(stroke.get("samples", []))
    except (FileNotFoundError, json.JSONDecodeError):
        samples = strokes = None
    drops = 0
    try:
        with open(os.path.join(folder, "record.log"), encoding="utf-8", errors="replace") as file:
            for match in re.finditer(r"dropped events; (\d+) so far", file.read()):
                drops = max(drops, int(match.group(1)))
    except FileNotFoundError:
        pass
    return samples, strokes, drops


def observed(folder):
    """Frames and SYN_DROPPED in evemu-record's output, or None."""
    path = os.path.join(folder, "evemu.txt")
    if not os.path.exists(path):
        return None
    frames = drops = 0
    with open(path, encoding="utf-8", errors="replace") as file:
        for line in file:
            if line.startswith("E: "):
                fields = line.split()
                if fields[2] == "0000" and fields[3] == "0000":
                    frames += 1
                elif fields[2] == "0000" and fields[3] == "0003":
                    drops += 1
    return frames, drops


def percent(kept, sent):
    return f"{100.0 * (sent - kept) / sent:.2f} %" if sent else "?"


def main():
    arguments = [argument for argument in sys.argv[1:] if not argument.startswith("--")]
    markdown = "--markdown" in sys.argv
    if len(arguments) != 1:
        sys.exit("usage: recording-loss-analysis.py DIR [--markdown]")
    runs = os.path.join(arguments[0], "runs")
    header = ["run", "mode", "binary", "writer: frames (skipped)", "writer s", "longest catch-up",
              "most frames in a period", "record: kept / sent", "lost", "SYN_DROPPED", "strokes", "CPU ms/frame",
              "reader wait_max ms", "evemu-record lost", "evemu SYN_DROPPED"]
    rows = []
    names = sorted(os.listdir(runs), key=lambda name: (int(name.split("-", 1)[0]), name)) if os.path.isdir(runs) else []
    for name in names:
        folder = os.path.join(runs, name)
        round_number, rest = name.split("-", 1)
        mode, _, label = rest.rpartition("-")
        writer = key_values(os.path.join(folder, "writer.txt"))
        stats = key_values(os.path.join(folder, "stats.txt"))
        written = int(writer.get("frames_written", 0))
        fingers = 10
        sent = written * fingers
        samples, strokes, drops = recorded(folder)
        ticks = stats.get("cpu_ticks")
        per_second = int(stats.get("ticks_per_second", 100))
        cpu = f"{int(ticks) * 1000 / per_second / written:.3f}" if ticks and written else "?"
        wait_max = stats.get("thread_wait_max")
        evemu = observed(folder)
        rows.append([
            round_number, mode, label,
            f"{written} ({writer.get('frames_skipped', '?')})", writer.get("writer_seconds", "?"),
            writer.get("catch_up_max", "?") if mode.startswith("burst") else "–", writer.get("burst_max", "?"),
            f"{samples} / {sent}" if samples is not None else f"none / {sent}",
            percent(samples or 0, sent), str(drops), str(strokes), cpu,
            f"{float(wait_max):.1f}" if wait_max and "+rt" not in mode else "",
            percent(evemu[0], written) if evemu else "",
            str(evemu[1]) if evemu else "",
        ])
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "|".join("---" if index < 3 else "---:" for index in range(len(header))) + "|")
        for row in rows:
            print("| " + " | ".join(row) + " |")
    else:
        widths = [max(len(header[index]), *(len(row[index]) for row in rows)) if rows else len(header[index])
                  for index in range(len(header))]
        print("  ".join(cell.ljust(width) for cell, width in zip(header, widths)))
        for row in rows:
            print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)))


if __name__ == "__main__":
    main()
