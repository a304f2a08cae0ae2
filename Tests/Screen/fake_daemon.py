#!/usr/bin/env python3
"""A stand-in for the gesturectl daemon's socket in Tests/Screen/run, for
what the screen tier's host cannot do: record. The real daemon needs an
input device to record from, and the tier's host has none (no /dev/input,
no /dev/uinput); this speaks the daemon's protocol (docs/PROTOCOL.md) for
the requests the button's Create New Gesture makes, so that the canvas can
be driven through a whole recording on a real compositor:

  version, list (empty), subscribe, devices (one touchscreen),
  record-start (job 21), then each stroke of GESTURE pushed as a `record`
  event 0.4 s apart; record-stop with wait, answered when a `cancel` of
  job 21 comes (on any connection) with GESTURE as the recording; save
  (answered, the name logged); cancel.

Usage: fake_daemon.py SOCKET GESTURE.json LOG
Each request is logged to LOG as "op" and, for save, "save NAME".
"""
import json
import os
import socket
import sys
import threading
import time

path, gesture_path, log_path = sys.argv[1:4]
gesture = json.load(open(gesture_path))
device = gesture["device"]
JOB = 21
NODE = "/dev/input/event5"
NAME = "Screen Test Touchscreen"
lock = threading.Lock()
waiting = []  # (connection, id) of record-stop waits
log = open(log_path, "a", buffering=1)


def send(connection, value):
    with lock:
        try:
            connection.sendall((json.dumps(value) + "\n").encode())
        except OSError:
            pass


def ok(connection, request_id, result):
    send(connection, {"id": request_id, "ok": True, "result": result})


def push_strokes(connection):
    for stroke in gesture["strokes"]:
        time.sleep(0.4)
        send(connection, {"event": "record", "job": JOB, "stroke": stroke})


def serve(connection):
    buffer = b""
    subscribed = set()
    while True:
        chunk = connection.recv(65536)
        if not chunk:
            return
        buffer += chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            request = json.loads(line)
            op, request_id = request.get("op"), request.get("id")
            log.write(f"{op}\n" if op != "save" else f"save {request.get('name')}\n")
            if op == "version":
                ok(connection, request_id, {"protocol": 1, "version": "screen-test stand-in"})
            elif op == "list":
                ok(connection, request_id, {"folder": None, "gestures": []})
            elif op == "subscribe":
                subscribed.update(request.get("events", []))
                ok(connection, request_id, {"events": sorted(subscribed)})
            elif op == "devices":
                ok(connection, request_id, {"ready": [], "devices": [{
                    "node": NODE, "name": NAME, "kind": "touchscreen", "links": [], "vendor_product": None,
                    "slots": device["slots"], "x": device["x"], "y": device["y"], "width_mm": device["width_mm"],
                    "height_mm": device["height_mm"], "problem": None}]})
            elif op == "record-start":
                ok(connection, request_id, {"job": JOB, "device": NODE, "name": NAME, "state": "recording"})
                if "record" in subscribed:
                    threading.Thread(target=push_strokes, args=(connection,), daemon=True).start()
            elif op == "record-stop":
                waiting.append((connection, request_id))
            elif op == "cancel":
                ok(connection, request_id, {"job": request.get("job")})
                result = {"job": JOB, "device": NODE, "stop_reason": "stopped", "stopped": "cancelled",
                          "gesture": gesture, "warnings": []}
                while waiting:
                    waiter, waiter_id = waiting.pop()
                    ok(waiter, waiter_id, result)
            elif op == "save":
                ok(connection, request_id, {"name": request.get("name"), "hides_builtin": False})
            else:
                send(connection, {"id": request_id, "ok": False,
                                  "error": {"code": "bad-request", "message": f"the stand-in does not do {op}"}})


if os.path.exists(path):
    os.unlink(path)
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.bind(path)
os.chmod(path, 0o666)
server.listen(16)
while True:
    client, _ = server.accept()
    threading.Thread(target=serve, args=(client,), daemon=True).start()
