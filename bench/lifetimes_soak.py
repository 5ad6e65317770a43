#!/usr/bin/python3
"""lifetimes_soak.py - minutes of every way a stream or a subscription can end, at
once, on one iiowired (ASan's by default): native STREAMs that read, stall or
vanish; SUBSCRIBEs under event storms; WebSocket tabs that stream and subscribe
and go; iiod OPEN/READBUF readers that half-close or CLOSE; a sysfs trigger
removed and added under its streams; trigger_now storms; board reloads (SIGHUP)
while 16 full streams push a connection past the output limit. Every few
seconds the daemon's RSS is sampled. It fails if the daemon dies, a sanitizer
reports, a fresh client is not served, or it does not exit 0 on SIGTERM.
Prints the operations of each kind and RSS over time (bench/RESULTS.md, Soak).
Usage: bench/lifetimes_soak.py [SECONDS [BUILD_DIR]]   (default 600 build/asan)"""
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

import websocket  # python3-websocket

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, "tests"))
from netutil import free_port, rss_kib  # noqa: E402
SECS = int(sys.argv[1]) if len(sys.argv) > 1 else 600
BUILD = sys.argv[2] if len(sys.argv) > 2 else os.path.join(TOP, "build", "asan")
BOARD = {"board": "soak", "buses": {"i2c-0": {"type": "i2c", "backend": "emulated"}},
         "triggers": [{"type": "hrtimer", "name": "hrt0", "sampling_frequency": 5000},
                      {"type": "sysfs", "number": 0}],
         "devices": [{"driver": "iio_dummy", "name": "dummy0"}, {"driver": "iio_evgen"},
                     {"driver": "max1363", "bus": "i2c-0", "address": "0x34"}]}

ops = {}
ops_lock = threading.Lock()
stop = threading.Event()
errors = []


def count(kind, n=1):
    with ops_lock:
        ops[kind] = ops.get(kind, 0) + n


PORT, IPORT, HPORT = free_port(), free_port(), free_port()


def tcp(port=None, timeout=10):
    s = socket.create_connection(("127.0.0.1", port or PORT), timeout=timeout)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8192)
    return s


def ask(line, port=None):
    """One request on a fresh connection; Return: the first reply line."""
    with tcp(port) as s:
        s.sendall(line.encode() + b"\n")
        data = b""
        while b"\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    return data.split(b"\n")[0].decode(errors="replace")


def soak_streams(rnd):
    """A STREAM that reads, stalls or vanishes; sometimes 16 at once."""
    s = tcp()
    n = 16 if rnd.random() < 0.2 else 1
    trig = rnd.choice(["hrt0", "sysfstrig0", "-"])
    dev = rnd.choice(["dummy0", "max1363"])
    s.sendall(("STREAM %s %s %d raw\n" % (dev, trig, rnd.choice([1, 64, 1024]))).encode() * n)
    if rnd.random() < 0.5:
        end = time.time() + rnd.random()
        while time.time() < end and s.recv(65536):
            pass
    else:
        time.sleep(rnd.random() * 2)   # stalled: its queues fill
    if rnd.random() < 0.3:
        s.sendall(b"UNSTREAM\n")
    s.close()
    count("stream connections")
    count("streams", n)


def soak_events(rnd):
    s = tcp()
    s.sendall(b"SUBSCRIBE dummy0\n")
    for _ in range(rnd.randint(1, 4)):
        ask("WRITE iio_evgen poke_ev0 0")
        count("events poked")
    if rnd.random() < 0.5:
        s.recv(65536)
    s.close()
    count("subscriptions")


def soak_web(rnd):
    w = websocket.create_connection("ws://127.0.0.1:%d/ws" % HPORT, timeout=10, sockopt=(
        (socket.SOL_SOCKET, socket.SO_RCVBUF, 4096),))
    w.send(json.dumps({"id": 1, "op": "stream", "device": "dummy0", "trigger": "hrt0",
                       "scans": 64, "format": rnd.choice(["raw", "csv", "json"])}))
    w.send(json.dumps({"id": 2, "op": "subscribe", "device": "dummy0"}))
    if rnd.random() < 0.5:
        for _ in range(rnd.randint(1, 20)):
            w.recv_data()
    else:
        time.sleep(rnd.random())
    if rnd.random() < 0.5:
        w.close()
    else:
        w.sock.close()   # gone without a close frame
    count("websockets")


