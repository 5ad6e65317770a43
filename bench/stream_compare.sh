#!/bin/sh
# stream_compare.sh - the scan-stream benchmark of bench/RESULTS.md: iiowired's
# streams and stream-floor (a bare libuv server writing the same bytes as fast
# as the client reads) measured by one client, stream-bench, in the same run,
# printed side by side as markdown tables.
#
#  1. one reader of 16-byte scans (max1363 voltage0..3 + timestamp) with the
#     hrtimer at each rate of $RATES, blocks of $BLOCK scans, against the floor
#     sending the same blocks (captured from iiowired) flat out;
#  2. fan-out: iio_dummy at 100,000 scans/s (16-byte scans) to 64 readers,
#     then the same with one more reader that stalls: lost scans, daemon CPU
#     per delivered MB, the change in the others' rate;
#  3. iio_readdev through the iiod listener (raw path, blocks of $BLOCK
#     samples), and stream-bench's READBUF loop on the same listener, against
#     the floor answering READBUF;
#  4. trigger-to-client latency at 1 kHz (blocks of one scan, the timestamp in
#     the record) against the floor's 1 ms timer.
# Each measurement runs $SECS s after 1 s of warm-up; a 2-core machine moves
# ±15 % between runs, so compare within a run. SRV=PATH runs another
# iiowired (an older build, for a before/after in one run).
# usage: [SRV=iiowired] bench/stream_compare.sh [BUILD_DIR]   (default build/release)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build/release}
secs=${SECS:-3}
rates=${RATES:-"10000 50000 100000 200000"}
block=${BLOCK:-256}
srv=${SRV:-$build/server/iiowired}
sb=$build/server/stream-bench
fl=$build/server/stream-floor
cli=$build/client/iiowire
port=${PORT_SRV:-30595}
iiod_port=${PORT_IIOD:-30596}
floor_port=${PORT_FLOOR:-30597}
tmp=$(mktemp -d /tmp/iiowire-stream-compare.XXXXXX)
fpid=

