#!/bin/sh
# test_mqtt.sh - iiowire-mqtt against a real mosquitto broker (Debian's
# package) on a free loopback port, checked with mosquitto_sub and
# mosquitto_pub: retained Home Assistant discovery configs, state values
# equal to the daemon's CREAD, a channel whose read fails published as
# unavailable, command topics (an allowed write, one the daemon refuses, a
# hostile payload refused and logged, a retained one ignored at start), Home
# Assistant births debounced, removal on a board reload, a daemon
# restart, a broker restart, the last will of a killed bridge, a broker down
# at start and one refusing the credentials, and a wildcard prefix refused.
# Usage: test_mqtt.sh BUILD_DIR SOURCE_DIR. Skips (exit 77) without mosquitto.
set -u
build=$1
. "$2/tests/shtest.sh"
mqtt=$build/client/iiowire-mqtt
cli=$build/client/iiowire
daemon=$build/server/iiowired
for p in mosquitto mosquitto_sub mosquitto_pub mosquitto_passwd nc; do
	command -v $p >/dev/null || { echo "test_mqtt: SKIPPED: $p is not installed"; exit 77; }
done
shtest_begin mqtt
sock=$tmp/d.sock


# A MAX1238 at 1 mV per LSB with constant inputs, dummy0 for writes, and a
# second MAX1238 whose every transfer fails (EIO): its channel cannot be read.
board() { # board FILE WITH_TESTCHAN2(0|1)
	extra=""
	[ "$2" = 1 ] && extra='{"adc_dev_name": "0-0035", "adc_channel_label": "AIN2",
	  "consumer_dev_name": "iio_hwmon.0", "consumer_channel": "testchan2"},'
	cat >"$1" <<EOF
{"board": "mqtttest", "buses": {"i2c-0": {"type": "i2c", "backend": "emulated"}},
 "devices": [{"driver": "iio_dummy", "name": "dummy0"},
  {"driver": "max1238", "bus": "i2c-0", "address": "0x35", "label": "stargate2-adc",
   "emulate": {"AIN0": 3300, "AIN1": 1000, "AIN2": 2000, "AIN3": 1250}},
  {"driver": "max1238", "bus": "i2c-0", "address": "0x36", "label": "broken-adc",
   "fault": {"mode": "eio"}}],
 "maps": [
  {"adc_dev_name": "0-0035", "adc_channel_label": "AIN1", "consumer_dev_name": "iio_hwmon.0",
   "consumer_channel": "testchan1"}, $extra
  {"adc_dev_name": "0-0036", "adc_channel_label": "AIN0", "consumer_dev_name": "broken",
   "consumer_channel": "dead"}]}
EOF
}

start_daemon() {
	"$daemon" --listen "unix:$sock" --board "$tmp/board.json" --log-level error \
		--allow-write 'dummy0:out_voltage0_raw' &
	dpid=$!
	pids="$pids $dpid"
	i=0
	until "$cli" -a "unix:$sock" version >/dev/null 2>&1; do
		i=$((i + 1))
		[ $i -lt 200 ] || { echo "test_mqtt: the daemon did not start"; exit 1; }
		sleep 0.05
	done
}

# start_broker [CONF_LINES]: mosquitto on $bport (fixed across restarts)
start_broker() {
	# as root, mosquitto would drop to its own user, who cannot read $tmp
	{ echo "listener $bport 127.0.0.1"; echo "persistence false"; echo "user $(id -un)"
	  echo "${1:-allow_anonymous true}"; } >"$tmp/mosq.conf"
	mosquitto -c "$tmp/mosq.conf" >"$tmp/mosq.log" 2>&1 &
	mpid=$!
	pids="$pids $mpid"
	i=0
	until nc -z 127.0.0.1 $bport 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 100 ] || { echo "test_mqtt: mosquitto did not start"; cat "$tmp/mosq.log"; exit 1; }
		sleep 0.05
	done
}

# sub TOPIC [SECONDS]: the retained (or first) messages of TOPIC, "topic payload" lines
sub() {
	mosquitto_sub -h 127.0.0.1 -p $bport -t "$1" -v -W "${2:-2}" 2>/dev/null
}

# get TOPIC: the first (retained) payload of TOPIC, waiting 1 s at most
get() {
	mosquitto_sub -h 127.0.0.1 -p $bport -t "$1" -C 1 -W 1 2>/dev/null
}

