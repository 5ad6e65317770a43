#!/usr/bin/python3
"""web_bench.py - iiowired's WebSocket (--http-listen) against its TCP
listener in one run, on one daemon: JSON READ round trips (one at a time,
and 32 in flight), big replies in bulk (pipelined CHANNELS listings), and a
WATCH flood (8 clients x 32 watches every 10 ms), and a raw STREAM
(iio_dummy's 16-byte scans on an hrtimer trigger at 1 MHz, 1024 scans a
block, read as a browser does: header message, then the binary payload
message), each alternated RUNS
times, medians printed as a markdown table (bench/RESULTS.md). TCP is the
floor: the same requests, replies and daemon, without the WebSocket's
framing. Both clients are Python (raw sockets; python3-websocket), so
besides the client-side rate each load reports the daemon's own CPU time
per request or per MB (from /proc), which does not depend on the client.
Usage: bench/web_bench.py [BUILD_DIR] [RUNS] (default build/release, 5)."""
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import websocket

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(top, "tests"))
from webtest import free_port  # noqa: E402
build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "build", "release")
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
SECS = float(os.environ.get("SECS", "3"))
READ = {"op": "read", "device": "max1363", "attr": "in_voltage0_raw"}
BOARD = {"board": "bench", "buses": {"i2c-0": {"type": "i2c", "backend": "emulated"}},
         "triggers": [{"type": "hrtimer", "name": "hrt0", "sampling_frequency": 1000000}],
         "devices": [{"driver": "iio_dummy", "name": "dummy0"},
                     {"driver": "max1363", "bus": "i2c-0", "address": "0x34",
                      "emulate": {"AIN0": 1000}}]}
HZ = os.sysconf("SC_CLK_TCK")


def cpu_s(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / HZ


class Tcp:
    """A JSON-lines client on a raw socket."""

    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port))
        self.s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""

    def send(self, obj):
        self.s.sendall(json.dumps(obj).encode() + b"\n")

    def send_many(self, obj, n):
        self.s.sendall((json.dumps(obj).encode() + b"\n") * n)

    def recv(self):
        while b"\n" not in self.buf:
            self.buf += self.s.recv(1 << 20)
        line, self.buf = self.buf.split(b"\n", 1)
        return line

    def take(self, n):
        while len(self.buf) < n:
            self.buf += self.s.recv(1 << 20)
        data, self.buf = self.buf[:n], self.buf[n:]
        return data

    def block(self):
        """The next block; Return: (payload bytes, scans lost)."""
        h = json.loads(self.recv())["block"]
        return len(self.take(h["bytes"])), h["lost"]

    def close(self):
        self.s.close()


class Ws:
    """The same over the WebSocket: one message per request and per reply."""

    def __init__(self, port):
        self.w = websocket.create_connection("ws://127.0.0.1:%d/ws" % port)
        self.w.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def send(self, obj):
        self.w.send(json.dumps(obj))

    def send_many(self, obj, n):
        m = json.dumps(obj)
        for _ in range(n):
            self.w.send(m)

    def recv(self):
        return self.w.recv()

    def block(self):
        h = json.loads(self.w.recv())["block"]
        op, pay = self.w.recv_data()
        assert op == websocket.ABNF.OPCODE_BINARY and len(pay) == h["bytes"]
        return len(pay), h["lost"]

    def close(self):
        self.w.close()


