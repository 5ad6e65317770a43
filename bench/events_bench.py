#!/usr/bin/env python3
"""events_bench.py - IIO event latency and fan-out of a live iiowired.

Starts iiowired on a board with iio_dummy, iio_evgen and a max1363 whose
alert line is its emulated model, then measures, on one host (the event
timestamps are the daemon's CLOCK_REALTIME, as the client's clock):

  * latency from the alert to the subscriber's read, p50/p99, for pokes of
    iio_evgen (the kernel's dummy event generator) at 10 and 10,000
    events/s, and for the max1363 model's alert (its line is sampled every
    IIO_IRQ_EMU_POLL_US, 1 ms), side by side with the floor of the same
    run: a READ round trip on the same daemon;
  * 1,000 subscribers to one device: latency over all of them and the
    daemon's CPU while it fans out;
  * a subscriber that never reads: the p99 of the others with and without it.

It judges nothing; the figures go to bench/RESULTS.md. Place: a client
outside the daemon, on loopback.

usage: events_bench.py BUILD_DIR [--seconds S]
"""
import argparse
import os
import resource
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

BOARD = """{"board": "evbench", "buses": {"i2c-0": {"type": "i2c", "backend": "emulated"}},
 "devices": [{"driver": "iio_dummy", "name": "dummy0"}, {"driver": "iio_evgen"},
  {"driver": "max1363", "bus": "i2c-0", "address": "0x34", "label": "mon", "irq": "emulated",
   "emulate": {"AIN0": 1500}}]}"""


def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(len(v) * p / 100))] if v else float("nan")


def connect(port):
    s = socket.create_connection(("127.0.0.1", port))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


def request(s, line):
    s.sendall((line + "\n").encode())
    buf = b""
    while not buf.endswith(b"\n"):
        buf += s.recv(4096)
    return buf.decode().strip()


def event_ts(line):
    """The timestamp of an IIOEVENT line (ns), or None."""
    if not line.startswith("IIOEVENT "):
        return None
    return int(line.split("time: ", 1)[1].split(",", 1)[0])


class Reader:
    """Reads IIOEVENT lines off some sockets, noting now - timestamp in µs."""

    def __init__(self, socks):
        self.sel = selectors.DefaultSelector()
        self.buf = {}
        for s in socks:
            s.setblocking(False)
            self.sel.register(s, selectors.EVENT_READ)
            self.buf[s] = b""
        self.lat = []
        self.lost = 0
        self.stop = False

    def run(self):
        while not self.stop:
            for key, _ in self.sel.select(0.1):
                s = key.fileobj
                try:
                    data = s.recv(1 << 16)
                except BlockingIOError:
                    continue
                now = time.time_ns()
                b = self.buf[s] + data
                *lines, self.buf[s] = b.split(b"\n")
                for ln in lines:
                    t = event_ts(ln.decode())
                    if t is not None:
                        self.lat.append((now - t) / 1000.0)
                    elif ln.startswith(b"IIOEVENTLOST"):
                        self.lost += int(ln.split()[2])


def poke(port, rate, seconds):
    """Pokes of iio_evgen at @rate per second for @seconds, sent each ms as they fall due."""
    s = connect(port)
    t0 = time.monotonic()
    sent = 0
    while time.monotonic() - t0 < seconds:
        # what is due by now, so a late wake-up catches up
        n = int(rate * (time.monotonic() - t0)) - sent
        if n > 0:
            s.sendall(b"WRITE iio_evgen poke_ev0 0\n" * n)
            sent += n
        time.sleep(0.001)
    s.close()
    return sent