# wait_msg TOPIC PAYLOAD: until TOPIC's retained payload is PAYLOAD (10 s at most)
wait_msg() {
	n=0
	while [ $n -lt 40 ]; do
		[ "$(get "$1")" = "$2" ] && return 0
		n=$((n + 1))
		sleep 0.25
	done
	return 1
}

check() { # check NAME CONDITION-STATUS
	if [ "$2" -eq 0 ]; then ok; else bad "$1"; fi
}

# --- README's fleet commands use only options the programs have ---
for prog in iiowire-mqtt iiowire-exporter; do
	"$build/client/$prog" --help >"$tmp/help"
	for opt in $(grep -E "^$prog " "$2/README.md" | grep -oE -- ' --?[a-zA-Z][a-z-]*' | sort -u); do
		grep -qE -- "(^|[ ,])$opt( |,|\$)" "$tmp/help"
		check "README: $prog $opt is in --help" $?
	done
done

"$mqtt" --config "$2/client/mqtt.conf.example" --version >/dev/null 2>"$tmp/err"
check "the shipped mqtt.conf.example parses ($(cat "$tmp/err"))" $?
printf 'broker mqtt://h\nprefix a/#\n' >"$tmp/bad.conf"
"$mqtt" --config "$tmp/bad.conf" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "wildcards" "$tmp/err"
check "a wildcard prefix in a --config file is refused too" $?

# --- limits at N and N+1 (usage errors happen before any connection) ---
rep() { printf "%${2}s" "" | tr ' ' "$1"; } # rep CHAR N: CHAR N times
limit() { # limit NAME WANT_STATUS ARGS...: --version after ARGS, so a pass exits 0
	name=$1 want=$2
	shift 2
	"$mqtt" --broker mqtt://127.0.0.1:1 --board b "$@" --version >/dev/null 2>"$tmp/err"
	st=$?
	[ $st -eq "$want" ]
	check "$name: status $st, want $want ($(head -c 100 "$tmp/err"))" $?
}
limit "--prefix of 128 bytes" 0 --prefix "$(rep p 128)"
limit "--prefix of 129 bytes" 2 --prefix "$(rep p 129)"
many() { i=0; while [ $i -lt $2 ]; do printf '%s c%d ' "$1" $i; i=$((i + 1)); done; }
# shellcheck disable=SC2046
limit "32 --consumer" 0 $(many --consumer 32)
# shellcheck disable=SC2046
limit "33 --consumer" 2 $(many --consumer 33)
many_attr() { i=0; while [ $i -lt $1 ]; do printf -- '--attr d:a%d ' $i; i=$((i + 1)); done; }
# shellcheck disable=SC2046
limit "32 --attr" 0 $(many_attr 32)
# shellcheck disable=SC2046
limit "33 --attr" 2 $(many_attr 33)
printf 'board %s\n' "$(rep b 1018)" >"$tmp/line.conf"	# "board " + 1018 = 1024 bytes
limit "a 1024-byte --config line" 2 --config "$tmp/line.conf"
grep -q -- "--board: 1 to 63 bytes" "$tmp/err"
check "  ...is read, then its board refused for its own length" $?
printf 'board %s\n' "$(rep b 1019)" >"$tmp/line.conf"
limit "a 1025-byte --config line" 2 --config "$tmp/line.conf"
grep -q "over the limit" "$tmp/err"
check "  ...is refused as over the line limit" $?

bport=$(shtest_free_port 0)
board "$tmp/board.json" 1
start_daemon

# --- refused at start: wildcards, bad URLs ---
for prefix in 'a/+/b' 'fleet/#' '/lead' 'x//y'; do
	"$mqtt" -a "unix:$sock" --broker mqtt://127.0.0.1:$bport --prefix "$prefix" \
		>"$tmp/out" 2>"$tmp/err"
	st=$?
	[ $st -eq 2 ] && grep -q -- "--prefix '$prefix'" "$tmp/err"
	check "prefix '$prefix' refused (status $st: $(cat "$tmp/err"))" $?
done
grep -q "wildcards" "$tmp/err" || grep -q "empty topic level" "$tmp/err"
check "the reason is given" $?
"$mqtt" --broker http://x --board b >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "not mqtt://HOST" "$tmp/err"
check "--broker http:// refused" $?
"$mqtt" --broker mqtt://127.0.0.1:1 --board 'a/b' >/dev/null 2>"$tmp/err"
[ $? -eq 2 ]
check "--board with '/' refused" $?

