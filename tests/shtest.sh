# shtest.sh - what iiowire's shell tests share (sourced, not run): a
# temporary directory that goes at exit together with the processes the
# test started (their pids in $pids), the pass/fail count whose last line
# "N passed, M failed" ends every test, and a wait for a unix socket.

# shtest_begin NAME: $tmp, $pids, the counters, and the exit trap
shtest_begin() {
	tmp=$(mktemp -d "/tmp/iiowire-$1-XXXXXX")
	pids=""
	passed=0
	failed=0
	trap shtest_cleanup EXIT
}

shtest_cleanup() {
	for p in $pids; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	rm -rf "$tmp"
}

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }

# shtest_wait_socket PATH: until a unix socket is there (5 s at most)
shtest_wait_socket() {
	i=0
	while [ ! -S "$1" ] && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
}

# shtest_end: the summary line; the test's exit status
shtest_end() {
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}

# shtest_clean_exit PID ERRFILE: SIGTERM the process; true if it exits 0 and
# its stderr holds no sanitizer report (in an ASan build: no leak either)
shtest_clean_exit() {
	kill "$1" 2>/dev/null
	wait "$1"
	st=$?
	[ $st -eq 0 ] && ! grep -qE 'Sanitizer|runtime error:' "$2"
}

# shtest_free_port N: a loopback TCP port nothing listens on, below the
# kernel's ephemeral range (a client's local port there could take it back
# between a server's restarts); N spreads the ports one test asks for
shtest_free_port() {
	p=$((20000 + ($$ * 13 + $1 * 7) % 12000))
	while nc -z 127.0.0.1 $p 2>/dev/null; do p=$((p + 1)); done
	echo $p
}
