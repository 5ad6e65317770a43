#!/bin/sh
# test_capture.sh - `iiowire capture` against a live daemon: CSV with the
# exact processed values the chip model gives for the board's inputs (and
# timestamps that grow by the trigger's period), raw records byte for byte,
# JSON arrays, a consumer's channels, --rate (the hrtimer's
# sampling_frequency over the native protocol: timestamps then grow by the
# new period), and the errors (usage, an unknown channel, --rate 0 and
# negative, an unknown trigger, a trigger without sampling_frequency) with
# their exit statuses, the daemon serving on after each.
# Usage: test_capture.sh BUILD_DIR SOURCE_DIR. Last line "N passed, M failed".
set -u
build=$1
src=$2
. "$src/tests/shtest.sh"
shtest_begin capture
cat >"$tmp/board.json" <<'JSON'
{"board": "capture",
 "buses": {"i2c-0": {"type": "i2c", "backend": "emulated"}},
 "triggers": [{"type": "hrtimer", "name": "hrt0", "sampling_frequency": 100},
	      {"type": "sysfs", "number": 1}],
 "devices": [
  {"driver": "max1363", "bus": "i2c-0", "address": "0x34",
   "emulate": {"AIN0": 1000, "AIN1": 1500, "AIN2": 2047, "AIN3": 100}}],
 "maps": [{"adc_dev_name": "0-0034", "adc_channel_label": "AIN1",
	   "consumer_dev_name": "meter", "consumer_channel": "vin"},
	  {"adc_dev_name": "0-0034", "adc_channel_label": "AIN3",
	   "consumer_dev_name": "meter", "consumer_channel": "vref"}]}
JSON
${IIOWIRE_TEST_WRAPPER:-} "$build/server/iiowired" --board "$tmp/board.json" \
	--listen "unix:$tmp/sock" --log-level warn &
pids="$pids $!"
shtest_wait_socket "$tmp/sock"
# a daemon under valgrind (tests/valgrind.sh) may need more than the default 5 s
cli() { "$build/client/iiowire" -t 30000 -a "unix:$tmp/sock" "$@"; }

# CSV: the header, then the processed values: MAX1363 codes are 2 per mV and
# its scale 0.5 mV, so the inputs come back in mV
cli capture max1363 voltage0 voltage1 voltage3 timestamp -n 6 --trigger hrt0 --format csv \
	>"$tmp/csv" 2>"$tmp/err"
st=$?
if [ $st -eq 0 ] && [ "$(head -1 "$tmp/csv")" = "voltage0,voltage1,voltage3,timestamp" ] &&
   [ "$(sed 1d "$tmp/csv" | cut -d, -f1-3 | sort -u)" = "1000,1500,100" ] &&
   [ "$(wc -l <"$tmp/csv")" -eq 7 ]; then ok
else bad "capture csv (status $st): $(cat "$tmp/csv" "$tmp/err")"; fi
# a scan per trigger: no two closer than the 10 ms period (some may be dropped, none early)
now=$(date +%s)
if sed 1d "$tmp/csv" | cut -d, -f4 | awk -v now="$now" '
	NR == 1 && ($1 / 1e9 < now - 60 || $1 / 1e9 > now + 60) { bad = 1 }
	NR > 1 && $1 - p < 9900000 { bad = 1 } { p = $1 } END { exit bad }'; then ok
else bad "csv timestamps not CLOCK_REALTIME 10 ms or more apart: $(cut -d, -f4 "$tmp/csv" | tr '\n' ' ')"; fi

# raw: the kernel's records, the unused top nibble as the chip sent it (1s)
cli capture max1363 voltage0 voltage2 -n 3 --format raw >"$tmp/raw" 2>"$tmp/err"
if [ "$(od -An -tx1 -v "$tmp/raw" | tr -d ' \n')" = "f7d0fffef7d0fffef7d0fffe" ]; then ok
else bad "capture raw: $(od -An -tx1 -v "$tmp/raw") $(cat "$tmp/err")"; fi

