#!/bin/sh
# test_cli.sh - the `iiowire` command line against a live iiowired: values
# alone on stdout, errors on stderr with their errno name, exit statuses
# (0 ok, 1 error, 2 usage), --json, watch, shell, tokens, and README's event
# example as written on the demo board.
# Usage: test_cli.sh BUILD_DIR SOURCE_DIR (ctest passes both). The daemon
# listens on a unix socket in a temporary directory only. Each row of the
# tables below is one check; the last line is "N passed, M failed".
set -u
build=$1
src=$2
cli=$build/client/iiowire
daemon=$build/server/iiowired
tmp=$(mktemp -d "${TMPDIR:-/tmp}/iiowire-cli-XXXXXX")
pids=""
passed=0
failed=0

cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# The board of tests/clienttest.h: dummy0, and a MAX1238 at 1 mV per LSB.
cat >"$tmp/board.json" <<'EOF'
{"board": "clitest", "buses": {"i2c-0": {"type": "i2c", "backend": "emulated"}},
 "devices": [{"driver": "iio_dummy", "name": "dummy0"},
  {"driver": "max1238", "bus": "i2c-0", "address": "0x35", "label": "stargate2-adc",
   "emulate": {"AIN0": 3300, "AIN1": 1000, "AIN2": 2000, "AIN3": 1250}}],
 "maps": [
  {"adc_dev_name": "0-0035", "adc_channel_label": "AIN1", "consumer_dev_name": "iio_hwmon.0",
   "consumer_channel": "testchan1"},
  {"adc_dev_name": "0-0035", "adc_channel_label": "AIN2", "consumer_dev_name": "iio_hwmon.0",
   "consumer_channel": "testchan2"},
  {"adc_dev_name": "0-0035", "adc_channel_label": "AIN0-AIN1", "consumer_dev_name": "meter",
   "consumer_channel": "diff"}]}
EOF

# start_daemon SOCKET [OPTIONS...]: start iiowired on $daemon_board (default
# the board above) and wait until it answers.
start_daemon() {
	sock=$1
	shift
	"$daemon" --listen "unix:$sock" --board "${daemon_board:-$tmp/board.json}" \
		--log-level error "$@" &
	pids="$pids $!"
	i=0
	while [ $i -lt 200 ]; do
		[ -S "$sock" ] && "$cli" -a "unix:$sock" version >/dev/null 2>&1 && return 0
		# an auth daemon refuses nothing before AUTH for VERSION: it answers too
		i=$((i + 1))
		sleep 0.05
	done
	echo "test_cli: $daemon did not start" >&2
	exit 1
}

# check NAME STATUS STDOUT STDERR_SUBSTRING -- COMMAND...: exact stdout,
# exact status, stderr containing the substring ("" for empty stderr).
check() {
	name=$1 want_status=$2 want_out=$3 want_err=$4
	shift 5
	"$@" >"$tmp/out" 2>"$tmp/err"
	status=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
	ok=1
	[ "$status" = "$want_status" ] || ok=0
	[ "$out" = "$want_out" ] || ok=0
	if [ -z "$want_err" ]; then
		[ -z "$err" ] || ok=0
	else
		case $err in *"$want_err"*) ;; *) ok=0 ;; esac
	fi
	if [ $ok = 1 ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		printf 'FAIL: %s\n  status %s (want %s)\n  stdout: %s\n  want:   %s\n  stderr: %s\n' \
			"$name" "$status" "$want_status" "$out" "$want_out" "$err"
	fi
}

# check_re NAME STATUS REGEX -- COMMAND...: stdout matches the extended regex, line by line.
check_re() {
	name=$1 want_status=$2 re=$3
	shift 4
	"$@" >"$tmp/out" 2>"$tmp/err"
	status=$?
	if [ "$status" = "$want_status" ] && [ -s "$tmp/out" ] && ! grep -Evq "$re" "$tmp/out"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		printf 'FAIL: %s\n  status %s (want %s)\n  stdout: %s\n  stderr: %s\n' "$name" \
			"$status" "$want_status" "$(cat "$tmp/out")" "$(cat "$tmp/err")"
	fi
}

sock=$tmp/sock
start_daemon "$sock"
c="$cli -a unix:$sock"
nl='
'

