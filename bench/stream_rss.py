#!/usr/bin/python3
"""stream_rss.py - does the daemon's memory come back after streams end?
Four rounds of 80 connections x 16 raw STREAMs of a 20 kHz trigger (256 get a
reader: SRV_STREAM_READERS_MAX), none read, so every reader's queue fills;
then all close. Prints the daemon's RSS before, at each round's peak and 2 s
after its close, and fails if the last is more than 20 % over the first
(malloc_trim at the sweep, server/queues.h). Release builds only: ASan and
valgrind replace the allocator.
Usage: bench/stream_rss.py [BUILD_DIR [iiowired options...]]"""
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests"))
from netutil import free_port, rss_kib  # noqa: E402

ROUNDS, CONNS, STREAMS = 4, 80, 16
BOARD = {"board": "rss", "devices": [{"driver": "iio_dummy", "name": "dummy0"}],
         "triggers": [{"type": "hrtimer", "name": "fast", "sampling_frequency": 20000}]}


def rss_mib(pid):
    return rss_kib(pid) / 1024.0


def stat(port, name):
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"STATS\n")
        data = b""
        while not data.endswith(b"\n") or data.count(b"\n") < int(data.split()[1]) + 1:
            data += s.recv(65536)
    for line in data.decode().splitlines():
        if line.startswith(name + " "):
            return int(line.split()[1])
    return -1


def wait_port(port, proc):
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if proc.poll() is not None:
                sys.exit("iiowired exited with %d" % proc.returncode)
            time.sleep(0.1)
    sys.exit("iiowired did not listen")


def one_round(port):
    conns = []
    for _ in range(CONNS):
        s = socket.create_connection(("127.0.0.1", port))
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.sendall(b"STREAM dummy0 fast 1024 raw\n" * STREAMS)
        conns.append(s)
    time.sleep(6)
    return conns


def main():
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "build", "release")
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(BOARD, f)
    port = free_port()
    d = subprocess.Popen([os.path.join(build, "server", "iiowired"), "--board", f.name,
                          "--listen", "127.0.0.1:%d" % port, "--no-announce",
                          "--log-level", "error"] + sys.argv[2:])
    try:
        wait_port(port, d)
        first = rss_mib(d.pid)
        print("stream_rss: RSS before %.1f MiB" % first)
        for r in range(ROUNDS):
            conns = one_round(port)
            peak, held = rss_mib(d.pid), stat(port, "queued_bytes")
            for s in conns:
                s.close()
            time.sleep(2)
            last = rss_mib(d.pid)
            print("stream_rss: round %d: peak %.1f MiB (%d MiB queued), after close %.1f MiB"
                  % (r + 1, peak, held >> 20, last))
    finally:
        d.terminate()
        d.wait()
        os.unlink(f.name)
    ok = last <= first * 1.2
    print("stream_rss: %s (after the last round %.0f %% of before)" %
          ("ok" if ok else "FAILED", 100.0 * last / first))
    sys.exit(0 if ok else 1)


main()
