#!/usr/bin/python3
"""libiio1_py.py - libiio 1.0's own Python bindings (its bindings/python/iio,
pure ctypes, from the cache tests/libiio1.sh builds) read a buffer and an
event through an iiod server (run by test_libiio1.sh).

The buffer: N samples of CHANNELS of DEVICE through iio.Stream, the bytes
compared with EXPECT (a file: what the native STREAM captured of the same
channels, or what a stand-in device node was fed). The event: an event
stream on EVDEVICE is opened (read_event says why it is tried up to
LIBIIO1_EVENT_TRIES times, 100), PROVOKE (a shell command) is run every half
second, and the first event read within 10 s must be WANT ("CHANNEL EVTYPE
DIRECTION").

The bindings find their library with ctypes.util.find_library("iio"),
which on Debian finds 0.24's libiio.so.0 (ldconfig's cache comes first) and
then refuse it; find_library is pointed at PREFIX/lib/libiio.so.1 before
the import. Usage: libiio1_py.py PREFIX URI DEVICE CHANNELS N EXPECT
EVDEVICE PROVOKE WANT (CHANNELS comma-separated). One line per check
("ok ..." or "FAIL ..."); exit status 1 if any failed.

libiio1_py.py --probe PREFIX URI DEVICE -: create an event stream on DEVICE
(as read_event does) and print "created (attempt N)" or the error.

libiio1_py.py --hold PREFIX URI DEVICE CHANNEL: open DEVICE's buffer (not
started), print "held" and wait to be killed. libiio 1.0's local backend
creates an event stream only while the device's node is open for a buffer
(local.c's local_open_events_fd returns its fd, -1: EPERM, otherwise), so
test_libiio1.sh's iiod1 target holds one open around its event checks.
"""
import ctypes.util
import os
import subprocess
import sys
import time

HOLD = sys.argv[1] == "--hold"
PROBE = sys.argv[1] == "--probe"
if HOLD or PROBE:
    PREFIX, URI, DEVICE, CHANNELS = sys.argv[2:6]
else:
    PREFIX, URI, DEVICE, CHANNELS, N, EXPECT, EVDEVICE, PROVOKE, WANT = sys.argv[1:10]
_find = ctypes.util.find_library
ctypes.util.find_library = lambda n: (PREFIX + "/lib/libiio.so.1") if n == "iio" else _find(n)
sys.path.insert(0, PREFIX + "/python")
import iio  # noqa: E402 (after the library is pointed at)

FAILED = []
# attempts at creating the event stream (see read_event)
TRIES = int(os.environ.get("LIBIIO1_EVENT_TRIES", "100"))


def check(ok, what):
    """One line: ok or FAIL, and what; the failures kept for the exit status."""
    print(("ok   " if ok else "FAIL ") + what)
    FAILED.extend([] if ok else [what])


def read_buffer(ctx):
    """N samples of CHANNELS through iio.Stream: the bytes, or an exception.
    The stream is closed before the event check: while a buffer is enabled the
    kernel refuses the event configuration PROVOKE writes (EBUSY)."""
    dev = ctx.find_device(DEVICE)
    if dev is None:
        raise OSError(19, "no device " + DEVICE)
    chans = [dev.find_channel(c) for c in CHANNELS.split(",")]
    if any(c is None for c in chans):
        raise OSError(2, "a channel of %s is missing" % CHANNELS)
    mask = iio.ChannelsMask(dev)
    mask.channels = chans
    stream = iio.Stream(dev.get_buffer(0), mask, int(N))
    data = bytes(next(stream).read())
    del stream
    return data


def create_evstream(dev):
    """(an event stream of @dev, the attempt that made it), or OSError:
    ETIMEDOUT (110) retried, TRIES attempts at most (see read_event). Each
    attempt follows a run of attribute reads: with the client's threads busy
    and on one CPU (main() pins the process) its writer thread is woken in
    time far more often (39 fresh contexts in 40 against 1 in 40, 2026-12-06)."""
    warm = [a for a in dev.attrs.values()][:1]
    tries = 0
    while True:
        tries += 1
        for _ in range(200 if warm else 0):
            warm[0].value
        try:
            return iio._d_create_evstream(dev._device), tries
        except OSError as err:
            if err.errno != 110 or tries >= TRIES:
                raise OSError(err.errno, "%s (%d attempts)" % (err.strerror, tries))


