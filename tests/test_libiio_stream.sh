#!/bin/sh
# test_libiio_stream.sh - libiio's own clients capture through iiowired's
# iiod listener: Debian's iio_readdev and python3-libiio's Buffer.refill()
# get, byte for byte, the records a kernel capture gives for the board's
# inputs (max1363, ad7998, adis16400, iio_dummy; tests/libiio_stream.py
# computes them from the inputs and the kernel's layout rules).
# Usage: test_libiio_stream.sh BUILD_DIR SOURCE_DIR. The last line is
# "N passed, M failed".
set -u
build=$1
src=$2
. "$src/tests/shtest.sh"
py=/usr/bin/python3
if ! command -v iio_readdev >/dev/null || ! "$py" -c 'import iio' 2>/dev/null; then
	echo "test_libiio_stream: SKIPPED: no iio_readdev or python3-libiio (tests/deps.sh)"
	exit 0
fi
shtest_begin libiio-stream
cat >"$tmp/board.json" <<'JSON'
{"board": "libiio-stream",
 "buses": {"i2c-0": {"type": "i2c", "backend": "emulated"},
	   "spi0": {"type": "spi", "backend": "emulated"}},
 "triggers": [{"type": "hrtimer", "name": "hrt0", "sampling_frequency": 100}],
 "devices": [
  {"driver": "iio_dummy", "name": "dummy0"},
  {"driver": "max1363", "bus": "i2c-0", "address": "0x34",
   "emulate": {"AIN0": 1000, "AIN1": 1500, "AIN2": 2047, "AIN3": 100}},
  {"driver": "ad7998", "bus": "i2c-0", "address": "0x21", "vref_mv": 4096,
   "emulate": {"voltage0": 300, "voltage1": 1200, "voltage2": 2500, "voltage3": 4000,
	       "voltage4": 10, "voltage5": 20, "voltage6": 30, "voltage7": 40}},
  {"driver": "adis16400", "bus": "spi0", "cs": 0,
   "emulate": {"voltage0_supply": 4836, "temp0": 25000}}]}
JSON
port=$("$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
${IIOWIRE_TEST_WRAPPER:-} "$build/server/iiowired" --board "$tmp/board.json" \
	--listen "unix:$tmp/sock" --iiod-listen "127.0.0.1:$port" --log-level warn &
pids="$pids $!"
shtest_wait_socket "$tmp/sock"
# each device's current trigger (it stays set after the stream): hrt0; a
# daemon under valgrind may take longer than the default 5 s to start one
for d in dummy0 max1363 ad7998 adis16400; do
	"$build/client/iiowire" -t 30000 -a "unix:$tmp/sock" capture $d voltage0 -n 1 \
		--trigger hrt0 >/dev/null || bad "setting $d's trigger"
done
"$py" "$src/tests/libiio_stream.py" "$port" >"$tmp/out" 2>&1
status=$?
cat "$tmp/out"
passed=$(grep -c '^ok ' "$tmp/out")
failed=$(grep -c '^FAIL ' "$tmp/out")
[ $status -eq 0 ] || [ "$failed" -gt 0 ] || bad "libiio_stream.py ended with status $status"
shtest_end