def round_trips(cls, port, pid, depth):
    """READ with @depth in flight for SECS; Return: (req/s, p50 us, p99 us, daemon us/req)."""
    c = cls(port)
    lat = []
    n = 0
    c.send_many(READ, depth)
    sent = [time.perf_counter()] * depth
    c0, t0 = cpu_s(pid), time.perf_counter()
    while time.perf_counter() - t0 < SECS:
        c.recv()
        now = time.perf_counter()
        lat.append(now - sent.pop(0))
        n += 1
        sent.append(time.perf_counter())
        c.send(READ)
    el = time.perf_counter() - t0
    cpu = cpu_s(pid) - c0
    for _ in range(depth):
        c.recv()
    c.close()
    lat.sort()
    return (n / el, lat[len(lat) // 2] * 1e6, lat[int(len(lat) * 0.99)] * 1e6, cpu / n * 1e6)


def bulk(cls, port, pid):
    """Pipelined CHANNELS dummy0 (a ~1.6 KB reply), 32 in flight; Return: (MB/s, daemon ms/MB)."""
    c = cls(port)
    req = {"op": "channels", "device": "dummy0"}
    c.send_many(req, 32)
    got = 0
    c0, t0 = cpu_s(pid), time.perf_counter()
    while time.perf_counter() - t0 < SECS:
        got += len(c.recv())
        c.send(req)
    el = time.perf_counter() - t0
    cpu = cpu_s(pid) - c0
    for _ in range(32):
        c.recv()
    c.close()
    mb = got / 1e6
    return (mb / el, cpu / mb * 1e3)


def flood(cls, port, pid):
    """8 clients x 32 WATCHes every 10 ms; Return: (events/s, MB/s, daemon CPU %)."""
    attrs = ["in_voltage0_raw", "in_voltage0_scale", "in_voltage0_offset", "in_accel_x_raw",
             "in_steps_input", "in_voltage1-voltage2_raw", "in_voltage3-voltage4_raw",
             "out_voltage0_raw"]
    cs = [cls(port) for _ in range(8)]
    for c in cs:
        k = 0
        for dev in ("dummy0", "iio:device0", "max1363", "iio:device1"):
            for a in attrs:
                if dev.startswith("max") or dev == "iio:device1":
                    a = "in_voltage%d_raw" % (k % 4)
                c.send({"op": "watch", "device": dev, "attr": a, "interval_ms": 10})
                k += 1
    for c in cs:
        for _ in range(32):
            c.recv()
    socks = {}
    for c in cs:
        sk = c.s if isinstance(c, Tcp) else c.w.sock
        sk.setblocking(True)
        socks[sk.fileno()] = c
    import selectors
    sel = selectors.DefaultSelector()
    for c in cs:
        sel.register(c.s if isinstance(c, Tcp) else c.w.sock, selectors.EVENT_READ, c)
    events = got = 0
    c0, t0 = cpu_s(pid), time.perf_counter()
    while time.perf_counter() - t0 < SECS:
        for key, _ in sel.select(0.1):
            c = key.data
            m = c.recv()
            events += 1
            got += len(m)
            if isinstance(c, Tcp):
                while b"\n" in c.buf:
                    got += len(c.recv())
                    events += 1
    el = time.perf_counter() - t0
    cpu = cpu_s(pid) - c0
    for c in cs:
        c.close()
    return (events / el, got / 1e6 / el, cpu / el * 100)


def stream(cls, port, pid):
    """A raw STREAM of dummy0 for SECS; Return: (MB/s, % of scans lost, daemon CPU ms/MB)."""
    c = cls(port)
    c.send({"op": "stream", "device": "dummy0", "trigger": "hrt0", "scans": 1024,
            "format": "raw"})
    scan = json.loads(c.recv())["stream"]["scan_bytes"]
    got = lost = 0
    c0, t0 = cpu_s(pid), time.perf_counter()
    while time.perf_counter() - t0 < SECS:
        n, k = c.block()
        got += n
        lost += k
    el = time.perf_counter() - t0
    cpu = cpu_s(pid) - c0
    c.close()
    time.sleep(0.2)     # the capture stops with its reader
    mb = got / 1e6
    return (mb / el, 100 * lost / (lost + got / scan), cpu / mb * 1e3)


def median(rows, i):
    return statistics.median(r[i] for r in rows)


def main():
    port, hport = free_port(), free_port()
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(BOARD, f)
    d = subprocess.Popen([os.path.join(build, "server", "iiowired"), "--board", f.name,
                          "--listen", "127.0.0.1:%d" % port, "--http-listen",
                          "127.0.0.1:%d" % hport, "--log-level", "warn", "--no-announce"])
    time.sleep(0.5)
    try:
        res = {}
        for _ in range(runs):
            for name, cls, p in (("TCP", Tcp, port), ("WebSocket", Ws, hport)):
                res.setdefault(("rt1", name), []).append(round_trips(cls, p, d.pid, 1))
                res.setdefault(("rt32", name), []).append(round_trips(cls, p, d.pid, 32))
                res.setdefault(("bulk", name), []).append(bulk(cls, p, d.pid))
                res.setdefault(("flood", name), []).append(flood(cls, p, d.pid))
                res.setdefault(("stream", name), []).append(stream(cls, p, d.pid))
        print("| load | TCP (floor) | WebSocket | WS / TCP |")
        print("|---|---|---|---|")
        for load, label in (("rt1", "READ, 1 in flight"), ("rt32", "READ, 32 in flight")):
            t, w = res[(load, "TCP")], res[(load, "WebSocket")]
            print("| %s: req/s | %s | %s | %.2f |" % (label, "{:,.0f}".format(median(t, 0)),
                  "{:,.0f}".format(median(w, 0)), median(w, 0) / median(t, 0)))
            print("| %s: p50 / p99 µs | %.0f / %.0f | %.0f / %.0f | |" %
                  (label, median(t, 1), median(t, 2), median(w, 1), median(w, 2)))
            print("| %s: daemon CPU µs/req | %.1f | %.1f | %.2f |" %
                  (label, median(t, 3), median(w, 3), median(w, 3) / median(t, 3)))
        t, w = res[("bulk", "TCP")], res[("bulk", "WebSocket")]
        print("| CHANNELS replies, 32 in flight: MB/s | %.1f | %.1f | %.2f |" %
              (median(t, 0), median(w, 0), median(w, 0) / median(t, 0)))
        print("| CHANNELS replies: daemon CPU ms/MB | %.1f | %.1f | %.2f |" %
              (median(t, 1), median(w, 1), median(w, 1) / median(t, 1)))
        t, w = res[("flood", "TCP")], res[("flood", "WebSocket")]
        print("| WATCH flood (8 x 32 x 10 ms): events/s | %s | %s | %.2f |" %
              ("{:,.0f}".format(median(t, 0)), "{:,.0f}".format(median(w, 0)),
               median(w, 0) / median(t, 0)))
        print("| WATCH flood: MB/s | %.2f | %.2f | %.2f |" %
              (median(t, 1), median(w, 1), median(w, 1) / median(t, 1)))
        print("| WATCH flood: daemon CPU %% | %.0f | %.0f | %.2f |" %
              (median(t, 2), median(w, 2), median(w, 2) / max(median(t, 2), 0.01)))
        t, w = res[("stream", "TCP")], res[("stream", "WebSocket")]
        print("| raw STREAM (16-byte scans, 1 MHz trigger, 1024-scan blocks): MB/s | %.1f | "
              "%.1f | %.2f |" % (median(t, 0), median(w, 0), median(w, 0) / median(t, 0)))
        print("| raw STREAM: scans lost %% | %.1f | %.1f | |" % (median(t, 1), median(w, 1)))
        print("| raw STREAM: daemon CPU ms/MB | %.1f | %.1f | %.2f |" %
              (median(t, 2), median(w, 2), median(w, 2) / median(t, 2)))
        print("load average: %s" % open("/proc/loadavg").read().split()[0])
    finally:
        d.terminate()
        d.wait()
        os.unlink(f.name)


main()
