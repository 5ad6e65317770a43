#!/bin/sh
# cost_compare.sh - what a connection and a request cost iiowired, against
# echo_uv (the floor) in the same run (issue 33). Measures that the machine's
# other load does not distort: the server's private memory (smaps_rollup
# Private_Clean + Private_Dirty) while loadgen holds 10,000 idle connections
# (each answered one probe request), minus the same at rest, per connection;
# and the server's CPU time (utime + stime of /proc/PID/stat, loadgen -P)
# per request under load (READs of 4 attributes in turn, so the session's
# memo of its last line does not apply; echo_uv gets the same bytes). Every server is measured RUNS times, alternating;
# each figure is the median with the min-max of the runs.
#
# usage: bench/cost_compare.sh [BUILD_DIR] [RUNS]
#   SERVERS  "label=path ..." of iiowired binaries to compare side by side
#            (default: "iiowired=BUILD_DIR/server/iiowired"), e.g. a build
#            of main against this tree's
#   LOADGEN, ECHO_UV  built instruments (default: built from /work/shared/bench,
#            or $BENCH_SRC)
#   CONNS (10000), SECS (3), LOADS ("C D" pairs, default "1 32,16 1"; "-": none)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build/release}
runs=${2:-3}
secs=${SECS:-3}
conns=${CONNS:-10000}
loads=${LOADS:-1 32,16 1}
[ "$loads" = - ] && loads=
servers=${SERVERS:-iiowired=$build/server/iiowired}
src=${BENCH_SRC:-/work/shared/bench}
tmp=$(mktemp -d /tmp/iiowire-cost.XXXXXX)
port=30620
pids=
trap 'kill $pids 2>/dev/null; rm -rf "$tmp"' EXIT
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

if [ -z "${LOADGEN:-}" ]; then
	cc -O2 -o "$tmp/loadgen" "$src/loadgen.c" || exit 2
	LOADGEN=$tmp/loadgen
fi
if [ -z "${ECHO_UV:-}" ]; then
	cc -O2 -o "$tmp/echo_uv" "$src/echo_uv.c" -luv || exit 2
	ECHO_UV=$tmp/echo_uv
fi
cat > "$tmp/board.json" <<'EOF'
{"board": "bench", "buses": {"i2c-0": {"type": "i2c", "backend": "emulated"}},
 "devices": [{"driver": "iio_dummy", "name": "dummy0"},
  {"driver": "max1363", "bus": "i2c-0", "address": "0x34", "emulate": {"AIN0": 1000}}]}
EOF

# start every server, fresh; "label port pid" lines in $tmp/servers
start_servers() {
	: > "$tmp/servers"
	pids=
	port=30620
	for sv in $servers; do
		port=$((port + 1))
		"${sv#*=}" --listen "127.0.0.1:$port" --board "$tmp/board.json" --log-level warn \
			--max-clients $((conns + 100)) &
		pids="$pids $!"
		echo "${sv%%=*} $port $!" >> "$tmp/servers"
	done
	port=$((port + 1))
	"$ECHO_UV" "$port" 2>/dev/null &
	pids="$pids $!"
	echo "echo_uv $port $!" >> "$tmp/servers"
	sleep 1
}
stop_servers() {
	kill $pids 2>/dev/null
	wait $pids 2>/dev/null
	pids=
}

priv_kb() {
	awk '/^Private_(Clean|Dirty):/ {s += $2} END {print s}' "/proc/$1/smaps_rollup"
}

# utime + stime of @1, in clock ticks (fields 14 and 15 after the command's ")")
cpu_ticks() {
	sed 's/.*) //' "/proc/$1/stat" | awk '{print $12 + $13}'
}
hz=$(getconf CLK_TCK)

# median and range of the numbers on stdin: "median (min-max)"
stat3() {
	sort -n | awk '{v[n++] = $1} END {
		m = (n % 2) ? v[int(n / 2)] : (v[n / 2 - 1] + v[n / 2]) / 2
		printf "%.2f (%.2f-%.2f)", m, v[0], v[n - 1] }'
}
median() {
	sort -n | awk '{v[n++] = $1} END { print (n % 2) ? v[int(n / 2)] : (v[n / 2 - 1] + v[n / 2]) / 2 }'
}

# idle connections: private bytes per connection and at rest, "label bytes KiB" per
# run; fresh servers for each run (a heap does not shrink back after a run)
i=0
while [ $i -lt "$runs" ]; do
	start_servers
	while read -r lbl p pid; do
		req='READ max1363 in_voltage0_raw\n'
		rest=$(priv_kb "$pid")
		"$LOADGEN" -a "127.0.0.1:$p" -r "$req" -c "$conns" -d 0 -b 64 -w 1 -T 4 \
			> "$tmp/idle.out" &
		lg=$!
		# all connected (the server's descriptors), then 2.5 s held: its sweeps ran
		n=0
		while [ $n -lt 300 ] && [ "$(ls /proc/"$pid"/fd | wc -l)" -lt "$conns" ]; do
			sleep 0.1
			n=$((n + 1))
		done
		sleep 2.5
		held=$(priv_kb "$pid")
		wait $lg
		echo "$lbl $(( (held - rest) * 1024 / conns )) $rest" >> "$tmp/idle"
	done < "$tmp/servers"
	stop_servers
	i=$((i + 1))
done
echo "| server | private KiB at rest | private bytes per idle connection ($conns held), median (min-max) of $runs |"
echo "|---|---|---|"
while read -r lbl p pid; do
	echo "| $lbl | $(awk -v l="$lbl" '$1 == l {print $3}' "$tmp/idle" | stat3) |" \
	     "$(awk -v l="$lbl" '$1 == l {print $2}' "$tmp/idle" | stat3) |"
done < "$tmp/servers"
echo

# CPU per request: utime + stime of the server over the answered requests
start_servers
echo "| load | server | µs CPU per request, median (min-max) of $runs | × echo_uv (median) |"
echo "|---|---|---|---|"
echo "$loads" | tr ',' '\n' | while read -r c d; do
	[ -n "$c" ] || continue
	: > "$tmp/cpu"
	i=0
	while [ $i -lt "$runs" ]; do
		while read -r lbl p pid; do
			# the same bytes to echo_uv, which answers every line without reading it
			t0=$(cpu_ticks "$pid")
			ok=$("$LOADGEN" -a "127.0.0.1:$p" -r 'READ max1363 in_voltage{n}_raw\n' -k 4 \
				-e OK -c "$c" -d "$d" -w 0 -T "$secs" | grep '^RESULT' |
				sed 's/.* ok=\([0-9]*\) .*/\1/')
			t1=$(cpu_ticks "$pid")
			echo "$lbl $(awk -v t="$((t1 - t0))" -v n="$ok" -v hz="$hz" \
				'BEGIN {printf "%.3f", t * 1e6 / hz / n}')" >> "$tmp/cpu"
		done < "$tmp/servers"
		i=$((i + 1))
	done
	floor=$(awk '$1 == "echo_uv" {print $2}' "$tmp/cpu" | median)
	while read -r lbl p pid; do
		m=$(awk -v l="$lbl" '$1 == l {print $2}' "$tmp/cpu" | median)
		echo "| C=$c D=$d | $lbl | $(awk -v l="$lbl" '$1 == l {print $2}' "$tmp/cpu" | stat3) |" \
		     "$(awk -v a="$m" -v b="$floor" 'BEGIN {printf "%.2f", a / b}') |"
	done < "$tmp/servers"
done
