#!/usr/bin/env python3
"""A stand-in for the gesturectl daemon's side of one switch, for the screen
tier: the host has no input devices, so no real trigger can fire. It speaks
the daemon's protocol (docs/PROTOCOL.md) for what the button asks:
`version`, `list` (no gestures), `subscribe` and `press`/`cancel` (logged,
answered ok), and pushes a `screen-menu` event, exactly as the daemon
writes one for a binding {"screen-menu": {...}}, to every subscriber for
each line read on standard input: `PRESS INTERVAL_MS HOLD_MS` (PRESS:
single, long, emergency-stop). The daemon's side (a bound trigger's
presses becoming these events) is tested in GestureDaemonTests.

Usage: switch_daemon.py SOCKET LOG   (prints "ready" once it listens)
"""
import json
import os
import select
import socket
import sys


def main():
    path, log_path = sys.argv[1], sys.argv[2]
    log = open(log_path, "a", buffering=1)
    if os.path.exists(path):
        os.unlink(path)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    os.chmod(path, 0o666)
    server.listen(16)
    print("ready", flush=True)
    clients = {}  # socket -> bytes not yet a line
    subscribers = set()
    stdin = sys.stdin.buffer.raw
    while True:
        readable, _, _ = select.select([server, stdin] + list(clients), [], [])
        for source in readable:
            if source is server:
                connection, _ = server.accept()
                clients[connection] = b""
            elif source is stdin:
                line = stdin.readline()
                if not line:
                    return
                words = line.decode().split()
                if not words:
                    continue
                press, interval, hold = words[0], int(words[1]), int(words[2])
                event = {"event": "screen-menu", "trigger": {"device": "test-switch", "key": "KEY_F13"},
                         "press": press, "scan_interval_ms": interval, "first_item_hold_ms": hold}
                for subscriber in list(subscribers):
                    try:
                        subscriber.sendall((json.dumps(event) + "\n").encode())
                    except OSError:
                        subscribers.discard(subscriber)
                log.write(f"pushed {press} to {len(subscribers)}\n")
            else:
                data = source.recv(65536)
                if not data:
                    clients.pop(source, None)
                    subscribers.discard(source)
                    source.close()
                    continue
                clients[source] += data
                while b"\n" in clients[source]:
                    line, clients[source] = clients[source].split(b"\n", 1)
                    request = json.loads(line)
                    op, ident = request.get("op"), request.get("id")
                    log.write(f"request {op} {json.dumps(request.get('key', ''))}\n")
                    if op == "version":
                        result = {"version": "switch-test", "protocol": 1}
                    elif op == "list":
                        result = {"gestures": []}
                    elif op == "subscribe":
                        subscribers.add(source)
                        result = {"events": request.get("events", [])}
                    elif op in ("press", "cancel"):
                        result = {}
                    else:
                        reply = {"id": ident, "ok": False, "error": {"code": "unknown-op", "message": f"not in this test: {op}"}}
                        source.sendall((json.dumps(reply) + "\n").encode())
                        continue
                    source.sendall((json.dumps({"id": ident, "ok": True, "result": result}) + "\n").encode())


if __name__ == "__main__":
    main()