# --- broker down at start: the bridge says so and connects once it is up ---
"$mqtt" -a "unix:$sock" --broker mqtt://127.0.0.1:$bport --board b1 --interval 500 \
	--command dummy0:out_voltage0_raw --command dummy0:in_voltage0_offset \
	--attr stargate2-adc:name --consumer iio_hwmon.0 --consumer broken 2>"$tmp/bridge.err" &
bpid=$!
pids="$pids $bpid"
sleep 0.7
grep -q "broker 127.0.0.1:$bport: .*retrying" "$tmp/bridge.err"
check "broker down at start reported ($(cat "$tmp/bridge.err"))" $?
start_broker
wait_msg iiowire/b1/status online
check "connected once the broker is up: status online (retained)" $?

# --- discovery and values ---
sub 'homeassistant/#' >"$tmp/disc"
n=$(grep -c '^homeassistant/sensor/iiowire_b1/' "$tmp/disc")
[ "$n" -eq 4 ]
check "4 retained sensor configs (3 channels, --attr), got $n" $?
cfg=$(grep '^homeassistant/sensor/iiowire_b1/iiowire_b1_iio_hwmon_0_testchan1/config ' "$tmp/disc")
for want in '"unique_id":"iiowire_b1_iio_hwmon_0_testchan1"' '"device_class":"voltage"' \
	'"unit_of_measurement":"V"' '"state_topic":"iiowire/b1/iio_hwmon.0/testchan1"' \
	'"identifiers":["iiowire_b1"]' '"topic":"iiowire/b1/status"' \
	'"topic":"iiowire/b1/iio_hwmon.0/testchan1/availability"'; do
	echo "$cfg" | grep -qF "$want"
	check "testchan1 config has $want" $?
done
grep -q '^homeassistant/text/iiowire_b1/iiowire_b1_dummy0_out_voltage0_raw/config .*"command_topic":"iiowire/b1/dummy0/out_voltage0_raw/set"' "$tmp/disc"
check "the writable --command has a text entity with its command_topic" $?
for ch in testchan1 testchan2; do
	uv=$("$cli" -a "unix:$sock" cread iio_hwmon.0 $ch processed 1000)
	want=$(printf '%d.%06d' $((uv / 1000000)) $((uv % 1000000)))
	got=$(get "iiowire/b1/iio_hwmon.0/$ch")
	[ "$got" = "$want" ]
	check "$ch state $got equals the daemon's CREAD ($want V)" $?
done
got=$(get iiowire/b1/stargate2-adc/name)
[ "$got" = max1238 ]
check "--attr stargate2-adc:name published as text ($got)" $?

# --- a channel whose read fails: unavailable, no value ---
got=$(get iiowire/b1/broken/dead/availability)
[ "$got" = offline ]
check "the failing channel's availability is offline ($got)" $?
[ -z "$(sub iiowire/b1/broken/dead 1)" ]
check "the failing channel has no (stale) value" $?
grep -q "broken dead: EIO: .*published as unavailable" "$tmp/bridge.err"
check "the failing read is logged with its errno" $?

# --- commands: allowed, refused by the daemon, hostile ---
cmd() { # cmd ATTR PAYLOAD: the result published for it
	mosquitto_sub -h 127.0.0.1 -p $bport -t "iiowire/b1/dummy0/$1/result" -C 1 -W 5 \
		>"$tmp/result" 2>/dev/null &
	spid=$!
	sleep 0.3
	mosquitto_pub -h 127.0.0.1 -p $bport -q 1 -t "iiowire/b1/dummy0/$1/set" -m "$2"
	wait $spid
	cat "$tmp/result"
}
[ "$(cmd out_voltage0_raw 42)" = OK ] && [ "$("$cli" -a "unix:$sock" read dummy0 out_voltage0_raw)" = 42 ]
check "an allowed command write: OK and the daemon has 42" $?
wait_msg iiowire/b1/dummy0/out_voltage0_raw 42
check "the written value is published on the state topic" $?
cmd in_voltage0_offset 5 | grep -q '^EACCES .*--allow-write'
check "a write the daemon refuses: its EACCES published back" $?
for payload in '7
WRITE dummy0 out_voltage0_raw 9' '1 2' "\"99\"" "$(printf 'x%.0s' $(seq 1 65))"; do
	cmd out_voltage0_raw "$payload" | grep -q '^EINVAL payload refused'
	check "hostile payload refused: $(echo "$payload" | head -c 20)" $?
