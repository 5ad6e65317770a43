#!/bin/sh
# compare.sh - iiowired against echo_uv (a bare libuv line server, the floor)
# in one run, on the loads of bench/RESULTS.md; prints a markdown table.
#
# Each load alternates the two servers RUNS times and reports the medians,
# because a 2-core machine's figures move +-15 % from run to run; only the
# ratios of one run mean anything. The request is a READ of an emulated
# MAX1363 input (board written to a temp file). Idle memory: 10,000
# connections that each answered one request, held 3 s.
#
# usage: bench/compare.sh [BUILD_DIR] [RUNS]
#   BUILD_DIR  a build tree with server/iiowired and server/iiowire-bench
#              (default ./build/release)
#   ECHO_UV    path of a built echo_uv (default: built from $ECHO_UV_SRC,
#              ../shared/bench/echo_uv.c next to the repository)
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build/release}
runs=${2:-7}
secs=${SECS:-3}
srv=$build/server/iiowired
bench=$build/server/iiowire-bench
tmp=$(mktemp -d /tmp/iiowire-compare.XXXXXX)
port_srv=${PORT_SRV:-30590}
port_echo=${PORT_ECHO:-30591}

[ -x "$srv" ] && [ -x "$bench" ] || { echo "compare.sh: build $build first" >&2; exit 2; }
if [ -z "$ECHO_UV" ]; then
	src=${ECHO_UV_SRC:-$top/../shared/bench/echo_uv.c}
	[ -r "$src" ] || { echo "compare.sh: no echo_uv source at $src (set ECHO_UV_SRC)" >&2; exit 2; }
	cc -O2 -o "$tmp/echo_uv" "$src" -luv
	ECHO_UV=$tmp/echo_uv
fi
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

cat > "$tmp/board.json" <<'EOF'
{"board": "bench", "buses": {"i2c-0": {"type": "i2c", "backend": "emulated"}},
 "devices": [{"driver": "iio_dummy", "name": "dummy0"},
  {"driver": "max1363", "bus": "i2c-0", "address": "0x34", "emulate": {"AIN0": 1000}}]}
EOF

"$srv" --listen "127.0.0.1:$port_srv" --board "$tmp/board.json" --log-level warn \
	--max-clients 15000 &
spid=$!
"$ECHO_UV" "$port_echo" 2>/dev/null &
epid=$!
trap 'kill $spid $epid 2>/dev/null; rm -rf "$tmp"' EXIT
sleep 1
rest_srv=$(awk '/VmRSS/ {print $2}' /proc/$spid/status)
rest_echo=$(awk '/VmRSS/ {print $2}' /proc/$epid/status)

# one RESULT line per run into $tmp/results
load() {
	i=0
	while [ $i -lt "$runs" ]; do
		"$bench" -p "$port_srv" -P $spid -L iiowired -t "$secs" -w 1 "$@" | grep '^RESULT'
		"$bench" -p "$port_echo" -P $epid -L echo_uv -t "$secs" -w 1 "$@" | grep '^RESULT'
		i=$((i + 1))
	done
}

# median of field $2 for label $1 over the RESULT lines on stdin
median() {
	awk -v lbl="$1" -v key="$2" '
	{ for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	  if (f["label"] == lbl) v[n++] = f[key] }
	END { for (i = 0; i < n; i++) for (j = i + 1; j < n; j++)
		if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
	      print (n % 2) ? v[int(n / 2)] : (v[n / 2 - 1] + v[n / 2]) / 2 }'
}

echo "| load | iiowired req/s | echo_uv req/s | ratio | iiowired p50/p99/p99.9 us | echo_uv p50/p99/p99.9 us |"
echo "|---|---|---|---|---|---|"
for spec in "16 1" "1 32" "1 1" "256 1"; do
	set -- $spec
	load -c "$1" -d "$2" > "$tmp/results"
	a=$(median iiowired rps < "$tmp/results")
	b=$(median echo_uv rps < "$tmp/results")
	lat() {
		echo "$(median "$1" p50_us < "$tmp/results") / $(median "$1" p99_us < "$tmp/results")" \
		     "/ $(median "$1" p999_us < "$tmp/results")"
	}
	printf '| C=%s D=%s | %.0f | %.0f | %.2f | %s | %s |\n' "$1" "$2" "$a" "$b" \
		"$(echo "$a $b" | awk '{print $1 / $2}')" "$(lat iiowired)" "$(lat echo_uv)"
done

"$bench" -p "$port_srv" -P $spid -L iiowired -c 10000 -d 0 -t 3 -w 0 | grep '^RESULT' \
	> "$tmp/idle"
"$bench" -p "$port_echo" -P $epid -L echo_uv -c 10000 -d 0 -t 3 -w 0 | grep '^RESULT' \
	>> "$tmp/idle"
echo
echo "| memory | iiowired | echo_uv |"
echo "|---|---|---|"
echo "| RSS at rest | $rest_srv KiB | $rest_echo KiB |"
echo "| RSS, 10,000 idle connections | $(median iiowired srv_rss_kb < "$tmp/idle") KiB" \
     "($(median iiowired ready < "$tmp/idle") ready) | $(median echo_uv srv_rss_kb < "$tmp/idle") KiB |"
