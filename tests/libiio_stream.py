#!/usr/bin/python3
"""libiio_stream.py - Debian's iio_readdev and python3-libiio's Buffer.refill()
read scans of max1363 and iio_dummy through iiowired's iiod listener, and
every byte is the one a kernel capture gives for the board's inputs (run by
test_libiio_stream.sh).

The expected records are computed here, independently of the daemon, from
the chip models' documented inputs (maps/README.md: values in the ABI's
processed unit) and the kernel's layout rules (iio_compute_scan_bytes:
ascending scan index, each element at a multiple of its size, the timestamp
last, the whole a multiple of the largest element; facts file §1.4, §1.5).
The timestamp is the one value no test can know: its 8 bytes must be a
CLOCK_REALTIME near now that grows scan by scan. The cases include the
channel sets on which iio_readdev 0.24 goes wrong when a server answers
with another mask than the client's (facts §4.1, §4.2): its -s counting
values instead of samples, its "buffer processing failed" ending, and wrong
data from an equal-sized union mask. Each device's current trigger is hrt0
(test_libiio_stream.sh sets it through the native protocol: the listener's
XML lists no trigger yet, so iio_readdev's own -t cannot name one). Usage:
libiio_stream.py IIOD_PORT [IIO_READDEV_PATH]. Prints one line per check; exit status 1 if any failed.
"""
import struct
import subprocess
import sys
import time

PORT = int(sys.argv[1])
READDEV = sys.argv[2] if len(sys.argv) > 2 else "iio_readdev"
URI = "ip:127.0.0.1:%d" % PORT
failed = 0


def check(ok, what):
    global failed
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failed += 1


# The values the board's inputs give; elems() turns a channel list into
# (scan_index, storage bytes, struct format, value), value None the timestamp.
def max1363(mv):
    """MAX1363: internal 2048 mV reference, 12 bits (code = 2 x mV); the
    chip sends 1s in the unused top nibble and the kernel keeps them."""
    return 0xF000 | min(4095, int(mv * 4096 // 2048))


MAX1363_MV = [1000, 1500, 2047, 100]
# iio_simple_dummy_buffer.c's fakedata: the buffer carries these, not the sysfs values
DUMMY = {"voltage0": (0, 7), "voltage1-voltage2": (1, -33),
         "voltage3-voltage4": (2, -2), "accel_x": (3, 344)}
def elems(device, ids):
    """The (index, size, fmt, value) of each named channel; value None: timestamp."""
    out = []
    for cid in ids:
        if cid == "timestamp":
            out.append((1 << 30, 8, "<q", None))
        elif device == "max1363":
            n = int(cid[len("voltage"):])
            out.append((n, 2, ">H", max1363(MAX1363_MV[n])))
        else:
            idx, v = DUMMY[cid]
            out.append((idx, 2, "<h", v))
    return sorted(out)


def layout(es):
    """Offsets by the kernel's rules; returns ([(offset, elem)], record bytes)."""
    off, big, placed = 0, 1, []
    for e in es:
        size = e[1]
        off = (off + size - 1) // size * size
        placed.append((off, e))
        off += size
        big = max(big, size)
    return placed, (off + big - 1) // big * big


def compare(what, data, device, ids, n):
    """Every record of @data against the expected one; timestamps sane."""
    placed, size = layout(elems(device, ids))
    check(len(data) == n * size, "%s: %d bytes, %d records of %d" % (what, len(data), n, size))
    last_ts, now = 0, time.time_ns()
    for i in range(min(n, len(data) // size)):
        rec = data[i * size:(i + 1) * size]
        want = bytearray(size)
        for off, (_, esize, fmt, v) in placed:
            if v is None:
                ts = struct.unpack_from("<q", rec, off)[0]
                good = ts > last_ts and abs(ts - now) < 120 * 10**9
                check(good, "%s: record %d timestamp %d grows and is near now" % (what, i, ts))
                last_ts = ts
                want[off:off + 8] = rec[off:off + 8]
            else:
                struct.pack_into(fmt, want, off, v)
        check(bytes(want) == bytes(rec), "%s: record %d is %s (want %s)" %
              (what, i, rec.hex(), bytes(want).hex()))


def readdev(device, ids, n, block):
    """iio_readdev -s N -b B DEVICE CHANNELS: stdout, stderr."""
    cmd = [READDEV, "-u", URI, "-b", str(block), "-s", str(n), device] + ids
    p = subprocess.run(cmd, capture_output=True, timeout=60)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


CASES = [
    # device, channels, scans, block
    ("max1363", ["voltage0", "voltage1", "voltage2", "voltage3", "timestamp"], 8, 4),
    # a subset the chip cannot scan alone: the device scans 0..3, the reader gets its own
    ("max1363", ["voltage1", "voltage3", "timestamp"], 6, 2),
    # no timestamp, and -s in samples (0.24's foreach path counted values)
    ("max1363", ["voltage0", "voltage1"], 5, 5),
    ("dummy0", ["voltage0", "accel_x", "timestamp"], 4, 2),
    ("dummy0", ["voltage0", "voltage1-voltage2", "voltage3-voltage4", "accel_x",
                "timestamp"], 4, 4),
]


def run_readdev():
    """Every case on the device's current trigger (hrt0)."""
    for device, ids, n, block in CASES:
        what = "iio_readdev %s %s -s %d -b %d" % (device, " ".join(ids), n, block)
        rc, out, err = readdev(device, ids, n, block)
        check(rc == 0, "%s: exit status %d" % (what, rc))
        check("buffer processing failed" not in err and "Unable" not in err,
              "%s: stderr clean (%r)" % (what, err.strip()[:200]))
        compare(what, out, device, ids, n)


def run_pylibiio():
    import iio
    ctx = iio.Context(URI)
    for device, ids, n, _ in CASES:
        what = "python3-libiio %s %s Buffer(%d).refill()" % (device, " ".join(ids), n)
        dev = ctx.find_device(device)
        for ch in dev.channels:
            ch.enabled = not ch.output and ch.id in ids
        try:
            buf = iio.Buffer(dev, n)
            buf.refill()
            data = bytes(buf.read())
            del buf
        except OSError as e:
            check(False, "%s: %s" % (what, e))
            continue
        compare(what, data, device, ids, n)


run_readdev()
run_pylibiio()
print("%d failed" % failed)
sys.exit(1 if failed else 0)
