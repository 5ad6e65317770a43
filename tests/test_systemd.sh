#!/bin/sh
# test_systemd.sh - iiowired under systemd's protocols, with systemd's own
# tools where they exist: socket activation through systemd-socket-activate
# (the first connection starts the daemon, which serves the sockets it was
# given, iiowire's and libiio's by name, and binds none of its defaults),
# and Type=notify (READY=1 once listening, RELOADING=1 then READY=1 around a
# SIGHUP reload, STOPPING=1 at SIGTERM) read off a NOTIFY_SOCKET of the
# test's own, and the log's syslog priorities for journald. Usage:
# test_systemd.sh BUILD_DIR SOURCE_DIR.
set -u
build=$1
src=$2
daemon=$build/server/iiowired
. "$src/tests/shtest.sh"
shtest_begin systemd
board=$src/maps/stargate2.json
base=$((31000 + $$ % 500 * 2))

if command -v systemd-socket-activate >/dev/null; then
	systemd-socket-activate -l "127.0.0.1:$base" -l "127.0.0.1:$((base + 1))" \
		--fdname=native:iiod -- ${IIOWIRE_TEST_WRAPPER:-} "$daemon" --board "$board" \
		>"$tmp/sa.log" 2>&1 &
	pids="$pids $!"
	sleep 0.3
	reply=$(printf 'read max1238 in_voltage_scale\nquit\n' | timeout 10 nc -q 2 -w 5 127.0.0.1 "$base")
	if [ "$reply" = "$(printf 'OK 1.000000000\nOK')" ]; then ok; else bad "activated READ: '$reply'"; fi
	if command -v iio_info >/dev/null; then
		if timeout 10 iio_info -u "ip:127.0.0.1:$((base + 1))" 2>&1 | grep -q max1238; then ok
		else bad "iio_info on the socket named iiod"; fi
	fi
	if grep -q "listening on 127.0.0.1:$base (from systemd)" "$tmp/sa.log"; then ok
	else bad "no 'from systemd' listener line: $(cat "$tmp/sa.log")"; fi
	if grep -q "30432" "$tmp/sa.log"; then bad "an activated daemon bound its default port"; else ok; fi
fi

if command -v python3 >/dev/null; then
	python3 - "$tmp/notify" >"$tmp/notes" 2>&1 <<'PY' &
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
s.settimeout(20)
try:
    while True:
        msg = s.recv(4096).decode()
        print(msg.replace("\n", " "), flush=True)
        if "STOPPING=1" in msg:
            break
except socket.timeout:
    pass
PY
	pids="$pids $!"
	shtest_wait_socket "$tmp/notify"
	NOTIFY_SOCKET=$tmp/notify ${IIOWIRE_TEST_WRAPPER:-} "$daemon" --board "$board" \
		--listen "unix:$tmp/sock" >"$tmp/d.log" 2>&1 &
	dpid=$!
	i=0
	until grep -q READY=1 "$tmp/notes" || [ $i -ge 200 ]; do sleep 0.05; i=$((i + 1)); done
	if [ -S "$tmp/sock" ] && grep -q 'READY=1' "$tmp/notes"; then ok
	else bad "no READY=1 with the listener open: $(cat "$tmp/notes")"; fi
	kill -HUP $dpid
	i=0
	until [ "$(grep -c READY=1 "$tmp/notes")" -ge 2 ] || [ $i -ge 200 ]; do sleep 0.05; i=$((i + 1)); done
	if grep -q 'RELOADING=1' "$tmp/notes" && [ "$(grep -c READY=1 "$tmp/notes")" -ge 2 ]; then ok
	else bad "no RELOADING=1 then READY=1 around SIGHUP: $(cat "$tmp/notes")"; fi
	kill -TERM $dpid
	wait $dpid
	i=0
	until grep -q STOPPING=1 "$tmp/notes" || [ $i -ge 100 ]; do sleep 0.05; i=$((i + 1)); done
	if grep -q 'STOPPING=1' "$tmp/notes"; then ok; else bad "no STOPPING=1: $(cat "$tmp/notes")"; fi
fi
# the log as journald reads it ($JOURNAL_STREAM names stderr): a syslog
# priority first; and on a terminal (script(1) gives one): the time first
: >"$tmp/journal"
JOURNAL_STREAM=$(stat -c %d:%i "$tmp/journal") "$daemon" --board "$board" \
	--listen "unix:$tmp/jsock" --log-level debug 2>>"$tmp/journal" &
jpid=$!
i=0
until grep -q 'iiowired 0' "$tmp/journal" || [ $i -ge 100 ]; do sleep 0.05; i=$((i + 1)); done
kill $jpid
wait $jpid
if grep -q '^<6>iiowired: info: listening on unix:' "$tmp/journal" &&
	! grep -qv '^<[3467]>iiowired: ' "$tmp/journal"; then ok
else bad "journal priorities: $(head -3 "$tmp/journal")"; fi
if command -v script >/dev/null; then
	script -qec "timeout -s TERM 1 $daemon --board $board --listen unix:$tmp/tsock" \
		/dev/null >"$tmp/tty" 2>&1
	if grep -qE '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8}\.[0-9]{3} iiowired: info: listening' \
		"$tmp/tty"; then ok
	else bad "no timestamps on a terminal: $(head -2 "$tmp/tty")"; fi
fi
shtest_end