# ---- values and errors ----
check "read" 0 "3300" "" -- $c read max1238 in_voltage0_raw
check "read by label" 0 "1000" "" -- $c read stargate2-adc in_voltage1_raw
check "read by hwid" 0 "2000" "" -- $c read 0-0035 in_voltage2_raw
check "read scale" 0 "1.000000000" "" -- $c read max1238 in_voltage_scale
check "read INT_PLUS_MICRO" 0 "0.001333" "" -- $c read dummy0 in_voltage0_scale
check "no such attribute" 1 "" "iiowire: read: ENOENT: " -- $c read max1238 in_voltage99_raw
check "no such device" 1 "" "iiowire: read: ENODEV: " -- $c read max9999 in_voltage0_raw
# "did you mean", by the board loader's rule (drivers/abi/iio_near.c; issue 29); none for
# a name nothing is near, nor for an id (iio:device9 is not a typo of iio:device0)
check "no such device: the near one" 1 "" "iiowire: read: ENODEV: no device max1283${nl}iiowire: did you mean 'max1238'?" \
	-- $c read max1283 in_voltage0_raw
check "no such attribute: the near one" 1 "" "did you mean 'in_voltage0_raw'?" \
	-- $c read max1238 in_votage0_raw
check "a label, after options (monitor -n 1)" 1 "" "did you mean 'stargate2-adc'?" \
	-- $c monitor -n 1 stargate-adc
check "no such consumer: the near one" 1 "" "did you mean 'iio_hwmon.0'?" -- $c consumer iio_hwmon
check "unknown command: the near one" 2 "" "unknown command 'devics' (did you mean 'devices'?)" \
	-- $c devics
for word in qqqqqqq iio:device9; do
	$c read $word in_voltage0_raw 2>"$tmp/err"
	if ! grep -q "did you mean" "$tmp/err"; then passed=$((passed + 1)); else
		failed=$((failed + 1)); echo "FAIL: $word: yet a hint: $(cat "$tmp/err")"; fi
done
check "write" 0 "" "" -- $c write dummy0 out_voltage0_raw 5
check "write read back" 0 "5" "" -- $c read dummy0 out_voltage0_raw
check "write back 0" 0 "" "" -- $c write dummy0 out_voltage0_raw 0
check "write read-only" 1 "" "iiowire: write: EACCES: " -- $c write dummy0 name x
check "write refused value" 1 "" "iiowire: write: EINVAL: " -- $c write dummy0 in_voltage0_raw 1
check "write --json" 0 '{"ok": true}' "" -- $c --json write dummy0 out_voltage0_raw 0

# ---- listings ----
check "devices" 0 "iio:device0 dummy0 - -${nl}iio:device1 max1238 0-0035 stargate2-adc" "" \
	-- $c devices
check "devices --json" 0 '[{"id": "iio:device0", "name": "dummy0"}, {"id": "iio:device1", "name": "max1238", "label": "stargate2-adc", "hwid": "0-0035"}]' "" \
	-- $c --json devices
check "device" 0 "id iio:device1${nl}name max1238${nl}label stargate2-adc${nl}hwid 0-0035${nl}channels 25${nl}attrs 29" "" \
	-- $c device max1238
check "device --json" 0 '{"id": "iio:device1", "name": "max1238", "label": "stargate2-adc", "hwid": "0-0035", "channels": 25, "attrs": 29}' "" \
	-- $c --json device 0-0035
check "device missing" 1 "" "iiowire: device: ENODEV: " -- $c device nodev
check_re "attrs" 0 '^[a-z0-9_/-]+ (r|rw|w)$' -- $c attrs dummy0
check_re "channels" 0 '^[a-z]+ ([0-9]+|-) [a-z-]+ [A-Z0-9-]+ (in|out) ([0-9]+|-) [a-z0-9_,-]+$' -- $c channels max1238
check "maps" 0 "iio_hwmon.0 testchan1 iio:device1 AIN1 0-0035${nl}iio_hwmon.0 testchan2 iio:device1 AIN2 0-0035${nl}meter diff iio:device1 AIN0-AIN1 0-0035" "" \
	-- $c maps
check "consumer" 0 "testchan1 iio:device1 AIN1 voltage${nl}testchan2 iio:device1 AIN2 voltage" "" \
	-- $c consumer iio_hwmon.0
check "consumer --json" 0 '[{"channel": "diff", "device": "iio:device1", "datasheet_name": "AIN0-AIN1", "type": "voltage"}]' "" \
	-- $c --json consumer meter
check "consumer missing" 1 "" "iiowire: consumer: ENODEV: " -- $c consumer nobody
check_re "stats" 0 '^[a-z_]+ -?[0-9]+$' -- $c stats
check "version" 0 "library 0.1.0${nl}server 0.1.0${nl}protocol 1.0" "" -- $c version

