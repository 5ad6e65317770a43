#!/bin/sh
# test_reload_hang.sh - a SIGHUP reload while a bus transfer hangs (issue 16
# B2): the reload must not wait for the stuck worker (the daemon still
# answers, a second SIGHUP does not wedge it), and SIGTERM then ends the
# daemon, status 0, within SRV_BUSQ_JOIN_TIMEOUT_MS (2 s) and a margin.
# The hang is an emulated bus fault of mode "hang" (maps/README.md "fault").
# Usage: test_reload_hang.sh BUILD_DIR SOURCE_DIR. The last line is "N passed, M failed".
set -u
build=$1
src=$2
daemon=$build/server/iiowired
cli=$build/client/iiowire
. "$src/tests/shtest.sh"
shtest_begin reloadhang
cat >"$tmp/board.json" <<'JSON'
{"board": "hang", "buses": {"i2c-0": {"type": "i2c", "backend": "emulated"}},
 "devices": [{"driver": "max1238", "bus": "i2c-0", "address": "0x35",
   "emulate": {"AIN0": 3300}, "fault": {"mode": "hang", "after": 0}}]}
JSON
sock=$tmp/sock
"$daemon" --listen "unix:$sock" --board "$tmp/board.json" --log-level error 2>"$tmp/log" &
dpid=$!
pids="$pids $dpid"
shtest_wait_socket "$sock"
a="$cli -a unix:$sock"

# the read times out; its worker stays in the transfer
if $a read max1238 in_voltage0_raw 2>"$tmp/err"; then bad "read of a hanging bus succeeded"
elif grep -q ETIMEDOUT "$tmp/err"; then ok; else bad "read: $(cat "$tmp/err")"; fi
kill -HUP "$dpid"
sleep 0.5
kill -HUP "$dpid"
sleep 0.3
if $a version >/dev/null 2>&1; then ok; else bad "no answer after the reloads"; fi

# SIGTERM: gone within 3 s (the 2 s join of the stuck worker and a margin)
kill -TERM "$dpid"
i=0
while kill -0 "$dpid" 2>/dev/null && [ $i -lt 30 ]; do
	sleep 0.1
	i=$((i + 1))
done
if kill -0 "$dpid" 2>/dev/null; then
	bad "still running 3 s after SIGTERM"
	kill -KILL "$dpid"
	wait "$dpid" 2>/dev/null
else
	wait "$dpid"
	st=$?
	if [ $st = 0 ]; then ok; else bad "exit status $st after SIGTERM"; fi
fi
shtest_end
