#!/usr/bin/python3
"""libiio_stream.py - Debian's iio_readdev and python3-libiio's Buffer.refill()
read scans through iiowired's iiod listener, and every byte is the one a
kernel capture gives for the board's inputs (run by test_libiio_stream.sh).

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
(test_libiio_stream.sh sets it); the cases run with it, through
Buffer.refill(), and with iio_readdev's own -t hrt0. Usage:
libiio_stream.py IIOD_PORT [IIO_READDEV_PATH]. Prints one line per check; exit status 1 if any failed.
"""
import struct
import subprocess
import sys
import time

PORT = int(sys.argv[1])
READDEV = sys.argv[2] if len(sys.argv) > 2 else "iio_readdev"
URI = "ip:127.0.0.1:%d" % PORT
TRIGGER = "hrt0"
failed = 0


def check(ok, what):
    global failed
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failed += 1


# The values the board's inputs give; elems() turns a channel list into
# (scan_index, storage bytes, struct format, value, bits that may differ),
# value None the timestamp.
def max1363(mv):
    """MAX1363: internal 2048 mV reference, 12 bits (code = 2 x mV); the
    chip sends 1s in the unused top nibble and the kernel keeps them."""
    return 0xF000 | min(4095, int(mv * 4096 // 2048))


def ad7998(ch, mv):
    """AD7998 result word: channel id in bits 14:12, 12-bit code, with a
    4096 mV reference one code per mV (alert bit 15 clear)."""
    return (ch << 12) | min(4095, mv)


def adis_word(code, bits):
    """ADIS16400 output: the code in its bits, ND (new data, bit 15) set on
    a read of a new sample, EA clear. Whether a read finds a new sample
    depends on when the trigger's poll ran against the chip's own sample
    clock (two polls of one late tick can fall in one sample period), so
    ND is the one bit compare() takes from the record (ADIS_ND)."""
    return 0x8000 | (code & ((1 << bits) - 1))


ADIS_ND = 0x8000


MAX1363_MV = [1000, 1500, 2047, 100]
AD7998_MV = [300, 1200, 2500, 4000, 10, 20, 30, 40]
# iio_simple_dummy_buffer.c's fakedata: the buffer carries these, not the sysfs values
DUMMY = {"voltage0": (0, 7), "voltage1-voltage2": (1, -33),
         "voltage3-voltage4": (2, -2), "accel_x": (3, 344)}
# adis16400 inputs (board): supply 4836 mV = 2000 codes of 2.418 mV (14 bits), every
# other output at its zero (temp0 25000 m degrees C is code 0 on the 16400)
ADIS = [("voltage0", 0, adis_word(2000, 14)), ("anglvel_x", 1, adis_word(0, 14)),
        ("anglvel_y", 2, adis_word(0, 14)), ("anglvel_z", 3, adis_word(0, 14)),
        ("accel_x", 4, adis_word(0, 14)), ("accel_y", 5, adis_word(0, 14)),
        ("accel_z", 6, adis_word(0, 14)), ("magn_x", 7, adis_word(0, 14)),
        ("magn_y", 8, adis_word(0, 14)), ("magn_z", 9, adis_word(0, 14)),
        ("temp0", 11, adis_word(0, 12)), ("voltage1", 16, adis_word(0, 12))]


def elems(device, ids):
    """The (index, size, fmt, value) of each named channel; value None: timestamp."""
    out = []
    for cid in ids:
        if cid == "timestamp":
            out.append((1 << 30, 8, "<q", None, 0))
        elif device == "max1363":
            n = int(cid[len("voltage"):])
            out.append((n, 2, ">H", max1363(MAX1363_MV[n]), 0))
        elif device == "ad7998":
            n = int(cid[len("voltage"):])
            out.append((n, 2, ">H", ad7998(n, AD7998_MV[n]), 0))
        elif device == "dummy0":
            idx, v = DUMMY[cid]
            out.append((idx, 2, "<h", v, 0))
        else:
            idx, v = [(i, w) for (c, i, w) in ADIS if c == cid][0]
            out.append((idx, 2, ">H", v, ADIS_ND))
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
        for off, (_, _, fmt, v, free) in placed:
            if v is None:
                ts = struct.unpack_from("<q", rec, off)[0]
                good = ts > last_ts and abs(ts - now) < 120 * 10**9
                check(good, "%s: record %d timestamp %d grows and is near now" % (what, i, ts))
                last_ts = ts
                want[off:off + 8] = rec[off:off + 8]
            else:
                got = struct.unpack_from(fmt, rec, off)[0]
                struct.pack_into(fmt, want, off, (v & ~free) | (got & free))
        check(bytes(want) == bytes(rec), "%s: record %d is %s (want %s)" %
              (what, i, rec.hex(), bytes(want).hex()))


def readdev(device, ids, n, block, trigger):
    """iio_readdev [-t hrt0] -s N -b B DEVICE CHANNELS: stdout, stderr."""
    cmd = [READDEV, "-u", URI] + (["-t", TRIGGER] if trigger else []) + \
          ["-b", str(block), "-s", str(n), device] + ids
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
    ("ad7998", ["voltage0", "voltage3"], 6, 3),
    ("ad7998", ["voltage1", "voltage2", "voltage7", "timestamp"], 4, 4),
    ("adis16400", [c for (c, _, _) in ADIS] + ["timestamp"], 4, 2),
]


def run_readdev(trigger):
    """Every case; with @trigger, iio_readdev sets hrt0 itself (-t, which also writes
    its sampling_frequency = 100), else the device's current trigger is used."""
    for device, ids, n, block in CASES:
        what = "iio_readdev %s%s %s -s %d -b %d" % ("-t hrt0 " if trigger else "", device,
                                                   " ".join(ids), n, block)
        rc, out, err = readdev(device, ids, n, block, trigger)
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


run_readdev(False)
run_pylibiio()
run_readdev(True)
print("%d failed" % failed)
sys.exit(1 if failed else 0)
