#!/usr/bin/python3
"""slowloris.py - slow-header HTTP clients against one port, for the tests of
the HTTP listeners' limits (test_server_web.py, test_exporter.sh): COUNT sockets
from the loopback address SRC (127.0.0.2, ...: another address than the real
clients' 127.0.0.1), each sending a request line and then one header line
every INTERVAL seconds, never the blank line that ends the headers; a socket
the server closes is opened again (after 50 ms, so a refusing server is not
hammered). As a module: Flood(...).start() / .stop(); as a command:
slowloris.py PORT SRC COUNT INTERVAL SECONDS, then prints "opened N closed M"."""
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


if __name__ == "__main__":
    f = Flood(int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), float(sys.argv[4])).start()
    time.sleep(float(sys.argv[5]))
    f.stop()
    print("opened %d closed %d" % (f.opened, f.closed), flush=True)
