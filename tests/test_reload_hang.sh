#!/bin/sh
# test_reload_hang.sh - a SIGHUP reload while a bus transfer hangs (issue 16
# B2): the reload must not wait for the stuck worker (the daemon still
# answers, a second SIGHUP does not wedge it), and SIGTERM then ends the
# daemon, status 0, within SRV_BUSQ_JOIN_TIMEOUT_MS (2 s) and a margin.
# Then the same when the reload itself hangs: a probe of the new board whose
# bus transfer never returns. The hang is an emulated bus fault of mode
# "hang" (maps/README.md "fault"; "from": "probe" arms it for the probe).
# Usage: test_reload_hang.sh BUILD_DIR SOURCE_DIR. The last line is "N passed, M failed".
set -u
build=$1
src=$2
daemon=$build/server/iiowired
cli=$build/client/iiowire
. "$src/tests/shtest.sh"
shtest_begin reloadhang
# write_board FILE NAME [FAULT]: one max1238 on an emulated bus; FAULT is its "fault" object
write_board() {
	fault=${3:+, \"fault\": $3}
	cat >"$1" <<JSON
{"board": "$2", "buses": {"i2c-0": {"type": "i2c", "backend": "emulated"}},
 "devices": [{"driver": "max1238", "bus": "i2c-0", "address": "0x35",
   "emulate": {"AIN0": 3300}$fault}]}
JSON
}
# start_daemon BOARD SOCKET: sets dpid and a (the CLI on it)
start_daemon() {
	"$daemon" --listen "unix:$2" --board "$1" --log-level error 2>"$2.log" &
	dpid=$!
	pids="$pids $dpid"
	shtest_wait_socket "$2"
	a="$cli -a unix:$2"
}
write_board "$tmp/board.json" hang '{"mode": "hang", "after": 0}'
start_daemon "$tmp/board.json" "$tmp/sock"

# the read times out; its worker stays in the transfer
if $a read max1238 in_voltage0_raw 2>"$tmp/err"; then bad "read of a hanging bus succeeded"
elif grep -q ETIMEDOUT "$tmp/err"; then ok; else bad "read: $(cat "$tmp/err")"; fi
kill -HUP "$dpid"
sleep 0.5
kill -HUP "$dpid"
sleep 0.3
if $a version >/dev/null 2>&1; then ok; else bad "no answer after the reloads"; fi

# SIGTERM: gone within 3 s (the 2 s join of the stuck worker and a margin)
term_within_3s() {
	kill -TERM "$dpid"
	i=0
	while kill -0 "$dpid" 2>/dev/null && [ $i -lt 30 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 "$dpid" 2>/dev/null; then
		bad "$1: still running 3 s after SIGTERM"
		kill -KILL "$dpid"
		wait "$dpid" 2>/dev/null
	else
		wait "$dpid"
		st=$?
		if [ $st = 0 ]; then ok; else bad "$1: exit status $st after SIGTERM"; fi
	fi
}
term_within_3s "worker hung"

# a reload whose probe hangs (for 60 s): the old board keeps serving, and
# SIGTERM still ends the daemon in time
write_board "$tmp/probe.json" probehang
start_daemon "$tmp/probe.json" "$tmp/sock2"
write_board "$tmp/probe.json" probehang '{"mode": "hang", "from": "probe"}'
kill -HUP "$dpid"
sleep 0.5
out=$($a read max1238 in_voltage0_raw 2>&1)
if [ "$out" = 3300 ]; then ok; else bad "old board during the hung reload: $out"; fi
term_within_3s "probe hung in a reload"
shtest_end
