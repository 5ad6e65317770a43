#!/bin/sh
# test_gpio.sh - interrupt lines on a GPIO chip ({"chip": "gpiochip0",
# "line": N} in a board) through the real libgpiod 1.6, where no gpiochip
# exists: tests/gpioshim/gpioshim.c, preloaded into iiowired, plays the
# kernel's GPIO character device (uAPI v1), and a private mount namespace
# (unshare -m) gives libgpiod the /dev/gpiochip0 character device and the
# /sys/bus/gpio/devices/gpiochip0/dev file it checks. Edges are fired by
# writing "LINE rising|falling" to the shim's FIFO. Checked: a max1363
# (rising edge) and an ad7998 (falling edge, as the kernel drivers ask)
# deliver their chips' alerts as the kernel's events when, and only when,
# their line has that edge; a reload hands the lines to the new board's
# devices (the kernel would say EBUSY to a second request), and one that
# fails gives them back; a line past the chip's last one and a line
# another consumer holds fail the board load naming them. Skips (status
# 77) without namespaces.
# Usage: test_gpio.sh BUILD_DIR SOURCE_DIR. The last line is "N passed, M failed".
set -u
build=$1
src=$2
if [ "${GT_INNER:-}" != 1 ]; then
	if ! unshare -m true 2>/dev/null; then
		echo "SKIP: no private mount namespace (unshare -m: root or user namespaces)"
		exit 77
	fi
	GT_INNER=1 exec unshare -m --propagation private sh "$0" "$build" "$src"
fi
daemon=$build/server/iiowired
cli=$build/client/iiowire
shim=$build/tests/iiowire_gpioshim.so
# tests/valgrind.sh runs the daemons under valgrind (split at blanks on purpose)
wrap=${IIOWIRE_TEST_WRAPPER:-}
. "$src/tests/shtest.sh"
shtest_begin gpio

# a /dev of the usual nodes and one gpiochip, whose major:minor sysfs names
mount -t tmpfs gpiotest /dev
mknod -m 666 /dev/null c 1 3
mknod -m 666 /dev/zero c 1 5
mknod -m 666 /dev/random c 1 8
mknod -m 666 /dev/urandom c 1 9
mknod -m 600 /dev/gpiochip0 c 511 0
mount -t tmpfs gpiotest /sys/bus
mkdir -p /sys/bus/gpio/devices/gpiochip0
echo 511:0 >/sys/bus/gpio/devices/gpiochip0/dev
ctl=$tmp/ctl
mkfifo "$ctl"
sock=$tmp/sock
a="$cli -a unix:$sock"
# ASan builds: the shim comes before the ASan runtime in the preload list
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

# board DEV0_LINE DEV1_LINE: a max1363 (AIN0 at code 3000) and an ad7998 (voltage1 at 1000 of 4096)
board() {
	cat >"$tmp/board.json" <<EOF
{"board": "gpio", "buses": {"i2c-0": {"type": "i2c", "backend": "emulated"}},
 "devices": [
  {"driver": "max1363", "bus": "i2c-0", "address": "0x34", "label": "mon",
   "irq": {"chip": "gpiochip0", "line": $1}, "emulate": {"AIN0": 1500}},
  {"driver": "ad7998", "bus": "i2c-0", "address": "0x21", "label": "alert",
   "irq": {"chip": "gpiochip0", "line": $2}, "vref_mv": 4096, "emulate": {"voltage1": 1000}}]}
EOF
}

# start [ENV=VALUE...]: the daemon with the shim, on the board; waits for its socket
start() {
	rm -f "$sock"
	env LD_PRELOAD="$shim" IIOWIRE_GPIOSHIM_CTL="$ctl" "$@" $wrap "$daemon" \
		--board "$tmp/board.json" --listen "unix:$sock" --log-level warn 2>>"$tmp/log" &
	dpid=$!
	pids="$pids $dpid"
	shtest_wait_socket "$sock"
}

# fire LINE EDGE: one edge on the shim's chip (5 s at most for the shim to take it)
fire() { timeout 5 sh -c "echo '$1 $2' >'$ctl'" || bad "edge $1 $2: the shim took no edge"; }