done
[ "$("$cli" -a "unix:$sock" read dummy0 out_voltage0_raw)" = 42 ]
check "no hostile payload was written" $?
[ "$(cmd out_voltage0_raw "$(rep 0 62)43")" = OK ] &&
	[ "$("$cli" -a "unix:$sock" read dummy0 out_voltage0_raw)" = 43 ]
check "a 64-byte payload is taken (the 65-byte one above was refused)" $?
grep -q "payload refused" "$tmp/bridge.err"
check "hostile payloads are logged" $?

# --- a retained command is an old one: a starting bridge does not write it ---
mosquitto_pub -h 127.0.0.1 -p $bport -q 1 -r -t iiowire/rb/dummy0/out_voltage0_raw/set -m 4095
"$cli" -a "unix:$sock" write dummy0 out_voltage0_raw 7 >/dev/null
"$mqtt" -a "unix:$sock" --broker mqtt://127.0.0.1:$bport --board rb \
	--command dummy0:out_voltage0_raw 2>"$tmp/rb.err" &
rpid=$!
pids="$pids $rpid"
wait_msg iiowire/rb/dummy0/out_voltage0_raw 7
check "a second bridge with the same --command is up (its state topic says 7)" $?
sleep 1	# the retained 4095 came with the subscription, before the state was published
got=$("$cli" -a "unix:$sock" read dummy0 out_voltage0_raw)
[ "$got" = 7 ]
check "a retained 4095 on .../set is not written at bridge start (the daemon has $got)" $?
[ "$(grep -c 'out_voltage0_raw/set: a retained message ignored' "$tmp/rb.err")" -eq 1 ]
check "  ...and it is logged once ($(head -c 200 "$tmp/rb.err"))" $?
mosquitto_sub -h 127.0.0.1 -p $bport -t iiowire/rb/dummy0/out_voltage0_raw/result -C 1 -W 5 \
	>"$tmp/result" 2>/dev/null &
spid=$!
sleep 0.3
mosquitto_pub -h 127.0.0.1 -p $bport -q 1 -t iiowire/rb/dummy0/out_voltage0_raw/set -m 44
wait $spid
[ "$(cat "$tmp/result")" = OK ] && [ "$("$cli" -a "unix:$sock" read dummy0 out_voltage0_raw)" = 44 ]
check "a command sent while it listens is still written (44)" $?
shtest_clean_exit $rpid "$tmp/rb.err"
check "the second bridge: clean exit" $?
mosquitto_pub -h 127.0.0.1 -p $bport -q 1 -r -n -t iiowire/rb/dummy0/out_voltage0_raw/set

# --- Home Assistant births: one republish at once, a burst at most one per second ---
births() { # births N SECONDS: "CONFIGS MS", the config messages the bridge published for N
	# births sent at once, and the milliseconds the sending took
	mosquitto_sub -h 127.0.0.1 -p $bport -R -t 'homeassistant/+/iiowire_b1/+/config' -v \
		-W "$2" >"$tmp/births" 2>/dev/null &
	spid=$!
	sleep 0.3
	t0=$(date +%s%N)
	seq "$1" | sed 's/.*/online/' | mosquitto_pub -h 127.0.0.1 -p $bport -q 1 -l \
		-t homeassistant/status
	ms=$((($(date +%s%N) - t0) / 1000000))
	wait $spid
	echo "$(grep -c . "$tmp/births") $ms"
}
sleep 1.1	# no birth answered in the last debounce interval (1000 ms)
births 1 2 >"$tmp/bn"
read -r k ms <"$tmp/bn"
[ "$k" -ge 4 ]
check "one birth: every config published again at once ($k configs)" $?
sleep 1.1
births 2000 6 >"$tmp/bn"
read -r n burst_ms <"$tmp/bn"
r=$((n / k))
[ $((n % k)) -eq 0 ] && [ "$r" -ge 1 ] && [ "$r" -le $((2 + burst_ms / 1000)) ]
check "2000 births in $burst_ms ms: $r republishes ($n configs), at most 1 per 1000 ms" $?
sleep 1.1
births 3 3 >"$tmp/bn"
read -r n ms <"$tmp/bn"
[ "$n" -eq $((2 * k)) ]
check "3 births at once: 2 republishes (at once, then at the interval's end), got $((n / k))" $?

