#!/bin/sh
# kernel_stream_compare.sh - the kernel-device stream benchmark of
# bench/RESULTS.md (issue 15): a buffer stream from a kernel device through
# iiowired, against the floor of the buffer issue (stream-floor, a bare libuv
# server writing the same bytes as fast as the client reads), against the
# source's own (dd reading the stand-in alone, with the capture's read size)
# and against Debian's iiod 0.24 streaming the same stand-in character device
# in the same namespace, with one reader and with $READERS.
#
# The tree is tests/kernel_tree.sh's, on a tmpfs /sys in a private mount and
# network namespace (unshare -m -n, root); /dev is a tmpfs there too, whose
# iio:device0 is a FIFO a feeder fills flat out with ads1015 scans (voltage0..3,
# 8 bytes), so the source costs a pipe copy and what is measured is the
# server: its reads, the capture, the encoding and the socket writes. Each
# figure is stream-bench (bench/stream_bench.c) over $SECS s after 1 s of
# warm-up (dd's is its own count over $SECS s); the feeder is restarted for
# each (its close ends the capture).
# usage: bench/kernel_stream_compare.sh [BUILD_DIR]   (SECS=3 BLOCK=256 READERS=4)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build/release}
if [ "${KS_INNER:-}" != 1 ]; then
	unshare -m -n true 2>/dev/null ||
		{ echo "kernel_stream_compare: needs unshare -m -n (root)" >&2; exit 2; }
	KS_INNER=1 exec unshare -m -n --propagation private sh "$0" "$build"
fi
secs=${SECS:-3}
block=${BLOCK:-256}
readers=${READERS:-4}
srv=$build/server/iiowired
sb=$build/server/stream-bench
fl=$build/server/stream-floor
port=30601
iport=30602
dport=30603
fport=30604
[ -x "$srv" ] && [ -x "$sb" ] && [ -x "$fl" ] ||
	{ echo "kernel_stream_compare: build $build first" >&2; exit 2; }
command -v iiod >/dev/null || { echo "kernel_stream_compare: needs iiod (Debian: iiod)" >&2; exit 2; }
. "$top/tests/kernel_tree.sh"
tmp=$(mktemp -d /tmp/iiowire-kstream.XXXXXX)
ip link set lo up
mount -t tmpfs kstream /sys
kt_all
kt_dev_begin "$tmp/dev"
mkfifo /dev/iio:device0
head -c 67108864 /dev/urandom >"$tmp/chunk"
spid= ipid= fpid= feed=
cleanup() {
	kill $spid $ipid $fpid $feed 2>/dev/null
	# reaped first: a server still closing holds /dev busy for the unmount
	wait $spid $ipid $fpid $feed 2>/dev/null
	# not 2>/dev/null: that open of the bound /dev/null would keep /dev busy
	kt_dev_end "$tmp/dev" 2>"$tmp/umount.err"
	rm -rf "$tmp"
}
trap cleanup EXIT
# the feeder: one process writing the chunk over and over (one cat of the file
# named 2048 times, 128 GiB: a loop would leave a cat behind, holding the FIFO
# open, when killed; 1 GiB ran out within a row once the capture read faster,
# ending the stream early); started once the last capture has let go
# (buffer/enable back to 0)
feed_start() {
	i=0
	while [ "$(cat /sys/bus/iio/devices/iio:device0/buffer/enable)" != 0 ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	# shellcheck disable=SC2046
	cat $(yes "$tmp/chunk" | head -2048) >/dev/iio:device0 2>/dev/null &
	feed=$!
}
feed_stop() { kill $feed 2>/dev/null; wait $feed 2>/dev/null; feed=; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
row() { printf '| %s | %s | %s | %s | %s | %s |\n' "$1" "$2" "$(echo "$3" | field mbps)" \
	"$(echo "$3" | field median_rate)" "$(echo "$3" | field min_rate)" "$(echo "$3" | field srv_cpu_pct)"; }

"$srv" --kernel --listen "127.0.0.1:$port" --iiod-listen "127.0.0.1:$iport" --log-level warn \
	--max-clients 1000 &
spid=$!
sleep 1
st="STREAM ads1015 - $block raw voltage0 voltage1 voltage2 voltage3"
# iiod's channel order is by scan index: voltage0-voltage1, voltage0..3, timestamp
open="OPEN iio:device0 $block 0000001e"
rb="READBUF iio:device0 $((block * 8))"

echo "### A kernel device's stream (ads1015 voltage0..3, 8-byte scans, blocks of $block)"
echo
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| client | server | MB/s | median scans/s | min scans/s | server CPU % |"
echo "|---|---|---|---|---|---|"
for n in 1 "$readers"; do
	feed_start
	r=$("$sb" -p "$port" -r "$st" -s 8 -c "$n" -t "$secs" -P "$spid" -L kernel | grep RESULT)
	feed_stop
	row "stream-bench, $n reader(s)" "iiowired STREAM" "$r"
done
# the source's own floor: dd reading the FIFO with the capture's read size
# (4096 scans, KERNEL_CAP_READ_SCANS) and nothing behind it; every byte a
# server streams (or counts lost) it reads first
feed_start
r=$(timeout -s INT "$secs" dd if=/dev/iio:device0 of=/dev/null bs=32768 2>&1 | grep copied)
feed_stop
printf '| dd bs=32768 of=/dev/null | the stand-in FIFO alone | %s | | | |\n' \
	"$(echo "$r" | awk 'NF > 4 {printf "%.3f", $1 / $(NF - 3) / 1e6}')"
"$fl" -p "$fport" -b "$block" -H "BLOCK 1 $block $((block * 8)) 0" -s 8 2>/dev/null &
fpid=$!
sleep 0.3
r=$("$sb" -p "$fport" -r go -s 8 -t "$secs" -P "$fpid" -L floor | grep RESULT)
row "stream-bench, 1 reader" "stream-floor (blocks of the same size)" "$r"
kill $fpid; wait $fpid 2>/dev/null; fpid=
# readbuf_rows PORT PID SERVER: READBUF with 1 and $readers readers, each on a fresh feed
readbuf_rows() {
	for n in 1 "$readers"; do
		feed_start
		r=$("$sb" -p "$1" -i -r "$open" -R "$rb" -s 8 -c "$n" -t "$secs" -P "$2" -L readbuf |
			grep RESULT)
		feed_stop
		row "stream-bench -i (READBUF), $n reader(s)" "$3" "$r"
	done
}
readbuf_rows "$iport" "$spid" "iiowired iiod listener"
kill $spid; wait $spid 2>/dev/null; spid=
iiod -p "$dport" >/dev/null 2>&1 &
ipid=$!
sleep 1
readbuf_rows "$dport" "$ipid" "iiod 0.24"
kill -KILL $ipid; wait $ipid 2>/dev/null; ipid=
"$fl" -p "$fport" -i -b 1 -s 8 -M 0000001e 2>/dev/null &
fpid=$!
sleep 0.3
r=$("$sb" -p "$fport" -i -r "$open" -R "$rb" -s 8 -t "$secs" -P "$fpid" -L floor | grep RESULT)
row "stream-bench -i (READBUF), 1 reader" "stream-floor -i" "$r"
echo
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
