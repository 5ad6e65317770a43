#!/bin/sh
# test_play.sh - `iiowire play` against a live daemon with an emulated
# ad5766/ad5767 (PROTOCOL.md's PLAY section): CSV raw codes and raw records
# played to the last scan (read back over SPI), paced by a 200 Hz trigger;
# --cyclic repeating its block one scan per trigger_now until SIGTERM, a
# second writer refused with EBUSY meanwhile; values that do not fit
# (65535 and 65536 on 16 bits), short lines, an input device, a ramp played
# into the closed loop (an ADC input wired to the AD5767), and usage
# errors with their exit statuses; the daemon serving on after each.
# Usage: test_play.sh BUILD_DIR SOURCE_DIR. Last line "N passed, M failed".
set -u
build=$1
src=$2
. "$src/tests/shtest.sh"
shtest_begin play
cat >"$tmp/board.json" <<'JSON'
{"board": "play",
 "buses": {"spi0": {"type": "spi", "backend": "emulated"},
	   "i2c-0": {"type": "i2c", "backend": "emulated"}},
 "triggers": [{"type": "hrtimer", "name": "hrt0", "sampling_frequency": 200},
	      {"type": "sysfs", "number": 1}],
 "devices": [
  {"driver": "ad5766", "bus": "spi0", "cs": 0, "output-range-microvolts": "-20000000 0"},
  {"driver": "ad5767", "bus": "spi0", "cs": 1, "output-range-microvolts": "-5000000 5000000"},
  {"driver": "max1363", "bus": "i2c-0", "address": "0x34", "emulate": {"AIN0": 1000}},
  {"driver": "max1237", "bus": "i2c-0", "address": "0x35", "label": "loop",
   "emulate": {"AIN0": {"dac": "ad5767:voltage2"}}}]}
JSON
${IIOWIRE_TEST_WRAPPER:-} "$build/server/iiowired" --board "$tmp/board.json" \
	--listen "unix:$tmp/sock" --log-level warn 2>"$tmp/log" &
pids="$pids $!"
shtest_wait_socket "$tmp/sock"
cli() { "$build/client/iiowire" -t 30000 -a "unix:$tmp/sock" "$@"; }
raw() { cli read "$1" "out_voltage$2_raw"; }

# CSV: a header, then 100 scans of raw codes; 20-scan blocks at 200 Hz take
# about 0.5 s, and the command returns once the last scan is played
{ echo "voltage0,voltage3"; i=1; while [ $i -le 100 ]; do echo "$i,$((65535 - i))";
  i=$((i + 1)); done; } >"$tmp/ramp.csv"
t0=$(date +%s%N)
cli play ad5766 voltage0 voltage3 --format csv --trigger hrt0 -b 20 <"$tmp/ramp.csv" \
	>"$tmp/out" 2>"$tmp/err"
st=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
if [ $st -eq 0 ] && [ "$(raw ad5766 0)" = 100 ] && [ "$(raw ad5766 3)" = 65435 ] &&
   [ ! -s "$tmp/out" ]; then ok
else bad "play csv (status $st): $(cat "$tmp/err") v0=$(raw ad5766 0)"; fi
if [ "$ms" -ge 450 ]; then ok; else bad "100 scans at 200 Hz took $ms ms"; fi
echo "[100 scans at 200 Hz in $ms ms]"

# raw records: the AD5767's 12-bit code sits in bits 15:4 of a host-order u16
# (written by printf: the image's build stage, which runs this suite, has no python3)
host_le=$(printf '\001\000' | od -An -tu2 | tr -d ' ')
records() {
	for c; do
		v=$((c << 4)); lo=$(printf %o $((v & 255))); hi=$(printf %o $((v >> 8)))
		if [ "$host_le" = 1 ]; then printf "\\$lo\\$hi"; else printf "\\$hi\\$lo"; fi
	done
}
records 1 2 4095 >"$tmp/ad5767.bin"
if cli play ad5767 voltage9 -b 2 --trigger hrt0 <"$tmp/ad5767.bin" 2>"$tmp/err" && [ "$(raw ad5767 9)" = 4095 ]; then ok
else bad "play raw ad5767: $(cat "$tmp/err") v9=$(raw ad5767 9)"; fi

