#!/bin/sh
# test_authrate.sh - AUTH guessing by reconnecting is throttled per source
# (issue 16 B4): clients that each open their own connection and send one
# wrong token get their answers SRV_AUTH_FAIL_DELAY_MS apart, not all at
# once; unix-socket clients share one source. The right token still works
# at once afterwards.
# Usage: test_authrate.sh BUILD_DIR SOURCE_DIR. The last line is "N passed, M failed".
set -u
build=$1
src=$2
daemon=$build/server/iiowired
cli=$build/client/iiowire
. "$src/tests/shtest.sh"
shtest_begin authrate
printf 'a right token, long enough\n' >"$tmp/token"
printf 'a wrong token, long enough\n' >"$tmp/bad"
chmod 600 "$tmp/token" "$tmp/bad"
sock=$tmp/sock
"$daemon" --listen "unix:$sock" --board "$src/maps/stargate2.json" --log-level error \
	--auth-token-file "$tmp/token" &
dpid=$!
pids="$pids $dpid"
shtest_wait_socket "$sock"
a="$cli -a unix:$sock"

# guessers N NAME: N clients at once, each on its own connection with the wrong
# token, stderr in $tmp/NAME0...; their pids in $gpids
guessers() {
	n=0
	gpids=""
	while [ $n -lt "$1" ]; do
		$a --token-file "$tmp/bad" version >/dev/null 2>"$tmp/$2$n" &
		gpids="$gpids $!"
		n=$((n + 1))
	done
}

# four guessers at once: at 1 s apart, at most two answers can have come 2.5 s
# after they started (unthrottled: all four)
guessers 4 err
sleep 2.5
done_n=0
for p in $gpids; do kill -0 "$p" 2>/dev/null || done_n=$((done_n + 1)); done
if [ $done_n -le 2 ]; then ok; else bad "$done_n of 4 wrong tokens answered within 2.5 s"; fi
for p in $gpids; do wait "$p"; done
n=0
while [ $n -lt 4 ]; do
	if grep -q EACCES "$tmp/err$n"; then ok; else bad "guesser $n: $(cat "$tmp/err$n")"; fi
	n=$((n + 1))
done
if $a --token-file "$tmp/token" version >/dev/null 2>&1; then ok; else bad "right token refused"; fi

# online guessing held answers for a minute (from the 11th wrong token each hold doubles,
# up to SRV_AUTH_PENALTY_MAX_MS): SIGTERM drops them, each guesser gets ESHUTDOWN, and the
# daemon is gone within 2 s whatever the holds (it waited for the last of them before)
guessers 14 held
sleep 0.5
t0=$(date +%s%N)
kill -TERM "$dpid"
wait "$dpid"
st=$?
ms=$((($(date +%s%N) - t0) / 1000000))
if [ $st -eq 0 ] && [ $ms -lt 2000 ]; then ok; else bad "SIGTERM with held AUTHs: exit $st after $ms ms"; fi
for p in $gpids; do wait "$p"; done
if grep -l ESHUTDOWN "$tmp"/held* >/dev/null; then ok; else bad "held guessers: $(cat "$tmp"/held*)"; fi
shtest_end
