#!/usr/bin/env python3
"""A source device driven through its own uinput descriptor (stdlib only).

    uinput_source.py DESCRIPTION.evemu COMMANDS-FIFO

Creates the device an evemu description file describes, prints
"NAME: /dev/input/eventN" once it exists, then reads commands, one a line,
from the fifo, answering each on standard output:

    play FILE.events     replay the file's E: lines at their times -> "played"
    frame T:C:V ...      those events and SYN_REPORT 0, at once    -> "frame"
    timed T:C:V ...      the same                                  -> "timed SECONDS"
                         (CLOCK_MONOTONIC just before the write: benchmarks/button-place)
    quit                 destroy the device and exit               -> "quit"

Why not evemu-play or evemu-event: they write into the event node, and the
kernel drops events injected there while another reader holds the device's
grab (EVIOCGRAB: drivers/input/input.c, input_inject_event). Events written
through uinput come from the device itself and reach the grabbing reader, as
a real device's do.
"""
import fcntl
import os
import struct
import sys
import time

EV_SYN, EV_KEY, EV_REL, EV_ABS, EV_MSC = 0, 1, 2, 3, 4
UI_DEV_CREATE = 0x5501
UI_DEV_DESTROY = 0x5502
UI_DEV_SETUP = 0x405C5503      # _IOW('U', 3, struct uinput_setup), 92 bytes
UI_ABS_SETUP = 0x401C5504      # _IOW('U', 4, struct uinput_abs_setup), 28 bytes
UI_SET_EVBIT = 0x40045564
UI_SET_KEYBIT = 0x40045565
UI_SET_RELBIT = 0x40045566
UI_SET_ABSBIT = 0x40045567
UI_SET_MSCBIT = 0x40045568
UI_SET_PROPBIT = 0x4004556E
SET_BIT = {EV_KEY: UI_SET_KEYBIT, EV_REL: UI_SET_RELBIT, EV_ABS: UI_SET_ABSBIT, EV_MSC: UI_SET_MSCBIT}


def ui_get_sysname(length):
    return 0x80000000 | (length << 16) | (ord("U") << 8) | 44


def read_description(path):
    name, ids, props, bits, axes = "", (0, 0, 0, 0), b"", {}, {}
    with open(path, encoding="utf-8") as file:
        for line in file:
            line = line.split("#", 1)[0].strip()
            if line.startswith("N:"):
                name = line[2:].strip()
            elif line.startswith("I:"):
                ids = tuple(int(v, 16) for v in line[2:].split())
            elif line.startswith("P:"):
                props += bytes(int(v, 16) for v in line[2:].split())
            elif line.startswith("B:"):
                fields = line[2:].split()
                kind = int(fields[0], 16)
                bits[kind] = bits.get(kind, b"") + bytes(int(v, 16) for v in fields[1:])
            elif line.startswith("A:"):
                fields = line[2:].split()
                numbers = [int(v) for v in fields[1:]]
                resolution = numbers[4] if len(numbers) > 4 else 0
                axes[int(fields[0], 16)] = (numbers[0], numbers[1], numbers[2], numbers[3], resolution)
    return name, ids, props, bits, axes


def set_bits(descriptor, request, mask):
    for index, byte in enumerate(mask):
        for bit in range(8):
            if byte & (1 << bit):
                fcntl.ioctl(descriptor, request, index * 8 + bit)


def create(path):
    name, ids, props, bits, axes = read_description(path)
    descriptor = os.open("/dev/uinput", os.O_WRONLY | os.O_NONBLOCK)
    set_bits(descriptor, UI_SET_PROPBIT, props)
    for kind, mask in bits.items():
        if kind == 0:
            set_bits(descriptor, UI_SET_EVBIT, mask)
        elif kind in SET_BIT:
            set_bits(descriptor, SET_BIT[kind], mask)
    for code, (minimum, maximum, fuzz, flat, resolution) in axes.items():
        fcntl.ioctl(descriptor, UI_ABS_SETUP, struct.pack("Hxxiiiiii", code, 0, minimum, maximum, fuzz, flat, resolution))
    setup = struct.pack("HHHH80sI", ids[0], ids[1], ids[2], ids[3], name.encode()[:79], 0)
    fcntl.ioctl(descriptor, UI_DEV_SETUP, setup)
    fcntl.ioctl(descriptor, UI_DEV_CREATE)
    sysname = fcntl.ioctl(descriptor, ui_get_sysname(64), bytes(64)).split(b"\0", 1)[0].decode()
    folder = f"/sys/devices/virtual/input/{sysname}"
    node = next(f"/dev/input/{entry}" for entry in sorted(os.listdir(folder)) if entry.startswith("event"))
    return descriptor, name, node


def write_events(descriptor, events):
    data = b"".join(struct.pack("llHHi", 0, 0, kind, code, value) for kind, code, value in events)
    os.write(descriptor, data)


def play(descriptor, path):
    frames, current, start = [], [], None
    with open(path, encoding="utf-8") as file:
        for line in file:
            line = line.split("#", 1)[0].strip()
            if not line.startswith("E:"):
                continue
            stamp, kind, code, value = line[2:].split()
            seconds = float(stamp)
            start = seconds if start is None else start
            current.append((int(kind, 16), int(code, 16), int(value)))
            if int(kind, 16) == EV_SYN and int(code, 16) == 0:
                frames.append((seconds - start, current))
                current = []
    began = time.monotonic()
    for offset, events in frames:
        delay = began + offset - time.monotonic()
        if delay > 0:
            time.sleep(delay)  # the recording's own timing
        write_events(descriptor, events)


def main():
    descriptor, name, node = create(sys.argv[1])
    print(f"{name}: {node}", flush=True)
    with open(sys.argv[2], encoding="utf-8") as commands:
        for line in commands:
            words = line.split()
            if not words:
                continue
            if words[0] == "play":
                play(descriptor, words[1])
                print("played", flush=True)
            elif words[0] == "frame":
                events = [tuple(int(v, 0) for v in word.split(":")) for word in words[1:]]
                write_events(descriptor, events + [(EV_SYN, 0, 0)])
                print("frame", flush=True)
            elif words[0] == "timed":
                events = [tuple(int(v, 0) for v in word.split(":")) for word in words[1:]]
                data = b"".join(struct.pack("llHHi", 0, 0, kind, code, value) for kind, code, value in events + [(EV_SYN, 0, 0)])
                now = time.monotonic()
                os.write(descriptor, data)
                print(f"timed {now:.6f}", flush=True)
            elif words[0] == "quit":
                break
    fcntl.ioctl(descriptor, UI_DEV_DESTROY)
    os.close(descriptor)
    print("quit", flush=True)


if __name__ == "__main__":
    main()
