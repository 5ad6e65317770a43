#!/usr/bin/python3
"""libiio1_bench.py - one server measured through libiio 1.0's own client
(its Python bindings and iio_rwdev, from tests/libiio1.sh's cache), for
bench/libiio1_compare.sh, which runs it against iiowired and iiod 1.0 on
the same fake tree.

  ctx     context creation (connect, XML, parse) and destruction, median ms
  attr    reads/s of one channel attribute on one context (median of runs)
  block   MB/s iio_rwdev reads with blocks of SIZE bytes, from its first byte
          for SECS s (the stand-in node's feeder is the caller's)
  event   event latency: a record written into the stand-in event FIFO until
          the client's non-blocking read returns it, median and p99 us; a
          buffer is held open meanwhile (libiio 1.0's local backend, iiod
          1.0's, makes event streams only then)

Prints "RESULT METRIC VALUE" lines, or "RESULT METRIC n/a WHY" where the
server cannot do it (over the text protocol libiio 1.0 has no event streams).
Usage: libiio1_bench.py PREFIX URI DEVICE CHANNELS METRIC [ARGS]
  METRIC ctx N | attr N RUNS | block SIZE SECS | event N FIFO
"""
import ctypes.util
import os
import select
import statistics
import struct
import subprocess
import sys
import time

PREFIX, URI, DEVICE, CHANNELS, METRIC = sys.argv[1:6]
ARGS = sys.argv[6:]
_find = ctypes.util.find_library
# Debian's ldconfig cache offers 0.24's libiio.so.0 first (see tests/libiio1_py.py)
ctypes.util.find_library = lambda n: (PREFIX + "/lib/libiio.so.1") if n == "iio" else _find(n)
sys.path.insert(0, PREFIX + "/python")
import iio  # noqa: E402


def result(metric, value, why=""):
    print("RESULT %s %s%s" % (metric, value, (" " + why) if why else ""), flush=True)


def bench_ctx(n):
    times = []
    for _ in range(n):
        t = time.perf_counter()
        ctx = iio.Context(URI)
        del ctx
        times.append(time.perf_counter() - t)
    result("ctx_ms", "%.2f" % (statistics.median(times) * 1e3))


def bench_attr(n, runs):
    ctx = iio.Context(URI)
    chan = ctx.find_device(DEVICE).find_channel(CHANNELS.split(",")[0])
    attr = chan.attrs["raw"]
    attr.value  # the first read may warm a cache
    rates = []
    for _ in range(runs):
        t = time.perf_counter()
        for _ in range(n):
            attr.value
        rates.append(n / (time.perf_counter() - t))
    result("attr_per_s", "%.0f" % statistics.median(rates))


def stop(p):
    """iio_rwdev ended: SIGINT (its own way out), then SIGKILL after 5 s (a
    client hung on the text path ignores the signals: the facts file)."""
    p.send_signal(2)
    try:
        p.wait(5)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()


