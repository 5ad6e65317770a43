#!/usr/bin/python3
"""test_server_web.py - iiowired --http-listen against real clients
(python3-websocket, raw sockets): the WebSocket is the native protocol
(READ there equals READ over TCP; a STREAM's records equal the same
STREAM's over TCP byte for byte, raw payloads as binary messages, csv as
text; STREAMEND after a reload; IIO events arrive; a tab that stops
reading loses blocks, counted, and nobody else does), the page's files and
/healthz are
served, and each bad input (non-JSON, a line break, messages and frames at
SRV_WEB_MESSAGE_MAX_BYTES and one byte more, a cross-origin page, pipelined
garbage, huge headers, too many clients, an unfinished message, 1,000 idle
WebSockets, connections of one address in HTTP at N and N+1, 100 slow-header
sockets beside real clients, a request trickled past its deadline) gets its answer while the daemon goes on serving others; a Host
that is not the daemon's (a DNS-rebinding page) gets 403 on the page, /healthz
and the handshake, with a log line naming --http-host, unless --http-host lists it;
a DAC's output channel (maps/dac.json) is written over the WebSocket as the
page sets it, out of range and outside --allow-write refused.
Usage: test_server_web.py BUILD_DIR SOURCE_DIR. Last line: "N passed, M failed"."""
import fcntl
import json
import os
import resource
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import websocket

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from slowloris import Flood, server_closed, unfinished  # noqa: E402
from webtest import Daemon, check, end, free_port, http_raw, wrapped  # noqa: E402

MESSAGE_MAX = 4096  # SRV_WEB_MESSAGE_MAX_BYTES (= PROTO_LINE_MAX_BYTES)
HEADER_MAX = 4096   # SRV_WEB_HEADER_MAX_BYTES
STREAMS_MAX = 16    # SRV_STREAM_MAX_PER_SESSION
PROTO_STREAM_SCANS_MAX = 4096
QUEUE_BYTES = 512 * 1024  # SRV_STREAM_QUEUE_BYTES

build, src = sys.argv[1], sys.argv[2]
demo = os.path.join(src, "maps", "demo.json")


def ws_req(w, obj):
    w.send(json.dumps(obj))
    return json.loads(w.recv())


def closed(w):
    """Has the daemon ended this WebSocket (a close frame or the socket gone)?"""
    try:
        w.settimeout(5)
        op, _ = w.recv_data(control_frame=True)
        return op == websocket.ABNF.OPCODE_CLOSE
    except (websocket.WebSocketConnectionClosedException, ConnectionError):
        return True
    except websocket.WebSocketTimeoutException:
        return False


def test_http(d):
    body = urllib.request.urlopen(d.url("/healthz")).read().decode()
    check(body == "ok 10 devices\n", "/healthz said %r" % body)
    page = urllib.request.urlopen(d.url("/")).read().decode()
    check("<title>iiowire</title>" in page and "/app.js" in page, "the page at /")
    js = urllib.request.urlopen(d.url("/dygraph.min.js")).read()
    check(js.startswith(b"/*! @license") and b"(MIT)" in js[:200], "dygraphs built in")
    for path, want in (("/nope", 404), ("/../etc/passwd", 404)):
        try:
            urllib.request.urlopen(d.url(path))
            code = 200
        except urllib.error.HTTPError as e:
            code = e.code
        check(code == want, "%s: HTTP %d, not %d" % (path, code, want))
    req = urllib.request.Request(d.url("/"), data=b"x", method="POST")
    try:
        urllib.request.urlopen(req)
        code = 200
    except urllib.error.HTTPError as e:
        code = e.code
    check(code == 405, "POST /: HTTP %d, not 405" % code)


def test_protocol(d):
    w = d.ws()
    tcp = d.tcp({"op": "read", "device": "dummy0", "attr": "in_voltage0_raw"})
    r = ws_req(w, {"id": 1, "op": "read", "device": "dummy0", "attr": "in_voltage0_raw"})
    check(r == {"id": 1, "ok": True, "value": tcp["value"]}, "WS READ %r, TCP %r" % (r, tcp))
    r = ws_req(w, {"op": "devices"})
    check(r["devices"] == d.tcp({"op": "devices"})["devices"], "DEVICES over WS and TCP")
    r = ws_req(w, {"id": 2, "op": "write", "device": "dummy0", "attr": "out_voltage0_raw",
                   "value": "123"})
    check(r == {"id": 2, "ok": True}, "allowed WRITE: %r" % r)
    tcp = d.tcp({"op": "read", "device": "dummy0", "attr": "out_voltage0_raw"})
    check(tcp.get("value") == "123", "the WRITE over WS read over TCP: %r" % tcp)
    r = ws_req(w, {"id": 3, "op": "write", "device": "dummy0", "attr": "in_voltage0_scale",
                   "value": "1"})
    check(r.get("error") == "EACCES", "WRITE outside --allow-write: %r" % r)
    r = ws_req(w, {"id": 4, "op": "watch", "device": "dummy0", "attr": "in_voltage0_raw",
                   "interval_ms": 50})
    ev = [json.loads(w.recv()) for _ in range(3)]
    check(r == {"id": 4, "ok": True} and all("event" in e for e in ev), "WATCH events: %r" % ev)
    ws_req(w, {"op": "unwatch"})
    w.close()


