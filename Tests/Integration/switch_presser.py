#!/usr/bin/env python3
"""The test switch's hand: holds the switch's event node open and presses
it on command, so that a case's press starts no process when it is due
(under a CPU hog a process start cost the guest over a second, and a press
meant for one highlighted item landed on the next).

Usage: switch_presser.py NODE   (gesturectl-lib.sh's create_switch starts it)

Commands on standard input, one a line; one reply line each on standard output:
  press                       one short press (50 ms)       -> pressed
  press-on SECONDS<TAB>LOG<TAB>REGEX
                              a press as soon as a whole line of LOG matches
                              REGEX (searched from LOG's first line, as
                              lib.sh's wait_for_log does), looking every 10 ms
                              -> pressed LINE | timeout
  hold SECONDS                the switch down that long, then up -> held
"""
import os
import re
import struct
import sys
import time

EV_SYN, EV_KEY, KEY_F13 = 0, 1, 0xB7


def main():
    node = sys.argv[1]
    descriptor = os.open(node, os.O_WRONLY)

    def key(value):
        # struct input_event on x86_64: a timeval (ignored on write), type, code, value.
        os.write(descriptor, struct.pack("llHHi", 0, 0, EV_KEY, KEY_F13, value)
                 + struct.pack("llHHi", 0, 0, EV_SYN, 0, 0))

    def press():
        key(1)
        time.sleep(0.05)
        key(0)

    def reply(text):
        sys.stdout.write(text.replace("\n", " ") + "\n")
        sys.stdout.flush()

    for line in sys.stdin:
        command, _, rest = line.rstrip("\n").partition(" ")
        if command == "press":
            press()
            reply("pressed")
        elif command == "hold":
            key(1)
            time.sleep(float(rest))
            key(0)
            reply("held")
        elif command == "press-on":
            seconds, path, pattern = rest.split("\t", 2)
            regex = re.compile(pattern)
            deadline = time.monotonic() + float(seconds)
            position, partial, found = 0, "", None
            while found is None and time.monotonic() < deadline:
                try:
                    with open(path, "rb") as log:
                        log.seek(position)
                        data = log.read()
                except FileNotFoundError:
                    data = b""
                position += len(data)
                lines = (partial + data.decode("utf-8", "replace")).split("\n")
                partial = lines.pop()
                found = next((text for text in lines if regex.search(text)), None)
                if found is None:
                    time.sleep(0.01)
            if found is None:
                reply("timeout")
            else:
                press()
                reply("pressed " + found)
        else:
            reply(f"unknown command {command!r}")


if __name__ == "__main__":
    main()
