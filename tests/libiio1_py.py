#!/usr/bin/python3
"""libiio1_py.py - libiio 1.0's own Python bindings (its bindings/python/iio,
pure ctypes, from the cache tests/libiio1.sh builds) read a buffer and an
event through an iiod server (run by test_libiio1.sh).

The buffer: N samples of CHANNELS of DEVICE through iio.Stream, the bytes
compared with EXPECT (a file: what the native STREAM captured of the same
channels, or what a stand-in device node was fed). The event: an event
stream on EVDEVICE is opened, PROVOKE (a shell command) is run, and the
first event read within 10 s must be WANT ("CHANNEL EVTYPE DIRECTION").

The bindings find their library with ctypes.util.find_library("iio"),
which on Debian finds 0.24's libiio.so.0 (ldconfig's cache comes first) and
then refuse it; find_library is pointed at PREFIX/lib/libiio.so.1 before
the import. Usage: libiio1_py.py PREFIX URI DEVICE CHANNELS N EXPECT
EVDEVICE PROVOKE WANT (CHANNELS comma-separated). One line per check
("ok ..." or "FAIL ..."); exit status 1 if any failed.

libiio1_py.py --hold PREFIX URI DEVICE CHANNEL: open DEVICE's buffer (not
started), print "held" and wait to be killed. libiio 1.0's local backend
creates an event stream only while the device's node is open for a buffer
(local.c's local_open_events_fd returns its fd, -1: EPERM, otherwise), so
test_libiio1.sh's iiod1 target holds one open around its event checks.
"""
import ctypes.util
import subprocess
import sys
import time

HOLD = sys.argv[1] == "--hold"
if HOLD:
    PREFIX, URI, DEVICE, CHANNELS = sys.argv[2:6]
else:
    PREFIX, URI, DEVICE, CHANNELS, N, EXPECT, EVDEVICE, PROVOKE, WANT = sys.argv[1:10]
_find = ctypes.util.find_library
ctypes.util.find_library = lambda n: (PREFIX + "/lib/libiio.so.1") if n == "iio" else _find(n)
sys.path.insert(0, PREFIX + "/python")
import iio  # noqa: E402 (after the library is pointed at)

failed = 0


def check(ok, what):
    global failed
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failed += 1


def read_buffer(ctx):
    """N samples of CHANNELS through iio.Stream: (the bytes, the stream, kept
    open for the event: libiio 1.0's local backend under iiod 1.0 needs an
    open buffer to make an event stream), or an exception."""
    dev = ctx.find_device(DEVICE)
    if dev is None:
        raise OSError(19, "no device " + DEVICE)
    chans = [dev.find_channel(c) for c in CHANNELS.split(",")]
    if any(c is None for c in chans):
        raise OSError(2, "a channel of %s is missing" % CHANNELS)
    mask = iio.ChannelsMask(dev)
    mask.channels = chans
    stream = iio.Stream(dev.get_buffer(0), mask, int(N))
    return bytes(next(stream).read()), stream


def read_event(ctx):
    """The first event after PROVOKE, as 'CHANNEL EVTYPE DIRECTION', or None."""
    dev = ctx.find_device(EVDEVICE)
    if dev is None:
        raise OSError(19, "no device " + EVDEVICE)
    # event_stream() masks a failed creation with its own UnboundLocalError:
    # one created and destroyed here first raises the library's error
    iio._evstream_destroy(iio._d_create_evstream(dev._device))
    with dev.event_stream() as es:
        subprocess.run(PROVOKE, shell=True, check=True, timeout=30)
        end = time.time() + 10
        while time.time() < end:
            got = es.read(nonblock=True)
            if got is not None:
                ev, (chn, _) = got
                return "%s %s %s" % (chn.id if chn else "-",
                                     ev.type.name[len("IIO_EV_TYPE_"):].lower(),
                                     ev.direction.name[len("IIO_EV_DIR_"):].lower())
            time.sleep(0.02)
    return None


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


def main():
    if HOLD:
        return hold()
    ctx = iio.Context(URI)
    want = open(EXPECT, "rb").read()
    try:
        got, stream = read_buffer(ctx)
        check(got == want and len(got) > 0, "python Stream: %s %s, %s samples: %d bytes %s "
              "(want %d bytes %s)" % (DEVICE, CHANNELS, N, len(got), got[:32].hex(),
                                      len(want), want[:32].hex()))
    except OSError as err:
        stream = None
        check(False, "python Stream: %s %s: %s" % (DEVICE, CHANNELS, err))
    try:
        got = read_event(ctx)
        check(got == WANT, "python event_stream on %s: %s (want %s)" % (EVDEVICE, got, WANT))
    except (OSError, subprocess.SubprocessError) as err:
        check(False, "python event_stream on %s: %s" % (EVDEVICE, err))
    del stream
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
