"""webtest.py - what the WebSocket and browser tests share: an iiowired on
free ports (its native TCP listener and --http-listen), started through
$IIOWIRE_TEST_WRAPPER (valgrind.sh), JSON requests over TCP and over the
WebSocket, raw HTTP, the pass/fail count whose last line is "N passed, M
failed", and the daemon's RSS from /proc."""
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.request

from netutil import free_port, rss_kib  # noqa: F401 (free_port: for the tests)

try:
    import websocket  # python3-websocket (websocket-client)
except ImportError:
    print("SKIPPED: python3-websocket is not installed (tests/deps.sh installs it)")
    sys.exit(0)

passed = 0
failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what, flush=True)
    return cond


def end():
    print("%d passed, %d failed" % (passed, failed), flush=True)
    sys.exit(1 if failed else 0)


def wrapped():
    """True when the daemon runs under valgrind (slow: skip the heavy parts)."""
    return bool(os.environ.get("IIOWIRE_TEST_WRAPPER"))


class Daemon:
    """One iiowired on the given board with --http-listen; stop() checks its exit status."""

    def __init__(self, build, board, *extra, port=None, hport=None, stderr=None):
        self.stderr = stderr  # a file for the daemon's log (None: the test's stderr)
        self.port = port or free_port()
        self.hport = hport or free_port()
        self.build = build
        self.board = board
        self.extra = list(extra)
        self.start()

    def start(self):
        cmd = shlex.split(os.environ.get("IIOWIRE_TEST_WRAPPER", ""))
        cmd += [os.path.join(self.build, "server", "iiowired"), "--board", self.board,
                "--listen", "127.0.0.1:%d" % self.port,
                "--http-listen", "127.0.0.1:%d" % self.hport, "--no-announce",
                "--log-level", "warn"] + self.extra
        self.proc = subprocess.Popen(cmd, stderr=self.stderr)
        deadline = time.time() + (60 if wrapped() else 10)
        while time.time() < deadline:
            try:
                urllib.request.urlopen(self.url("/healthz"), timeout=2).read()
                return
            except OSError:
                if self.proc.poll() is not None:
                    raise SystemExit("iiowired exited with %d" % self.proc.returncode)
                time.sleep(0.05)
        raise SystemExit("iiowired did not answer /healthz")

    def url(self, path="/"):
        return "http://127.0.0.1:%d%s" % (self.hport, path)

    def ws_url(self):
        return "ws://127.0.0.1:%d/ws" % self.hport

    def stop(self):
        """SIGTERM; Return: the exit status (0 for a clean stop)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=60 if wrapped() else 10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return -9

    def rss_kib(self):
        """The daemon's resident memory (VmRSS)."""
        return rss_kib(self.proc.pid)

    def tcp(self, obj):
        """One JSON request on a fresh TCP connection; Return: the decoded reply."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=10) as s:
            s.sendall(json.dumps(obj).encode() + b"\n")
            data = b""
            while not data.endswith(b"\n"):
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        return json.loads(data)

    def ws(self, **kw):
        return websocket.create_connection(self.ws_url(), timeout=10, **kw)

    def ws_ok(self):
        """Does a fresh WebSocket still get a READ answered (the daemon serves others)?"""
        try:
            w = self.ws()
            w.send(json.dumps({"id": "alive", "op": "read", "device": "dummy0",
                               "attr": "in_voltage0_raw"}))
            r = json.loads(w.recv())
            w.close()
            return r.get("ok") is True and r.get("id") == "alive"
        except Exception as e:  # noqa: BLE001 - any failure means "not served"
            print("ws_ok:", repr(e))
            return False


def http_raw(port, data, timeout=5):
    """Send @data as is; Return: all the daemon answered before it closed or went quiet."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    s.sendall(data)
    out = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            out += chunk
    except socket.timeout:
        pass
    s.close()
    return out
