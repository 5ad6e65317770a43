# shtest.sh - what iiowire's shell tests share (sourced, not run): a
# temporary directory that goes at exit together with the processes the
# test started (their pids in $pids), the pass/fail count whose last line
# "N passed, M failed" ends every test, and a wait for a unix socket.

# shtest_begin NAME: $tmp (in $TMPDIR, default /tmp), $pids, the counters,
# and the traps: at exit, and on SIGINT, SIGTERM and SIGHUP too (dash runs
# the exit trap only on an exit), the cleanup. A test sets $shtest_atexit
# to a command the cleanup runs once its processes are gone (to undo what
# it mounted elsewhere from $tmp, e.g. kt_dev_undo)
shtest_begin() {
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/iiowire-$1-XXXXXX")
	pids=""
	shtest_atexit=""
	passed=0
	failed=0
	trap shtest_cleanup EXIT
	trap 'exit 129' HUP
	trap 'exit 130' INT
	trap 'exit 143' TERM
}

shtest_cleanup() {
	# a failed run shows what its daemons said ($tmp/log, where the tests keep it)
	if [ "${failed:-0}" -gt 0 ] && [ -s "$tmp/log" ]; then
		echo "--- the end of $tmp/log:"
		tail -n 60 "$tmp/log"
	fi
	for p in $pids; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	[ -z "$shtest_atexit" ] || eval "$shtest_atexit"
	# what a test mounted under $tmp and had not unmounted when it stopped
	# (test_kernel.sh's bound /dev nodes, its read-only /sys): rm -rf cannot
	# remove a mount point, and would go into a mounted tree
	for m in $(awk -v t="$tmp/" 'index($5, t) == 1 { print $5 }' /proc/self/mountinfo |
		sort -r); do
		umount -l "$m" 2>/dev/null
	done
	rm -rf "$tmp"
}

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }

# shtest_wait_socket PATH: until a unix socket is there (5 s at most, 30 under a
# wrapper such as valgrind); iiowired renames its socket into place once it
# listens, so one that is there answers
shtest_wait_socket() {
	i=0
	ws_max=100
	[ -z "${IIOWIRE_TEST_WRAPPER:-}" ] || ws_max=600
	while [ ! -S "$1" ] && [ $i -lt $ws_max ]; do
		sleep 0.05
		i=$((i + 1))
	done
}

# shtest_wait_port PORT [TENTHS]: until something listens on loopback PORT
# (TENTHS tenths of a second at most, default 100)
shtest_wait_port() {
	wp_i=0
	until nc -z 127.0.0.1 "$1" 2>/dev/null || [ $wp_i -ge "${2:-100}" ]; do
		sleep 0.1
		wp_i=$((wp_i + 1))
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