class TcpStream:
    """One JSON STREAM over TCP: its reply, then blocks (header line + payload)."""

    def __init__(self, d, req):
        self.s = socket.create_connection(("127.0.0.1", d.port), timeout=10)
        self.buf = b""
        self.off = 0
        self.received = 0
        self.s.sendall(json.dumps(req).encode() + b"\n")
        self.reply = json.loads(self.line())

    def _fill(self):
        chunk = self.s.recv(65536)
        if not chunk:
            raise ConnectionError("the daemon closed the stream's connection")
        self.received += len(chunk)
        self.buf = self.buf[self.off:] + chunk
        self.off = 0

    def line(self):
        while self.buf.find(b"\n", self.off) < 0:
            self._fill()
        end = self.buf.index(b"\n", self.off)
        line, self.off = self.buf[self.off:end], end + 1
        return line

    def take(self, n):
        while len(self.buf) - self.off < n:
            self._fill()
        data, self.off = self.buf[self.off:self.off + n], self.off + n
        return data

    def block(self):
        """Return: (the block's header object, its payload)."""
        while True:
            h = json.loads(self.line())
            if "block" in h:
                return h["block"], self.take(h["block"]["bytes"])

    def close(self):
        self.s.close()


def ws_block(w):
    """The next block on a WebSocket, skipping other messages.
    Return: (header object, the payload message's opcode, payload) or (header, None, None)."""
    while True:
        op, data = w.recv_data()
        if op == websocket.ABNF.OPCODE_TEXT and data.startswith(b'{"block":'):
            h = json.loads(data)["block"]
            if "bytes" not in h:
                return h, None, None
            op, pay = w.recv_data()
            return h, op, pay


def ws_until(w, rid):
    """Messages up to the reply with id @rid. Return: (that reply, the messages before it)."""
    before = []
    while True:
        op, data = w.recv_data()
        if op == websocket.ABNF.OPCODE_TEXT:
            m = json.loads(data)
            if m.get("id") == rid:
                return m, before
            before.append(m)
        else:
            before.append(data)


def records(blocks, size, key):
    """Records of raw payloads (or CSV lines when @size is None), by @key (their timestamp)."""
    out = {}
    for pay in blocks:
        if size is None:
            for line in pay.decode().splitlines():
                out[key(line)] = line
        else:
            for i in range(0, len(pay), size):
                out[key(pay[i:i + size])] = pay[i:i + size]
    return out


def test_stream_exact(d):
    """The same STREAM over TCP and over the WebSocket: the same records, byte for byte."""
    for dev, fmt, chans, scans in (("dummy0", "raw", ["voltage0", "accel_x", "timestamp"], 4),
                                   ("max1363", "csv", ["voltage0", "timestamp"], 2)):
        req = {"id": 1, "op": "stream", "device": dev, "trigger": "hrt0", "scans": scans,
               "format": fmt, "channels": chans}
        tcp = TcpStream(d, req)
        w = d.ws()
        w.send(json.dumps(req))
        r = json.loads(w.recv())
        check(r == tcp.reply, "%s STREAM reply over WS %r, TCP %r" % (fmt, r, tcp.reply))
        size = r["stream"]["scan_bytes"] if fmt == "raw" else None
        ws_pay, ops, sizes_ok = [], set(), True
        for _ in range(12):
            h, op, pay = ws_block(w)
            ops.add(op)
            sizes_ok &= len(pay) == h["bytes"] and h["format"] == fmt and h["scans"] == scans
            ws_pay.append(pay)
        want = websocket.ABNF.OPCODE_BINARY if fmt == "raw" else websocket.ABNF.OPCODE_TEXT
        check(ops == {want}, "%s payloads are %s messages: %r" % (fmt, "binary" if fmt == "raw"
                                                                  else "text", ops))
        check(sizes_ok, "%s: each payload message is the header's bytes" % fmt)
        tcp_pay = [tcp.block()[1] for _ in range(16)]
        if size:
            key = lambda rec: rec[8:16]  # noqa: E731 - the timestamp, at offset 8
        else:
            key = lambda line: line.split(",")[-1]  # noqa: E731
        a, b = records(ws_pay, size, key), records(tcp_pay, size, key)
        common = set(a) & set(b)
        check(len(common) >= 8 and all(a[k] == b[k] for k in common),
              "%s: %d records over both, equal: %s" % (fmt, len(common),
                                                        all(a[k] == b[k] for k in common)))
        tcp.close()
        w.close()
    w = d.ws()
    w.send(json.dumps({"id": 3, "op": "stream", "device": "dummy0", "trigger": "hrt0",
                       "scans": 2, "format": "json", "channels": ["voltage0", "accel_x"]}))
    r = json.loads(w.recv())
    check(r.get("ok") is True, "a json-format STREAM: %r" % r)
    h, op, pay = ws_block(w)
    check(op is None and len(h["values"]) == 2 and h["values"][0][1] == 344,
          "a json block is one text message with its values: %r" % h)
    w.close()