# the closed loop (maps/README.md): a ramp played to the AD5767's voltage2
# reaches the MAX1237's AIN0; the DAC holds its last code, 2560: -5 V +
# 2560 x 10 V / 4096 = 1250 mV, 2500 at 0.5 mV a code
records $(seq 2048 64 2560) >"$tmp/loop.bin"
if cli play ad5767 voltage2 -b 3 --trigger hrt0 <"$tmp/loop.bin" 2>"$tmp/err" &&
   [ "$(raw ad5767 2)" = 2560 ] && [ "$(cli read loop in_voltage0_raw)" = 2500 ]; then ok
else bad "play into the loop: $(cat "$tmp/err") v2=$(raw ad5767 2) adc=$(cli read loop in_voltage0_raw)"; fi

# limits: 65535 fits 16 bits, 65536 does not; a short line; an input device
printf '65535\n' | cli play ad5766 voltage1 --format csv 2>"$tmp/err"
if [ $? -eq 0 ] && [ "$(raw ad5766 1)" = 65535 ]; then ok; else bad "65535: $(cat "$tmp/err")"; fi
printf '65536\n' | cli play ad5766 voltage1 --format csv 2>"$tmp/err"
st=$?
if [ $st -eq 1 ] && grep -q "line 1: 65536 does not fit voltage1" "$tmp/err"; then ok
else bad "65536 (status $st): $(cat "$tmp/err")"; fi
printf '1\n' | cli play ad5766 voltage1 voltage2 --format csv 2>"$tmp/err"
st=$?
if [ $st -eq 1 ] && grep -q "2 values of integers wanted" "$tmp/err"; then ok
else bad "short line (status $st): $(cat "$tmp/err")"; fi
cli play max1363 <"$tmp/ad5767.bin" 2>"$tmp/err"
st=$?
if [ $st -eq 1 ] && grep -q "EINVAL: max1363 has no output buffer" "$tmp/err"; then ok
else bad "input device (status $st): $(cat "$tmp/err")"; fi
for args in "" "ad5766 --format json" "ad5766 -b 4097" "ad5766 --bogus"; do
	# shellcheck disable=SC2086
	cli play $args </dev/null 2>"$tmp/err"
	st=$?
	if [ $st -eq 2 ]; then ok; else bad "usage '$args' (status $st): $(cat "$tmp/err")"; fi
done

# --cyclic: three scans, one per trigger_now, over and over; a second writer is EBUSY
printf '11,12\n21,22\n31,32\n' >"$tmp/cyc.csv"
# the program itself in the background, not a subshell: $! is what SIGTERM reaches
"$build/client/iiowire" -t 30000 -a "unix:$tmp/sock" play ad5766 voltage4 voltage5 \
	--format csv --cyclic -b 3 --trigger sysfstrig1 <"$tmp/cyc.csv" 2>"$tmp/cerr" &
cpid=$!
pids="$pids $cpid"
i=0
# until the block is in: the first trigger_now then plays its first scan
while [ "$(raw ad5766 4)" != 11 ] && [ $i -lt 100 ]; do
	cli write sysfstrig1 trigger_now 1
	sleep 0.05; i=$((i + 1))
done
seq=""
for k in 1 2 3 4 5 6 7; do
	cli write sysfstrig1 trigger_now 1
	seq="$seq $(raw ad5766 4)/$(raw ad5766 5)"
done
if [ "$seq" = " 21/22 31/32 11/12 21/22 31/32 11/12 21/22" ]; then ok
else bad "cyclic sequence:$seq"; fi
printf '1,2\n' | cli play ad5766 voltage4 voltage5 --format csv 2>"$tmp/err"
st=$?
if [ $st -eq 1 ] && grep -q "EBUSY: ad5766 plays one writer's scans at a time" "$tmp/err"; then ok
else bad "second writer (status $st): $(cat "$tmp/err")"; fi
kill -TERM "$cpid"
wait "$cpid"
st=$?
if [ $st -eq 0 ]; then ok; else bad "cyclic play after SIGTERM: status $st $(cat "$tmp/cerr")"; fi
# stopped: the outputs hold, and the device takes a new writer
held="$(raw ad5766 4)"
cli write sysfstrig1 trigger_now 1
if [ "$(raw ad5766 4)" = "$held" ] && printf '7,8\n' |
   cli play ad5766 voltage4 voltage5 --format csv --trigger hrt0 && [ "$(raw ad5766 4)" = 7 ]; then ok
else bad "after the cyclic writer: held $held now $(raw ad5766 4)"; fi
if [ "$(cli read ad5766 name)" = ad5766 ]; then ok; else bad "daemon not serving"; fi
shtest_end