# ---- an empty board (the package's): the listing says so and what to edit (issue 29) ----
printf '{"board": "unconfigured", "devices": []}\n' >"$tmp/empty.json"
"$daemon" --listen "unix:$tmp/empty.sock" --board "$tmp/empty.json" 2>"$tmp/empty.log" &
pids="$pids $!"
i=0
until "$cli" -a "unix:$tmp/empty.sock" version >/dev/null 2>&1 || [ $i -ge 200 ]; do
	i=$((i + 1))
	sleep 0.05
done
check "devices on an empty board: no rows, exit 0, the board file to edit on stderr" 0 "" \
	"iiowire: the daemon's board has no devices: add them to its board file (the installed iiowired's is /" \
	-- "$cli" -a "unix:$tmp/empty.sock" devices
check "...and --json stays a plain empty list" 0 "[]" "" -- "$cli" -a "unix:$tmp/empty.sock" --json devices
check "the daemon's log says so at start, naming the file" 0 "" "" -- \
	grep -q "warn: board unconfigured has no devices: add them to $tmp/empty.json" "$tmp/empty.log"

# ---- consumer reads ----
check "cread default processed" 0 "1000" "" -- $c cread iio_hwmon.0 testchan1
check "cread first channel" 0 "1000" "" -- $c cread iio_hwmon.0 -
check "cread raw" 0 "2000" "" -- $c cread iio_hwmon.0 testchan2 raw
check "cread processed x1000" 0 "1000000" "" -- $c cread iio_hwmon.0 testchan1 processed 1000
check "cread differential" 0 "2300" "" -- $c cread meter diff
check "cread scale" 0 "1.000000000" "" -- $c cread iio_hwmon.0 testchan1 scale
check "cread scale --json" 0 '{"consumer": "iio_hwmon.0", "channel": "testchan1", "what": "scale", "value": "1.000000000", "val": 4096, "val2": 12, "format": "FRACTIONAL_LOG2"}' "" \
	-- $c --json cread iio_hwmon.0 testchan1 scale
check "cread processed --json" 0 '{"consumer": "iio_hwmon.0", "channel": "testchan2", "what": "processed", "value": 2000}' "" \
	-- $c --json cread iio_hwmon.0 testchan2 processed
check "cread type" 0 "voltage" "" -- $c cread iio_hwmon.0 testchan1 type
check "cread no offset" 1 "" "iiowire: cread: EINVAL: " -- $c cread iio_hwmon.0 testchan1 offset
check "cread missing channel" 1 "" "iiowire: cread: ENODEV: " -- $c cread iio_hwmon.0 nope
check "cread bad kind" 2 "" "unknown kind" -- $c cread iio_hwmon.0 testchan1 volts
check "cread multiplier needs processed" 2 "" "multiplier" -- $c cread iio_hwmon.0 testchan1 raw 10

# ---- watch ----
check "watch -n 2" 0 "3300${nl}3300" "" -- $c watch -n 2 -i 20 max1238 in_voltage0_raw
check_re "watch two attrs" 0 '^max1238 in_voltage(0|1)_raw (3300|1000) [0-9]+$' \
	-- $c watch -n 4 -i 20 max1238 in_voltage0_raw max1238 in_voltage1_raw
check_re "watch --json" 0 '^\{"device": "max1238", "attr": "in_voltage2_raw", "value": "2000", "timestamp_ns": [0-9]+\}$' \
	-- $c --json watch -n 2 -i 20 max1238 in_voltage2_raw
check "watch bad attr" 1 "" "iiowire: watch: ENOENT: " -- $c watch -n 1 max1238 nope
check "watch interval out of range" 1 "" "ERANGE" -- $c watch -n 1 -i 5 max1238 in_voltage0_raw
check "watch one arg" 2 "" "usage: iiowire watch" -- $c watch max1238
check "watch odd args" 2 "" "DEVICE ATTR pairs" -- $c watch max1238 in_voltage0_raw max1238
# until Ctrl-C: SIGINT ends it with status 0
$c watch -i 20 max1238 in_voltage0_raw >"$tmp/wout" 2>"$tmp/werr" &
wpid=$!
sleep 0.5
kill -INT $wpid
wait $wpid
wstatus=$?
if [ $wstatus = 0 ] && [ "$(head -1 "$tmp/wout")" = 3300 ] && [ ! -s "$tmp/werr" ]; then
	passed=$((passed + 1))
else
	failed=$((failed + 1))
	echo "FAIL: watch until SIGINT: status $wstatus, stderr $(cat "$tmp/werr")"
fi