def test_stream_requests(d):
    """UNSTREAM, STREAMS, the limits at N and N+1, bad requests, others served after."""
    w = d.ws()
    req = {"op": "stream", "device": "dummy0", "trigger": "hrt0", "scans": 1, "format": "raw",
           "channels": ["voltage0"]}
    w.send(json.dumps(dict(req, id=1)))
    check(json.loads(w.recv()).get("ok") is True, "a stream of a block per scan")
    ws_block(w)
    w.send(json.dumps({"id": 2, "op": "unstream", "stream": 1}))
    r, _ = ws_until(w, 2)
    w.send(json.dumps({"id": 3, "op": "version"}))
    v, between = ws_until(w, 3)
    check(r == {"id": 2, "ok": True} and v.get("ok") and not between,
          "no block after UNSTREAM's reply: %r" % between[:3])
    # 4096 scans a block at 100 Hz: no block comes during the test
    big = dict(req, scans=PROTO_STREAM_SCANS_MAX)
    oks = 0
    for i in range(STREAMS_MAX):
        w.send(json.dumps(dict(big, id=10 + i)))
        oks += json.loads(w.recv()).get("ok") is True
    check(oks == STREAMS_MAX, "%d streams of %d scans on one WebSocket" %
          (oks, PROTO_STREAM_SCANS_MAX))
    r = ws_req(w, dict(big, id=40))
    check(r.get("id") == 40 and r.get("error") == "EBUSY", "stream %d: %r" % (STREAMS_MAX + 1, r))
    r = ws_req(w, {"id": 41, "op": "streams"})
    check(len(r.get("streams", [])) == STREAMS_MAX, "STREAMS lists %d" % len(r.get("streams", [])))
    r = ws_req(w, {"id": 42, "op": "unstream"})
    check(r == {"id": 42, "ok": True} and ws_req(w, {"op": "streams"})["streams"] == [],
          "UNSTREAM all: %r" % r)
    for bad, err in ((dict(req, scans=PROTO_STREAM_SCANS_MAX + 1), "ERANGE"),
                     (dict(req, channels=["nope0"]), "ENOENT"),
                     ({"op": "stream", "device": "tsl2563", "trigger": "hrt0", "scans": 1},
                      "EINVAL"),
                     (dict(req, trigger="hrt9"), "ENODEV"),
                     ({"op": "unstream", "stream": 99}, "ENOENT")):
        r = ws_req(w, dict(bad, id=50))
        check(r.get("id") == 50 and r.get("error") == err, "%r: %r" % (bad, r))
    check(ws_req(w, {"id": 51, "op": "version"}).get("ok") is True, "the WebSocket goes on")
    w.close()
    check(d.ws_ok(), "serving others after the stream requests")


def test_events(d):
    """SUBSCRIBE on the WebSocket: an event poked over TCP arrives as one text message."""
    w = d.ws()
    r = ws_req(w, {"id": 1, "op": "subscribe", "device": "dummy0"})
    check(r == {"id": 1, "ok": True}, "SUBSCRIBE dummy0: %r" % r)
    r = d.tcp({"op": "write", "device": "iio_evgen", "attr": "poke_ev0", "value": "0"})
    check(r.get("ok") is True, "poke_ev0 over TCP: %r" % r)
    op, data = w.recv_data()
    ev = json.loads(data).get("iio_event", {}) if op == websocket.ABNF.OPCODE_TEXT else {}
    check(ev.get("device") == "dummy0" and ev.get("type") == "voltage" and
          ev.get("evtype") == "thresh" and ev.get("direction") == "rising" and
          ev.get("channel") == 0 and ev.get("id") == "0x0001000000000000",
          "the event on the WebSocket: %r" % data)
    r = ws_req(w, {"id": 2, "op": "subscribe", "device": "iio_evgen"})
    check(r.get("error") == "ENODEV", "SUBSCRIBE to a device without events: %r" % r)
    r = ws_req(w, {"id": 3, "op": "unsubscribe"})
    check(r == {"id": 3, "ok": True}, "UNSUBSCRIBE: %r" % r)
    w.close()


def test_slow_tab(d, rate):
    """A WebSocket that stops reading a fast stream loses blocks, counted (S-6); a TCP
    reader of the same device loses none; the daemon serves others and stays small."""
    req = {"id": 1, "op": "stream", "device": "dummy0", "trigger": "hrt0", "scans": 64,
           "format": "raw"}
    slow = websocket.create_connection(d.ws_url(), timeout=10, sockopt=(
        (socket.SOL_SOCKET, socket.SO_RCVBUF, 4096),))
    slow.send(json.dumps(req))
    check(json.loads(slow.recv()).get("ok") is True, "the slow tab's STREAM")
    fast = TcpStream(d, req)
    rss0 = d.rss_kib()
    # read the fast one until the slow one's queue is full: the daemon's bytes_out grows
    # by what the fast one gets, not by the slow one's 16-byte scans at @rate any more
    last, still, lost_fast = None, 0, 0
    deadline = time.time() + (120 if wrapped() else 30)
    while still < 2 and time.time() < deadline:
        t = time.time() + 0.5
        while time.time() < t:
            lost_fast += fast.block()[0]["lost"]
        out = d.tcp({"op": "stats"})["stats"]["bytes_out"] - fast.received
        # below an eighth of its 16 * rate bytes a second, per half second
        still = still + 1 if last is not None and out - last < rate else 0
        last = out
    # ...and then until its output in the daemon is twice over SRV_STREAM_QUEUE_BYTES
    t = time.time() + 2 * QUEUE_BYTES / (16 * rate)
    while time.time() < t:
        lost_fast += fast.block()[0]["lost"]
    rss1 = d.rss_kib()
    lost = 0
    deadline = time.time() + 60
    while not lost and time.time() < deadline:
        lost = ws_block(slow)[0]["lost"]
    slow.send(json.dumps({"id": 2, "op": "streams"}))
    st = ws_until(slow, 2)[0]["streams"][0]
    check(lost > 0 and st["lost"] >= lost,
          "the slow tab lost %d scans, counted in a header and STREAMS (%d)" %
          (lost, st["lost"]))
    for _ in range(20):
        lost_fast += fast.block()[0]["lost"]
    check(lost_fast == 0, "the TCP reader of the same device lost %d" % lost_fast)
    w = d.ws()   # (dummy0's raw reads are EBUSY while it captures, as the kernel's)
    check(ws_req(w, {"id": 9, "op": "read", "device": "tsl2563",
                     "attr": "in_illuminance0_input"}).get("ok") is True,
          "serving others beside the slow tab")
    w.close()
    print("web: a stalled tab: daemon RSS %d -> %d KiB" % (rss0, rss1), flush=True)
    check(rss1 - rss0 < 4096, "the stalled tab costs the daemon %d KiB" % (rss1 - rss0))
    fast.close()
    slow.close()


