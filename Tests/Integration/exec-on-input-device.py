#!/usr/bin/python3
"""exec-on-input-device.py NAME COMMAND ARGUMENT... : waits for the kernel to
add an input device named NAME, then replaces itself with COMMAND, its
event node (/dev/input/eventN) in place of every `{}` argument.

Listens to the kernel's own uevents (netlink), not udev's: the kernel
announces the device, its node already made by devtmpfs, before udev runs
its rules, and so before `gesturectl play` (which waits for udev, then for
its lead-in) can write the first frame. Started before the device exists,
an observer such as evemu-record opens the node with all that head start,
however slow the guest is at starting processes. Prints `listening` once
the socket is bound (lib.sh waits for it), then `opening NODE`.
"""
import os
import socket
import sys

NETLINK_KOBJECT_UEVENT = 15


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: exec-on-input-device.py NAME COMMAND ARGUMENT...")
    wanted, command = sys.argv[1], sys.argv[2:]
    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, NETLINK_KOBJECT_UEVENT)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 * 1024 * 1024)
    sock.bind((0, 1))  # group 1: the kernel's uevents
    print("listening", flush=True)
    parents = set()  # devpaths of input devices named `wanted`
    while True:
        message = sock.recv(64 * 1024)
        header, *fields = message.split(b"\0")
        properties = dict(f.decode("utf-8", "replace").split("=", 1) for f in fields if b"=" in f)
        if properties.get("ACTION") != "add" or properties.get("SUBSYSTEM") != "input":
            continue
        devpath = properties.get("DEVPATH", "")
        if properties.get("NAME", "").strip('"') == wanted:
            parents.add(devpath)
        devname = properties.get("DEVNAME", "")
        if devname.startswith("input/event") and devpath.rsplit("/", 1)[0] in parents:
            node = "/dev/" + devname
            print("opening", node, flush=True)
            sock.close()
            os.execvp(command[0], [node if a == "{}" else a for a in command])


main()