[ -x "$srv" ] && [ -x "$sb" ] && [ -x "$fl" ] || { echo "stream_compare: build $build first" >&2; exit 2; }
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
# daemon_start HZ0 HZ1: iiowired on a board whose hrtimers hrt0 and hrt1 run at HZ0 and HZ1
daemon_start() {
	cat >"$tmp/board.json" <<EOF
{"board": "streambench", "buses": {"i2c-0": {"type": "i2c", "backend": "emulated"}},
 "triggers": [{"type": "hrtimer", "name": "hrt0", "sampling_frequency": $1},
	      {"type": "hrtimer", "name": "hrt1", "sampling_frequency": $2}],
 "devices": [{"driver": "iio_dummy", "name": "dummy0"},
  {"driver": "max1363", "bus": "i2c-0", "address": "0x34",
   "emulate": {"AIN0": 1000, "AIN1": 1500, "AIN2": 2000, "AIN3": 100}}]}
EOF
	"$srv" --listen "127.0.0.1:$port" --listen "unix:$tmp/sock" \
		--iiod-listen "127.0.0.1:$iiod_port" --board "$tmp/board.json" --log-level warn \
		--max-clients 1000 &
	spid=$!
	sleep 1
}
daemon_stop() { kill "$spid"; wait "$spid" 2>/dev/null || true; spid=; }
spid=
trap 'kill $spid $fpid 2>/dev/null; rm -rf "$tmp"' EXIT
c() { "$cli" -a "unix:$tmp/sock" "$@"; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
floor_start() {
	"$fl" -p "$floor_port" "$@" 2>/dev/null &
	fpid=$!
	sleep 0.3
}
floor_stop() { kill "$fpid"; wait "$fpid" 2>/dev/null || true; fpid=; }

adc="max1363 hrt0 $block raw voltage0 voltage1 voltage2 voltage3 timestamp"
echo "### One reader, 16-byte scans (max1363 voltage0..3 + timestamp), blocks of $block"
echo
echo "| hrtimer Hz | iiowired scans/s | iiowired MB/s | floor MB/s | ratio | iiowired CPU % | lost |"
echo "|---|---|---|---|---|---|---|"
for rate in $rates; do
	daemon_start "$rate" 1000
	"$sb" -p "$port" -r "STREAM $adc" -D "$tmp/block" -t 1 -w 0.5 >/dev/null || true
	floor_start -f "$tmp/block" -s 16
	a=$("$sb" -p "$port" -r "STREAM $adc" -s 16 -t "$secs" -P $spid -L iiowired | grep RESULT)
	b=$("$sb" -p "$floor_port" -r go -s 16 -t "$secs" -P "$fpid" -L floor | grep RESULT)
	floor_stop
	am=$(echo "$a" | field mbps)
	bm=$(echo "$b" | field mbps)
	printf '| %s | %s | %s | %s | %.4f | %s | %s |\n' "$rate" "$(echo "$a" | field median_rate)" \
		"$am" "$bm" "$(echo "$am $bm" | awk '{print $1 / $2}')" \
		"$(echo "$a" | field srv_cpu_pct)" "$(echo "$a" | field lost)"
	daemon_stop
done
echo

dummy="dummy0 hrt1 $block raw voltage0 voltage1-voltage2 voltage3-voltage4 accel_x timestamp"
daemon_start 1000 100000
echo "### Fan-out: iio_dummy at 100,000 scans/s (16-byte scans) to 64 readers, blocks of $block"
echo
echo "| readers | stalled | median scans/s | min scans/s | lost (keeping up) | MB/s | daemon CPU % | daemon CPU ms per MB |"
echo "|---|---|---|---|---|---|---|---|"
# the first run of 64 readers on a fresh daemon (its loop stalls while they attach): the
# scans it could not make in time must show as delivered or lost, not vanish
r=$("$sb" -p "$port" -r "STREAM $dummy" -s 16 -c 64 -t "$secs" -w 0 -P $spid -L first | grep RESULT)
printf '| 64, first run | 0 | %s | %s | %s | %s | %s | %s |\n' \
	"$(echo "$r" | field median_rate)" "$(echo "$r" | field min_rate)" \
	"$(echo "$r" | field lost)" "$(echo "$r" | field mbps)" \
	"$(echo "$r" | field srv_cpu_pct)" "$(echo "$r" | field srv_cpu_ms_per_mb)"
for stalled in 0 1; do
	r=$("$sb" -p "$port" -r "STREAM $dummy" -s 16 -c 64 -S $stalled -t "$secs" -P $spid \
		-L fanout | grep RESULT)
	printf '| 64 | %s | %s | %s | %s | %s | %s | %s |\n' "$stalled" \
		"$(echo "$r" | field median_rate)" "$(echo "$r" | field min_rate)" \
		"$(echo "$r" | field lost)" "$(echo "$r" | field mbps)" \
		"$(echo "$r" | field srv_cpu_pct)" "$(echo "$r" | field srv_cpu_ms_per_mb)"
	eval "med_$stalled=$(echo "$r" | field median_rate)"
done
echo
echo "A stalled reader changed the others' median rate by" \
	"$(echo "$med_0 $med_1" | awk '{printf "%.2f %%", ($2 - $1) * 100 / $1}')."
echo

daemon_stop
echo "### iio_readdev through the iiod listener (max1363, 16-byte samples, -b $block)"
echo
daemon_start 1000000 1000
# without -t, which would set the trigger to 100 Hz: a capture makes hrt0 current first
c capture max1363 voltage0 -n 1 --trigger hrt0 >/dev/null
n=$((1000000 * secs))
t0=$(date +%s.%N)
iio_readdev -u "ip:127.0.0.1:$iiod_port" -b "$block" -s "$n" max1363 voltage0 voltage1 voltage2 \
	voltage3 timestamp 2>"$tmp/readdev.err" | wc -c >"$tmp/readdev.bytes"
t1=$(date +%s.%N)
rd=$(awk -v b="$(cat "$tmp/readdev.bytes")" -v t0="$t0" -v t1="$t1" 'BEGIN {printf "%.3f", b / 1e6 / (t1 - t0)}')
rb=$((block * 16))
a=$("$sb" -p "$iiod_port" -i -r "OPEN iio:device1 $block 0000010f" -R "READBUF iio:device1 $rb" \
	-s 16 -t "$secs" -P $spid -L iiod | grep RESULT)
floor_start -i -b 1 -s 16 -M 0000010f
b=$("$sb" -p "$floor_port" -i -r "OPEN iio:device1 $block 0000010f" -R "READBUF iio:device1 $rb" \
	-s 16 -t "$secs" -L floor | grep RESULT)
floor_stop
echo "| client | server | MB/s | scans/s |"
echo "|---|---|---|---|"
echo "| iio_readdev | iiowired iiod listener, hrtimer 1 MHz | $rd | $(awk -v m="$rd" 'BEGIN {printf "%.0f", m * 1e6 / 16}') |"
echo "| stream-bench -i | iiowired iiod listener, hrtimer 1 MHz | $(echo "$a" | field mbps) | $(echo "$a" | field median_rate) |"
echo "| stream-bench -i | stream-floor -i | $(echo "$b" | field mbps) | $(echo "$b" | field median_rate) |"
[ -s "$tmp/readdev.err" ] && echo && echo "iio_readdev said: $(head -3 "$tmp/readdev.err")"
echo

daemon_stop
echo "### Trigger to client latency, 1 kHz, blocks of one 16-byte scan"
echo
daemon_start 1000 1000
a=$("$sb" -p "$port" -r "STREAM max1363 hrt0 1 raw voltage0 voltage1 voltage2 voltage3 timestamp" \
	-s 16 -l -t "$secs" -L iiowired | grep RESULT)
floor_start -b 1 -s 16 -r 1000 -H "BLOCK 1 1 16 0"
b=$("$sb" -p "$floor_port" -r go -s 16 -l -t "$secs" -L floor | grep RESULT)
floor_stop
echo "| server | scans/s | p50 µs | p99 µs | p99.9 µs |"
echo "|---|---|---|---|---|"
for r in "$a" "$b"; do
	echo "| $(echo "$r" | field label) | $(echo "$r" | field median_rate) | $(echo "$r" | field p50_us) |" \
	     "$(echo "$r" | field p99_us) | $(echo "$r" | field p999_us) |"
done
