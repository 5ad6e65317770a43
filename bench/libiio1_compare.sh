#!/bin/sh
# libiio1_compare.sh - libiio 1.0's clients against iiowired and against
# iiod 1.0, serving the same tree, in one run (issue 30): context creation,
# attribute reads/s, iio_rwdev block throughput at 1 KiB and 16 KiB blocks,
# event latency; the figures side by side (bench/libiio1_bench.py measures).
#
# The tree is tests/libiio1_tree.sh's (tests/kernel_tree.sh's devices on a
# tmpfs /sys, in a private mount and network namespace: unshare -m -n, root):
# iiowired --kernel and iiod 1.0 (its local backend) read the same files; the
# max1036's node (u8 samples voltage0..3: 4-byte scans) is a FIFO a feeder
# fills flat out for each block row, and the max1363's event fd, a FIFO, is
# played by tests/preload/kshim.c for both servers. Both servers run at once and each
# metric alternates between them, $RUNS times (medians printed): the shared
# machine's load drifts, and so each gets its share of every moment; one
# block row or event row reads the FIFOs at a time.
# libiio 1.0 comes from tests/libiio1.sh's cache (built if missing).
#
# Until iiowired speaks libiio 1.0's binary protocol the client stays on
# the text protocol with it, where it has no event streams: that row says
# n/a and why (and the XML says 0.24). The other rows run now. iiod 1.0's
# event row says n/a too on this tree, at 4e3cfe61: its local backend makes
# an event stream only while the device's buffer is open (local.c,
# local_open_events_fd: EPERM otherwise; the row holds one open), and then
# the stream's first READ_EVENT came back ETIMEDOUT at once (not diagnosed).
# usage: bench/libiio1_compare.sh [BUILD_DIR]   (SECS=3 N=3000 RUNS=5 CTX=30 EVENTS=200)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build/release}
if [ "${L1C_INNER:-}" != 1 ]; then
	unshare -m -n true 2>/dev/null ||
		{ echo "libiio1_compare: needs unshare -m -n (root)" >&2; exit 2; }
	[ -x "$build/server/iiowired" ] && [ -f "$build/tests/libiiowire_kshim.so" ] ||
		{ echo "libiio1_compare: build $build first (iiowired, iiowire_kshim)" >&2; exit 2; }
	out=$(sh "$top/tests/libiio1.sh") || { echo "$out" >&2; exit 2; }
	case $out in *SKIPPED*) echo "$out" >&2; exit 2 ;; esac
	L1C_INNER=1 exec unshare -m -n --propagation private sh "$0" "$build"
fi
secs=${SECS:-3}
n=${N:-3000}
runs=${RUNS:-5}
nctx=${CTX:-30}
nev=${EVENTS:-200}
py=/usr/bin/python3
src=$top
prefix=$(sh "$top/tests/libiio1.sh" --prefix)
tmp=$(mktemp -d /tmp/iiowire-l1c.XXXXXX)
. "$top/tests/libiio1_tree.sh"
cleanup() {
	# shellcheck disable=SC2086
	[ -z "$spids" ] || { kill $spids; wait $spids; } 2>/dev/null
	l1_tree_end
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
l1_tree_begin
port_w=30611
port_i=30612
spids=
dev=max1036
chans=voltage0,voltage1,voltage2,voltage3
record=11223344

# bench NAME PORT METRIC ARGS...: one libiio1_bench.py run against the server on PORT,
# its RESULT lines into $tmp/NAME
bench() {
	bn=$1
	bp=$2
	shift 2
	timeout -s KILL 300 "$py" "$top/bench/libiio1_bench.py" "$prefix" "ip:127.0.0.1:$bp" \
		"$dev" "$chans" "$@" 2>&1 | tee -a "$tmp/$bn" | sed "s/^/$bn: /" >&2
}

# both METRIC ARGS...: the metric against each server, $runs times, alternating (the
# machine's load drifts: each server gets its share of every moment); the feeder for
# a block row is fresh for each run
both() {
	r=0
	while [ $r -lt "$runs" ]; do
		for s in "iiowired $port_w" "iiod1 $port_i"; do
			# shellcheck disable=SC2086
			set -- $s "$@"
			[ "$3" != block ] || l1_feed_start "$record"
			bench "$@"
			[ "$3" != block ] || l1_feed_stop
			shift 2
		done
		r=$((r + 1))
	done
}

# start NAME PORT COMMAND...: a server (kshim preloaded) listening on PORT
start() {
	sn=$1
	sp=$2
	shift 2
	LD_PRELOAD="$l1_kshim" "$@" >"$tmp/$sn.log" 2>&1 &
	spids="$spids $!"
	i=0
	until nc -z 127.0.0.1 "$sp" 2>/dev/null || [ $i -ge 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
start iiowired "$port_w" "$build/server/iiowired" --kernel --listen "unix:$tmp/sock" \
	--iiod-listen "127.0.0.1:$port_w" --log-level warn
start iiod1 "$port_i" env LD_LIBRARY_PATH="$prefix/lib" "$prefix/sbin/iiod" -p "$port_i"
both ctx "$nctx"
both attr "$n" 1
both block 1024 "$secs"
both block 16384 "$secs"
# one event reader at a time (the event FIFO): each server's run alone
runs=1
dev=max1363
chans=voltage0
both event "$nev" "$l1_evnode.events"
dev=max1036
chans=voltage0,voltage1,voltage2,voltage3

# val NAME METRIC: the median of the runs' figures (or "n/a")
val() {
	sed -n "s/^RESULT $2 \([^ ]*\).*/\1/p" "$tmp/$1" | sort -g |
		awk '{ v[NR] = $1 } END { if (NR) print (v[1] == "n/a") ? "n/a" : v[int((NR + 1) / 2)] }'
}

echo "### libiio 1.0 clients: iiowired against iiod 1.0 on the same fake tree"
echo
echo "$dev (4-byte scans $chans), $(date -u '+%Y-%m-%d %H:%M') UTC, load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| metric | iiowired | iiod 1.0 | iiowired / iiod 1.0 |"
echo "|---|---|---|---|"
for m in "ctx_ms context creation, median ms" "attr_per_s attribute reads/s (in_voltage0_raw)" \
	"block_1024_MBps iio_rwdev 1 KiB blocks, MB/s" "block_16384_MBps iio_rwdev 16 KiB blocks, MB/s" \
	"event_p50_us event latency p50, us" "event_p99_us event latency p99, us" \
	"event_count events measured" "event_streams_remade event streams remade (the client's race)"; do
	key=${m%% *}
	w=$(val iiowired "$key")
	i=$(val iiod1 "$key")
	r=$(awk -v w="$w" -v i="$i" 'BEGIN { if (w + 0 > 0 && i + 0 > 0) printf "%.2f", w / i }')
	echo "| ${m#* } | ${w:-?} | ${i:-?} | ${r:--} |"
done
for s in iiowired iiod1; do
	grep -q 'n/a' "$tmp/$s" && sed -n "s/^RESULT \([^ ]*\) n\/a \(.*\)/- $s, \1: n\/a, \2/p" "$tmp/$s" | sort -u
done
exit 0