def soak_iiod(rnd):
    s = tcp(IPORT)
    dev = "iio:device0"
    s.sendall(("OPEN %s 8 00000001\r\nREADBUF %s %d\r\n" %
               (dev, dev, rnd.choice([16, 64, 4096, 2 ** 40]))).encode())
    if rnd.random() < 0.4:
        s.shutdown(socket.SHUT_WR)
    elif rnd.random() < 0.5:
        s.sendall(("CLOSE %s\r\n" % dev).encode())
    time.sleep(rnd.random() * 0.5)
    s.close()
    count("iiod readers")


def soak_triggers(rnd):
    """The sysfs trigger under its streams: fired, removed, added back."""
    for _ in range(rnd.randint(1, 50)):
        ask("WRITE sysfstrig0 trigger_now 1")
    count("trigger_now", 1)
    if rnd.random() < 0.3:
        ask("WRITE iio_sysfs_trigger remove_trigger 0")
        time.sleep(rnd.random() * 0.2)
        ask("WRITE iio_sysfs_trigger add_trigger 0")
        count("trigger removals")


def worker(fn, seed):
    rnd = random.Random(seed)
    while not stop.is_set():
        try:
            fn(rnd)
        except (OSError, websocket.WebSocketException, ValueError):
            count("client errors (refused, reset, timed out)")


def reloader(d):
    while not stop.wait(10):
        d.send_signal(signal.SIGHUP)
        count("reloads")


def start_daemon(board):
    log = tempfile.NamedTemporaryFile("w+", suffix=".log", delete=False)
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=0")
    d = subprocess.Popen([os.path.join(BUILD, "server", "iiowired"), "--board", board,
                          "--listen", "127.0.0.1:%d" % PORT, "--iiod-listen",
                          "127.0.0.1:%d" % IPORT, "--http-listen", "127.0.0.1:%d" % HPORT,
                          "--no-announce", "--log-level", "error", "--io-timeout-ms", "500"],
                         stderr=log, env=env)
    for _ in range(300):
        try:
            ask("VERSION")
            return d, log
        except OSError:
            time.sleep(0.1)
    sys.exit("soak: iiowired did not start")


def main():
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(BOARD, f)
    d, log = start_daemon(f.name)
    kinds = [soak_streams] * 4 + [soak_events] * 2 + [soak_web] * 2 + [soak_iiod] * 2 + \
        [soak_triggers]
    threads = [threading.Thread(target=worker, args=(fn, i)) for i, fn in enumerate(kinds)]
    threads.append(threading.Thread(target=reloader, args=(d,)))
    for t in threads:
        t.start()
    t0, samples = time.time(), []
    while time.time() - t0 < SECS and d.poll() is None:
        time.sleep(min(30, SECS / 10))
        samples.append((int(time.time() - t0), rss_kib(d.pid) // 1024))
        print("soak: %4d s RSS %d MiB" % samples[-1], flush=True)
    stop.set()
    for t in threads:
        t.join()
    alive = d.poll() is None and ask("VERSION").startswith("OK iiowire")
    d.send_signal(signal.SIGTERM)
    status = d.wait(timeout=60)
    log.seek(0)
    report = [line for line in log.read().splitlines()
              if "Sanitizer" in line or "runtime error" in line]
    for k in sorted(ops):
        print("soak: %-45s %d" % (k, ops[k]))
    print("soak: RSS (s, MiB): %s" % " ".join("%d:%d" % s for s in samples))
    ok = alive and status == 0 and not report
    print("soak: %s (served at the end: %s, exit %s, sanitizer lines %d)" %
          ("ok" if ok else "FAILED", alive, status, len(report)))
    for line in report[:20]:
        print(line)
    os.unlink(f.name)
    sys.exit(0 if ok else 1)


main()