# --- removal on reload ---
board "$tmp/board.json" 0
kill -HUP $dpid
wait_msg iiowire/b1/status online
wait_msg 'homeassistant/sensor/iiowire_b1/iiowire_b1_iio_hwmon_0_testchan2/config' ""
check "a channel gone after a reload: its retained config is removed" $?
wait_msg 'iiowire/b1/iio_hwmon.0/testchan2' ""
check "and its retained value" $?
grep -q "iiowire_b1_iio_hwmon_0_testchan2: gone from the daemon" "$tmp/bridge.err"
check "the removal is logged" $?
[ -n "$(get 'homeassistant/sensor/iiowire_b1/iiowire_b1_iio_hwmon_0_testchan1/config')" ]
check "the others stay" $?

# --- daemon restart: offline, then back ---
kill $dpid
wait $dpid 2>/dev/null
wait_msg iiowire/b1/status offline
check "daemon gone: status offline" $?
start_daemon
wait_msg iiowire/b1/status online
check "daemon back: status online" $?

# --- broker restart: the bridge reconnects and publishes everything again ---
kill $mpid
wait $mpid 2>/dev/null
sleep 0.5
start_broker
wait_msg iiowire/b1/status online
check "broker restarted (no persistence): status online again" $?
[ -n "$(get 'homeassistant/sensor/iiowire_b1/iiowire_b1_iio_hwmon_0_testchan1/config')" ]
check "discovery configs published again" $?
wait_msg iiowire/b1/iio_hwmon.0/testchan1 1.000000
check "values published again" $?

# --- the ready line; every device channel without maps or with --all-channels (issue 29) ---
grep -q "daemon unix:$sock: connected; publishing 3 channels to 127.0.0.1:$bport under iiowire/b1/" \
	"$tmp/bridge.err"
check "the ready line says what is published where ($(head -c 300 "$tmp/bridge.err"))" $?
"$mqtt" -a "unix:$sock" --broker mqtt://127.0.0.1:$bport --board b4 --no-discovery \
	--all-channels 2>"$tmp/all.err" &
apid=$!
pids="$pids $apid"
wait_msg iiowire/b4/stargate2-adc/voltage1 1.000000
check "--all-channels: a device channel under its device's label and sysfs name" $?
[ -z "$(get iiowire/b4/iio_hwmon.0/testchan1)" ]
check "  ...and not the maps' consumer channels" $?
shtest_clean_exit $apid "$tmp/all.err"
check "--all-channels bridge: clean exit" $?
cat >"$tmp/nomap.json" <<EOF
{"board": "nomap", "buses": {"i2c-0": {"type": "i2c", "backend": "emulated"}},
 "devices": [{"driver": "max1238", "bus": "i2c-0", "address": "0x35",
   "emulate": {"AIN3": 1250}}]}
EOF
"$daemon" --listen "unix:$tmp/n.sock" --board "$tmp/nomap.json" --log-level error &
pids="$pids $!"
shtest_wait_socket "$tmp/n.sock"
"$mqtt" -a "unix:$tmp/n.sock" --broker mqtt://127.0.0.1:$bport --board b5 --no-discovery \
	2>"$tmp/nomap.err" &
npid=$!
pids="$pids $npid"
wait_msg iiowire/b5/max1238/voltage3 1.250000
check "no maps: every device channel, under the device's name ($(head -c 300 "$tmp/nomap.err"))" $?
grep -q "publishing 24 channels" "$tmp/nomap.err"
check "  ...all 24 of the MAX1238's (12 single-ended, 12 differential)" $?
shtest_clean_exit $npid "$tmp/nomap.err"
check "no-maps bridge: clean exit" $?

# --- the last will of a killed bridge ---
kill -9 $bpid
wait $bpid 2>/dev/null
wait_msg iiowire/b1/status offline
check "killed bridge: the broker publishes its will (offline)" $?

# --- credentials ---
kill $mpid
wait $mpid 2>/dev/null
mosquitto_passwd -b -c "$tmp/passwd" fleet s3cret >/dev/null 2>&1
chmod 600 "$tmp/passwd"
start_broker "allow_anonymous false
password_file $tmp/passwd"
"$mqtt" -a "unix:$sock" --broker mqtt://127.0.0.1:$bport --board b2 -u fleet -P wrong \
	2>"$tmp/cred.err" &
