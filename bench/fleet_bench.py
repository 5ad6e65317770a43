#!/usr/bin/env python3
"""fleet_bench.py - the fleet bridges at scale, on one machine.

N emulated daemons (iiowired, each on its own loopback port), one mosquitto,
one iiowire-mqtt per daemon; then one iiowire-exporter probing all N daemons
every 5 s. Prints, side by side with a floor measured in the same run:

  * messages/s into the broker (a mosquitto_sub on iiowire/#);
  * CPU per daemon and per bridge (utime+stime from /proc over the window);
  * change -> mosquitto_sub latency p50/p99: a WRITE to dummy0
    out_voltage0_raw (a DAC output) on a daemon (its bridge publishes it with --attr, on
    the WATCH that sees it change) until mosquitto_sub prints it;
    floor: mosquitto_pub -> broker -> mosquitto_sub, the same clocks;
  * exporter: /probe duration p50/p99 over every scrape and its CPU; floor:
    GET / of the same exporter (HTTP alone, no daemon read).

Usage: bench/fleet_bench.py BUILD_DIR [N] [SECONDS] [WATCH_MS]
       (default 50 daemons, 30 s, the bridges' default --watch-interval)
"""
import os
import pwd
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests"))
from netutil import free_port  # noqa: E402

BUILD = sys.argv[1] if len(sys.argv) > 1 else "build/release"
N = int(sys.argv[2]) if len(sys.argv) > 2 else 50
SECONDS = int(sys.argv[3]) if len(sys.argv) > 3 else 30
WATCH = ["--watch-interval", sys.argv[4]] if len(sys.argv) > 4 else []
CHANGES = 200          # latency samples, spread over the daemons
SCRAPE_EVERY_S = 5
HZ = os.sysconf("SC_CLK_TCK")

BOARD = """{"board": "fleet", "buses": {"i2c-0": {"type": "i2c", "backend": "emulated"}},
 "devices": [{"driver": "iio_dummy", "name": "dummy0"},
  {"driver": "max1238", "bus": "i2c-0", "address": "0x35", "label": "adc",
   "emulate": {"AIN0": {"sine": {"offset": 2000, "amplitude": 1000, "period_s": 7}},
               "AIN1": {"sine": {"offset": 1000, "amplitude": 500, "period_s": 11}},
               "AIN2": {"noise": {"mean": 1500, "stddev": 20, "seed": 1}},
               "AIN3": 1250}}],
 "maps": [
  {"adc_dev_name": "0-0035", "adc_channel_label": "AIN0", "consumer_dev_name": "bench",
   "consumer_channel": "a0"},
  {"adc_dev_name": "0-0035", "adc_channel_label": "AIN1", "consumer_dev_name": "bench",
   "consumer_channel": "a1"},
  {"adc_dev_name": "0-0035", "adc_channel_label": "AIN2", "consumer_dev_name": "bench",
   "consumer_channel": "a2"},
  {"adc_dev_name": "0-0035", "adc_channel_label": "AIN3", "consumer_dev_name": "bench",
   "consumer_channel": "a3"}]}
"""


def wait_port(port, seconds=10):
    end = time.time() + seconds
    while time.time() < end:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"fleet_bench: nothing on port {port}")


