#!/bin/sh
# test_errors.sh - errors that must say what went wrong, where (issue
# "errors that mislead"): a unix socket in a directory that does not exist,
# a listener that fails after another opened (nothing may claim to listen),
# a trailing comma in a board file, a misspelt board key, an 8-bit I2C
# address (loaded, with a warning), a consumer that
# does not exist, a board file that does not exist.
# Usage: test_errors.sh BUILD_DIR SOURCE_DIR. The last line is "N passed, M failed".
set -u
build=$1
src=$2
daemon=$build/server/iiowired
board=$build/drivers/iiowire-board
. "$src/tests/shtest.sh"
shtest_begin errors
# expect WHAT STATUS TEXT COMMAND...: exit status STATUS and TEXT in its output
expect() {
	what=$1 want=$2 text=$3
	shift 3
	"$@" >"$tmp/out" 2>&1
	got=$?
	if [ "$got" = "$want" ] && grep -qF -- "$text" "$tmp/out"; then
		ok
	else
		bad "$what: exit $got (want $want), output: $(head -3 "$tmp/out")"
	fi
}

expect "unix socket in a missing directory" 1 \
	"listen: unix:/nonexistent-$$/x.sock: no such file or directory" \
	"$daemon" --listen "unix:/nonexistent-$$/x.sock" --board "$src/maps/stargate2.json"

# a port in use for the second listener: the first must not be announced
# (a first daemon holds a port the kernel picked; its log says which)
"$daemon" --board "$src/maps/stargate2.json" --listen 127.0.0.1:0 >"$tmp/holder.log" 2>&1 &
pids="$pids $!"
i=0
until grep -q "listening on 127.0.0.1:" "$tmp/holder.log" || [ $i -ge 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
busy=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$tmp/holder.log" | head -1)
expect "second listener's port in use" 1 "address already in use" \
	"$daemon" --listen "unix:$tmp/s" --iiod-listen "127.0.0.1:$busy"
if grep -q "listening" "$tmp/out"; then
	bad "a daemon that could not open all its listeners said it listened"
else
	ok
fi

printf '{"board": "x", "devices": [],\n}\n' >"$tmp/comma.json"
expect "trailing comma" 2 "$tmp/comma.json:1:29: JSON syntax error: a comma before the end" \
	"$board" "$tmp/comma.json"
cat >"$tmp/key.json" <<'JSON'
{"board": "x", "buses": {"i2c-0": {"type": "i2c", "backend": "emulated"}},
 "devices": [{"driver": "max1363", "bus": "i2c-0", "adress": "0x34"}]}
JSON
expect "misspelt key" 2 "devices[0].adress: unknown key (did you mean \"address\"?)" \
	"$board" "$tmp/key.json"
expect "iiowire-board --version" 0 "iiowire-board " "$board" --version
# a datasheet's 8-bit I2C address loads on an emulated bus, with a warning (issue 29)
cat >"$tmp/addr8.json" <<'JSON'
{"board": "x", "buses": {"i2c-0": {"type": "i2c", "backend": "emulated"}},
 "devices": [{"driver": "tsl2561", "bus": "i2c-0", "address": "0x72"}]}
JSON
expect "an 8-bit address: loaded, with the 7-bit one named" 0 \
	"addr8.json: warning: tsl2561 at 0-0072: 0x72 is not an address the tsl2563 family's datasheets give (0x29, 0x39, 0x49); 0x72 is 0x39 shifted left one bit" \
	"$board" "$tmp/addr8.json"
"$daemon" --board "$tmp/addr8.json" --listen "unix:$tmp/a8.sock" >"$tmp/a8.log" 2>&1 &
a8pid=$!
shtest_wait_socket "$tmp/a8.sock"
kill $a8pid
wait $a8pid
expect "... and iiowired's log says so at start" 0 \
	"warn: $tmp/addr8.json: tsl2561 at 0-0072: 0x72 is not an address" cat "$tmp/a8.log"
# a misspelt --board: the message says which file it is
expect "a board file that is not there" 2 \
	"iiowired: board file $tmp/mylihgt.json: No such file or directory" \
	"$daemon" --board "$tmp/mylihgt.json" --listen "unix:$tmp/nb.sock"
expect "... in iiowire-board too" 2 "board file $tmp/mylihgt.json: No such file or directory" \
	"$board" "$tmp/mylihgt.json"

# a consumer no map names is not "no channel x of" it
"$daemon" --board "$src/maps/stargate2.json" --listen "unix:$tmp/d.sock" --log-level warn &
dpid=$!
shtest_wait_socket "$tmp/d.sock"
expect "cread of an unknown consumer" 1 \
	"iiowire: cread: ENODEV: no consumer iio_hwmon.7: no channel map names it" \
	"$build/client/iiowire" -a "unix:$tmp/d.sock" cread iio_hwmon.7 x
expect "cread of an unknown channel" 1 \
	"iiowire: cread: ENODEV: no channel x of consumer iio_hwmon.0" \
	"$build/client/iiowire" -a "unix:$tmp/d.sock" cread iio_hwmon.0 x
kill $dpid
wait $dpid

shtest_end