cpid=$!
pids="$pids $cpid"
sleep 1.5
shtest_clean_exit $cpid "$tmp/cred.err"
check "SIGTERM: exit 0, no sanitizer report" $?
grep -q "broker 127.0.0.1:$bport: .*not authori[sz]ed" "$tmp/cred.err"
check "refused credentials reported ($(head -1 "$tmp/cred.err"))" $?
printf 'broker mqtt://127.0.0.1:%s\nusername fleet\n# a comment\npw s3cret\nboard b3\n' $bport \
	>"$tmp/mqtt.conf"
"$mqtt" -a "unix:$sock" --config "$tmp/mqtt.conf" 2>"$tmp/conf.err" &
fpid=$!
pids="$pids $fpid"
n=0
until [ "$(mosquitto_sub -h 127.0.0.1 -p $bport -u fleet -P s3cret -t iiowire/b3/status -C 1 \
	-W 1 2>/dev/null)" = online ] || [ $n -ge 20 ]; do n=$((n + 1)); sleep 0.25; done
[ $n -lt 20 ]
check "right credentials from a --config file: connected" $?
shtest_clean_exit $fpid "$tmp/conf.err"
check "a clean exit after commands, reloads and restarts: 0, no sanitizer report" $?
[ "$(mosquitto_sub -h 127.0.0.1 -p $bport -u fleet -P s3cret -t iiowire/b3/status -C 1 -W 1 \
	2>/dev/null)" = offline ]
check "a clean exit publishes offline itself (no will is sent then)" $?

# --- TLS: mqtts:// with --cafile against a listener whose certificate the test's CA signed ---
if command -v openssl >/dev/null; then
	(cd "$tmp" &&
	 openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 \
		-subj "/CN=iiowire test CA" &&
	 openssl req -newkey rsa:2048 -nodes -keyout srv.key -out srv.csr -subj /CN=127.0.0.1 &&
	 printf 'subjectAltName=IP:127.0.0.1\n' >ext.cnf &&
	 openssl x509 -req -in srv.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out srv.pem \
		-days 2 -extfile ext.cnf) >/dev/null 2>&1
	kill $mpid
	wait $mpid 2>/dev/null
	start_broker "allow_anonymous true
cafile $tmp/ca.pem
certfile $tmp/srv.pem
keyfile $tmp/srv.key"
	"$mqtt" -a "unix:$sock" --broker mqtts://127.0.0.1:$bport --cafile "$tmp/ca.pem" \
		--board tls1 2>"$tmp/tls.err" &
	tpid=$!
	pids="$pids $tpid"
	n=0
	until [ "$(mosquitto_sub -h 127.0.0.1 -p $bport --cafile "$tmp/ca.pem" -t iiowire/tls1/status \
		-C 1 -W 1 2>/dev/null)" = online ] || [ $n -ge 20 ]; do n=$((n + 1)); sleep 0.25; done
	[ $n -lt 20 ]
	check "mqtts:// with --cafile: connected over TLS ($(head -c 200 "$tmp/tls.err"))" $?
	shtest_clean_exit $tpid "$tmp/tls.err"
	check "TLS bridge: clean exit" $?
	"$mqtt" -a "unix:$sock" --broker mqtts://127.0.0.1:$bport --board tls2 2>"$tmp/tls2.err" &
	tpid=$!
	pids="$pids $tpid"
	sleep 1
	grep -q "broker 127.0.0.1:$bport: .*retrying" "$tmp/tls2.err"
	check "a certificate no CA of ours signed: refused, reported ($(head -c 200 "$tmp/tls2.err"))" $?
	[ -z "$(mosquitto_sub -h 127.0.0.1 -p $bport --cafile "$tmp/ca.pem" -t iiowire/tls2/status \
		-C 1 -W 1 2>/dev/null)" ]
	check "  ...and nothing published" $?
else
	echo "test_mqtt: TLS rows skipped: no openssl"
fi
"$mqtt" --broker mqtt://127.0.0.1:1 --board b --cafile x >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "TLS options need an mqtts:// broker" "$tmp/err"
check "TLS options with mqtt://: usage error" $?

shtest_end