def cpu_ticks(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def pct(ticks, seconds):
    return 100.0 * ticks / HZ / seconds


def quantile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


class Sub:
    """mosquitto_sub on TOPIC printing '<unix ns> <topic> <payload>' per message."""

    def __init__(self, port, topic):
        self.lines = []
        self.p = subprocess.Popen(["mosquitto_sub", "-p", str(port), "-t", topic, "-F",
                                   "%U %t %p", "-R"], stdout=subprocess.PIPE, text=True)
        self.t = threading.Thread(target=self.run, daemon=True)
        self.t.start()

    def run(self):
        for line in self.p.stdout:
            self.lines.append(line.rstrip("\n"))

    def stop(self):
        self.p.terminate()
        self.p.wait()


def stamp(field):
    # %U is seconds.nanoseconds
    return float(field)


def latency_run(port, topics, send):
    """send(i, value) causes topics[i] to carry value; returns latencies (ms)."""
    sub = Sub(port, "#")
    time.sleep(1.0)
    sent = {}
    for k in range(CHANGES):
        i = k % len(topics)
        value = str(1000 + k)
        sent[(topics[i], value)] = time.time()
        send(i, value)
        time.sleep(0.05)
    time.sleep(1.0)
    sub.stop()
    lat = []
    for line in sub.lines:
        parts = line.split(" ", 2)
        if len(parts) == 3 and (parts[1], parts[2]) in sent:
            lat.append((stamp(parts[0]) - sent.pop((parts[1], parts[2]))) * 1000)
    return lat, len(sent)


def mqtt_part(tmp, ports):
    bport = free_port()
    conf = os.path.join(tmp, "mosq.conf")
    with open(conf, "w") as f:
        f.write(f"listener {bport} 127.0.0.1\npersistence false\nallow_anonymous true\n"
                f"user {pwd.getpwuid(os.getuid()).pw_name}\nmax_queued_messages 100000\n")
    broker = subprocess.Popen(["mosquitto", "-c", conf], stderr=subprocess.DEVNULL)
    wait_port(bport)
    bridges = [subprocess.Popen([f"{BUILD}/client/iiowire-mqtt", "-a", f"127.0.0.1:{p}",
                                 "--broker", f"mqtt://127.0.0.1:{bport}", "--board", f"b{i}",
                                 "--attr", "dummy0:out_voltage0_raw", "--no-discovery"] + WATCH,
                                stderr=subprocess.DEVNULL)
               for i, p in enumerate(ports)]
    time.sleep(3)
    count = Sub(bport, "iiowire/#")
    t0 = time.time()
    c0 = {p.pid: cpu_ticks(p.pid) for p in bridges + [broker]}
    d0 = {pid: cpu_ticks(pid) for pid in DAEMONS}
    time.sleep(SECONDS)
    dt = time.time() - t0
    msgs = len(count.lines)
    count.stop()
    bcpu = [pct(cpu_ticks(p.pid) - c0[p.pid], dt) for p in bridges]
    dcpu = [pct(cpu_ticks(pid) - d0[pid], dt) for pid in DAEMONS]
    kcpu = pct(cpu_ticks(broker.pid) - c0[broker.pid], dt)

    socks = [socket.create_connection(("127.0.0.1", p)) for p in ports]

    def write(i, value):
        socks[i].sendall(f"WRITE dummy0 out_voltage0_raw {value}\n".encode())
        socks[i].recv(256)

    topics = [f"iiowire/b{i}/dummy0/out_voltage0_raw" for i in range(N)]
    lat, lost = latency_run(bport, topics, write)
    # floor: one connected mosquitto_pub (-l: a message per stdin line), QoS 1
    fpub = subprocess.Popen(["mosquitto_pub", "-p", str(bport), "-q", "1", "-t", "floor/0",
                             "-l"], stdin=subprocess.PIPE, text=True)
    time.sleep(0.5)

    def pub(i, value):
        fpub.stdin.write(value + "\n")
        fpub.stdin.flush()

    flat, _ = latency_run(bport, ["floor/0"], pub)
    fpub.stdin.close()
    fpub.wait()
    for s in socks:
        s.close()
    for p in bridges:
        p.terminate()
    for p in bridges:
        p.wait()
    broker.terminate()
    broker.wait()
    print(f"mqtt: {N} daemons, {N} bridges, one broker, {dt:.0f} s"
          f"{', --watch-interval ' + WATCH[1] if WATCH else ''}")
    print(f"  messages into the broker: {msgs / dt:.0f}/s ({msgs / dt / N:.1f}/s per bridge)")
    print(f"  CPU per daemon: mean {sum(dcpu) / N:.2f} %, max {max(dcpu):.2f} %")
    print(f"  CPU per bridge: mean {sum(bcpu) / N:.2f} %, max {max(bcpu):.2f} %;"
          f" broker {kcpu:.1f} %")
    print(f"  change -> mosquitto_sub: p50 {quantile(lat, .5):.1f} ms, p99 {quantile(lat, .99):.1f}"
          f" ms ({len(lat)} samples, {lost} not seen)")
    print(f"  floor mosquitto_pub -> mosquitto_sub: p50 {quantile(flat, .5):.1f} ms,"
          f" p99 {quantile(flat, .99):.1f} ms")


def get(url, out):
    t = time.time()
    with urllib.request.urlopen(url, timeout=10) as r:
        r.read()
    out.append((time.time() - t) * 1000)


def exporter_part(ports):
    xport = free_port()
    exp = subprocess.Popen([f"{BUILD}/client/iiowire-exporter", "--listen", f"127.0.0.1:{xport}"],
                           stderr=subprocess.DEVNULL)
    wait_port(xport)
    durs, floor = [], []
    c0 = cpu_ticks(exp.pid)
    t0 = time.time()
    rounds = max(1, SECONDS // SCRAPE_EVERY_S)
    for r in range(rounds):
        start = time.time()
        th = [threading.Thread(target=get, args=(f"http://127.0.0.1:{xport}/probe?target="
                                                 f"127.0.0.1:{p}", durs)) for p in ports]
        for t in th:
            t.start()
        for t in th:
            t.join()
        for _ in range(10):
            get(f"http://127.0.0.1:{xport}/", floor)
        time.sleep(max(0, SCRAPE_EVERY_S - (time.time() - start)))
    dt = time.time() - t0
    cpu = pct(cpu_ticks(exp.pid) - c0, dt)
    exp.terminate()
    exp.wait()
    print(f"exporter: {N} targets probed together every {SCRAPE_EVERY_S} s, {rounds} rounds")
    print(f"  /probe: p50 {quantile(durs, .5):.1f} ms, p99 {quantile(durs, .99):.1f} ms"
          f" ({len(durs)} scrapes); exporter CPU {cpu:.2f} %")
    print(f"  floor GET /: p50 {quantile(floor, .5):.2f} ms, p99 {quantile(floor, .99):.2f} ms")


DAEMONS = []


def main():
    with tempfile.TemporaryDirectory(prefix="iiowire-fleet-") as tmp:
        board = os.path.join(tmp, "board.json")
        with open(board, "w") as f:
            f.write(BOARD)
        ports = [free_port() for _ in range(N)]
        procs = [subprocess.Popen([f"{BUILD}/server/iiowired", "--listen", f"127.0.0.1:{p}",
                                   "--board", board, "--log-level", "error", "--no-announce"])
                 for p in ports]
        DAEMONS.extend(p.pid for p in procs)
        try:
            for p in ports:
                wait_port(p)
            mqtt_part(tmp, ports)
            exporter_part(ports)
        finally:
            for p in procs:
                p.terminate()
            for p in procs:
                p.wait()


if __name__ == "__main__":
    main()
