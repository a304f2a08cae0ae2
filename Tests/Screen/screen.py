#!/usr/bin/env python3
"""Helpers for Tests/Screen/run, standard library only.

  screen.py diff BEFORE.png AFTER.png
      prints the bounding box of the pixels that differ: "x0 y0 x1 y1 count"
      (x1, y1 exclusive), or "none".
  screen.py pointer SOCKET ACTION...
      drives the compositor's pointer as a mouse would, through the
      zwlr_virtual_pointer_v1 protocol (wlroots): ACTIONs are
      "move X Y" (absolute, in output pixels), "down", "up", "sleep SECONDS",
      "drag X0 Y0 X1 Y1 STEPS", and "key NAME" (Tab, Return, Escape, Up,
      Down, Left, Right: pressed and released on a keyboard of the same
      seat, made at the first key through zwp_virtual_keyboard_v1 with a
      US keymap; "keyboard" makes it without pressing anything).
  screen.py atspi
      (on the session bus of the button) prints every accessible of the
      application gesturectl-button as "role|name|width|height|x|y|states",
      one a line (x and y in its window's coordinates; states such as
      "focused,sensitive").
  screen.py pixel PNG X Y
      prints the pixel's RGB.
  screen.py contrast BASE.png PNG X0 Y0 X1 Y1
      prints the mean absolute difference of the box's channels between
      the two pictures (how much of PNG's overlay shows over BASE).
"""
import os
import socket
import struct
import sys
import time
import zlib


# --- PNG, enough for grim's output (8-bit RGB or RGBA, not interlaced) -------
def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    position, idat, header = 8, [], None
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        position += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise SystemExit(f"{path}: depth {depth}, colour type {colour}, interlace {interlace} not supported")
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind = raw[start]
        line = bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
                line[i] = (line[i] + predictor) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


def pixel(image, x, y):
    _, _, channels, rows = image
    return tuple(rows[y][x * channels:x * channels + 3])


def diff(before_path, after_path, region=None):
    """The box around the pixels that differ (within region: x0 y0 x1 y1, if given)."""
    before, after = read_png(before_path), read_png(after_path)
    width, height, channels, rows_a = before
    _, _, channels_b, rows_b = after
    left, top, right, bottom = region or (0, 0, width, height)
    left, top, right, bottom = max(0, left), max(0, top), min(width, right), min(height, bottom)
    x0, y0, x1, y1, count = width, height, -1, -1, 0
    for y in range(top, bottom):
        a, b = rows_a[y], rows_b[y]
        if a == b and channels == channels_b:
            continue
        for x in range(left, right):
            if a[x * channels:x * channels + 3] != b[x * channels_b:x * channels_b + 3]:
                count += 1
                x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
    return None if count == 0 else (x0, y0, x1 + 1, y1 + 1, count)


# --- A Wayland client in a few messages: a virtual pointer -------------------
class Wayland:
    def __init__(self, path):
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.connect(path)
        self.next_id = 2
        self.buffer = b""
        self.globals = {}

    def new_id(self):
        self.next_id += 1
        return self.next_id - 1

    def send(self, object_id, opcode, payload=b"", fds=()):
        message = struct.pack("<II", object_id, ((8 + len(payload)) << 16) | opcode) + payload
        if fds:
            socket.send_fds(self.socket, [message], list(fds))
        else:
            self.socket.sendall(message)

    @staticmethod
    def string(text):
        raw = text.encode() + b"\0"
        return struct.pack("<I", len(raw)) + raw + b"\0" * (-len(raw) % 4)

    def roundtrip(self, registry=None):
        callback = self.new_id()
        self.send(1, 0, struct.pack("<I", callback))  # wl_display.sync
        while True:
            while len(self.buffer) < 8:
                chunk = self.socket.recv(65536)
                if not chunk:
                    raise SystemExit("the compositor closed the connection")
                self.buffer += chunk
            object_id, word = struct.unpack("<II", self.buffer[:8])
            size, opcode = word >> 16, word & 0xFFFF
            while len(self.buffer) < size:
                self.buffer += self.socket.recv(65536)
            body, self.buffer = self.buffer[8:size], self.buffer[size:]
            if object_id == 1 and opcode == 0:  # wl_display.error
                _, code, length = struct.unpack("<III", body[:12])
                raise SystemExit(f"Wayland error {code}: {body[12:12 + length - 1].decode()}")
            if object_id == registry and opcode == 0:  # wl_registry.global
                name, length = struct.unpack("<II", body[:8])
                interface = body[8:8 + length - 1].decode()
                version = struct.unpack("<I", body[8 + length + (-length % 4):][:4])[0]
                self.globals[interface] = (name, version)
            if object_id == callback and opcode == 0:  # wl_callback.done
                return

    def bind(self, registry, interface, version):
        if interface not in self.globals:
            raise SystemExit(f"the compositor has no {interface}")
        name, offered = self.globals[interface]
        object_id = self.new_id()
        self.send(registry, 0, struct.pack("<I", name) + self.string(interface) + struct.pack("<II", min(version, offered), object_id))
        return object_id


