#!/bin/sh
# iiod_compare.sh - attribute READs through iiowired's iiod listener and
# through Debian's iiod, side by side, with bench/iiod_bench.py.
#
# iiod serves /sys/bus/iio, so it runs on a fake sysfs tree holding the
# same devices and values as the iiowired board (iio_dummy and a MAX1238),
# and a second iiowired mirrors that tree (--kernel), so a kernel device's
# READ is measured against iiod's on the same files and against the board's
# (and a kernel trigger's file, read on the loop, against iiod's);
# both servers and the client run in one private network and mount
# namespace (unshare -m -n: root, or user namespaces), so iiod, which binds
# every address, is reachable from loopback of that namespace only, and the
# fake /sys is seen by nothing else. Without iiod (Debian: iiod) or without
# namespaces only iiowired is measured, in the host's loopback.
# usage: bench/iiod_compare.sh BUILD_DIR [N] [RUNS]
set -eu

build=${1:?usage: $0 BUILD_DIR [N] [RUNS]}
n=${2:-5000}
runs=${3:-5}
here=$(cd "$(dirname "$0")" && pwd)
py=/usr/bin/python3
[ -x "$py" ] || py=python3
daemon="$build/server/iiowired"
port_w=30441
port_i=30442
port_k=30443
board=

# The board iiowired serves: the same devices as the fake sysfs tree below.
make_board() {
	board=$(mktemp /tmp/iiod-compare-XXXXXX.json)
	trap 'rm -f "$board"' EXIT
	cat >"$board" <<'EOF'
{"board": "iiodbench", "buses": {"i2c-0": {"type": "i2c", "backend": "emulated"}},
 "devices": [{"driver": "iio_dummy", "name": "dummy0"},
  {"driver": "max1238", "bus": "i2c-0", "address": "0x35", "label": "adc",
   "emulate": {"AIN0": 3300, "AIN1": 1800, "AIN2": 200}}]}
EOF
}

reads="--read 'READ iio:device0 INPUT voltage0 raw' --read 'READ iio:device0 in_sampling_frequency' --read 'READ iio:device1 INPUT voltage0 raw'"

# Inside the namespaces: loopback up, the fake sysfs tree, both servers, the client.
inner() {
	make_board
	ip link set lo up
	mount -t tmpfs iiodbench /sys
	d0=/sys/bus/iio/devices/iio:device0
	d1=/sys/bus/iio/devices/iio:device1
	mkdir -p "$d0" "$d1"
	printf 'dummy0\n' >"$d0/name"
	printf '73\n' >"$d0/in_voltage0_raw"
	printf '7\n' >"$d0/in_voltage0_offset"
	printf '0.001333\n' >"$d0/in_voltage0_scale"
	printf '3.000000033\n' >"$d0/in_sampling_frequency"
	printf '0\n' >"$d0/out_voltage0_raw"
	printf 'realtime\n' >"$d0/current_timestamp_clock"
	printf 'max1238\n' >"$d1/name"
	printf 'adc\n' >"$d1/label"
	printf '1.000000000\n' >"$d1/in_voltage_scale"
	for i in 0 1 2 3 4 5 6 7 8 9 10 11; do printf '0\n' >"$d1/in_voltage${i}_raw"; done
	printf '3300\n' >"$d1/in_voltage0_raw"
	# an hrtimer trigger: iiowired --kernel reads its files on the loop (K-40)
	mkdir -p /sys/bus/iio/devices/trigger0
	printf 'hrt0\n' >/sys/bus/iio/devices/trigger0/name
	printf '100.000000\n' >/sys/bus/iio/devices/trigger0/sampling_frequency
	"$daemon" --log-level warn --board "$board" --listen 127.0.0.1:0 \
		--iiod-listen "$port_w" &
	wpid=$!
	iiod -p "$port_i" >/dev/null 2>&1 &
	ipid=$!
	# the same tree mirrored by iiowired --kernel: a READ is a file read on the device's worker
	"$daemon" --log-level warn --kernel --listen 127.0.0.1:0 --iiod-listen "$port_k" &
	kpid=$!
	sleep 1
	eval "$py \"$here/iiod_bench.py\" --port $port_w $reads --write 'dummy0 OUTPUT voltage0 raw 5' -n $n --runs $runs --label iiowired"
	eval "$py \"$here/iiod_bench.py\" --port $port_k $reads --write 'dummy0 OUTPUT voltage0 raw 5' -n $n --runs $runs --label iiowired-kernel"
	# the floor of a kernel READ: the file read alone (open, read, close), in one process
	$py -c 'import os,sys,time
n=int(sys.argv[1]); p="/sys/bus/iio/devices/iio:device0/in_voltage0_raw"; t=time.perf_counter()
for i in range(n):
    fd=os.open(p,os.O_RDONLY); os.read(fd,4096); os.close(fd)
print("floor | open+read+close of %s | %.1f us" % (p,(time.perf_counter()-t)/n*1e6))' "$n"
	eval "$py \"$here/iiod_bench.py\" --port $port_i $reads --write 'dummy0 OUTPUT voltage0 raw 5' -n $n --runs $runs --label iiod-0.24"
	# a kernel trigger's file: read on the loop (iiowired) against iiod's thread
	for p in "$port_k iiowired-kernel-trigger" "$port_i iiod-0.24-trigger"; do
		# shellcheck disable=SC2086
		set -- $p
		$py "$here/iiod_bench.py" --port "$1" --read 'READ trigger0 sampling_frequency' \
			-n "$n" --runs "$runs" --label "$2"
	done
	kill "$wpid" "$ipid" "$kpid"
	wait "$wpid" "$ipid" "$kpid" 2>/dev/null || true
}

if [ "${IIOD_COMPARE_INNER:-}" = 1 ]; then
	inner
	exit 0
fi
if command -v iiod >/dev/null 2>&1 && unshare -m -n true 2>/dev/null; then
	export IIOD_COMPARE_INNER=1 build n runs
	exec unshare -m -n --propagation private "$0" "$build" "$n" "$runs"
fi
echo "iiod or namespaces not available: iiowired alone, on the host's loopback" >&2
make_board
"$daemon" --log-level warn --board "$board" --listen 127.0.0.1:0 --iiod-listen "$port_w" &
wpid=$!
sleep 1
eval "$py \"$here/iiod_bench.py\" --port $port_w $reads --write 'dummy0 OUTPUT voltage0 raw 5' -n $n --runs $runs --label iiowired"
kill "$wpid"
wait "$wpid" 2>/dev/null || true