# monitor_one NAME DEVICE WANT: iiowire monitor -n 1 DEVICE is started; then
# the caller's commands; monitor_done checks its output against WANT
monitor_one() {
	mname=$1
	mwant=$3
	timeout 10 $a monitor -n 1 "$2" >"$tmp/mout" 2>"$tmp/merr" &
	mpid=$!
	i=0
	while [ $i -lt 100 ] && ! grep -q Found "$tmp/mout"; do i=$((i + 1)); sleep 0.05; done
	sleep 0.2
}
monitor_done() {
	wait $mpid
	mst=$?
	got=$(sed -E 's/time: [0-9]+,/time: T,/' "$tmp/mout" | tail -n 1)
	if [ $mst = 0 ] && [ "$got" = "$mwant" ] && [ ! -s "$tmp/merr" ]; then
		ok
	else
		bad "$mname: status $mst, got '$got', want '$mwant', stderr $(cat "$tmp/merr")"
	fi
}

# check NAME WANT COMMAND...: COMMAND's stdout (stderr with it) is WANT
check() {
	name=$1
	want=$2
	shift 2
	got=$("$@" 2>&1)
	if [ "$got" = "$want" ]; then ok; else bad "$name: got '$got', want '$want'"; fi
}

board 17 3
start
check "the board loads with its GPIO lines" "" $a write mon events/in_voltage0_thresh_rising_value 2000
check "max1363 armed" "" $a write mon events/in_voltage0_thresh_rising_en 1

# the max1363's INT is a rising edge on line 17: its handler reads the chip's status
monitor_one "max1363 alert through libgpiod" max1363 \
	"Event: time: T, type: voltage, channel: 0, evtype: thresh, direction: rising"
fire 17 rising
monitor_done
check "max1363 disarmed" "" $a write mon events/in_voltage0_thresh_rising_en 0

# the ad7998's ALERT is active low: its line asks for falling edges only
check "ad7998 armed" "" $a write alert events/in_voltage1_thresh_falling_value 1200
check "ad7998 armed (en)" "" $a write alert events/in_voltage1_thresh_falling_en 1
check "a conversion below the limit" "1000" $a read alert in_voltage1_raw
monitor_one "ad7998 alert on the falling edge only" ad7998 \
	"Event: time: T, type: voltage, channel: 1, evtype: thresh, direction: falling"
fire 3 rising
sleep 0.5
if grep -q Event "$tmp/mout"; then bad "a rising edge reached the ad7998's falling-edge line"; else ok; fi
fire 3 falling
monitor_done

# stat NAME: one counter of the daemon's STATS
stat() { $a stats | sed -n "s/^$1 //p"; }

# settle_stat NAME WANT: until the counter reads WANT (a reload is under way; 10 s at most)
settle_stat() {
	i=0
	while [ "$(stat "$1")" != "$2" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	if [ "$(stat "$1")" = "$2" ]; then ok; else bad "$1: $(stat "$1"), want $2; $(cat "$tmp/log")"; fi
}

# a reload probes the new board while the old one holds the lines: they are handed over
kill -HUP $dpid
settle_stat reloads 1
check "the new board's max1363 starts disarmed" "0" $a read mon events/in_voltage0_thresh_rising_en
check "armed on the new board" "" $a write mon events/in_voltage0_thresh_rising_value 2000
check "armed on the new board (en)" "" $a write mon events/in_voltage0_thresh_rising_en 1
monitor_one "max1363 alert after a reload" max1363 \
	"Event: time: T, type: voltage, channel: 0, evtype: thresh, direction: rising"
fire 17 rising
monitor_done

# a reload that fails (its ad7998 names line 99) gives line 17 back to the board that stays
board 17 99
kill -HUP $dpid
settle_stat reload_failures 1
monitor_one "max1363 alert after a failed reload" max1363 \
	"Event: time: T, type: voltage, channel: 0, evtype: thresh, direction: rising"
fire 17 rising
monitor_done
if grep -q 'reload failed.*devices\[1\].*no line 99' "$tmp/log"; then ok; else bad "failed reload: $(cat "$tmp/log")"; fi
if shtest_clean_exit $dpid "$tmp/log"; then ok; else bad "daemon exit: $(cat "$tmp/log")"; fi

# lines that cannot be had fail the board load, naming device, chip and line
: >"$tmp/log"
board 99 3
start
wait $dpid
st=$?
if [ $st != 0 ] && grep -q 'devices\[0\].*irq: gpiochip0 has no line 99: Invalid argument' "$tmp/log"; then
	ok
else
	bad "line 99 of 32: status $st, log $(cat "$tmp/log")"
fi
: >"$tmp/log"
board 17 5
start IIOWIRE_GPIOSHIM_BUSY=5
wait $dpid
st=$?
if [ $st != 0 ] &&
	grep -q 'devices\[1\].*irq: cannot request gpiochip0 line 5: Device or resource busy' "$tmp/log"; then
	ok
else
	bad "a held line: status $st, log $(cat "$tmp/log")"
fi
shtest_end