def pointer(path, actions):
    wayland = Wayland(path)
    registry = wayland.new_id()
    wayland.send(1, 1, struct.pack("<I", registry))  # wl_display.get_registry
    wayland.roundtrip(registry)
    seat = wayland.bind(registry, "wl_seat", 1)
    manager = wayland.bind(registry, "zwlr_virtual_pointer_manager_v1", 1)
    device = wayland.new_id()
    wayland.send(manager, 0, struct.pack("<II", seat, device))  # create_virtual_pointer
    wayland.roundtrip()
    width, height = int(os.environ.get("SCREEN_WIDTH", "1280")), int(os.environ.get("SCREEN_HEIGHT", "720"))
    start = time.monotonic()

    def now():
        return int((time.monotonic() - start) * 1000) & 0xFFFFFFFF

    def move(x, y):
        wayland.send(device, 1, struct.pack("<IIIII", now(), int(x), int(y), width, height))  # motion_absolute
        wayland.send(device, 4)  # frame
        wayland.roundtrip()

    def button(pressed):
        wayland.send(device, 2, struct.pack("<III", now(), 0x110, 1 if pressed else 0))  # BTN_LEFT
        wayland.send(device, 4)
        wayland.roundtrip()

    keyboard = []

    def key(name):
        if not keyboard:
            manager = wayland.bind(registry, "zwp_virtual_keyboard_manager_v1", 1)
            keyboard.append(wayland.new_id())
            wayland.send(manager, 0, struct.pack("<II", seat, keyboard[0]))  # create_virtual_keyboard
            text = (b'xkb_keymap { xkb_keycodes { include "evdev+aliases(qwerty)" }; xkb_types { include "complete" }; '
                    b'xkb_compat { include "complete" }; xkb_symbols { include "pc+us+inet(evdev)" }; };\0')
            memory = os.memfd_create("keymap")
            os.write(memory, text)
            os.lseek(memory, 0, os.SEEK_SET)
            wayland.send(keyboard[0], 0, struct.pack("<II", 1, len(text)), fds=[memory])  # keymap, XKB_V1
            os.close(memory)
            wayland.roundtrip()
            time.sleep(0.2)
        if name is None:
            return
        code = KEYS[name]
        for state in (1, 0):
            wayland.send(keyboard[0], 1, struct.pack("<III", now(), code, state))  # key
            wayland.roundtrip()
            time.sleep(0.03)

    if actions == ["-"]:
        # One pointer for a whole session: a line of actions at a time from
        # standard input, "ok" after each. (A pointer made and destroyed per
        # step changes the seat's capabilities, and sway then dismisses
        # open menus, as when a mouse is unplugged.)
        for line in sys.stdin:
            perform(line.split(), move, button, key)
            print("ok", flush=True)
    else:
        perform(list(actions), move, button, key)
    time.sleep(0.05)
    wayland.send(device, 8)  # destroy
    wayland.roundtrip()


# evdev key codes (the protocol's keys are evdev's, without X's offset of 8).
KEYS = {"Escape": 1, "Tab": 15, "Return": 28, "Up": 103, "Left": 105, "Right": 106, "Down": 108}


def perform(words, move, button, key):
    while words:
        word = words.pop(0)
        if word == "move":
            move(float(words.pop(0)), float(words.pop(0)))
        elif word == "down":
            button(True)
        elif word == "up":
            button(False)
        elif word == "key":
            key(words.pop(0))
        elif word == "keyboard":
            key(None)
        elif word == "sleep":
            time.sleep(float(words.pop(0)))
        elif word == "stamp":
            # CLOCK_MONOTONIC in µs, on standard error (benchmarks/button).
            print(f"stamp {time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000}", file=sys.stderr, flush=True)
        elif word == "drag":
            x0, y0, x1, y1, steps = (float(words.pop(0)) for _ in range(5))
            move(x0, y0)
            time.sleep(0.05)
            button(True)
            for step in range(1, int(steps) + 1):
                time.sleep(0.02)
                move(x0 + (x1 - x0) * step / steps, y0 + (y1 - y0) * step / steps)
            time.sleep(0.05)
            button(False)
        else:
            raise SystemExit(f"unknown pointer action {word!r}")


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "diff":
        box = diff(sys.argv[2], sys.argv[3], tuple(map(int, sys.argv[4:8])) if len(sys.argv) >= 8 else None)
        print("none" if box is None else " ".join(map(str, box)))
    elif command == "pointer":
        pointer(sys.argv[2], sys.argv[3:])
    elif command == "atspi":
        import pyatspi

        def walk(node, depth=0):
            if node is None or depth > 12:
                return
            try:
                extents = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
                size = (extents.width, extents.height, extents.x, extents.y)
            except Exception:
                size = (-1, -1, -1, -1)
            try:
                states = ",".join(sorted(pyatspi.stateToString(s) for s in node.getState().getStates()))
            except Exception:
                states = ""
            print(f"{node.getRoleName()}|{node.name}|{size[0]}|{size[1]}|{size[2]}|{size[3]}|{states}")
            for index in range(node.childCount):
                walk(node.getChildAtIndex(index), depth + 1)

        desktop = pyatspi.Registry.getDesktop(0)
        for index in range(desktop.childCount):
            application = desktop.getChildAtIndex(index)
            if application is not None and application.name == "gesturectl-button":
                walk(application)
    elif command == "contrast":
        base, image = read_png(sys.argv[2]), read_png(sys.argv[3])
        x0, y0, x1, y1 = map(int, sys.argv[4:8])
        total = 0
        for y in range(y0, y1):
            for x in range(x0, x1):
                total += sum(abs(a - b) for a, b in zip(pixel(base, x, y), pixel(image, x, y)))
        print(round(total / max(1, (x1 - x0) * (y1 - y0) * 3), 2))
    elif command == "pixel":
        print(*pixel(read_png(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])))
    else:
        raise SystemExit(f"unknown command {command}")