def probe():
    """--probe: whether an event stream of DEVICE can be made, and how."""
    ctx = iio.Context(URI)
    try:
        stream, tries = create_evstream(ctx.find_device(DEVICE))
        iio._evstream_destroy(stream)
        print("created (attempt %d)" % tries)
    except OSError as err:
        print("[Errno %d] %s" % (err.errno, err.strerror))


def read_event(ctx):
    """The first event while PROVOKE runs every half second, as 'CHANNEL EVTYPE
    DIRECTION' (None if none came within 10 s), and the attempts its creation took.

    libiio 1.0's client races itself on an event stream: after CREATE_EVSTREAM
    it sets the stream's I/O timeout to 0, which its responder takes as "do not
    wait", and then waits for its own READ_EVENT request to be sent; a blocking
    read waits the same way. So creation fails with ETIMEDOUT unless its writer
    thread has already sent, whatever the server (PROTOCOL-iiod.md, "libiio
    1.0's client"): it is retried TRIES times, and the reads do not block."""
    dev = ctx.find_device(EVDEVICE)
    if dev is None:
        raise OSError(19, "no device " + EVDEVICE)
    stream, tries = create_evstream(dev)
    ev = iio.Event()
    try:
        end, next_poke = time.time() + 10, 0
        while time.time() < end:
            if time.time() >= next_poke:
                subprocess.run(PROVOKE, shell=True, check=True, timeout=30)
                next_poke = time.time() + 0.5
            ev.id = 0
            try:
                iio._evstream_read(stream, ctypes.byref(ev), True)
            except OSError as err:
                # 110 with the event copied: the client's request for the next one
                # lost its race (iiod_client_read_event copies, then asks again)
                if err.errno != 11 and not (err.errno == 110 and ev.id):
                    raise
                if not ev.id:
                    time.sleep(0.01)
                    continue
            try:
                chn = iio.Channel(dev, iio._ev_get_channel(ctypes.byref(ev), dev._device, False))
            except OSError:
                chn = None
            return "%s %s %s" % (chn.id if chn else "-",
                                 ev.type.name[len("IIO_EV_TYPE_"):].lower(),
                                 ev.direction.name[len("IIO_EV_DIR_"):].lower()), tries
    finally:
        iio._evstream_destroy(stream)
    return None, tries


def hold():
    """DEVICE's buffer opened on CHANNELS and kept so until killed."""
    ctx = iio.Context(URI)
    dev = ctx.find_device(DEVICE)
    mask = iio.ChannelsMask(dev)
    mask.channels = [dev.find_channel(c) for c in CHANNELS.split(",")]
    stream = dev.get_buffer(0).open(mask)
    print("held", flush=True)
    time.sleep(3600)
    del stream


def pin():
    """The process (and the threads libiio starts later) on one CPU: the
    client's race (read_event) is then mostly won by its own threads."""
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def main():
    pin()
    if HOLD:
        return hold()
    if PROBE:
        return probe()
    ctx = iio.Context(URI)
    want = open(EXPECT, "rb").read()
    try:
        got = read_buffer(ctx)
        check(got == want and len(got) > 0, "python Stream: %s %s, %s samples: %d bytes %s "
              "(want %d bytes %s)" % (DEVICE, CHANNELS, N, len(got), got[:32].hex(),
                                      len(want), want[:32].hex()))
    except OSError as err:
        check(False, "python Stream: %s %s: %s" % (DEVICE, CHANNELS, err))
    try:
        got, tries = read_event(ctx)
        check(got == WANT, "python event stream on %s: %s (want %s; created at attempt %d)"
              % (EVDEVICE, got, WANT, tries))
    except (OSError, subprocess.SubprocessError) as err:
        check(False, "python event stream on %s: %s" % (EVDEVICE, err))
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
