#!/usr/bin/env python3
"""Helpers for cases/38-button-screen.sh (Debian's python3, standard library only).

    button_screen.py submenu BASE.ppm SUB.ppm Y LIMIT
        grim's pictures (`grim -t ppm`: no PNG to decode in Python, seconds
        under emulation) of the screen before the menu and with its
        sub-menu open to its left: on row Y, left of x LIMIT, the leftmost
        pixel that changed (the sub-menu's left edge); then, on the column
        24 px right of it, the sub-menu's top and bottom. Prints
        "LEFT X TOP BOTTOM".
    button_screen.py touches WEV.log FIRST-LINE LAST-LINE TAP-X TAP-Y MODE
        wev's wl_touch events of lines FIRST-LINE to LAST-LINE (1-based; 0:
        to the end): the first
        frame with touch-downs has exactly three of them and no frame has
        more; every finger down is lifted (an `up` for its id, or a
        `cancel`); MODE `whole`: the box around every point's centre is
        within 12 px of the tap (the daemon plays the gesture's centre
        there); MODE `cut`: the fingers went down within 24 px of the tap
        sideways. Prints `measured: …`; on failure `CHECK FAILED: …`, exit 1.
    button_screen.py jobs SOCKET
        the daemon's `jobs` result, as JSON, and exit 1 unless it is empty.
    button_screen.py COMMAND ARGUMENT... -- COMMAND ARGUMENT...
        several in one process (a Python start is a second under emulation).
"""
import json
import re
import socket
import sys

TOUCH = re.compile(r"wl_touch\]\s+(down|up|motion|frame|cancel)\b:?\s*(.*)")
POINT = re.compile(r"id: (-?\d+); x, y: (-?[\d.]+), (-?[\d.]+)")
UP = re.compile(r"id: (-?\d+)")


def picture(path):
    data = open(path, "rb").read()
    # P6, width, height, 255, one whitespace, then the RGB bytes.
    fields = data.split(maxsplit=4)
    if fields[0] != b"P6":
        raise SystemExit(f"{path}: not a binary PPM")
    width, height = int(fields[1]), int(fields[2])
    return width, height, data[len(data) - width * height * 3:]


def submenu(base_path, sub_path, y, limit):
    width, height, base = picture(base_path)
    sub = picture(sub_path)[2]

    def at(pixels, x, y):
        return pixels[3 * (y * width + x):3 * (y * width + x) + 3]

    changed = [x for x in range(max(0, min(width, limit))) if at(sub, x, y) != at(base, x, y)]
    if not changed:
        fail(f"nothing on row {y} left of x {limit} changed: no menu")
    left = changed[0]
    x = left + 24
    rows = [row for row in range(height) if at(sub, x, row) != at(base, x, row)]
    print(left, x, rows[0], rows[-1])


def fail(message):
    print(f"CHECK FAILED: {message}")
    sys.exit(1)


def touches(path, first_line, last_line, tap_x, tap_y, mode):
    frames, current, cancelled = [], [], False
    for number, line in enumerate(open(path, errors="replace"), start=1):
        if number < first_line or (last_line and number > last_line):
            continue
        match = TOUCH.search(line)
        if not match:
            continue
        kind, rest = match.groups()
        if kind == "frame":
            if current:
                frames.append(current)
            current = []
        elif kind == "cancel":
            cancelled = True
        elif kind in ("down", "motion"):
            point = POINT.search(rest)
            if not point:
                fail(f"wev's {kind} line {number} has no id and x, y: {line.strip()}")
            current.append((kind, int(point.group(1)), float(point.group(2)), float(point.group(3))))
        elif kind == "up":
            current.append(("up", int(UP.search(rest).group(1)), None, None))
    if current:
        frames.append(current)
    downs_per_frame = [sum(1 for event in frame if event[0] == "down") for frame in frames]
    with_downs = [count for count in downs_per_frame if count]
    print(f"measured: {len(frames)} touch frames, touch-downs per frame {with_downs}, "
          f"{sum(1 for f in frames for e in f if e[0] == 'up')} ups, cancel {cancelled}")
    if not with_downs:
        fail("wev saw no touch-down")
    if with_downs[0] != 3 or len(with_downs) != 1:
        fail(f"expected the three fingers down in one frame, and no other touch-down; touch-downs per frame: {with_downs}")
    down, up = set(), set()
    for frame in frames:
        for kind, identity, _, _ in frame:
            if kind == "down":
                down.add(identity)
            elif kind == "up":
                up.add(identity)
    if not cancelled and down - up:
        fail(f"fingers {sorted(down - up)} went down and were never lifted (no up, no cancel)")
    first = [(x, y) for frame in frames for kind, _, x, y in frame if kind == "down"]
    points = [(x, y) for frame in frames for kind, _, x, y in frame if kind in ("down", "motion")]
    if mode == "whole":
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        centre = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
        print(f"measured: the touches' box {min(xs):.0f},{min(ys):.0f} to {max(xs):.0f},{max(ys):.0f}, "
              f"its centre {centre[0]:.0f},{centre[1]:.0f}, the tap {tap_x},{tap_y}")
        if abs(centre[0] - tap_x) > 12 or abs(centre[1] - tap_y) > 12:
            fail(f"the touches' centre {centre[0]:.0f},{centre[1]:.0f} is not at the tap {tap_x},{tap_y}")
    else:
        mean_x = sum(p[0] for p in first) / len(first)
        print(f"measured: the fingers went down at {', '.join(f'{x:.0f},{y:.0f}' for x, y in first)}; the tap {tap_x},{tap_y}")
        if abs(mean_x - tap_x) > 24 or not all(y > tap_y for _, y in first):
            fail(f"the fingers went down at {first}, not around the tap {tap_x},{tap_y} (below it: a swipe up)")


def jobs(path):
    with socket.socket(socket.AF_UNIX) as connection:
        connection.settimeout(30)
        connection.connect(path)
        lines = connection.makefile("rw", encoding="utf-8", newline="\n")
        lines.write(json.dumps({"id": 1, "op": "jobs"}) + "\n")
        lines.flush()
        reply = json.loads(lines.readline())
    print(f"measured: the daemon's jobs after the stop: {json.dumps(reply.get('result'))}")
    if not reply.get("ok") or reply["result"]["jobs"] != []:
        fail(f"the daemon still has jobs: {json.dumps(reply)}")


def main(arguments):
    command = arguments[0]
    sys.argv = [sys.argv[0]] + arguments
    if command == "submenu":
        submenu(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
    elif command == "touches":
        touches(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6]), sys.argv[7])
    elif command == "jobs":
        jobs(sys.argv[2])
    else:
        raise SystemExit(f"unknown command {command}")


if __name__ == "__main__":
    words, commands = sys.argv[1:], [[]]
    for word in words:
        if word == "--":
            commands.append([])
        else:
            commands[-1].append(word)
    for each in commands:
        main(each)