def pipelined(d, line, n):
    """@n copies of the text request @line at once on one TCP connection.
    Return: how many were answered OK."""
    with socket.create_connection(("127.0.0.1", d.port), timeout=60) as s:
        s.sendall((line + "\n").encode() * n)
        data = b""
        while data.count(b"\n") < n:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    return data.split(b"\n").count(b"OK")


def slow_tab(d):
    """A WebSocket whose kernel receive buffer is tiny: it stalls as soon as it stops reading."""
    return websocket.create_connection(d.ws_url(), timeout=10, sockopt=(
        (socket.SOL_SOCKET, socket.SO_RCVBUF, 4096),))


def drained_closed(w, secs=30):
    """Read whatever the daemon still sends: does it end with a close (within @secs)?"""
    deadline = time.time() + (secs * 10 if wrapped() else secs)
    w.settimeout(5)
    try:
        while time.time() < deadline:
            if w.recv_data(control_frame=True)[0] == websocket.ABNF.OPCODE_CLOSE:
                return True
    except (websocket.WebSocketConnectionClosedException, ConnectionError):
        return True
    except websocket.WebSocketTimeoutException:
        pass
    return False


def test_held_events(d, n=600):
    """A tab that stops reading while @n events fire, then reads again with no new
    event: every held event arrives (its output's drain moves them), none lost."""
    w = slow_tab(d)
    r = ws_req(w, {"id": 1, "op": "subscribe", "device": "dummy0"})
    check(r == {"id": 1, "ok": True}, "SUBSCRIBE before the stall: %r" % r)
    check(pipelined(d, "WRITE iio_evgen poke_ev0 0", n) == n, "%d pokes over TCP" % n)
    got, lost = 0, 0
    w.settimeout(60 if wrapped() else 5)
    try:
        while got + lost < n:
            m = json.loads(w.recv_data()[1])
            got += "iio_event" in m
            lost += m.get("iio_event_lost", {}).get("count", 0)
    except websocket.WebSocketTimeoutException:
        pass
    check(got == n and lost == 0, "held events after the stall: %d of %d, %d lost" %
          (got, n, lost))
    w.close()


def test_trigger_gone_full(d):
    """16 unread streams on a sysfs trigger the tab added, filled by trigger_now, then
    remove_trigger: the tab's output passes the hard limit while the capture's readers
    end (issue 26); the daemon serves on."""
    w = slow_tab(d)
    r = ws_req(w, {"id": 1, "op": "write", "device": "iio_sysfs_trigger",
                   "attr": "add_trigger", "value": "7"})
    check(r == {"id": 1, "ok": True}, "add_trigger 7: %r" % r)
    for i in range(STREAMS_MAX):
        r = ws_req(w, {"id": 10 + i, "op": "stream", "device": "dummy0",
                       "trigger": "sysfstrig7", "scans": 1024, "format": "raw",
                       "channels": ["voltage0", "timestamp"]})
        check(r.get("ok") is True, "STREAM %d on sysfstrig7: %r" % (i, r))
    want = STREAMS_MAX * QUEUE_BYTES
    deadline = time.time() + (600 if wrapped() else 60)
    queued = 0
    while queued < want and time.time() < deadline:
        pipelined(d, "WRITE sysfstrig7 trigger_now 1", 4096)
        queued = d.tcp({"op": "stats"})["stats"]["queued_bytes"]
    check(queued == want, "16 full queues: %d bytes held" % queued)
    r = d.tcp({"op": "write", "device": "iio_sysfs_trigger", "attr": "remove_trigger",
               "value": "7"})
    check(r.get("ok") is True, "remove_trigger 7 over TCP: %r" % r)
    check(drained_closed(w), "the tab past the output limit is closed")
    check(d.tcp({"op": "stats"})["stats"]["queued_bytes"] == 0, "nothing held after it")
    check(d.ws_ok(), "serving others after the trigger went")


