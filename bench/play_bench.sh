#!/bin/sh
# play_bench.sh - the output-stream benchmark of bench/RESULTS.md: `iiowire
# play` (libiiowire's native PLAY/SEND) feeding an emulated ad5766 (8
# channels, 16-byte scans) on an hrtimer at rising rates and block sizes,
# against a floor in the same run: `iiowire capture` (a native STREAM read)
# of the same number of 16-byte scans (max1363 voltage0..3 + timestamp) on
# the same trigger at the same rate and block size. Each row: the trigger
# rate, scans played per second of wall time (from the PLAY to the last scan
# played), the capture's, their ratio, and the underruns the daemon counted
# (polls of the trigger that found no scan queued, from the first scan
# queued to the last SEND's reply, which is what `play` reports). A rate is
# sustained when play moves at least 90 % of the floor's scans per second
# (both pay a client's start and the trigger's first period; play also its
# wait for the last scan); below half of a rate, the higher rates of that
# block size are skipped.
# The last table gives, per block size, the highest rate sustained and its
# underruns.
# usage: [SECS=3] [RATES=...] [BLOCKS=...] bench/play_bench.sh [BUILD_DIR]
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build/release}
secs=${SECS:-3}
rates=${RATES:-"1000 10000 50000 100000 200000 500000 1000000"}
blocks=${BLOCKS:-"16 256 4096"}
srv=$build/server/iiowired
cli=$build/client/iiowire
tmp=$(mktemp -d /tmp/iiowire-play-bench.XXXXXX)
spid=

[ -x "$srv" ] && [ -x "$cli" ] || { echo "play_bench: build $build first" >&2; exit 2; }
trap 'kill $spid 2>/dev/null; rm -rf "$tmp"' EXIT
cat >"$tmp/board.json" <<'JSON'
{"board": "playbench",
 "buses": {"spi0": {"type": "spi", "backend": "emulated"},
	   "i2c-0": {"type": "i2c", "backend": "emulated"}},
 "triggers": [{"type": "hrtimer", "name": "hrt0", "sampling_frequency": 1000}],
 "devices": [
  {"driver": "ad5766", "bus": "spi0", "cs": 0, "output-range-microvolts": "-5000000 5000000"},
  {"driver": "max1363", "bus": "i2c-0", "address": "0x34",
   "emulate": {"AIN0": 1000, "AIN1": 1500, "AIN2": 2000, "AIN3": 100}}]}
JSON
"$srv" --board "$tmp/board.json" --listen "unix:$tmp/sock" --log-level warn &
spid=$!
sleep 1
c() { "$cli" -t 60000 -a "unix:$tmp/sock" "$@"; }
now() { date +%s.%N; }
out="voltage0 voltage1 voltage2 voltage3 voltage4 voltage5 voltage6 voltage7"

echo "### Output stream: ad5766 (8 channels, 16-byte scans) against a capture of as many 16-byte scans"
echo
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $secs s per measurement"
echo
echo "| block | hrtimer Hz | play scans/s | play MB/s | capture scans/s (floor) | ratio | underruns |"
echo "|---|---|---|---|---|---|---|"
for b in $blocks; do
	for r in $rates; do
		n=$((r * secs))
		[ "$n" -lt $((4 * b)) ] && n=$((4 * b))
		head -c $((n * 16)) /dev/urandom >"$tmp/scans"
		c write hrt0 sampling_frequency "$r" >/dev/null
		t0=$(now)
		c play ad5766 $out --trigger hrt0 -b "$b" <"$tmp/scans" 2>"$tmp/err"
		st=$?
		t1=$(now)
		c capture max1363 voltage0 voltage1 voltage2 voltage3 timestamp -n "$n" \
			--trigger hrt0 -b "$b" 2>/dev/null | wc -c >"$tmp/cap"
		t2=$(now)
		u=$(sed -n 's/.*, \([0-9]*\) polls found nothing.*/\1/p' "$tmp/err")
		[ "$st" -eq 0 ] || u="failed ($st): $(head -c 80 "$tmp/err")"
		awk -v b="$b" -v r="$r" -v n="$n" -v t0="$t0" -v t1="$t1" -v t2="$t2" \
			-v cb="$(cat "$tmp/cap")" -v u="${u:-0}" 'BEGIN {
			p = n / (t1 - t0); f = cb / 16 / (t2 - t1)
			printf "| %d | %d | %.0f | %.3f | %.0f | %.3f | %s |\n", b, r, p, p * 16 / 1e6,
				f, p / f, u }' | tee -a "$tmp/rows"
		# below half its rate, a block size is done: higher rates only take longer
		tail -1 "$tmp/rows" | awk -F' *\\| *' '{ exit !($4 < $3 / 2) }' && break
	done
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| block | highest rate sustained (play >= 90 % of the floor) | play scans/s | underruns there |"
echo "|---|---|---|---|"
awk -F' *\\| *' '$7 >= 0.9 { best[$2] = $3; p[$2] = $4; u[$2] = $8; if (!($2 in o)) o[$2] = ++k }
	END { for (b in o) ord[o[b]] = b
	      for (i = 1; i <= k; i++) { b = ord[i]; printf "| %s | %s | %s | %s |\n", b, best[b], p[b], u[b] } }' \
	"$tmp/rows"
