#!/bin/sh
# soak.sh - minutes of mixed load on one iiowired (bench/iiowire_soak.c):
# many clients walking READ, CREAD, DEVICES, STATS, WRITE, JSON READ,
# WATCH/UNWATCH and a request that must fail, each reconnecting every
# SOAK_REQUESTS_PER_CONN requests (default 500), while the daemon's RSS and
# open descriptors are sampled every 10 s. It fails if any reply had the
# wrong shape, if RSS grew more than SOAK_RSS_GROWTH_KB (default 1024) from
# the first sample after warm-up to the last, if the daemon holds more
# descriptors once the clients are gone than before they came, or if it
# does not exit 0 on SIGTERM.
# Usage: bench/soak.sh [BUILD_DIR [SECONDS [CLIENTS]]]   (default build/release 300 200)
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$top/build/release}
secs=${2:-300}
clients=${3:-200}
growth_max=${SOAK_RSS_GROWTH_KB:-1024}
per_conn=${SOAK_REQUESTS_PER_CONN:-500}
[ -f "$dir/CMakeCache.txt" ] ||
	cmake -S "$top" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$dir" --target iiowired -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
cc -O2 -Wall -Wextra -o "$dir/iiowire-soak" "$top/bench/iiowire_soak.c"

work=$(mktemp -d /tmp/iiowire-soak.XXXXXX)
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
# the demo board (the default): the script's device and consumer names are its own
"$dir/server/iiowired" --listen 127.0.0.1:0 --log-level info 2>"$work/daemon.log" &
pid=$!
port=
for _ in $(seq 100); do
	port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/daemon.log" | head -1)
	[ -n "$port" ] && grep -q 'device(s)' "$work/daemon.log" && break
	sleep 0.1
done
[ -n "$port" ] || { cat "$work/daemon.log"; echo "soak: iiowired did not start" >&2; exit 1; }
fds_before=$(ls /proc/$pid/fd | wc -l)
rss_before=$(awk '/^VmRSS/ { print $2 }' /proc/$pid/status)
echo "soak: iiowired pid $pid port $port: $clients clients for $secs s" \
	"(RSS $rss_before KiB, $fds_before fds at rest)"
status=0
"$dir/iiowire-soak" -p "$port" -c "$clients" -r "$per_conn" -t "$secs" -i 10 -w 10 -P "$pid" \
	| tee "$work/soak.out" || status=1
sleep 1
fds_after=$(ls /proc/$pid/fd | wc -l)
rss_after=$(awk '/^VmRSS/ { print $2 }' /proc/$pid/status)
kill -TERM "$pid"
wait "$pid" || { echo "soak: iiowired exit status $?" >&2; status=1; }
pid=
result=$(grep '^RESULT' "$work/soak.out")
first=$(echo "$result" | sed 's/.*rss_kb_first=\([0-9-]*\).*/\1/')
last=$(echo "$result" | sed 's/.*rss_kb_last=\([0-9-]*\).*/\1/')
echo "soak: at rest after the load: RSS $rss_after KiB, $fds_after fds"
if [ "$first" -lt 0 ] || [ $((last - first)) -gt "$growth_max" ]; then
	echo "soak: RSS grew from $first to $last KiB under load (limit +$growth_max)" >&2
	status=1
fi
if [ "$fds_after" -gt "$fds_before" ]; then
	echo "soak: $fds_before descriptors before the load, $fds_after after" >&2
	status=1
fi
grep -E 'warn|error' "$work/daemon.log" | head -20
[ $status -eq 0 ] && echo "soak: flat" || echo "soak: FAILED" >&2
exit $status