def test_streamend(d, path, board):
    """A reload that removes the streamed device: STREAMEND ENODEV as one text message."""
    w = d.ws()
    r = ws_req(w, {"id": 1, "op": "stream", "device": "dummy0", "trigger": "hrt0", "scans": 64,
                   "format": "csv", "channels": ["accel_x", "timestamp"]})
    check(r.get("ok") is True, "a csv stream before the reload: %r" % r)
    b = dict(board, devices=[x for x in board["devices"] if x.get("name") != "dummy0"])
    with open(path, "w") as f:
        json.dump(b, f)
    d.proc.send_signal(signal.SIGHUP)
    end = None
    deadline = time.time() + 30
    while end is None and time.time() < deadline:
        op, data = w.recv_data()
        if op == websocket.ABNF.OPCODE_TEXT and data.startswith(b'{"streamend"'):
            end = json.loads(data)["streamend"]
    check(end is not None and end["stream"] == 1 and end["error"] == "ENODEV",
          "STREAMEND on the WebSocket: %r" % end)
    check(ws_req(w, {"id": 2, "op": "streams"}).get("streams") == [], "no stream after it")
    w.close()


def test_event_board(build_dir):
    """The demo board (its iio_evgen pokes dummy0's events) with hrt0 at 50 kHz."""
    b = json.load(open(demo))
    b["triggers"][0]["sampling_frequency"] = 5000 if wrapped() else 50000
    f = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    json.dump(b, f)
    f.close()
    d = Daemon(build_dir, f.name)
    try:
        test_events(d)
        test_held_events(d)
        test_trigger_gone_full(d)
        test_slow_tab(d, b["triggers"][0]["sampling_frequency"])
        test_streamend(d, f.name, b)
    finally:
        check(d.stop() == 0, "the event board's daemon stops cleanly")
        os.unlink(f.name)


def test_bad_messages(d):
    w = d.ws()
    w.send("devices")
    r = json.loads(w.recv())
    check(r.get("error") == "EINVAL" and "JSON" in r.get("message", ""), "text: %r" % r)
    w.send('{"op":"version"}\n{"op":"version"}')
    r = json.loads(w.recv())
    check(r.get("error") == "EINVAL" and "line break" in r.get("message", ""), "LF: %r" % r)
    w.send('{"op":')
    r = json.loads(w.recv())
    check(r.get("error") == "EINVAL", "broken JSON: %r" % r)
    w.send_binary(b'{"id":5,"op":"version"}')
    r = json.loads(w.recv())
    check(r.get("id") == 5 and r.get("ok"), "a binary message is a request too: %r" % r)
    # a message of exactly the limit (blanks after the object are allowed, P-8)
    req = '{"id":6,"op":"version"}'
    w.send(req + " " * (MESSAGE_MAX - len(req)))
    r = json.loads(w.recv())
    check(r.get("id") == 6 and r.get("ok"), "a message of %d bytes: %r" % (MESSAGE_MAX, r))
    # one message in three frames (continuation frames)
    w.send_frame(websocket.ABNF.create_frame('{"id":7,', websocket.ABNF.OPCODE_TEXT, 0))
    w.send_frame(websocket.ABNF.create_frame('"op":"ver', websocket.ABNF.OPCODE_CONT, 0))
    w.send_frame(websocket.ABNF.create_frame('sion"}', websocket.ABNF.OPCODE_CONT, 1))
    r = json.loads(w.recv())
    check(r.get("id") == 7 and r.get("ok"), "a message in 3 frames: %r" % r)
    w.send(req + " " * (MESSAGE_MAX + 1 - len(req)))
    r = json.loads(w.recv())
    check(r.get("error") == "E2BIG" and str(MESSAGE_MAX) in r.get("message", ""),
          "a message of %d bytes: %r" % (MESSAGE_MAX + 1, r))
    check(closed(w), "closed after E2BIG")
    check(d.ws_ok(), "serving others after E2BIG")


def test_huge_frame(d):
    """A frame that declares 2^62 bytes: refused at byte MESSAGE_MAX + 1, never buffered."""
    w = d.ws()
    hdr = bytes([0x81, 0x80 | 127]) + struct.pack(">Q", 1 << 62) + b"\0\0\0\0"
    w.sock.sendall(hdr + b"x" * (64 * 1024))
    r = json.loads(w.recv())
    check(r.get("error") == "E2BIG", "a 2^62-byte frame: %r" % r)
    check(closed(w), "closed after the huge frame")
    check(d.ws_ok(), "serving others after a huge frame")


def test_origin(d, allowed, alive=True):
    same = "http://127.0.0.1:%d" % d.hport
    for origin, ok in ((same, True), ("http://evil.example", False),
                       ("http://127.0.0.1:%d.evil.example" % d.hport, False),
                       (allowed, allowed is not None)):
        if origin is None:
            continue
        try:
            w = d.ws(origin=origin)
            got = ws_req(w, {"op": "version"}).get("ok") is True
            w.close()
        except (websocket.WebSocketException, ConnectionError):
            got = False
        check(got == ok, "Origin %s: %s" % (origin, "taken" if got else "refused"))
    if alive:
        check(d.ws_ok(), "serving others after a cross-origin attempt")


