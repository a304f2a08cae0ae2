#!/usr/bin/python3
"""libinput-device-lines.py NAME < DEBUG-EVENTS-OUTPUT : copies, line by
line as they come, the lines of `libinput debug-events --udev …` that are
about the device named NAME (its eventN is learnt from its DEVICE_ADDED
line; libinput's messages name it too) and the lines about no device at all
(libinput's own, e.g. "event processing lagging behind"). Lines about other
devices are left out. (awk is no help here: mawk reads a pipe in blocks.)
"""
import re
import sys

DEVICE = re.compile(r"event[0-9]+")


def main():
    name = sys.argv[1]
    mine = None
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        found = DEVICE.search(line)
        here = found.group(0) if found else None
        if mine is None and "DEVICE_ADDED" in line and f" {name} " in line:
            mine = here
        if here is None or here == mine or f" {name}:" in line:
            sys.stdout.write(line)
            sys.stdout.flush()


main()
