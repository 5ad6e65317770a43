#!/bin/sh
# test_stats.sh - STATS counts as sent only what the kernel took: while a
# client that does not read holds the daemon's output past the pause
# limit (256 KiB queued in the daemon), bytes_out stays that far below what
# it reaches once the client has read it all. Usage: test_stats.sh BUILD_DIR
# SOURCE_DIR. The last line is "N passed, M failed".
set -u
build=$1
src=$2
. "$src/tests/shtest.sh"
command -v python3 >/dev/null || { echo "test_stats: SKIPPED: no python3"; exit 0; }
shtest_begin stats
${IIOWIRE_TEST_WRAPPER:-} "$build/server/iiowired" --board "$src/maps/stargate2.json" \
	--listen "unix:$tmp/sock" --log-level warn &
pids="$pids $!"
shtest_wait_socket "$tmp/sock"
python3 - "$tmp/sock" >"$tmp/out" 2>&1 <<'PY'
import fcntl, socket, struct, sys, termios, time
path = sys.argv[1]
def stat_bytes_out():
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    s.sendall(b"STATS\nQUIT\n")
    data = b""
    while not data.endswith(b"OK\n"):
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    for line in data.decode().splitlines():
        if line.startswith("bytes_out "):
            return int(line.split()[1])
    raise SystemExit("no bytes_out in " + repr(data))
slow = socket.socket(socket.AF_UNIX)
slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
slow.connect(path)
slow.sendall(b"HELP\n" * 4000)
time.sleep(1.0)
def unread():
    return struct.unpack("i", fcntl.ioctl(slow.fileno(), termios.FIONREAD, b"\0" * 4))[0]
before = unread()
mid = stat_bytes_out()
after = unread()
slow.sendall(b"QUIT\n")
got = 0
while True:
    chunk = slow.recv(1 << 20)
    if not chunk:
        break
    got += len(chunk)
final = stat_bytes_out()
print("bytes_out", mid, "with", before, "unread in the slow client's socket;",
      "in the end", final, "of which it read", got)
sys.exit(0 if mid == before == after and got > before else 1)
PY
if [ $? -eq 0 ]; then ok; else bad "bytes_out counted queued output: $(cat "$tmp/out")"; fi
cat "$tmp/out"
shtest_end