# ---- monitor: iio_event_monitor's lines, from a board with the event generator ----
# and an ad7998 whose ALERT pin is its model's line: voltage1 at 1000 mV of 4096
cat >"$tmp/evboard.json" <<'EOF2'
{"board": "evtest", "buses": {"i2c-0": {"type": "i2c", "backend": "emulated"}},
 "devices": [{"driver": "iio_dummy", "name": "dummy0"}, {"driver": "iio_evgen"},
  {"driver": "ad7998", "bus": "i2c-0", "address": "0x21", "label": "alert", "irq": "emulated",
   "vref_mv": 4096, "emulate": {"voltage1": 1000}}]}
EOF2
esock=$tmp/esock
"$daemon" --listen "unix:$esock" --board "$tmp/evboard.json" --log-level error &
pids="$pids $!"
i=0
while [ $i -lt 200 ] && ! "$cli" -a "unix:$esock" version >/dev/null 2>&1; do
	i=$((i + 1))
	sleep 0.05
done
e="$cli -a unix:$esock"
$e monitor -n 4 dummy0 >"$tmp/mout" 2>"$tmp/merr" &
mpid=$!
# the stream is open once the daemon counts a subscriber's device as read: poke until seen
i=0
while [ $i -lt 100 ] && ! grep -q 'Found' "$tmp/mout"; do i=$((i + 1)); sleep 0.05; done
sleep 0.2
for v in 0 1 2 3 1; do $e write iio_evgen poke_ev0 $v; done
wait $mpid
mstatus=$?
sed -E 's/time: [0-9]+,/time: T,/' "$tmp/mout" >"$tmp/mout.t"
cat >"$tmp/mwant" <<'EOF2'
Found IIO device with name dummy0 with device number 0
Event: time: T, type: voltage, channel: 0, evtype: thresh, direction: rising
Event: time: T, type: activity(running), channel: 0, evtype: thresh, direction: rising
Event: time: T, type: steps, channel: 0, evtype: change
Event: time: T, type: activity(running), channel: 0, evtype: thresh, direction: rising
EOF2
if [ $mstatus = 0 ] && cmp -s "$tmp/mout.t" "$tmp/mwant" && [ ! -s "$tmp/merr" ]; then
	passed=$((passed + 1))
else
	failed=$((failed + 1))
	echo "FAIL: monitor: status $mstatus, stdout $(cat "$tmp/mout"), stderr $(cat "$tmp/merr")"
fi
# the ad7998's alert: a falling threshold above the input, one conversion
$e monitor -n 1 ad7998 >"$tmp/aout" 2>"$tmp/aerr" &
mpid=$!
i=0
while [ $i -lt 100 ] && ! grep -q 'Found' "$tmp/aout"; do i=$((i + 1)); sleep 0.05; done
sleep 0.2
$e write alert events/in_voltage1_thresh_falling_value 1200
$e write alert events/in_voltage1_thresh_falling_en 1
$e read alert in_voltage1_raw >/dev/null
wait $mpid
mstatus=$?
sed -E 's/time: [0-9]+,/time: T,/' "$tmp/aout" >"$tmp/aout.t"
cat >"$tmp/awant" <<'EOF2'
Found IIO device with name ad7998 with device number 2
Event: time: T, type: voltage, channel: 1, evtype: thresh, direction: falling
EOF2
if [ $mstatus = 0 ] && cmp -s "$tmp/aout.t" "$tmp/awant" && [ ! -s "$tmp/aerr" ]; then
	passed=$((passed + 1))
else
	failed=$((failed + 1))
	echo "FAIL: monitor ad7998: status $mstatus, stdout $(cat "$tmp/aout"), stderr $(cat "$tmp/aerr")"
fi
check "monitor bad count" 2 "" "monitor: bad count '0'" -- $e monitor -n 0 dummy0
check "monitor without events" 1 "Found IIO device with name iio_evgen with device number 1" "This device does not support events" -- $e monitor iio_evgen
check "monitor no device" 1 "" "iiowire: monitor: ENODEV: " -- $e monitor nosuch
check "monitor two devices" 2 "" "monitor needs one DEVICE" -- $e monitor dummy0 iio_evgen

