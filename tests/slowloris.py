#!/usr/bin/python3
"""slowloris.py - slow-header HTTP clients against one port, for the tests of
the HTTP listeners' limits (test_server_web.py, test_exporter.sh): COUNT sockets
from the loopback address SRC (127.0.0.2, ...: another address than the real
clients' 127.0.0.1), each sending a request line and then one header line
every INTERVAL seconds, never the blank line that ends the headers; a socket
the server closes is opened again (within 50 ms). As a module: Flood, held(),
trickle(), unfinished(), server_closed(); as a command:
  slowloris.py flood PORT SRC COUNT INTERVAL SECONDS  -> "opened N closed M"
  slowloris.py held PORT SRC N      (N unfinished requests at once) -> "kept K closed C"
  slowloris.py trickle PORT SRC MAX (a header line a second) -> "closed after T s"."""
import socket
import sys
import threading
import time


class Flood:
    """COUNT slow-header sockets from SRC to 127.0.0.1:PORT, kept open until stop()."""

    def __init__(self, port, src, count, interval):
        self.port, self.src, self.count, self.interval = port, src, count, interval
        self.opened = 0
        self.closed = 0     # by the server (or refused at connect)
        self.running = False
        self.thread = None

    def _open(self):
        s = socket.socket()
        s.bind((self.src, 0))
        s.settimeout(2)
        try:
            s.connect(("127.0.0.1", self.port))
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        except OSError:
            s.close()
            self.closed += 1
            return None
        s.setblocking(False)
        self.opened += 1
        return s

    def _gone(self, s):
        """Has the server closed @s (EOF or reset)? Reads and drops what it sent."""
        try:
            return s.recv(4096) == b""
        except BlockingIOError:
            return False
        except OSError:
            return True

    def _run(self):
        socks = [None] * self.count
        due = 0.0
        while self.running:
            now = time.time()
            send = now >= due
            if send:
                due = now + self.interval
            for i, s in enumerate(socks):
                if s is not None and self._gone(s):
                    s.close()
                    self.closed += 1
                    s = socks[i] = None
                if s is None:
                    socks[i] = self._open()
                elif send:
                    try:
                        s.send(b"X-Slow: %d\r\n" % i)
                    except OSError:
                        pass
            time.sleep(0.05)
        for s in socks:
            if s is not None:
                s.close()

    def start(self):
        self.running = True
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        return self

    def stop(self):
        self.running = False
        self.thread.join()


def unfinished(port, src):
    """A socket from @src that sent a request line and one header, not the end."""
    s = socket.socket()
    s.bind((src, 0))
    s.connect(("127.0.0.1", port))
    s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    return s


def server_closed(s, wait):
    """Did the server close @s within @wait seconds?"""
    s.settimeout(max(wait, 0.01))
    try:
        return s.recv(4096) == b""
    except (socket.timeout, BlockingIOError):
        return False
    except OSError:
        return True


def held(port, src, n):
    """Open @n unfinished requests from @src, one after the other. Return: how many
    the server still holds after a moment, how many it closed."""
    socks = [unfinished(port, src) for _ in range(n)]
    time.sleep(0.3)
    closed = sum(server_closed(s, 0.3) for s in socks)
    for s in socks:
        s.close()
    return n - closed, closed


def trickle(port, src, limit):
    """One request from @src, a header line a second. Return: the seconds until the
    server closed it, or None if it did not within @limit."""
    s = unfinished(port, src)
    t0 = time.time()
    while time.time() - t0 < limit:
        if server_closed(s, 1):
            return time.time() - t0
        try:
            s.send(b"X-Trickle: 1\r\n")
        except OSError:
            return time.time() - t0
    return None


def main(argv):
    port, src = int(argv[2]), argv[3]
    if argv[1] == "held":
        print("kept %d closed %d" % held(port, src, int(argv[4])), flush=True)
    elif argv[1] == "trickle":
        t = trickle(port, src, float(argv[4]))
        print("closed after %s s" % ("%.1f" % t if t is not None else "never"), flush=True)
    else:
        f = Flood(port, src, int(argv[4]), float(argv[5])).start()
        time.sleep(float(argv[6]))
        f.stop()
        print("opened %d closed %d" % (f.opened, f.closed), flush=True)


if __name__ == "__main__":
    main(sys.argv)
