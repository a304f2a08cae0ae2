#!/usr/bin/python3
"""Start stamp for the timing benchmark: when a tool was told to start, and
when its first frame reached the device, both on CLOCK_MONOTONIC.

evemu-record (the benchmark's observer for every frame) writes times relative
to the first event it saw, so it cannot say how late the first frame was.
This probe can: it opens the device node, switches its clock to
CLOCK_MONOTONIC (EVIOCSCLOCKID), and then, depending on --mode:

  none   only watches (gesturectl: its start is "udev added the device" plus
         --lead-in, which the guest script takes from `udevadm monitor`)
  exec   stamps the time and starts COMMAND ("{node}" replaced by the node),
         with standard input from --stdin (evemu-play NODE < FILE)
  write  stamps the time and writes a newline to --fifo (libinput replay's
         "Hit enter to start replaying")

It then reads until --frames SYN_REPORTs arrived (or --timeout seconds
passed, or the device went away), writes a JSON object to --result and, in
exec mode, waits for COMMAND and exits with its status. With --first-only it
stops reading after the first frame (the guest then waits for the player
itself): a Python reader parsing ten fingers at 1 kHz under emulation takes
CPU from the player and the observer. So the guest script
waits for the probe with bash's `wait` and starts no process while a tool
plays (under emulation every process start disturbs the timing).

The node arrives as one line on --node-from (a fifo), so that Python has
started before the device exists: under emulation its start-up takes longer
than a second of lead-in. "ready" goes to --ready-to (a fifo) once the node
is open, before anything is started.

Standard library only (Debian's /usr/bin/python3).
"""

import argparse
import fcntl
import json
import os
import select
import struct
import subprocess
import sys
import time

# struct input_event on 64-bit Linux: timeval (two longs), type, code, value.
EVENT_FORMAT = "llHHi"
EVENT_SIZE = struct.calcsize(EVENT_FORMAT)
# _IOW('E', 0xa0, int): set the clock of this reader's timestamps.
EVIOCSCLOCKID = 0x400445A0
EV_SYN = 0
SYN_REPORT = 0


def monotonic_microseconds():
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000


def read_frames(descriptor, count, timeout_seconds, first_only=False):
    """Reads until `count` SYN_REPORTs, the timeout or the device's removal.
    Returns (the first frame's kernel time in microseconds or None, its events
    as [type, code, value] lists, how many frames arrived)."""
    first_time, first_events, events, frames = None, [], [], 0
    pending = b""
    deadline = time.monotonic() + timeout_seconds
    while frames < count:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not select.select([descriptor], [], [], remaining)[0]:
            break
        try:
            chunk = os.read(descriptor, EVENT_SIZE * 64)
        except OSError:  # ENODEV: the tool removed the device
            break
        if not chunk:
            break
        pending += chunk
        while len(pending) >= EVENT_SIZE:
            seconds, microseconds, event_type, code, value = struct.unpack_from(EVENT_FORMAT, pending)
            pending = pending[EVENT_SIZE:]
            if event_type == EV_SYN and code == SYN_REPORT:
                if first_time is None:
                    first_time, first_events = seconds * 1_000_000 + microseconds, events
                frames += 1
                if first_only:
                    return first_time, first_events, frames
                events = []
            else:
                events.append([event_type, code, value])
    return first_time, first_events, frames


def wait_for_text(path, text, count, timeout_seconds):
    """Waits until the file at `path` contains `text` `count` times (a prompt
    without a line end, which `grep` on a followed file would never see)."""
    deadline = time.monotonic() + timeout_seconds
    while time.monotonic() < deadline:
        with open(path, encoding="utf-8", errors="replace") as file:
            if file.read().count(text) >= count:
                return True
        time.sleep(0.005)
    return False


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--node-from", required=True, help="fifo that delivers the device node")
    parser.add_argument("--result", required=True, help="where to write the JSON result")
    parser.add_argument("--mode", choices=["none", "exec", "write"], default="none")
    parser.add_argument("--stdin", help="exec mode: COMMAND's standard input")
    parser.add_argument("--fifo", help="write mode: where to write the newline")
    parser.add_argument("--after-text", nargs=2, metavar=("FILE", "TEXT"),
                        help="write mode: first wait until FILE contains TEXT (the prompt)")
    parser.add_argument("--after-count", type=int, default=1, help="how many times TEXT must be there")
    parser.add_argument("--ready-to", required=True, help="fifo to write 'ready' to once the node is open")
    parser.add_argument("--frames", type=int, default=1, help="how many frames to wait for")
    parser.add_argument("--timeout", type=float, default=30, help="seconds to wait for them")
    parser.add_argument("--first-only", action="store_true", help="stop reading after the first frame")
    parser.add_argument("command", nargs="*", help="exec mode: the command ({node} is the node)")
    arguments = parser.parse_args()

    with open(arguments.node_from, encoding="utf-8") as fifo:
        node = fifo.readline().strip()
    descriptor = os.open(node, os.O_RDONLY)
    fcntl.ioctl(descriptor, EVIOCSCLOCKID, struct.pack("i", time.CLOCK_MONOTONIC))
    with open(arguments.ready_to, "w", encoding="utf-8") as ready:
        ready.write("ready\n")

    result = {"node": node, "mode": arguments.mode}
    child = None
    if arguments.mode == "exec":
        command = [part.replace("{node}", node) for part in arguments.command]
        standard_input = open(arguments.stdin, "rb") if arguments.stdin else subprocess.DEVNULL
        result["told_to_start_us"] = monotonic_microseconds()
        child = subprocess.Popen(command, stdin=standard_input)
    elif arguments.mode == "write":
        if arguments.after_text and not wait_for_text(
                *arguments.after_text, arguments.after_count, arguments.timeout):
            sys.exit(f"timing-probe: no '{arguments.after_text[1]}' in {arguments.after_text[0]}")
        with open(arguments.fifo, "w", encoding="utf-8") as trigger:
            result["told_to_start_us"] = monotonic_microseconds()
            trigger.write("\n")

    result["first_frame_us"], result["first_frame_events"], result["frames"] = read_frames(
        descriptor, arguments.frames, arguments.timeout, arguments.first_only)
    os.close(descriptor)
    with open(arguments.result, "w", encoding="utf-8") as output:
        json.dump(result, output)
        output.write("\n")
    print("first frame at", result["first_frame_us"], "µs;", result["frames"], "frames", flush=True)
    if child is not None:
        sys.exit(child.wait())


if __name__ == "__main__":
    main()