# json: one array per scan; -b 2 makes two blocks and a cut third
cli capture max1363 voltage1 -n 5 -b 2 --format json >"$tmp/json" 2>"$tmp/err"
if [ "$(cat "$tmp/json" | tr '\n' ' ')" = "[1500] [1500] [1500] [1500] [1500] " ]; then ok
else bad "capture json: $(cat "$tmp/json" "$tmp/err")"; fi

# a consumer's channels (CSTREAM): named as the consumer names them
cli capture --consumer meter vin vref -n 2 --format csv >"$tmp/cons" 2>"$tmp/err"
if [ "$(cat "$tmp/cons" | tr '\n' ' ')" = "vin,vref 1500,100 1500,100 " ]; then ok
else bad "capture --consumer: $(cat "$tmp/cons" "$tmp/err")"; fi

# errors: usage (2), an unknown channel (1)
cli capture max1363 voltage0 >/dev/null 2>"$tmp/err"
st=$?
if [ $st -eq 2 ] && grep -q 'needs -n COUNT' "$tmp/err"; then ok
else bad "capture without -n: status $st, $(cat "$tmp/err")"; fi
cli capture max1363 voltage0 -n 1 --format xml >/dev/null 2>"$tmp/err"
if [ $? -eq 2 ]; then ok; else bad "capture --format xml: $(cat "$tmp/err")"; fi
cli capture max1363 voltage9 -n 1 >/dev/null 2>"$tmp/err"
st=$?
if [ $st -eq 1 ] && grep -q '^iiowire: capture: ENOENT: ' "$tmp/err"; then ok
else bad "capture of voltage9: status $st, $(cat "$tmp/err")"; fi
# --rate 50: the trigger's sampling_frequency (read back over the protocol), then
# scans 20 ms apart (none closer; all within 2 s of the first)
cli capture max1363 voltage0 timestamp -n 5 --trigger hrt0 --rate 50 --format csv \
	>"$tmp/rate" 2>"$tmp/err"
st=$?
if [ $st -eq 0 ] && [ "$(cli read hrt0 sampling_frequency)" = "50.000000" ] &&
   sed 1d "$tmp/rate" | cut -d, -f2 | awk 'NR > 1 && $1 - p < 19900000 { bad = 1 }
	{ p = $1 } END { exit bad || NR != 5 }'; then ok
else bad "capture --rate 50: status $st, $(cat "$tmp/rate" "$tmp/err")"; fi
# --rate by the device's current trigger (the capture above left hrt0 current), with decimals
cli capture max1363 voltage0 -n 1 --rate 200.5 >/dev/null 2>"$tmp/err"
if [ $? -eq 0 ] && [ "$(cli read trigger0 sampling_frequency)" = "200.500000" ]; then ok
else bad "capture --rate 200.5 on the current trigger: $(cat "$tmp/err")"; fi
# the edges: 0 is EINVAL, negative ERANGE (iio-trig-hrtimer's), an unknown trigger
# ENODEV, a sysfs trigger has no sampling_frequency (ENOENT); each exits 1, the
# rate unchanged, the daemon serving on
for c in "0 EINVAL hrt0" "-5 ERANGE hrt0" "50 ENODEV hrt9" "50 ENOENT sysfstrig1"; do
	set -- $c
	cli capture max1363 voltage0 -n 1 --trigger "$3" --rate "$1" >/dev/null 2>"$tmp/err"
	st=$?
	if [ $st -eq 1 ] && grep -q "^iiowire: capture: rate: $2: " "$tmp/err" &&
	   [ "$(cli read hrt0 sampling_frequency)" = "200.500000" ]; then ok
	else bad "capture --rate $1 --trigger $3: status $st, $(cat "$tmp/err")"; fi
done
# `iiowire devices` lists the triggers after the devices, as the kernel's /sys/bus/iio/devices
if [ "$(cli devices | tr '\n' ' ')" = "iio:device0 max1363 0-0034 - iio_sysfs_trigger iio_sysfs_trigger - - trigger0 hrt0 - - trigger1 sysfstrig1 - - " ]
then ok; else bad "iiowire devices: $(cli devices | tr '\n' ' ')"; fi
# and the daemon serves on
if [ "$(cli read max1363 name)" = "max1363" ]; then ok; else bad "the daemon stopped serving"; fi
shtest_end