def test_smuggling(d):
    out = http_raw(d.hport, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                   b"\x00\xff\xfeGARBAGE \x01\x02\r\n\r\nGET /healthz HTTP/1.1\r\n\r\n")
    check(out.startswith(b"HTTP/1.1 200") and out.count(b"HTTP/1.1 200") == 1,
          "pipelined garbage after a GET: %r" % out[:200])
    out = http_raw(d.hport, b"POST /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4\r\n"
                   b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /healthz HTTP/1.1\r\n\r\n")
    check(b"ok 10 devices" not in out, "a smuggled GET behind CL+TE answered: %r" % out[:300])
    big = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * (HEADER_MAX + 1) + b"\r\n\r\n"
    out = http_raw(d.hport, big)
    check(not out.startswith(b"HTTP/1.1 200"), "headers over %d bytes: %r" % (HEADER_MAX, out[:80]))
    many = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"X-A: b\r\n" * 2000 + b"\r\n"
    out = http_raw(d.hport, many)
    check(not out.startswith(b"HTTP/1.1 200"), "2000 headers: %r" % out[:80])
    ok = HEADER_MAX // 2
    out = http_raw(d.hport, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * ok +
                   b"\r\nConnection: close\r\n\r\n")
    check(out.startswith(b"HTTP/1.1 200"), "headers of %d bytes taken: %r" % (ok, out[:80]))
    check(d.ws_ok(), "serving others after smuggling attempts")

REBIND = "rebind.attacker.example"


def status_with_host(port, host, path="/healthz"):
    """The HTTP status of GET @path with Host: @host (None: no Host, HTTP/1.0)."""
    if host is None:
        req = b"GET %s HTTP/1.0\r\n\r\n" % path.encode()
    else:
        req = b"GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n" % (
            path.encode(), host.encode())
    out = http_raw(port, req)
    return int(out.split(b" ")[1]) if out.startswith(b"HTTP/1.") else 0


def ws_as(port, host):
    """A rebinding page's WebSocket: Host and Origin both @host. Return: the WRITE's
    reply, or the handshake's HTTP status (an int) when refused."""
    try:
        w = websocket.create_connection("ws://127.0.0.1:%d/ws" % port, timeout=10,
                                        host=host, origin="http://" + host)
    except websocket.WebSocketBadStatusException as e:
        return e.status_code
    r = ws_req(w, {"id": 1, "op": "write", "device": "dummy0", "attr": "out_voltage0_raw",
                   "value": "4095"})
    w.close()
    return r


def interface_address():
    """An IPv4 address of this host's that is not loopback (None if there is none)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        for _, name in socket.if_nameindex():
            try:
                req = struct.pack("256s", name.encode()[:15])
                addr = socket.inet_ntoa(fcntl.ioctl(s.fileno(), 0x8915, req)[20:24])
            except OSError:
                continue  # SIOCGIFADDR: no IPv4 address on it
            if not addr.startswith("127."):
                return addr
    finally:
        s.close()
    return None


def test_host(d):
    """DNS rebinding: on a 127.0.0.1 listener only its address, localhost and this host's
    names are answered; a rebinding page's handshake and its WRITE are refused."""
    p = d.hport
    r = ws_as(p, "%s:%d" % (REBIND, p))
    check(r == 403, "a rebinding page's WebSocket (Host = Origin = %s): %r" % (REBIND, r))
    for host, want in (("%s:%d" % (REBIND, p), 403), (REBIND, 403), ("127.0.0.2:%d" % p, 403),
                       ("[::1]:%d" % p, 403), ("127.1", 403), ("a:b:c", 403),
                       ("127.0.0.1:%d" % p, 200), ("localhost:%d" % p, 200),
                       ("LocalHost.", 200), (socket.gethostname(), 200), (None, 200)):
        for path in ("/healthz", "/"):
            got = status_with_host(p, host, path)
            check(got == want, "Host %r on %s: %d, not %d" % (host, path, got, want))
    r = ws_as(p, "127.0.0.1:%d" % p)
    check(isinstance(r, dict) and r.get("ok") is True, "the page's own Host: %r" % r)
    check(d.ws_ok(), "serving others after refused Hosts")


def test_host_list(build_dir):
    """--http-host NAME lets a name in; a wildcard listener also answers the host's
    interface addresses, not others; a refusal's log line names --http-host."""
    exe = os.path.join(build_dir, "server", "iiowired")
    for bad in ("http://x.example", "x.example:80", "a b", "*.example", "x.example.", ""):
        r = subprocess.run([exe, "--http-host", bad, "--list-drivers"], capture_output=True)
        check(r.returncode == 2 and b"--http-host" in r.stderr,
              "--http-host %r: exit %d %r" % (bad, r.returncode, r.stderr[:80]))
    for good in ("x.example", "192.0.2.1", "::1", "[::1]", "*"):
        r = subprocess.run([exe, "--http-host", good, "--list-drivers"], capture_output=True)
        check(r.returncode == 0, "--http-host %r taken: exit %d" % (good, r.returncode))
    log = tempfile.TemporaryFile()
    wild = free_port()
    d = Daemon(build_dir, demo, "--http-host", REBIND, "--http-listen", "0.0.0.0:%d" % wild,
               "--log-level", "info", stderr=log)
    try:
        r = ws_as(d.hport, "%s:%d" % (REBIND, d.hport))
        check(isinstance(r, dict) and r.get("ok") is True, "--http-host %s: %r" % (REBIND, r))
        check(status_with_host(d.hport, "other.attacker.example") == 403,
              "a name not listed is still refused")
        addr = interface_address()
        for host, bound, wildcard in ((addr, 403, 200), ("192.0.2.1", 403, 403),
                                      ("127.0.0.1", 200, 200)):
            if host is None:
                continue
            got = (status_with_host(d.hport, host), status_with_host(wild, host))
            check(got == (bound, wildcard), "Host %s on 127.0.0.1 and 0.0.0.0: %r, not %r" %
                  (host, got, (bound, wildcard)))
    finally:
        check(d.stop() == 0, "the --http-host daemon stops cleanly")
    log.seek(0)
    text = log.read().decode(errors="replace")
    check("Host 'other.attacker.example' refused" in text and
          "--http-host other.attacker.example" in text, "the refusal's log line: %r" %
          [x for x in text.splitlines() if "Host" in x][:2])


WEB_PER_ADDR = 8      # SRV_WEB_HTTP_PER_ADDR_MAX
HTTP_TIMEOUT_S = 10   # SRV_WEB_HTTP_TIMEOUT_S


def test_per_address(d):
    """SRV_WEB_HTTP_PER_ADDR_MAX connections of one address in HTTP are held, one more
    is closed at once; a slot comes back when one ends; WebSockets do not count."""
    socks = [unfinished(d.hport, "127.0.0.3") for _ in range(WEB_PER_ADDR)]
    time.sleep(0.3)
    extra = unfinished(d.hport, "127.0.0.3")
    check(server_closed(extra, 2), "connection %d of 127.0.0.3 in HTTP: closed" %
          (WEB_PER_ADDR + 1))
    check(not any(server_closed(s, 0.1) for s in socks), "the first %d stay" % WEB_PER_ADDR)
    socks[0].close()
    time.sleep(0.3)
    socks[0] = unfinished(d.hport, "127.0.0.3")
    check(not server_closed(socks[0], 0.5), "one closed: a new one of 127.0.0.3 is taken")
    for s in socks:
        s.close()
    time.sleep(0.3)
    ws = []
    for _ in range(WEB_PER_ADDR + 2):
        w = websocket.create_connection(d.ws_url(), timeout=5)
        w.sock.close()  # the daemon still holds it; only the handshake's slot mattered
        ws.append(w)
    socks = [unfinished(d.hport, "127.0.0.3") for _ in range(WEB_PER_ADDR)]
    time.sleep(0.3)
    check(not any(server_closed(s, 0.1) for s in socks),
          "after %d WebSockets, %d in HTTP are taken again" % (len(ws), WEB_PER_ADDR))
    for s in socks:
        s.close()


def test_slow_headers(build_dir):
    """100 reconnecting slow-header sockets from one address (a header line every 5 s)
    while real clients from another get their page, /healthz and WebSocket; one
    trickling a header line a second is closed at SRV_WEB_HTTP_TIMEOUT_S, not kept."""
    d = Daemon(build_dir, demo)
    try:
        test_per_address(d)
        if wrapped():
            # the deadline and the real clients' 5 s are wall-clock figures valgrind stretches
            print("web: the slow-header flood is skipped under valgrind", flush=True)
            return
        flood = Flood(d.hport, "127.0.0.2", 100, 5).start()
        time.sleep(1)
        trickle = unfinished(d.hport, "127.0.0.4")
        t0 = time.time()
        ok = tries = 0
        worst = 0.0
        closed_at = None
        while closed_at is None and time.time() - t0 < HTTP_TIMEOUT_S + 5:
            t = time.time()
            tries += 1
            ok += status_with_host(d.hport, "127.0.0.1") == 200 and d.ws_ok()
            worst = max(worst, time.time() - t)
            try:
                trickle.send(b"X-Trickle: 1\r\n")
            except OSError:
                pass
            if server_closed(trickle, max(0.0, 1 - (time.time() - t))):
                closed_at = time.time() - t0
        flood.stop()
        print("web: 100 slow-header sockets from one address: %d of %d /healthz + WebSocket "
              "rounds served, slowest %.2f s; %d opened, %d closed by the daemon; a trickling "
              "request closed after %s s" % (ok, tries, worst, flood.opened, flood.closed,
                                              "%.1f" % closed_at if closed_at else "never"),
              flush=True)
        check(tries >= 4 and ok == tries, "real clients beside the flood: %d of %d" % (ok, tries))
        check(flood.closed >= 100 - WEB_PER_ADDR, "the flood's sockets past %d closed: %d" %
              (WEB_PER_ADDR, flood.closed))
        check(closed_at is not None and HTTP_TIMEOUT_S - 1 <= closed_at <= HTTP_TIMEOUT_S + 3,
              "a request trickled a header a second: closed after %s s" % closed_at)
    finally:
        check(d.stop() == 0, "the slow-header daemon stops cleanly")


def test_idle(d, n):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    before = d.rss_kib()
    socks = [d.ws() for _ in range(n)]
    time.sleep(0.5)
    after = d.rss_kib()
    stats = d.tcp({"op": "stats"})["stats"]
    check(stats["clients"] == n + 1, "STATS clients %d with %d idle WebSockets + 1" %
          (stats["clients"], n))
    check(d.ws_ok(), "serving others with %d idle WebSockets" % n)
    print("web: %d idle WebSockets: RSS %d KiB -> %d KiB (%.1f KiB each)" %
          (n, before, after, (after - before) / n), flush=True)
    for s in socks:
        s.close()


def test_limits(build_dir):
    """--max-clients N and N+1, AUTH first, --read-only, an unfinished message."""
    tokfile = tempfile.NamedTemporaryFile("w", delete=False)
    tokfile.write("sixteen-byte-token-ok\n")
    tokfile.close()
    os.chmod(tokfile.name, 0o600)
    d = Daemon(build_dir, demo, "--max-clients", "2", "--auth-token-file", tokfile.name,
               "--read-only", "--line-timeout-ms", "500", "--http-origin",
               "http://dash.example:1880")
    try:
        a = d.ws()
        r = ws_req(a, {"id": 1, "op": "devices"})
        check(r.get("error") == "EACCES" and "authentication" in r.get("message", ""),
              "DEVICES before AUTH: %r" % r)
        r = ws_req(a, {"id": 2, "op": "auth", "token": "sixteen-byte-token-ok"})
        check(r == {"id": 2, "ok": True}, "AUTH: %r" % r)
        r = ws_req(a, {"id": 3, "op": "write", "device": "dummy0", "attr": "out_voltage0_raw",
                       "value": "1"})
        check(r.get("error") == "EACCES", "WRITE with --read-only: %r" % r)
        b = d.ws()
        check(ws_req(b, {"op": "version"}).get("ok") is True, "client 2 of --max-clients 2")
        c = d.ws()
        r = json.loads(c.recv())
        check(r.get("error") == "EBUSY", "client 3 of --max-clients 2: %r" % r)
        check(closed(c), "client 3 closed")
        b.close()
        time.sleep(0.3)
        test_origin(d, "http://dash.example:1880", alive=False)
        time.sleep(0.3)
        u = d.ws()
        u.send_frame(websocket.ABNF.create_frame('{"op":', websocket.ABNF.OPCODE_TEXT, 0))
        u.settimeout(5)
        r = json.loads(u.recv())
        check(r.get("error") == "ETIMEDOUT", "an unfinished message: %r" % r)
        check(closed(u), "closed after the line timeout")
        a.close()
    finally:
        check(d.stop() == 0, "the second daemon stops cleanly")
        os.unlink(tokfile.name)


def test_dac_board(build_dir):
    """maps/dac.json's MCP4726 over the WebSocket, as the page sets it: CHANNELS
    names its output channel's _raw and _powerdown; a WRITE of 4095 (12 bits)
    reads back over TCP, 4096 is EINVAL (the kernel's mcp4725_write_raw); the
    _powerdown outside --allow-write is EACCES and stays 0."""
    d = Daemon(build_dir, os.path.join(src, "maps", "dac.json"),
               "--allow-write", "mcp4726:out_voltage0_raw")
    try:
        w = d.ws()
        r = ws_req(w, {"id": 1, "op": "channels", "device": "mcp4726"})
        out = [c for c in r.get("channels", []) if c.get("output")]
        attrs = out[0]["attributes"] if out else []
        check("out_voltage0_raw" in attrs and "out_voltage0_powerdown" in attrs,
              "the DAC's output channel over WS: %r" % out)
        for val, want in (("4095", None), ("4096", "EINVAL")):
            r = ws_req(w, {"id": 2, "op": "write", "device": "mcp4726",
                           "attr": "out_voltage0_raw", "value": val})
            check(r.get("error") == want, "WRITE out_voltage0_raw %s: %r" % (val, r))
        got = d.tcp({"op": "read", "device": "mcp4726", "attr": "out_voltage0_raw"})
        check(got.get("value") == "4095", "4095 over WS read over TCP: %r" % got)
        r = ws_req(w, {"id": 3, "op": "write", "device": "mcp4726",
                       "attr": "out_voltage0_powerdown", "value": "1"})
        check(r.get("error") == "EACCES", "_powerdown outside --allow-write: %r" % r)
        got = d.tcp({"op": "read", "device": "mcp4726", "attr": "out_voltage0_powerdown"})
        check(got.get("value") == "0", "the refused _powerdown changed nothing: %r" % got)
        w.close()
    finally:
        check(d.stop() == 0, "the DAC board's daemon stops cleanly")


def main():
    d = Daemon(build, demo, "--allow-write", "dummy0:out_voltage*_raw",
               "--allow-write", "*:trigger/current_trigger", "--allow-write", "*:buffer/enable")
    try:
        test_http(d)
        test_protocol(d)
        test_stream_exact(d)
        test_stream_requests(d)
        test_bad_messages(d)
        test_huge_frame(d)
        test_origin(d, None)
        test_smuggling(d)
        test_host(d)
        # 1,000 as for TCP idle connections; under valgrind the handshakes take minutes
        test_idle(d, 50 if wrapped() else 1000)
        w = d.ws()
        w.send(json.dumps({"op": "watch", "device": "dummy0", "attr": "in_voltage0_raw",
                           "interval_ms": 100}))
        w.recv()
    finally:
        check(d.stop() == 0, "SIGTERM with a watching WebSocket: exit 0")
    test_limits(build)
    test_host_list(build)
    test_slow_headers(build)
    test_event_board(build)
    test_dac_board(build)
    end()


main()
