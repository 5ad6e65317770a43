#!/usr/bin/env python3
"""iiod_bench.py - attribute READs through an iiod-protocol server, timed.

Measures what a libiio client pays for one attribute read against any
server that speaks iiod 0.24's text protocol: iiowired's --iiod-listen or
Debian's iiod. Same method as the figures in the project's iiod notes, so
the numbers line up: a raw socket sending one READ and waiting for its
reply (round trip), the same READs all sent at once (pipelined), and, when
python3-libiio is installed, the bindings' attr.value read and write and
context creation. Each figure is the median of several runs. Place: a
client outside the daemon; it measures, it does not judge or change
anything but the one attribute it writes (given with --write).

usage: iiod_bench.py [--host H] --port P --read 'READ dev INPUT ch attr'
       [--read ...] [--write 'dev OUTPUT ch attr VALUE'] [-n N] [--runs R]
"""
import argparse
import socket
import statistics
import sys
import time


def recv_exact(sock, buf, n):
    """Return (n bytes, rest) reading from sock past what buf holds."""
    while len(buf) < n:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("server closed the connection")
        buf += chunk
    return buf[:n], buf[n:]


def read_reply(sock, buf):
    """One iiod reply: integer line, and for N > 0 N bytes plus LF. Return (code, rest)."""
    while b"\n" not in buf:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("server closed the connection")
        buf += chunk
    line, buf = buf.split(b"\n", 1)
    code = int(line)
    if code > 0:
        _, buf = recv_exact(sock, buf, code + 1)
    return code, buf


def connect(host, port):
    sock = socket.create_connection((host, port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def round_trip_us(host, port, req, n):
    """Mean microseconds per READ, one request in flight."""
    sock = connect(host, port)
    line = (req + "\r\n").encode()
    buf = b""
    sock.sendall(line)
    code, buf = read_reply(sock, buf)
    if code < 0:
        raise RuntimeError("%s: %d" % (req, code))
    t0 = time.perf_counter()
    for _ in range(n):
        sock.sendall(line)
        code, buf = read_reply(sock, buf)
    t1 = time.perf_counter()
    sock.close()
    return (t1 - t0) / n * 1e6


def pipelined_us(host, port, req, n):
    """Mean microseconds per READ, n of them sent in one go."""
    sock = connect(host, port)
    data = ((req + "\r\n") * n).encode()
    buf = b""
    t0 = time.perf_counter()
    sock.sendall(data)
    for _ in range(n):
        code, buf = read_reply(sock, buf)
    t1 = time.perf_counter()
    sock.close()
    return (t1 - t0) / n * 1e6


def libiio_us(host, port, req, write, n):
    """Bindings: (attr read us, attr write us or None, context creation ms)."""
    import iio
    uri = "ip:%s:%d" % (host, port)
    t0 = time.perf_counter()
    for _ in range(20):
        iio.Context(uri)
    ctx_ms = (time.perf_counter() - t0) / 20 * 1e3
    ctx = iio.Context(uri)
    words = req.split()
    dev = ctx.find_device(words[1])
    if len(words) == 5:
        attr = dev.find_channel(words[3], words[2] == "OUTPUT").attrs[words[4]]
    else:
        attr = dev.attrs[words[2]]
    t0 = time.perf_counter()
    for _ in range(n):
        attr.value
    rd = (time.perf_counter() - t0) / n * 1e6
    wr = None
    if write:
        w = write.split()
        wattr = ctx.find_device(w[0]).find_channel(w[2], w[1] == "OUTPUT").attrs[w[3]]
        t0 = time.perf_counter()
        for _ in range(n):
            wattr.value = w[4]
        wr = (time.perf_counter() - t0) / n * 1e6
    return rd, wr, ctx_ms


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--read", action="append", required=True,
                    help="a READ request line, e.g. 'READ iio:device0 INPUT voltage0 raw'")
    ap.add_argument("--write", help="DEV OUTPUT|INPUT CHN ATTR VALUE for the bindings' write")
    ap.add_argument("-n", type=int, default=5000, help="requests per run")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--label", default="")
    args = ap.parse_args()

    sock = connect(args.host, args.port)
    sock.sendall(b"PRINT\r\n")
    xml_len, _ = read_reply(sock, b"")
    sock.close()
    print("%s | PRINT: %d bytes of XML" % (args.label, xml_len))
    for req in args.read:
        rt = statistics.median(round_trip_us(args.host, args.port, req, args.n)
                               for _ in range(args.runs))
        pl = statistics.median(pipelined_us(args.host, args.port, req, args.n)
                               for _ in range(args.runs))
        print("%s | %s | round trip %.1f us | pipelined %.1f us" %
              (args.label, req, rt, pl))
    try:
        import iio  # noqa: F401
    except ImportError:
        print("%s | python3-libiio not installed: bindings not measured" % args.label)
        return 0
    runs = [libiio_us(args.host, args.port, args.read[0], args.write, args.n // 5)
            for _ in range(args.runs)]
    rd = statistics.median(r[0] for r in runs)
    ctx = statistics.median(r[2] for r in runs)
    wr = statistics.median(r[1] for r in runs) if args.write else None
    print("%s | bindings: attr.value read %.1f us%s | context creation %.2f ms" %
          (args.label, rd, "" if wr is None else " | write %.1f us" % wr, ctx))
    return 0


if __name__ == "__main__":
    sys.exit(main())