def bench_block(size, secs):
    chans = CHANNELS.split(",")
    ctx = iio.Context(URI)
    dev = ctx.find_device(DEVICE)
    mask = iio.ChannelsMask(dev)
    mask.channels = [dev.find_channel(c) for c in chans]
    samples = size // mask.sample_size
    del mask, dev, ctx
    env = dict(os.environ, LD_LIBRARY_PATH=PREFIX + "/lib")
    p = subprocess.Popen([PREFIX + "/bin/iio_rwdev", "-u", URI, "-b", str(samples), DEVICE] +
                         chans, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    ready, _, _ = select.select([p.stdout], [], [], 15)
    if not ready or not p.stdout.read(1):
        stop(p)
        result("block_%d_MBps" % size, "n/a", "no data within 15 s: " +
               p.stderr.read().decode(errors="replace").strip().replace("\n", "; "))
        return
    got, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < secs:
        chunk = p.stdout.read1(1 << 20)
        if not chunk:
            break
        got += len(chunk)
    elapsed = time.perf_counter() - t0
    stop(p)
    result("block_%d_MBps" % size, "%.2f" % (got / elapsed / 1e6))


def create_evstream(dev, tries):
    """An event stream of @dev: its creation retried while it fails with
    ETIMEDOUT, libiio 1.0's client racing itself, each attempt after a run of
    attribute reads with the process on one CPU (tests/libiio1_py.py says why)."""
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    warm = [a for a in dev.attrs.values()][:1]
    for i in range(tries):
        for _ in range(200 if warm else 0):
            warm[0].value
        try:
            return iio._d_create_evstream(dev._device)
        except OSError as err:
            if err.errno != 110 or i == tries - 1:
                raise OSError(err.errno, "%s (%d attempts)" % (err.strerror, i + 1))
    return None


class EvConn:
    """A connection with an event stream of DEVICE (and, for iiod 1.0's local
    backend, DEVICE's buffer held open): made on fresh contexts until one wins
    the client's race (create_evstream), 20 contexts at most."""

    def __init__(self):
        err = None
        for _ in range(20):
            self.ctx = iio.Context(URI)
            self.dev = self.ctx.find_device(DEVICE)
            mask = iio.ChannelsMask(self.dev)
            mask.channels = [self.dev.find_channel(CHANNELS.split(",")[0])]
            try:
                self.held = self.dev.get_buffer(0).open(mask)
            except OSError:
                self.held = None  # a server that needs none may refuse it
            try:
                self.stream = create_evstream(self.dev, 10)
                return
            except OSError as e:
                err = e
                self.close()
        raise err

    def close(self):
        self.held = None
        self.stream = None
        self.dev = None
        self.ctx = None


def bench_event(n, fifo):
    """The latency of N events, each written into the stand-in event FIFO and
    polled for with non-blocking reads (a blocking one fails at once on
    libiio 1.0's client race) every 20 us: the figures include up to that."""
    # on one CPU before the contexts start their threads (create_evstream)
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    try:
        conn = EvConn()
    except OSError as err:
        result("event_p50_us", "n/a", "event stream: %s" % err)
        return
    try:
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as err:
        result("event_p50_us", "n/a", "the server holds no event fd: %s" % err)
        return
    ev = iio.Event()
    lat, remade = [], 0
    while len(lat) < n:
        t0 = time.perf_counter_ns()
        os.write(fd, struct.pack("<Qq", 0x0001000000000000, time.time_ns()))
        while True:
            ev.id = 0
            try:
                iio._evstream_read(conn.stream, ctypes.byref(ev), True)
                lat.append((time.perf_counter_ns() - t0) / 1e3)
                break
            except OSError as err:
                if err.errno == 110 and remade < n:
                    # the client's request for the next event lost its race (the
                    # event itself copied if ev.id is set): the stream is dead; a
                    # new connection and stream for the next sample
                    if ev.id:
                        lat.append((time.perf_counter_ns() - t0) / 1e3)
                    iio._evstream_destroy(conn.stream)
                    conn.close()
                    try:
                        conn = EvConn()
                    except OSError as err2:
                        return event_results(lat, remade, "a new stream: %s" % err2)
                    remade += 1
                    time.sleep(0.01)
                    drain(conn.stream, ev)
                    break
                if err.errno != 11:
                    result("event_p50_us", "n/a", "read after %d: %s" % (len(lat), err))
                    return
            if time.perf_counter_ns() - t0 > 5 * 10**9:
                result("event_p50_us", "n/a", "no event within 5 s (after %d)" % len(lat))
                return
            time.sleep(20e-6)
        time.sleep(0.005)
    event_results(lat, remade)


def event_results(lat, remade, why=""):
    """The latency figures of what was measured (n/a under 20 events)."""
    if len(lat) < 20:
        result("event_p50_us", "n/a", "%d events, then %s" % (len(lat), why))
        return
    lat.sort()
    result("event_p50_us", "%.0f" % statistics.median(lat))
    result("event_p99_us", "%.0f" % lat[min(len(lat) - 1, int(len(lat) * 0.99))])
    result("event_count", len(lat), why)
    result("event_streams_remade", remade)


def drain(stream, ev):
    """What a new stream finds queued (the void sample's event) read away."""
    for _ in range(100):
        try:
            iio._evstream_read(stream, ctypes.byref(ev), True)
        except OSError:
            return


def main():
    if METRIC == "ctx":
        bench_ctx(int(ARGS[0]))
    elif METRIC == "attr":
        bench_attr(int(ARGS[0]), int(ARGS[1]))
    elif METRIC == "block":
        bench_block(int(ARGS[0]), float(ARGS[1]))
    elif METRIC == "event":
        bench_event(int(ARGS[0]), ARGS[1])
    sys.stdout.flush()
    # leave without the bindings' teardown of what a failed row left half made
    os._exit(0)


if __name__ == "__main__":
    main()