def cpu_ticks(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def floor_rtt(port, n=2000):
    s = connect(port)
    lat = []
    for _ in range(n):
        t = time.perf_counter_ns()
        request(s, "READ dummy0 in_voltage0_raw")
        lat.append((time.perf_counter_ns() - t) / 1000.0)
    s.close()
    return lat


def subscribers(port, n, device="dummy0"):
    socks = []
    for _ in range(n):
        s = connect(port)
        assert request(s, f"SUBSCRIBE {device}") == "OK"
        socks.append(s)
    return socks


def run_rate(port, rate, seconds, nsubs=1, stalled=False):
    socks = subscribers(port, nsubs)
    stall = subscribers(port, 1)[0] if stalled else None
    if stall:
        stall.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    r = Reader(socks)
    th = threading.Thread(target=r.run)
    th.start()
    sent = poke(port, rate, seconds)
    time.sleep(0.5)
    r.stop = True
    th.join()
    for s in socks:
        s.close()
    if stall:
        stall.close()
    return r, sent


def run_max1363(port, seconds):
    s = subscribers(port, 1, "mon")[0]
    c = connect(port)
    assert request(c, "WRITE mon events/in_voltage0_thresh_rising_value 2000") == "OK"
    r = Reader([s])
    th = threading.Thread(target=r.run)
    th.start()
    c.sendall(b"WRITE mon events/in_voltage0_thresh_rising_en 1\n")
    time.sleep(seconds)
    c.sendall(b"WRITE mon events/in_voltage0_thresh_rising_en 0\n")
    time.sleep(0.3)
    r.stop = True
    th.join()
    s.close()
    c.close()
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--seconds", type=float, default=3.0)
    a = ap.parse_args()
    # 1000 subscribers and the daemon's own descriptors
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(max(soft, 4096), hard), hard))
    tmp = tempfile.mkdtemp(prefix="iiowire-evbench-")
    board = os.path.join(tmp, "board.json")
    with open(board, "w") as f:
        f.write(BOARD)
    port = 31999
    d = subprocess.Popen([os.path.join(a.build, "server/iiowired"), "-b", board,
                          "-l", f"127.0.0.1:{port}", "--no-announce", "--log-level", "error"])
    time.sleep(0.5)
    try:
        fl = floor_rtt(port)
        print(f"floor: READ round trip p50 {pct(fl, 50):.1f} µs, p99 {pct(fl, 99):.1f} µs")
        print("| case | events | lost | latency p50 µs | p99 µs | floor p50/p99 µs |")
        print("|---|---|---|---|---|---|")
        for rate in (10, 10000):
            r, sent = run_rate(port, rate, a.seconds)
            print(f"| iio_evgen, {rate}/s, 1 subscriber | {len(r.lat)} of {sent} | {r.lost} |"
                  f" {pct(r.lat, 50):.1f} | {pct(r.lat, 99):.1f} | {pct(fl, 50):.1f}/{pct(fl, 99):.1f} |")
        r = run_max1363(port, a.seconds)
        print(f"| max1363 model alert (storm, 1 ms line sampling) | {len(r.lat)} | {r.lost} |"
              f" {pct(r.lat, 50):.1f} | {pct(r.lat, 99):.1f} | {pct(fl, 50):.1f}/{pct(fl, 99):.1f} |")
        for stalled in (False, True):
            r, sent = run_rate(port, 100, a.seconds, nsubs=20, stalled=stalled)
            what = "20 subscribers + 1 that never reads" if stalled else "20 subscribers"
            print(f"| iio_evgen, 100/s, {what} | {len(r.lat)} of {sent * 20} | {r.lost} |"
                  f" {pct(r.lat, 50):.1f} | {pct(r.lat, 99):.1f} | {pct(fl, 50):.1f}/{pct(fl, 99):.1f} |")
        t0, c0 = time.monotonic(), cpu_ticks(d.pid)
        r, sent = run_rate(port, 20, a.seconds, nsubs=1000)
        cpu = (cpu_ticks(d.pid) - c0) / os.sysconf("SC_CLK_TCK") / (time.monotonic() - t0)
        print(f"| iio_evgen, 20/s, 1000 subscribers | {len(r.lat)} of {sent * 1000} | {r.lost} |"
              f" {pct(r.lat, 50):.1f} | {pct(r.lat, 99):.1f} | {pct(fl, 50):.1f}/{pct(fl, 99):.1f} |")
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        print(f"daemon CPU with 1000 subscribers at 20 events/s (20,000 lines/s): {cpu * 100:.1f} %")
    finally:
        d.terminate()
        d.wait()


if __name__ == "__main__":
    sys.exit(main())