# ---- usage ----
check_re "--help" 0 '.*' -- $cli --help
check "--help names every command" 0 "16" "" -- sh -c "$cli --help | grep -Ec '^  (devices|device|attrs|channels|read|write|maps|consumer|cread|watch|capture|monitor|stats|version|shell|help)( |$)'"
check "no command" 2 "" "no command" -- $cli
check "unknown command" 2 "" "unknown command 'frob'" -- $c frob
check "missing argument" 2 "" "usage: iiowire read DEVICE ATTR" -- $c read max1238
check "extra argument" 2 "" "usage: iiowire devices" -- $c devices extra
check "bad timeout" 2 "" "--timeout" -- $cli --timeout 0 devices
check "bad option" 2 "" "bad option" -- $cli --frobnicate devices
check "refused" 1 "" "ECONNREFUSED" -- $cli -a 127.0.0.1:1 devices
check "no such socket" 1 "" "ENOENT" -- $cli -a "unix:$tmp/none" devices
check "bad address" 1 "" "EINVAL" -- $cli -a "host:99999" devices
check "IIOWIRE_ADDRESS" 0 "3300" "" -- env IIOWIRE_ADDRESS="unix:$sock" $cli read max1238 in_voltage0_raw
check "-a beats IIOWIRE_ADDRESS" 0 "3300" "" -- env IIOWIRE_ADDRESS=127.0.0.1:1 $c read max1238 in_voltage0_raw

# ---- shell ----
printf 'read max1238 in_voltage0_raw\n# a comment\n\ncread iio_hwmon.0 testchan2\nquit\nread max1238 name\n' >"$tmp/script"
check "shell" 0 "3300${nl}2000" "" -- sh -c "$c shell <'$tmp/script'"
printf 'read max1238 in_voltage0_raw\nread max1238 nope\n' >"$tmp/script2"
check "shell ends with the last status" 1 "3300" "ENOENT" -- sh -c "$c shell <'$tmp/script2'"
printf 'write dummy0 out_voltage0_raw "7"\nread dummy0 out_voltage0_raw\nwrite dummy0 out_voltage0_raw 0\n' >"$tmp/script3"
check "shell quotes" 0 "7" "" -- sh -c "$c shell <'$tmp/script3'"

# ---- README's event example ("The command line, ..."), as written, on the demo board ----
# readme START: the README line that starts with START, run as written (its
# comment cut), with -a unix:$dsock after "iiowire"
readme() {
	line=$(awk -v p="$1" 'index($0, p) == 1 { sub(/ *#.*/, ""); print; exit }' "$src/README.md")
	if [ -z "$line" ]; then
		echo "README has no line '$1'" >&2
		return 99
	fi
	# shellcheck disable=SC2086
	set -- ${line#iiowire }
	"$cli" -a "unix:$dsock" "$@"
}
dsock=$tmp/dsock
daemon_board=$src/maps/demo.json
start_daemon "$dsock"
daemon_board=""
check "README: enable dummy0's event" 0 "" "" -- \
	readme "iiowire write dummy0 events/in_voltage0_thresh_rising_en 1"
readme "iiowire monitor dummy0" >"$tmp/rmon" 2>&1 &
rmpid=$!
pids="$pids $rmpid"
i=0
while [ $i -lt 100 ] && ! grep -q 'Found' "$tmp/rmon"; do i=$((i + 1)); sleep 0.05; done
sleep 0.2
check "README: poke the event generator" 0 "" "" -- readme "iiowire write iio_evgen poke_ev0 0"
i=0
until grep -q '^Event: time: [0-9]*, type: voltage, channel: 0, evtype: thresh, direction: rising$' \
	"$tmp/rmon" || [ $i -ge 100 ]; do
	i=$((i + 1))
	sleep 0.05
done
if grep -q '^Event: .*type: voltage, channel: 0' "$tmp/rmon" &&
	grep -q '^Found IIO device with name dummy0 with device number 0$' "$tmp/rmon"; then
	passed=$((passed + 1))
else
	failed=$((failed + 1))
	echo "FAIL: README's iiowire monitor dummy0 printed: $(cat "$tmp/rmon")"
fi
kill $rmpid

# ---- tokens ----
printf 's3cret, sixteen bytes\n' >"$tmp/token"
chmod 600 "$tmp/token"
printf 'nope\n' >"$tmp/badtoken"
asock=$tmp/asock
start_daemon "$asock" --auth-token-file "$tmp/token"
a="$cli -a unix:$asock"
check "auth required" 1 "" "EACCES" -- $a read max1238 in_voltage0_raw
check "--token-file" 0 "3300" "" -- $a --token-file "$tmp/token" read max1238 in_voltage0_raw
check "IIOWIRE_TOKEN_FILE" 0 "3300" "" -- env IIOWIRE_TOKEN_FILE="$tmp/token" $a read max1238 in_voltage0_raw
check "wrong token" 1 "" "EACCES" -- $a --token-file "$tmp/badtoken" read max1238 in_voltage0_raw
check "missing token file" 1 "" "ENOENT" -- $a --token-file "$tmp/none" read max1238 in_voltage0_raw

echo "test_cli: $passed passed, $failed failed"
echo "$passed passed, $failed failed"
[ $failed = 0 ]
