#!/usr/bin/python3
"""test_server_web.py - iiowired --http-listen against real clients
(python3-websocket, raw sockets): the WebSocket is the native protocol
(READ there equals READ over TCP), the page's files and /healthz are
served, and each bad input (non-JSON, a line break, messages and frames at
SRV_WEB_MESSAGE_MAX_BYTES and one byte more, a cross-origin page, pipelined
garbage, huge headers, too many clients, an unfinished message, 1,000 idle
WebSockets) gets its answer while the daemon goes on serving others.
Usage: test_server_web.py BUILD_DIR SOURCE_DIR. Last line: "N passed, M failed"."""
import json
import os
import resource
import socket
import struct
import sys
import tempfile
import time
import urllib.error
import urllib.request

import websocket

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from webtest import Daemon, check, end, http_raw, wrapped  # noqa: E402

MESSAGE_MAX = 4096  # SRV_WEB_MESSAGE_MAX_BYTES (= PROTO_LINE_MAX_BYTES)
HEADER_MAX = 4096   # SRV_WEB_HEADER_MAX_BYTES

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
    check(body == "ok 7 devices\n", "/healthz said %r" % body)
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
    r = ws_req(w, {"id": 5, "op": "stream", "device": "dummy0", "trigger": "hrt0", "scans": 2,
                   "format": "json", "channels": ["voltage0"]})
    check(r.get("id") == 5 and r.get("error") == "EOPNOTSUPP", "STREAM on the WS: %r" % r)
    r = ws_req(w, {"id": 6, "op": "version"})
    check(r.get("ok") is True, "the WS serves on after a refused STREAM: %r" % r)
    w.close()


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
    out = http_raw(d.hport, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
                   b"\x00\xff\xfeGARBAGE \x01\x02\r\n\r\nGET /healthz HTTP/1.1\r\n\r\n")
    check(out.startswith(b"HTTP/1.1 200") and out.count(b"HTTP/1.1 200") == 1,
          "pipelined garbage after a GET: %r" % out[:200])
    out = http_raw(d.hport, b"POST /ws HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n"
                   b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /healthz HTTP/1.1\r\n\r\n")
    check(b"ok 7 devices" not in out, "a smuggled GET behind CL+TE answered: %r" % out[:300])
    big = b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (HEADER_MAX + 1) + b"\r\n\r\n"
    out = http_raw(d.hport, big)
    check(not out.startswith(b"HTTP/1.1 200"), "headers over %d bytes: %r" % (HEADER_MAX, out[:80]))
    many = b"GET / HTTP/1.1\r\nHost: x\r\n" + b"X-A: b\r\n" * 2000 + b"\r\n"
    out = http_raw(d.hport, many)
    check(not out.startswith(b"HTTP/1.1 200"), "2000 headers: %r" % out[:80])
    ok = HEADER_MAX // 2
    out = http_raw(d.hport, b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * ok +
                   b"\r\nConnection: close\r\n\r\n")
    check(out.startswith(b"HTTP/1.1 200"), "headers of %d bytes taken: %r" % (ok, out[:80]))
    check(d.ws_ok(), "serving others after smuggling attempts")


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


def main():
    d = Daemon(build, demo, "--allow-write", "dummy0:out_voltage*_raw")
    try:
        test_http(d)
        test_protocol(d)
        test_bad_messages(d)
        test_huge_frame(d)
        test_origin(d, None)
        test_smuggling(d)
        # 1,000 as for TCP idle connections; under valgrind the handshakes take minutes
        test_idle(d, 50 if wrapped() else 1000)
        w = d.ws()
        w.send(json.dumps({"op": "watch", "device": "dummy0", "attr": "in_voltage0_raw",
                           "interval_ms": 100}))
        w.recv()
    finally:
        check(d.stop() == 0, "SIGTERM with a watching WebSocket: exit 0")
    test_limits(build)
    end()


main()
