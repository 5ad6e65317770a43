#!/bin/sh
# test_kernel.sh - iiowired --kernel over a fake sysfs tree (issue 15), side
# by side with Debian's iiod 0.24 serving the same tree.
#
# The tree (tests/kernel_tree.sh: an ADS1015 with a label, _available lists
# and scan elements, a MAX1036 with differential pairs, a TSL2563 with a
# write-only attribute, a BMP280) is a tmpfs on /sys in a private mount and
# network namespace (unshare -m -n), so iiod, which binds every address and
# reads /sys itself, sees it and nothing else does. Checked: iio_info and
# iio_attr through iiowired's iiod listener print what they print through
# iiod, but for the lines of $known below (each one why); the native
# protocol, the CLI (libiiowire), iiowire-hwmon through a board map over a
# kernel channel; hotplug by rescan (SIGHUP); faults (a FIFO that hangs,
# a file that vanishes, a value over a page, control characters, a device
# without a name); --read-only; links out of the tree (a bus entry, files
# and a directory swapped after the scan) refused. IIO events of a kernel device, and drivers'
# read errors and a tree changing during the first scan, through
# tests/preload/kshim.c (LD_PRELOAD), which plays the kernel's event fd and
# a device's unbind (read ENODEV, poll silent: seen on 6.1 under QEMU).
# Skips (status 77) without namespaces.
# Usage: test_kernel.sh BUILD_DIR SOURCE_DIR. The last line is "N passed, M failed".
set -u
build=$1
src=$2
if [ "${KT_INNER:-}" != 1 ]; then
	if ! unshare -m -n true 2>/dev/null; then
		echo "SKIP: no private mount and network namespaces (unshare -m -n: root or user namespaces)"
		exit 77
	fi
	KT_INNER=1 exec unshare -m -n --propagation private sh "$0" "$build" "$src"
fi
daemon=$build/server/iiowired
cli=$build/client/iiowire
hwmon=$build/client/iiowire-hwmon
# tests/valgrind.sh runs the daemons under valgrind (split at blanks on purpose)
wrap=${IIOWIRE_TEST_WRAPPER:-}
# tenths of a second a settle waits: a daemon under valgrind on a loaded machine can take
# well over 10 s to enable a capture or to answer a timed-out store
tenths=100
[ -n "$wrap" ] && tenths=600
. "$src/tests/shtest.sh"
. "$src/tests/kernel_tree.sh"
shtest_begin kernel
shtest_atexit=kt_dev_undo
ip link set lo up
mount -t tmpfs kerneltest /sys
kt_all
kt_triggers	# for the side-by-side rows; the trigger rows make them again
port=30471
iport=30472
dport=30473
sock=$tmp/sock
a="$cli -a unix:$sock"

# check NAME WANT COMMAND...: COMMAND's stdout (stderr with it) is WANT
check() {
	name=$1
	want=$2
	shift 2
	got=$("$@" 2>&1)
	if [ "$got" = "$want" ]; then ok; else bad "$name: got '$got', want '$want'"; fi
}

# settle NAME WANT COMMAND...: as check, once COMMAND gives WANT (a rescan is under way; 10 s at most)
settle() {
	sname=$1
	swant=$2
	shift 2
	i=0
	while [ "$("$@" 2>&1)" != "$swant" ] && [ $i -lt $tenths ]; do
		sleep 0.1
		i=$((i + 1))
	done
	check "$sname" "$swant" "$@"
}

# hup_reloaded NAME: SIGHUP, then until the daemon counts the reload done: a value the old
# mirror still answers (its files back at the same place) cannot tell the new one from it, and
# under valgrind a capture started on the old one was ended by the reload
hup_reloaded() {
	hr=$($a stats | sed -n 's/^reloads //p')
	kill -HUP "$dpid"
	settle "$1" "reloads $((hr + 1))" sh -c "$a stats | grep '^reloads'"
}

start_daemon() {
	# shellcheck disable=SC2086
	$wrap "$daemon" --kernel --listen "unix:$sock" --iiod-listen "127.0.0.1:$iport" \
		--log-level warn "$@" 2>>"$tmp/log" &
	dpid=$!
	pids="$pids $dpid"
	shtest_wait_socket "$sock"
	# the iiod listener binds after the unix one: under valgrind on a busy machine an iiod
	# client sent at once found nothing there (the SETTRIG row's empty answer)
	shtest_wait_port "$iport" "$tenths"
}

stop_daemon() {
	kill "$dpid"
	wait "$dpid" 2>/dev/null
	rm -f "$sock"
}

# ---- side by side with iiod 0.24 ----
start_daemon
have_iiod=0
if command -v iiod >/dev/null 2>&1; then
	iiod -p "$dport" >/dev/null 2>&1 &
	ipid=$!
	pids="$pids $ipid"
	have_iiod=1
	sleep 0.5
fi
# Lines that differ, and why (PROTOCOL-iiod.md, "DIFFERENCES FROM iiod 0.24"):
#  - the backend's version, description and context attributes name iiowired;
#  - libiio gives a differential channel "scale" twice (in_voltage_scale and
#    in_voltage-voltage_scale); iiowired only the one that is its own;
#  - calibrate, add_trigger, remove_trigger and trigger_now are 0200: sysfs refuses the
#    read (EACCES), tmpfs lets root read them (iiod then gives the empty ones EIO).
known='^Backend version|^Backend description|^IIO context has|^	(local,kernel|uri|iiowire,[a-z]*|ip,ip-addr):|channel-specific attributes found|attr  2: scale value|(calibrate|add_trigger|remove_trigger|trigger_now) (value|ERROR)'
if [ $have_iiod = 1 ]; then
	iio_info -u "ip:127.0.0.1:$dport" >"$tmp/iiod.txt" 2>&1
	iio_info -u "ip:127.0.0.1:$iport" >"$tmp/iiowired.txt" 2>&1
	grep -Ev "$known" "$tmp/iiod.txt" >"$tmp/iiod.f"
	grep -Ev "$known" "$tmp/iiowired.txt" >"$tmp/iiowired.f"
	if diff "$tmp/iiod.f" "$tmp/iiowired.f" >"$tmp/diff"; then ok
	else bad "iio_info differs from iiod's: $(cat "$tmp/diff")"; fi
	# the lines above must really be there: 4 devices and 3 trigger devices, the scan formats
	if grep -q "IIO context has 7 devices" "$tmp/iiowired.txt" &&
	   grep -q "^	trigger0: hrt0" "$tmp/iiowired.txt" &&
	   grep -q "^	trigger1: sysfstrig1" "$tmp/iiowired.txt" &&
	   grep -q "attr  2: modalias value: platform:iio_sysfs_trigger" "$tmp/iiowired.txt" &&
	   grep -q "voltage0:  (input, index: 4, format: le:s12/16>>4)" "$tmp/iiowired.txt"; then ok
	else bad "iio_info: $(head -30 "$tmp/iiowired.txt")"; fi
	# buffer attributes (buffer/ but length, enable, watermark) and triggers, as iiod's
	if grep -q "2 buffer-specific attributes found" "$tmp/iiowired.txt" &&
	   [ "$(grep -c "No trigger assigned to device" "$tmp/iiowired.txt")" = 2 ] &&
	   [ "$(grep -c "No trigger on this device" "$tmp/iiowired.txt")" = 5 ]; then ok
	else bad "iio_info buffer attributes and triggers: $(cat "$tmp/iiowired.txt")"; fi
	for q in "-c ads1015 voltage0 raw" "-c max1036 voltage0-voltage1 raw" "-d tsl2563 integration_time" \
		 "-c bmp280 pressure input" "-c adc0 voltage1 sampling_frequency" \
		 "-B ads1015 data_available" "-B max1036 direction" "-B ads1015" \
		 "-d hrt0" "-d trigger0 sampling_frequency" "-d iio_sysfs_trigger modalias"; do
		# shellcheck disable=SC2086
		w=$(iio_attr -u "ip:127.0.0.1:$dport" $q 2>&1)
		# shellcheck disable=SC2086
		check "iio_attr $q" "$w" iio_attr -u "ip:127.0.0.1:$iport" $q
	done
	# a write: the text as written reaches the file (iiod writes its NUL too)
	check "iio_attr write" "250" \
		iio_attr -u "ip:127.0.0.1:$iport" -c ads1015 voltage2 sampling_frequency 250
	check "... reaches the file" "250" cat "/sys/bus/iio/devices/iio:device0/in_voltage2_sampling_frequency"
	# iiod takes ~50 s to end on SIGTERM (its client threads): it has done its part
	kill -KILL "$ipid"
	wait "$ipid" 2>/dev/null
else
	echo "note: no iiod (Debian: iiod) - the side-by-side rows are not run"
fi
stop_daemon
kt_triggers_remove

# ---- capture from /dev/iio:deviceN ----
# The character device is a FIFO the test feeds with scans in the kernel's
# layout; iiod has no --dev-root, so /dev is a tmpfs here (with the nodes the
# tools need bound from the real one) holding it.
kt_dev_begin "$tmp/dev"
cdev=/dev/iio:device0
mkfifo "$cdev"
# 64 scans of voltage0 and voltage1 (le:s12/16>>4): 16*i and -16*i
python3 -c 'import struct, sys
sys.stdout.buffer.write(b"".join(struct.pack("<HH", (i * 16) & 0xfff0, (-i * 16) & 0xfff0)
	for i in range(64)))' >"$tmp/scans"
# feed: the scans, then the writer stays 2 s (its close is the device leaving)
feed() {
	(sleep 0.2; cat "$tmp/scans"; sleep "${1:-2}") >"$cdev" &
	pids="$pids $!"
}
start_daemon
d0=/sys/bus/iio/devices/iio:device0
feed
check "capture of a kernel device (native, CSV)" "voltage0,voltage1
0,0
1,-1
2,-2
3,-3" timeout 20 $cli -a "unix:$sock" capture ads1015 voltage0 voltage1 -n 4 --format csv
# values_of FILE...: their first lines on one line
values_of() { grep -h '' "$@" | paste -sd' '; }
# iiod_end: kill the iiod of a capture row and put device 0's buffer back as the tree made it.
# iiod undoes its enables only if it ran its client's close before the kill; under load it
# had not, and the next capture saved its 1 1 as the state found (CI at 479f876). Its
# length it always leaves (4 blocks of -b 4 samples).
iiod_end() {
	kill -KILL "$ipid"
	wait "$ipid" 2>/dev/null
	kt_attr 0 buffer/enable 0
	kt_attr 0 buffer/length 2
	for f in "$d0"/scan_elements/*_en; do printf '0\n' >"$f"; done
}
settle "the last reader's leave disables and restores" "0 2 0 0" \
	values_of $d0/buffer/enable $d0/buffer/length $d0/scan_elements/in_voltage0_en \
	$d0/scan_elements/in_voltage1_en
wait_fed() { sleep 2.5; }
wait_fed
feed
check "... raw records, the kernel's bytes" "$(head -c 32 "$tmp/scans" | od -An -tx1)" \
	sh -c "timeout 20 $cli -a unix:$sock capture ads1015 voltage0 voltage1 -n 8 --format raw | od -An -tx1"
wait_fed
if command -v iio_readdev >/dev/null 2>&1; then
	feed
	timeout 20 iio_readdev -u "ip:127.0.0.1:$iport" -b 4 -s 8 ads1015 voltage0 voltage1 \
		>"$tmp/readdev.iiowired" 2>"$tmp/readdev.err"
	if cmp -s "$tmp/readdev.iiowired" "$tmp/scans" ||
	   [ "$(od -An -tx1 <"$tmp/readdev.iiowired")" = "$(head -c 32 "$tmp/scans" | od -An -tx1)" ]; then ok
	else bad "iio_readdev through iiowired: $(od -An -tx1 <"$tmp/readdev.iiowired") $(cat "$tmp/readdev.err")"; fi
	wait_fed
	if [ $have_iiod = 1 ]; then
		iiod -p "$dport" >/dev/null 2>&1 &
		ipid=$!
		pids="$pids $ipid"
		sleep 0.5
		feed
		timeout 20 iio_readdev -u "ip:127.0.0.1:$dport" -b 4 -s 8 ads1015 voltage0 voltage1 \
			>"$tmp/readdev.iiod" 2>&1
		if cmp -s "$tmp/readdev.iiod" "$tmp/readdev.iiowired"; then ok
		else bad "iio_readdev through iiod and iiowired differ: $(od -An -tx1 <"$tmp/readdev.iiod")"; fi
		iiod_end
		wait_fed
	fi
	# no data: READBUF's deadline ends that client, the daemon serves the others meanwhile
	(sleep 6) >"$cdev" &
	pids="$pids $!"
	timeout 20 iio_readdev -u "ip:127.0.0.1:$iport" -b 4 -s 4 ads1015 voltage0 \
		>/dev/null 2>"$tmp/readdev.err" &
	rpid=$!
	sleep 1
	check "a capture without data: the others are served" "1000" $a read tsl2563 in_intensity_both_raw
	wait "$rpid"
	check "... and its READBUF times out" "Unable to refill buffer: Connection timed out (110)" \
		cat "$tmp/readdev.err"
	sleep 4
fi
# a second reader with more channels: the capture is disabled, its enables rewritten
# for the union and enabled again; each reader gets its own channels from the
# union's records (the scans come once both are in)
(sleep 3; cat "$tmp/scans"; sleep 2) >"$cdev" &
pids="$pids $!"
timeout 20 $cli -a "unix:$sock" capture ads1015 voltage0 -n 64 -b 8 --format csv \
	>"$tmp/capA.out" 2>&1 &
capa=$!
sleep 1
check "... union: voltage0 alone first" "1 0" values_of $d0/scan_elements/in_voltage0_en \
	$d0/scan_elements/in_voltage1_en
timeout 20 $cli -a "unix:$sock" capture ads1015 voltage1 voltage0 -n 64 -b 8 --format csv \
	>"$tmp/capB.out" 2>&1
wait "$capa"
check "two readers, union of their channels: the first gets voltage0" \
	"$(echo voltage0; seq 0 63)" cat "$tmp/capA.out"
check "... the second both (in scan order, as records are)" \
	"$(echo voltage0,voltage1; seq 0 63 | awk '{print $1 "," (0 - $1)}')" cat "$tmp/capB.out"
settle "... both gone: disabled and restored" "0 0 0" \
	values_of $d0/buffer/enable $d0/scan_elements/in_voltage0_en $d0/scan_elements/in_voltage1_en
sleep 2
# the device leaves mid-stream (the writer's close: EOF, as the kernel's read gives ENODEV)
feed 0.5
timeout 20 $cli -a "unix:$sock" capture ads1015 voltage0 voltage1 -n 1000 -b 8 --format csv \
	>"$tmp/cap.out" 2>"$tmp/cap.err"
check "the device leaving mid-stream: the scans before it" "64" \
	sh -c "grep -c '^[0-9-]*,[0-9-]*\$' $tmp/cap.out"
check "... then STREAMEND ENODEV" "iiowire: capture: ENODEV: iio:device0: device removed" \
	cat "$tmp/cap.err"
rm "$cdev"
check "no /dev/iio:deviceN" "iiowire: capture: ENOENT: ads1015: enabling the capture failed: No such file or directory" \
	sh -c "timeout 20 $cli -a unix:$sock capture ads1015 voltage0 -n 1 2>&1 | tail -1"
check "... state restored" "0 0" values_of $d0/buffer/enable $d0/scan_elements/in_voltage0_en
check "... the daemon serves on" "564" $a read ads1015 in_voltage0_raw
check "no kernel trigger hrt0 (none mirrored)" "iiowire: capture: ENODEV: no trigger hrt0" \
	sh -c "timeout 20 $cli -a unix:$sock capture ads1015 voltage0 -n 1 --trigger hrt0 2>&1 | tail -1"
stop_daemon

# ---- the kernel's triggers: triggerN and iio_sysfs_trigger mirrored ----
# The kernel does the triggering: a capture on a kernel trigger writes its name to the
# device's trigger/current_trigger and reads /dev/iio:deviceN as before. A board's
# (userspace) trigger cannot drive a kernel device, nor a kernel trigger a board's
# device: EINVAL, as the kernel's validate_trigger answers a foreign one.
kt_triggers
mkfifo "$cdev"
cat >"$tmp/trig.json" <<'JSON'
{"board": "ktrig", "devices": [{"driver": "iio_dummy", "name": "dummy0"}],
 "triggers": [{"type": "hrtimer", "name": "uhrt"}]}
JSON
start_daemon --board "$tmp/trig.json"
ct=$d0/trigger/current_trigger
check "DEVICES: the kernel's trigger devices, then the board's" "iio:device0 ads1015 0-0048 adc0
iio:device1 max1036 0-0064 -
iio:device2 tsl2563 0-0039 light
iio:device3 bmp280 0-0076 -
iio:device4 dummy0 - -
iio_sysfs_trigger iio_sysfs_trigger - -
trigger0 hrt0 - -
trigger1 sysfstrig1 - -
trigger2 uhrt - -" $a devices
check "a kernel trigger's files, with their modes" "name r
sampling_frequency rw" $a attrs trigger0
check "... read as the kernel prints them" "100.000000" $a read hrt0 sampling_frequency
check "... written to the kernel's file" "50.5" sh -c "$a write hrt0 sampling_frequency 50.5 &&
	cat /sys/bus/iio/devices/trigger0/sampling_frequency"
check "K-53: a rate the kernel would wrap is ERANGE, the file untouched" \
	"iiowire: write: ERANGE: hrt0 sampling_frequency: value out of range
50.5" sh -c "$a write hrt0 sampling_frequency 4294967396 2>&1;
	cat /sys/bus/iio/devices/trigger0/sampling_frequency"
check "trigger_now is write-only" "iiowire: read: EACCES: sysfstrig1 trigger_now is write-only" \
	$a read sysfstrig1 trigger_now
check "... a write reaches the kernel's file" "1" sh -c "$a write trigger1 trigger_now 1 &&
	cat /sys/bus/iio/devices/trigger1/trigger_now"
if command -v iio_readdev >/dev/null 2>&1; then
	# 4 scans, then 4 more 2 s later: current_trigger is looked at in between
	(sleep 0.2; head -c 16 "$tmp/scans"; sleep 2; tail -c +17 "$tmp/scans" | head -c 16; sleep 2) \
		>"$cdev" &
	pids="$pids $!"
	timeout 20 iio_readdev -u "ip:127.0.0.1:$iport" -t trigger0 -b 4 -s 8 ads1015 voltage0 \
		voltage1 >"$tmp/readdev.trig" 2>"$tmp/readdev.err" &
	rpid=$!
	sleep 1.2
	check "iio_readdev -t trigger0: current_trigger holds its name during the capture" "hrt0" \
		cat "$ct"
	check "... and its rate (iio_readdev writes 100 Hz) reached the trigger's file" "100" \
		cat /sys/bus/iio/devices/trigger0/sampling_frequency
	wait "$rpid"
	if [ "$(od -An -tx1 <"$tmp/readdev.trig")" = "$(head -c 32 "$tmp/scans" | od -An -tx1)" ]; then ok
	else bad "iio_readdev -t trigger0: $(od -An -tx1 <"$tmp/readdev.trig") $(cat "$tmp/readdev.err")"; fi
	sleep 2.5
	if [ $have_iiod = 1 ]; then
		# iiod 0.24 on the same tree: the same bytes, the same current_trigger
		kt_attr 0 trigger/current_trigger ""
		iiod -p "$dport" >/dev/null 2>&1 &
		ipid=$!
		pids="$pids $ipid"
		sleep 0.5
		feed
		timeout 20 iio_readdev -u "ip:127.0.0.1:$dport" -t trigger0 -b 4 -s 8 ads1015 voltage0 \
			voltage1 >"$tmp/readdev.trig.iiod" 2>&1
		if cmp -s "$tmp/readdev.trig.iiod" "$tmp/readdev.trig"; then ok
		else bad "iio_readdev -t trigger0 through iiod and iiowired differ: $(od -An -tx1 <"$tmp/readdev.trig.iiod")"; fi
		check "... iiod's current_trigger is the same" "hrt0" cat "$ct"
		iiod_end
		wait_fed
	fi
	check "a board's trigger on a kernel device (SETTRIG): EINVAL" "hrt0" sh -c \
		"timeout 20 iio_readdev -u ip:127.0.0.1:$iport -t trigger2 -s 1 ads1015 voltage0 \
		2>&1 >/dev/null | grep -c 'Invalid argument' >/dev/null && cat $ct"
fi
feed
check "STREAM trigger=sysfstrig1 on a kernel device" "voltage0,voltage1
0,0
1,-1" timeout 20 $cli -a "unix:$sock" capture ads1015 voltage0 voltage1 -n 2 --trigger sysfstrig1 \
	--format csv
check "... current_trigger holds it" "sysfstrig1" cat "$ct"
wait_fed
check "a board's trigger on a kernel device (STREAM): EINVAL" \
	"iiowire: capture: EINVAL: ads1015 refuses trigger uhrt" \
	sh -c "timeout 20 $cli -a unix:$sock capture ads1015 voltage0 -n 1 --trigger uhrt 2>&1 | tail -1"
check "a kernel trigger on a board's device: EINVAL" \
	"iiowire: capture: EINVAL: dummy0 refuses trigger hrt0" \
	sh -c "timeout 20 $cli -a unix:$sock capture dummy0 voltage0 -n 1 --trigger hrt0 2>&1 | tail -1"
check "... current_trigger untouched" "sysfstrig1" cat "$ct"
check "... the daemon serves on" "564" $a read ads1015 in_voltage0_raw
# add_trigger goes to the kernel, which makes sysfstrig5 (played here) and sends the
# uevent whose rescan (SIGHUP here) mirrors it
check "the kernel's iio_sysfs_trigger: its files" "add_trigger w
driver_override rw
modalias r
remove_trigger w" $a attrs iio_sysfs_trigger
check "add_trigger reaches the kernel's file" "5" \
	sh -c "$a write iio_sysfs_trigger add_trigger 5 && cat $KT_SYS/bus/iio/devices/iio_sysfs_trigger/add_trigger"
kt_trig 3 sysfstrig5 platform/iio_sysfs_trigger
kt_tattr 3 trigger_now "" 200
kill -HUP "$dpid"
settle "... the rescan mirrors the new trigger" "trigger3 sysfstrig5 - -" sh -c "$a devices | grep sysfstrig5"
# faults: a trigger's file that would wait (a FIFO standing in; the loop opens it
# O_NONBLOCK), a trigger gone before the rescan; each answered at once, the daemon serves on
t0=/sys/bus/iio/devices/trigger0
rm "$t0/sampling_frequency"
mkfifo -m 644 "$t0/sampling_frequency"
check "a trigger file that would wait: the read answers at once (empty)" "rc=0" \
	sh -c "timeout 5 $a read hrt0 sampling_frequency >/dev/null; echo rc=\$?"
check "... so does a write (no reader: ENXIO)" \
	"iiowire: write: ENXIO: hrt0 sampling_frequency: no such device or address" \
	timeout 5 $a write hrt0 sampling_frequency 10
rm "$t0/sampling_frequency"
kt_tattr 0 sampling_frequency 100.000000 644
rm -rf "$KT_SYS/devices/platform/iio_sysfs_trigger/trigger3"
check "a trigger gone before the rescan: ENODEV" "iiowire: read: ENODEV: sysfstrig5 name: no such device" \
	$a read sysfstrig5 name
check "... the daemon serves on" "hrt0" $a read trigger0 name
stop_daemon
start_daemon --read-only
check "--read-only: add_trigger refused" "iiowire: write: EACCES: server is read-only (--read-only)" \
	$a write iio_sysfs_trigger add_trigger 6
check "... a capture naming a kernel trigger too (current_trigger is a write)" \
	"iiowire: capture: EACCES: ads1015: setting trigger/current_trigger is a write (--read-only)" \
	sh -c "timeout 20 $cli -a unix:$sock capture ads1015 voltage0 -n 1 --trigger hrt0 2>&1 | tail -1"
stop_daemon
kt_trig 3 sysfstrig5 platform/iio_sysfs_trigger
kt_tattr 3 trigger_now "" 200
# the limits: IIO_KERNEL_TRIGGER_FILES_MAX files a trigger, IIO_TRIGGERS_MAX triggers
for i in $(seq 1 14); do kt_tattr 3 "f$i" 0 444; done
start_daemon
check "a trigger of 16 files" "16" sh -c "$a attrs trigger3 | wc -l"
stop_daemon
kt_tattr 3 f15 0 444
check "... of 17: refused at load" "iiowired: --kernel: --kernel: trigger3: more than 16 files" \
	timeout 10 "$daemon" --kernel --listen "unix:$tmp/lim.sock"
rm -rf "$KT_SYS/devices/platform/iio_sysfs_trigger/trigger3" "$KT_SYS/bus/iio/devices/trigger3"
for i in $(seq 10 135); do kt_trig "$i" "t$i"; done
start_daemon
check "128 triggers" "128" sh -c "$a devices | grep -c '^trigger'"
stop_daemon
kt_trig 136 t136
check "... 129: refused at load" "iiowired: --kernel: --kernel: more than 128 triggers" \
	timeout 10 "$daemon" --kernel --listen "unix:$tmp/lim.sock"
kt_triggers_remove
kt_attr 0 trigger/current_trigger ""	# the kernel keeps a device's trigger; the rows below want none
rm "$cdev"
kt_dev_end "$tmp/dev"
start_daemon

# ---- the native protocol and the CLI (libiiowire) ----
check "devices" "iio:device0 ads1015 0-0048 adc0
iio:device1 max1036 0-0064 -
iio:device2 tsl2563 0-0039 light
iio:device3 bmp280 0-0076 -" $a devices
check "read by label" "664" $a read adc0 in_voltage1_raw
check "read by hwid" "0.402000" $a read 0-0039 integration_time
check "available list as the kernel prints it" "128 250 490 920 1600 2400 3300 3300" \
	$a read ads1015 sampling_frequency_available
check "write-only" "iiowire: read: EACCES: light calibrate is write-only" $a read light calibrate
check "read-only file" "iiowire: write: EACCES: tsl2563 in_illuminance0_input is read-only" \
	$a write tsl2563 in_illuminance0_input 3
$a write light calibrate 1 >/dev/null 2>&1
check "write reaches the file" "1" cat /sys/bus/iio/devices/iio:device2/calibrate
check "write passes the text through" "" $a write bmp280 in_temp_oversampling_ratio 4
check "the file holds it" "4" cat /sys/bus/iio/devices/iio:device3/in_temp_oversampling_ratio
printf '{"id":1,"op":"read","device":"max1036","attr":"in_voltage-voltage_scale"}\n' >"$tmp/req"
check "JSON" '{"id":1,"ok":true,"value":"16.000000000"}' \
	sh -c "nc -U -q 1 '$sock' <'$tmp/req'"
# the IIO subdirectories, as files named by their path below the device
check "buffer/ file" "2" $a read ads1015 buffer/length
check "buffer0/ scan element" "le:s12/16>>4" $a read ads1015 buffer0/in_voltage1_type
check "scan_elements/ file" "5" $a read ads1015 scan_elements/in_voltage1_index
check "events/ file" "2047" $a read ads1015 events/in_voltage0_thresh_rising_value
check "trigger/ file" "" $a read ads1015 trigger/current_trigger
check "a subdirectory's write" "" $a write ads1015 buffer0/length 64
check "... reaches the file" "64" cat /sys/bus/iio/devices/iio:device0/buffer0/length
check "read-only subdirectory file" \
	"iiowire: write: EACCES: ads1015 buffer/data_available is read-only" \
	$a write ads1015 buffer/data_available 1
check "ATTRS lists them" "buffer/length buffer0/length events/in_voltage0_thresh_either_en scan_elements/in_timestamp_en trigger/current_trigger" \
	sh -c "$a attrs ads1015 | awk '{print \$1}' | grep -E '^(buffer0?/length|events/.*either_en|scan_elements/in_timestamp_en|trigger/)' | sort | tr '\n' ' ' | sed 's/ $//'"
stop_daemon

# ---- a board: maps, consumers and the hwmon bridge over a kernel channel ----
cat >"$tmp/board.json" <<'JSON'
{"board": "kmap", "devices": [{"driver": "kernel", "device": "adc0"},
  {"driver": "iio_dummy", "name": "dummy0"}],
 "maps": [{"adc_dev_name": "ads1015", "adc_channel_label": "voltage1",
	   "consumer_dev_name": "iio_hwmon.0", "consumer_channel": "vin"}]}
JSON
# shellcheck disable=SC2086
$wrap "$daemon" --board "$tmp/board.json" --listen "unix:$sock" --log-level warn 2>>"$tmp/log" &
dpid=$!
pids="$pids $dpid"
shtest_wait_socket "$sock"
check "board: the kernel device keeps its number, the dummy takes the next" \
	"iio:device0 ads1015 0-0048 adc0
iio:device1 dummy0 - -" $a devices
check "cread processed (raw x scale)" "664" $a cread iio_hwmon.0 vin processed
check "hwmon" "in1                  0.664 V  (vin)" sh -c "$hwmon -a unix:$sock \
	--consumer iio_hwmon.0 --once --print | grep '^in1'"
stop_daemon
printf '{"board": "bad", "devices": [{"driver": "kernel", "device": "ads9999"}]}\n' >"$tmp/bad.json"
check "a board naming no kernel device" \
	"iiowired: $tmp/bad.json: devices[0]: no kernel IIO device ads9999 under /sys/bus/iio/devices" \
	"$daemon" --board "$tmp/bad.json" --listen "unix:$sock"

# ---- hotplug: a rescan (SIGHUP) sees devices come and go ----
start_daemon
kt_dev 5 0-0049 ads1115
kt_attr 5 in_voltage0_raw 77
kill -HUP "$dpid"
settle "a device that appeared" "77" $a read iio:device5 in_voltage0_raw
if command -v iio_info >/dev/null 2>&1; then
	check "... and libiio sees it (the XML is rebuilt)" "	iio:device5: ads1115" \
		sh -c "iio_info -u ip:127.0.0.1:$iport 2>/dev/null | grep 'iio:device5:'"
fi
kt_remove 5
kill -HUP "$dpid"
settle "a device that left (the CLI names the one still there)" "iiowire: read: ENODEV: no device ads1115
iiowire: did you mean 'ads1015'?" $a read ads1115 in_voltage0_raw
check "the others stay" "564" $a read ads1015 in_voltage0_raw
# a kernel uevent (SUBSYSTEM=iio) on the netlink socket rescans without SIGHUP; in this
# network namespace the test plays the kernel (root may send to the uevent group)
if command -v python3 >/dev/null 2>&1; then
	kt_dev 7 0-004b ads1115
	kt_attr 7 in_voltage0_raw 78
	python3 -c 'import socket
s = socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, 15)
s.bind((0, 0))
s.sendto(b"add@/devices/platform/i2c-0/0-004b/iio:device7\0ACTION=add\0SUBSYSTEM=iio\0", (0, 1))'
	settle "a uevent rescans" "78" $a read iio:device7 in_voltage0_raw
	kt_remove 7
	python3 -c 'import socket
s = socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, 15)
s.bind((0, 0))
s.sendto(b"remove@/devices/platform/i2c-0/0-004b/iio:device7\0ACTION=remove\0SUBSYSTEM=input\0", (0, 1))'
	sleep 0.5
	# not rescanned: still listed, its file gone (ENODEV)
	check "a uevent of another subsystem does not" "iio:device7 ads1115 0-004b -" \
		sh -c "$a devices | grep device7"
	kill -HUP "$dpid"
	settle "... SIGHUP does" "" sh -c "$a devices | grep device7"
else
	echo "note: no python3 - the uevent rows are not run"
fi

# ---- faults: each a clear error, and the daemon goes on serving ----
d0=/sys/bus/iio/devices/iio:device0
mkfifo "$d0/in_voltage9_raw"
kt_dev 6 0-004a ""
rm "/sys/bus/iio/devices/iio:device6/name"
kt_attr 6 in_voltage0_raw 5
head -c 5000 /dev/zero | tr '\0' 7 >"$d0/in_voltage8_raw"
printf 'a\033b\tc\n' >"$d0/in_voltage7_raw"
d1=/sys/bus/iio/devices/iio:device1
rm "$d1/trigger/current_trigger"
mkfifo "$d1/trigger/current_trigger"
stop_daemon
start_daemon --io-timeout-ms 300
# iiod's SETTRIG writes current_trigger on the device's worker (the kernel's store waits for
# the device's mlock): a store that hangs times out there, and the loop serves on
# (the client stays until the answer came, up to 10 s, 60 s under valgrind)
: >"$tmp/settrig"
{
	printf 'SETTRIG iio:device1\r\n'
	si=0
	while [ ! -s "$tmp/settrig" ] && [ $si -lt $tenths ]; do sleep 0.1; si=$((si + 1)); done
} | timeout 70 nc -q 0 127.0.0.1 "$iport" >"$tmp/settrig" &
stpid=$!
sleep 0.1
check "iiod SETTRIG waiting on a hanging current_trigger: another device answers" "1000" \
	$a read tsl2563 in_intensity_both_raw
wait "$stpid"
check "... the SETTRIG times out (-ETIMEDOUT)" "-110" cat "$tmp/settrig"
timeout 10 cat "$d1/trigger/current_trigger" >/dev/null &	# ends the worker's open
pids="$pids $!"
sleep 0.3
rm "$d1/trigger/current_trigger"
kt_attr 1 trigger/current_trigger ""
check "a hanging attribute times out" "iiowire: read: ETIMEDOUT: ads1015 in_voltage9_raw: no answer from the bus within 300 ms" \
	$a read ads1015 in_voltage9_raw
check "meanwhile another device answers" "1000" $a read tsl2563 in_intensity_both_raw
# the worker is still in the open() (or about to be): a writer ends it; cleanup ends the writer
timeout 10 sh -c "echo 1 >'$d0/in_voltage9_raw'" &
pids="$pids $!"
sleep 0.3
check "a value over a page" "iiowire: read: EFBIG: ads1015 in_voltage8_raw: value too large" \
	$a read ads1015 in_voltage8_raw
check "control characters, escaped by the CLI" "a\\x1bb\\x09c" $a read ads1015 in_voltage7_raw
rm "$d0/in_voltage1_raw"
check "a file gone since the scan" "iiowire: read: ENODEV: ads1015 in_voltage1_raw: no such device" \
	$a read ads1015 in_voltage1_raw
check "a device without a name" "iio:device6 - 0-004a -" sh -c "$a devices | grep device6"
check "... is read by its number" "5" $a read iio:device6 in_voltage0_raw
stop_daemon
start_daemon --read-only
check "--read-only" "iiowire: write: EACCES: server is read-only (--read-only)" \
	$a write bmp280 in_temp_oversampling_ratio 8
stop_daemon
# ---- links: none is followed out of the tree (issue 27) ----
# a bus entry leading out of devices/ is not mirrored, with a warning; files and a directory
# swapped for links after the scan are refused by READ and WRITE, their targets untouched
mkdir -p "$tmp/outside" "$tmp/evil"
printf 'planted\n' >"$tmp/outside/name"
printf '31337\n' >"$tmp/outside/in_voltage0_raw"
ln -s "$tmp/outside" "/sys/bus/iio/devices/iio:device42"
start_daemon
check "a bus entry linking out of devices/ is not mirrored" "" sh -c "$a devices | grep device42"
check "... nor read" "iiowire: read: ENODEV: no device iio:device42" \
	$a read iio:device42 in_voltage0_raw
check "... and a warning says why" "1" \
	grep -c "warn: --kernel: /sys/bus/iio/devices/iio:device42 leads to $tmp/outside, outside /sys/devices: not mirrored" "$tmp/log"
check "... the others are served" "1000" $a read tsl2563 in_intensity_both_raw
d3=/sys/bus/iio/devices/iio:device3
printf 'precious\n' >"$tmp/target"
printf '2\n' >"$tmp/evil/length"
mv "$d3/in_temp_input" "$tmp/temp.saved"
mv "$d3/in_pressure_oversampling_ratio" "$tmp/ratio.saved"
mv "$d0/buffer" "$tmp/buffer.saved"
ln -s "$tmp/target" "$d3/in_temp_input"
ln -s "$tmp/target" "$d3/in_pressure_oversampling_ratio"
ln -s "$tmp/evil" "$d0/buffer"
check "a file swapped for a link after the scan: READ refused" \
	"iiowire: read: EPERM: bmp280 in_temp_input: operation not permitted" $a read bmp280 in_temp_input
check "... WRITE refused" \
	"iiowire: write: EPERM: bmp280 in_pressure_oversampling_ratio: operation not permitted" \
	$a write bmp280 in_pressure_oversampling_ratio 4
check "... the link's target untouched (not truncated, not written)" "precious" cat "$tmp/target"
check "a directory swapped for a link: READ of a file in it refused" \
	"iiowire: read: EPERM: ads1015 buffer/length: operation not permitted" $a read ads1015 buffer/length
check "... WRITE refused" "iiowire: write: EPERM: ads1015 buffer/length: operation not permitted" \
	$a write ads1015 buffer/length 64
check "... its target untouched" "2" cat "$tmp/evil/length"
rm "$d3/in_temp_input" "$d3/in_pressure_oversampling_ratio" "$d0/buffer" \
	"/sys/bus/iio/devices/iio:device42"
mv "$tmp/temp.saved" "$d3/in_temp_input"
mv "$tmp/ratio.saved" "$d3/in_pressure_oversampling_ratio"
mv "$tmp/buffer.saved" "$d0/buffer"
check "the files back: read again" "25080" $a read bmp280 in_temp_input
check "... written again (a regular file: truncated, no tail left)" "4" \
	sh -c "$a write bmp280 in_pressure_oversampling_ratio 4 && cat $d3/in_pressure_oversampling_ratio"
stop_daemon
# as in a container: the tree mounted read-only elsewhere (--sysfs-root), an unprivileged user
mkdir -p "$tmp/hostsys"
if mount --bind /sys "$tmp/hostsys" && mount -o remount,bind,ro "$tmp/hostsys" &&
   command -v setpriv >/dev/null 2>&1; then
	chmod 755 "$tmp"
	# not under valgrind: its log directory is root's
	# given through a link: hardware ids still come from the resolved paths
	ln -s hostsys "$tmp/sys-link"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$daemon" --kernel \
		--sysfs-root "$tmp/sys-link" --listen "127.0.0.1:$port" --log-level warn 2>>"$tmp/log" &
	dpid=$!
	pids="$pids $dpid"
	settle "read-only sysfs, user nobody: a read" "1000" \
		$cli -a "127.0.0.1:$port" read tsl2563 in_intensity_both_raw
	check "... hardware ids through a linked root" "iio:device2 tsl2563 0-0039 light" \
		sh -c "$cli -a 127.0.0.1:$port devices | grep device2"
	check "... a write" "iiowire: write: EROFS: bmp280 in_temp_oversampling_ratio: read-only file system" \
		$cli -a "127.0.0.1:$port" write bmp280 in_temp_oversampling_ratio 8
	kill "$dpid"
	wait "$dpid" 2>/dev/null
	umount "$tmp/hostsys"
else
	echo "note: no read-only bind mount or setpriv - the container-like rows are not run"
fi
# ---- IIO events of a kernel device: its event fd, played by tests/preload/kshim.c ----
# The kernel's IIO_GET_EVENT_FD_IOCTL on /dev/iio:device8 (a FIFO here, whose real ioctl is
# ENOTTY) gives the FIFO iio:device8.events, to which the test writes struct iio_event_data
# records (u64 code, s64 timestamp, little-endian): the codes as max1363.c packs them.
kshim=$build/tests/libiiowire_kshim.so
dev=$tmp/dev
evf=$dev/iio:device8.events
mkdir -p "$dev"
kt_max1363 8
mkfifo "$dev/iio:device8" "$evf"

# start_kshim ARGS...: start_daemon with the shim preloaded (ASan wants its runtime first
# among the libraries; the shim comes before it, which is harmless here)
start_kshim() {
	export IIOWIRE_KSHIM_IOCTL_GATE="$tmp/gate"
	export LD_PRELOAD="$kshim"
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
	start_daemon --dev-root "$dev" "$@"
	unset LD_PRELOAD
}

# le64 N: N as 8 little-endian bytes
le64() {
	lv=$1
	li=0
	while [ $li -lt 8 ]; do
		# shellcheck disable=SC2059
		printf "\\$(printf %03o $((lv & 255)))"
		lv=$((lv >> 8))
		li=$((li + 1))
	done
}

# evrec CODE TIME [CODE TIME...]: the records into $tmp/rec
evrec() {
	: >"$tmp/rec"
	while [ $# -ge 2 ]; do
		{ le64 "$1"; le64 "$2"; } >>"$tmp/rec"
		shift 2
	done
}

# feed: write $tmp/rec into the event FIFO in one write, once the daemon holds it (a
# subscription is open); until then the open would wait for a reader
feed() {
	fi_=0
	until timeout 2 sh -c "cat '$tmp/rec' >'$evf'" 2>/dev/null; do
		fi_=$((fi_ + 1))
		if [ $fi_ -ge 15 ]; then
			bad "no one read the event fd"
			return
		fi
	done
}

start_kshim
timeout 30 $a monitor -n 4 max1363 >"$tmp/mon" 2>&1 &
mpid=$!
evrec 0x0001000000000002 1000 0x0002000000000000 2000 0x0081000000010000 3000 \
	0x0002000000000003 1796306658668535972
feed
wait "$mpid"
check "monitor prints iio_event_monitor's lines for a kernel device's events" \
	"Found IIO device with name max1363 with device number 8
Event: time: 1000, type: voltage, channel: 2, evtype: thresh, direction: rising
Event: time: 2000, type: voltage, channel: 0, evtype: thresh, direction: falling
Event: time: 3000, type: voltage, channel: 0-1, evtype: thresh, direction: rising
Event: time: 1796306658668535972, type: voltage, channel: 3, evtype: thresh, direction: falling" \
	cat "$tmp/mon"

# nc_until SOCK N OUT LINE...: send the LINEs on a connection to SOCK, and end it once OUT
# holds N lines (10 s at most)
nc_until() {
	nsock=$1
	nn=$2
	nout=$3
	shift 3
	: >"$nout"
	{
		printf '%s\n' "$@"
		ni=0
		while [ "$(wc -l <"$nout")" -lt "$nn" ] && [ $ni -lt $tenths ]; do
			sleep 0.1
			ni=$((ni + 1))
		done
	} | nc -q 0 -U "$nsock" >"$nout"
}

nc_until "$sock" 2 "$tmp/sub" "SUBSCRIBE max1363 voltage0-voltage1" &
spid=$!
evrec 0x0001000000000002 5000 0x0081000000010000 6000
feed
wait "$spid"
check "SUBSCRIBE with a channel filter: IIOEVENT lines of that channel only" "OK
IIOEVENT max1363 0x0081000000010000 time: 6000, type: voltage, channel: 0-1, evtype: thresh, direction: rising" \
	cat "$tmp/sub"
check "a channel without events" "ERR ENOENT max1363 has no channel voltage4 with events" \
	sh -c "echo 'SUBSCRIBE max1363 voltage4' | nc -q 1 -U '$sock'"

# the event fd's ioctl waits while the device's mlock is held (the shim's gate): it runs on
# the device's worker, so past --io-timeout-ms the SUBSCRIBE answers ETIMEDOUT, and the fd a
# late open then makes is given back (a later SUBSCRIBE gets it)
touch "$tmp/gate"
# (its answer at --io-timeout-ms, later under valgrind on a busy machine: wait for the line)
nc_until "$sock" 1 "$tmp/late" "SUBSCRIBE max1363"
check "SUBSCRIBE while the ioctl waits past the timeout" \
	"ERR ETIMEDOUT max1363: no answer from the device in time" cat "$tmp/late"
rm "$tmp/gate"
settle "... the late open's fd is given back" "OK" \
	sh -c "echo 'SUBSCRIBE max1363' | nc -q 1 -U '$sock' | head -n 1"

# one event fd per device: another process holding it (a second daemon here) gets EBUSY
export LD_PRELOAD="$kshim"
# shellcheck disable=SC2086
$wrap "$daemon" --kernel --dev-root "$dev" --listen "unix:$sock.2" --log-level warn \
	--io-timeout-ms 20000 2>>"$tmp/log" &
d2pid=$!
unset LD_PRELOAD
pids="$pids $d2pid"
shtest_wait_socket "$sock.2"
# while the ioctl waits (within the timeout): other devices are served, SUBSCRIBEs of the
# device from other connections wait with it, a second one on the same connection is EAGAIN,
# an UNSUBSCRIBE before the open is answered in order; then the events reach the subscribers
if command -v python3 >/dev/null 2>&1; then
	check "SUBSCRIBE waits for the event fd's ioctl off the loop" \
		"other device while waiting: 1000; subscriber answered early: b''
A: OK | ERR EAGAIN max1363: the SUBSCRIBE before this one still waits for the device's event fd
B: OK
D: OK | OK
A: IIOEVENT max1363 0x0001000000000001 time: 7100, type: voltage, channel: 1, evtype: thresh, direction: rising
B: IIOEVENT max1363 0x0001000000000001 time: 7100, type: voltage, channel: 1, evtype: thresh, direction: rising
D after: b''" timeout 30 python3 -c '
import os, socket, struct, subprocess, sys, time
sock, gate, evf, cli = sys.argv[1:5]
open(gate, "w").close()
def conn(req):
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(10)
    s.connect(sock)
    s.sendall(req)
    return s, s.makefile("rb")
def line(f):
    return f.readline().decode().strip()
a, fa = conn(b"SUBSCRIBE max1363\nSUBSCRIBE max1363 voltage0\n")
time.sleep(0.3)
b, fb = conn(b"SUBSCRIBE max1363\n")
d, fd = conn(b"SUBSCRIBE max1363\nUNSUBSCRIBE max1363\n")
time.sleep(0.3)
other = subprocess.run([cli, "-a", "unix:" + sock, "read", "tsl2563", "in_intensity_both_raw"],
                       capture_output=True, text=True, timeout=5).stdout.strip()
a.settimeout(0)
try:
    early = a.recv(100)
except BlockingIOError:
    early = b""
a.settimeout(10)
print("other device while waiting: %s; subscriber answered early: %r" % (other, early))
os.unlink(gate)
print("A: %s | %s" % (line(fa), line(fa)))
print("B: %s" % line(fb))
print("D: %s | %s" % (line(fd), line(fd)))
w = os.open(evf, os.O_WRONLY)
os.write(w, struct.pack("<Qq", 0x0001000000000001, 7100))
os.close(w)
print("A: %s" % line(fa))
print("B: %s" % line(fb))
d.settimeout(0.5)
try:
    after = d.recv(100)
except socket.timeout:
    after = b""
print("D after: %r" % after)
' "$sock.2" "$tmp/gate" "$evf" "$cli"
	rm -f "$tmp/gate"
else
	echo "note: no python3 - the waiting-SUBSCRIBE rows are not run"
fi
nc_until "$sock.2" 2 "$tmp/hold" "SUBSCRIBE max1363" &
hpid=$!
# its OK first: a SUBSCRIBE of ours before it would hold the fd (nc -q 1) and make it EBUSY
settle "the other process subscribes" "OK" head -n 1 "$tmp/hold"
check "the other process holds the event fd" \
	"ERR EBUSY max1363: another process holds its event fd or its /dev node (one of each per device)" \
	sh -c "echo 'SUBSCRIBE max1363' | nc -q 1 -U '$sock'"
evrec 0x0001000000000001 7000
feed
wait "$hpid"
check "... and reads the events" "OK
IIOEVENT max1363 0x0001000000000001 time: 7000, type: voltage, channel: 1, evtype: thresh, direction: rising" \
	cat "$tmp/hold"
kill "$d2pid"
wait "$d2pid" 2>/dev/null

# a rescan (SIGHUP) makes a new mirror of the device: the subscription follows it (the old
# event fd is given back first, or the new one would be EBUSY)
nc_until "$sock" 3 "$tmp/sub" "SUBSCRIBE max1363" &
spid=$!
evrec 0x0001000000000000 8000
feed
kill -HUP "$dpid"
settle "a rescan" "reloads 1" sh -c "$a stats | grep '^reloads'"
evrec 0x0002000000000001 9000
feed
wait "$spid"
check "... the subscription goes on over the new mirror" "OK
IIOEVENT max1363 0x0001000000000000 time: 8000, type: voltage, channel: 0, evtype: thresh, direction: rising
IIOEVENT max1363 0x0002000000000001 time: 9000, type: voltage, channel: 1, evtype: thresh, direction: falling" \
	cat "$tmp/sub"

# an event storm: a subscriber that does not read loses its oldest events, counted; the
# daemon goes on serving others; nothing is lost uncounted
if command -v python3 >/dev/null 2>&1; then
	check "an event storm of 20000 events to a subscriber that stops reading" \
		"all counted: True, some lost: True, others served: 1000" python3 -c '
import os, socket, struct, subprocess, sys, time
sock, evf, cli = sys.argv[1:4]
n = 20000
s = socket.socket(socket.AF_UNIX)
s.connect(sock)
s.sendall(b"SUBSCRIBE max1363\n")
f = s.makefile("rb")
assert f.readline() == b"OK\n"
fd = os.open(evf, os.O_WRONLY)
recs = b"".join(struct.pack("<Qq", 0x0001000000000002, i) for i in range(n))
while recs:
    recs = recs[os.write(fd, recs):]
os.close(fd)
time.sleep(1)
other = subprocess.run([cli, "-a", "unix:" + sock, "read", "max1363", "in_voltage0_raw"],
                       capture_output=True, text=True, timeout=10).stdout.strip()
got = lost = 0
s.settimeout(10)
while got + lost < n:
    line = f.readline()
    if not line:
        break
    if line.startswith(b"IIOEVENT "):
        got += 1
    elif line.startswith(b"IIOEVENTLOST "):
        lost += int(line.split()[2])
print("all counted: %s, some lost: %s, others served: %s" % (got + lost == n, lost > 0, other))
' "$sock" "$evf" "$cli"
else
	echo "note: no python3 - the event storm row is not run"
fi

# the device goes: subscriptions end with ENODEV, as a read of the kernel's event fd does
timeout 30 $a monitor max1363 >"$tmp/mon" 2>&1 &
mpid=$!
evrec 0x0001000000000003 10000
feed
kt_remove 8
kill -HUP "$dpid"
wait "$mpid"
echo "exit $?" >>"$tmp/mon"
check "a removed device ends the monitor" "Found IIO device with name max1363 with device number 8
Event: time: 10000, type: voltage, channel: 3, evtype: thresh, direction: rising
Failed to read event from device: No such device
exit 1" cat "$tmp/mon"

# ---- a capture and events together: the kernel allows /dev/iio:deviceN one open at a time
# (a second is EBUSY, which the shim plays too); the capture's open is shared with the event
# fd's ioctl, in either order, as with iiod and libiio on a board ----
node=$dev/iio:device0
evf=$node.events
mkfifo "$node" "$evf"
d0=/sys/bus/iio/devices/iio:device0
# scanfeed TAG [LINGER]: the scans into the node once $tmp/TAG exists, the writer staying
# LINGER s more (its close is the device leaving); the shell's open waits for the daemon's
scanfeed() {
	rm -f "$tmp/$1"
	(while [ ! -e "$tmp/$1" ]; do sleep 0.1; done; cat "$tmp/scans"; sleep "${2:-3}") >"$node" &
	pids="$pids $!"
	feeders="${feeders:-} $!"
}
# scanfeed_stop: the writers of earlier rows go: one still in its open of the node would
# feed the next capture its scans (the next reader's open completes it)
scanfeed_stop() {
	for f in ${feeders:-}; do kill "$f" 2>/dev/null; wait "$f" 2>/dev/null; done
	feeders=""
}
# capture_bg OUT N: a capture of voltage0 and voltage1 in the background ($cpid)
capture_bg() {
	# the STREAM's answer may take long under valgrind: its block timeout is a settle's
	timeout $((tenths / 10 + 20)) $cli -a "unix:$sock" --timeout $((tenths * 100)) capture ads1015 \
		voltage0 voltage1 -n "$2" -b 8 --format csv >"$tmp/$1" 2>"$tmp/$1.err" &
	cpid=$!
}
scans_csv() { echo voltage0,voltage1; seq 0 63 | awk '{print $1 "," (0 - $1)}'; }
# both_active LABEL TAG LINGER OUT: a subscription ($spid, into $tmp/sub), then a capture of
# 1000 scans into OUT fed once $tmp/TAG exists (scanfeed TAG LINGER)
both_active() {
	nc_until "$sock" 2 "$tmp/sub" "SUBSCRIBE ads1015" &
	spid=$!
	settle "$1" "OK" head -n 1 "$tmp/sub"
	scanfeed "$2" "$3"
	capture_bg "$4" 1000
	settle "... (capturing)" "1" values_of $d0/buffer/enable
	# the enable comes before the CLI has read the channels' scales for its CSV: a device
	# removed in that moment fails the CLI before its stream (ENODEV in_voltage1_scale)
	sleep $((tenths / 100))
}

scanfeed go1
capture_bg capA.out 64
settle "capture first: it holds the node" "1" values_of $d0/buffer/enable
nc_until "$sock" 2 "$tmp/sub" "SUBSCRIBE ads1015" &
spid=$!
settle "... then SUBSCRIBE: the ioctl goes through the capture's open (no EBUSY)" "OK" \
	head -n 1 "$tmp/sub"
evrec 0x0001000000000000 11000
feed
wait "$spid"
check "... the event comes" "OK
IIOEVENT ads1015 0x0001000000000000 time: 11000, type: voltage, channel: 0, evtype: thresh, direction: rising" \
	cat "$tmp/sub"
touch "$tmp/go1"
wait "$cpid"
check "... and the capture's scans" "$(scans_csv)" cat "$tmp/capA.out"
settle "... its leave closes the node" "0" \
	sh -c "ls -l /proc/$dpid/fd | grep -c '$node\$'"

nc_until "$sock" 3 "$tmp/sub" "SUBSCRIBE ads1015" &
spid=$!
settle "SUBSCRIBE first" "OK" head -n 1 "$tmp/sub"
evrec 0x0002000000000000 12000
feed
scanfeed go2
capture_bg capB.out 64
settle "... then a capture: its open is not refused" "1" values_of $d0/buffer/enable
evrec 0x0001000000000000 13000
feed
touch "$tmp/go2"
wait "$cpid"
wait "$spid"
check "... the scans" "$(scans_csv)" cat "$tmp/capB.out"
check "... and the events before and during it" "OK
IIOEVENT ads1015 0x0002000000000000 time: 12000, type: voltage, channel: 0, evtype: thresh, direction: falling
IIOEVENT ads1015 0x0001000000000000 time: 13000, type: voltage, channel: 0, evtype: thresh, direction: rising" \
	cat "$tmp/sub"

# the device leaves while both are active: ENODEV to each, the node closed
both_active "both active" go3 0.3 capC.out
kt_remove 0
touch "$tmp/go3"
wait "$cpid"
kill -HUP "$dpid"
wait "$spid"
check "the device leaving: the capture's scans" "64" grep -c '^[0-9-]*,[0-9-]*$' "$tmp/capC.out"
check "... then STREAMEND ENODEV" "iiowire: capture: ENODEV: iio:device0: device removed" \
	cat "$tmp/capC.out.err"
check "... the subscription ends with ENODEV" "OK
IIOEVENTEND ads1015 ENODEV device left the board" cat "$tmp/sub"
settle "... the node is closed" "0" sh -c "ls -l /proc/$dpid/fd | grep -c '$node\$'"
kt_ads1015

# the kernel's unbind, as 6.1 did it under QEMU: /dev/iio:deviceN goes at once while fds on
# it live on; a read of the node's fd or of the event fd is ENODEV, but poll() reports nothing
# and wakes no one (the shim plays it): the readers must ask by reading. The writer stays
# silent and no rescan comes (no uevents here, no SIGHUP).
hup_reloaded "the device back: reloaded"
settle "the device back" "564" $a read ads1015 in_voltage0_raw
both_active "unbind: both active" go5 10 capE.out
touch "$tmp/go5"
sleep 1	# the scans read (the CLI writes its CSV at its end)
rm "$node" "$evf"
kt_remove 0
wait "$cpid"
wait "$spid"
check "... the scans before it" "64" grep -c '^[0-9-]*,[0-9-]*$' "$tmp/capE.out"
check "... the node gone, poll silent: STREAMEND ENODEV all the same" \
	"iiowire: capture: ENODEV: iio:device0: device removed" cat "$tmp/capE.out.err"
check "... the subscription ends with ENODEV" "OK
IIOEVENTEND ads1015 ENODEV device removed" cat "$tmp/sub"
settle "... the node is closed" "0" sh -c "ls -l /proc/$dpid/fd | grep -c '$node'"
mkfifo "$node" "$evf"
kt_ads1015

# a sysfs file that hangs (a FIFO stands in) while a rescan unregisters a capturing device:
# the old mirror's disable write waits on it off the loop; every client is served meanwhile
hup_reloaded "the device back: reloaded"
settle "the device back" "564" $a read ads1015 in_voltage0_raw
scanfeed go4 0
capture_bg capD.out 1000
settle "capturing" "1" values_of $d0/buffer/enable
rm "$d0/buffer/enable"
mkfifo "$d0/buffer/enable"
kill -HUP "$dpid"
wait "$cpid"
check "a rescan while capturing ends the stream" \
	"iiowire: capture: ENODEV: iio:device0: removed by a board reload" cat "$tmp/capD.out.err"
# a thread of the daemon (the rescan's, not the loop: the rows below are answered) is in the
# write's open of the FIFO, which waits for a reader (wait_for_partner)
settle "... the old mirror's disable write hangs" "1" sh -c \
	"for t in /proc/$dpid/task/*; do cat \$t/wchan; echo; done | grep -c '^wait_for_partner\$'"
check "... while it hangs, another device is read" "97" \
	$a read max1036 in_voltage0_raw
check "... the new mirror is read" "564" $a read ads1015 in_voltage0_raw
nc_until "$sock" 1 "$tmp/sub" "SUBSCRIBE ads1015" &
spid=$!
wait "$spid"
check "... and subscribed to (the node is free: the capture let it go first)" "OK" cat "$tmp/sub"
check "... the write was waiting on the file" "0" timeout 10 cat "$d0/buffer/enable"
rm "$d0/buffer/enable"
kt_attr 0 buffer/enable 0
touch "$tmp/go4"
stop_daemon

# ---- hotplug device by device: a kernel device bound and unbound, and a trigger added (each
# announced by its uevent) leave every other device's streams alone; no board reload ----
if command -v python3 >/dev/null 2>&1; then
	# uevent ACTION PATH: what the kernel sends to the uevent group (root may, in this netns)
	uevent() {
		python3 -c 'import socket, sys
s = socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, 15)
s.bind((0, 0))
a, p = sys.argv[1], sys.argv[2]
s.sendto(("%s@%s\0ACTION=%s\0SUBSYSTEM=iio\0" % (a, p, a)).encode(), (0, 1))' "$1" "$2"
	}
	cat >"$tmp/hot.json" <<'JSON'
{"board": "hot", "devices": [{"driver": "iio_dummy", "name": "dummy0"}],
 "triggers": [{"type": "hrtimer", "name": "uhot", "sampling_frequency": 50}]}
JSON
	scanfeed_stop
	start_kshim --board "$tmp/hot.json"
	# the board's device at 50 Hz through all of it (a session held until $tmp/hotstop); the
	# kernel's fed once it is over, with a block timeout that outlasts the changes
	rm -f "$tmp/hotstop"
	{
		printf 'STREAM dummy0 uhot 5 csv voltage0\n'
		while [ ! -e "$tmp/hotstop" ]; do sleep 0.1; done
	} | nc -q 0 -U "$sock" >"$tmp/hotU.out" &
	upid=$!
	scanfeed go6 0
	timeout 120 $cli -a "unix:$sock" --timeout 60000 capture ads1015 voltage0 voltage1 -n 64 \
		-b 8 --format csv >"$tmp/hotK.out" 2>"$tmp/hotK.out.err" &
	cpid=$!
	settle "hotplug: a kernel device captures" "1" values_of $d0/buffer/enable
	blocks() { grep -c '^BLOCK 1 ' "$tmp/hotU.out"; }
	settle "... and a board's device streams" "yes" sh -c "[ \$(grep -c '^BLOCK 1 ' '$tmp/hotU.out') -gt 0 ] && echo yes"
	before=$(blocks)
	kt_dev 7 0-004b ads1115
	kt_attr 7 in_voltage0_raw 78
	uevent add /devices/platform/i2c-0/0-004b/iio:device7
	settle "... a device bound: its uevent adds it" "78" $a read iio:device7 in_voltage0_raw
	kt_remove 7
	uevent remove /devices/platform/i2c-0/0-004b/iio:device7
	settle "... unbound: its uevent removes it" "" sh -c "$a devices | grep device7"
	kt_trig 5 sysfstrig9
	uevent add /devices/trigger5
	settle "... a trigger added: its uevent adds it" "trigger5 sysfstrig9 - -" \
		sh -c "$a devices | grep sysfstrig9"
	touch "$tmp/go6"
	wait "$cpid"
	settle "... the board device's stream goes on after the changes" "yes" \
		sh -c "[ \$(grep -c '^BLOCK 1 ' '$tmp/hotU.out') -gt $before ] && echo yes"
	touch "$tmp/hotstop"
	wait "$upid"
	check "... the kernel device's stream: every scan" "$(scans_csv)" cat "$tmp/hotK.out"
	check "... no STREAMEND, none lost" "" cat "$tmp/hotK.out.err"
	check "... the board device's stream: no STREAMEND, no block lost a scan" "0 0" \
		sh -c "echo \$(grep -c STREAMEND '$tmp/hotU.out') \$(grep '^BLOCK 1 ' '$tmp/hotU.out' | awk '\$5 != 0' | wc -l)"
	check "... and no board reload" "reloads 0" sh -c "$a stats | grep '^reloads'"
	rm -f "$KT_SYS/bus/iio/devices/trigger5"
	rm -rf "$KT_SYS/devices/trigger5"
	stop_daemon
fi
# ---- what a fake tree cannot do alone, played by the shim: drivers' read errors (sysfs passes
# a show()'s error on) and a device that leaves while the first scan lists the tree ----
bus=/sys/bus/iio/devices
export IIOWIRE_KSHIM_READ_ERR="$bus/iio:device0/in_voltage2_raw=EIO;$bus/iio:device0/in_voltage3_raw=EAGAIN;$bus/iio:device2/in_intensity_ir_raw=EBUSY"
export IIOWIRE_KSHIM_SCAN_RACE="$bus;iio:device3;$bus/iio:device3;/sys/devices/platform/i2c-0/0-0076/iio:device3"
start_kshim
unset IIOWIRE_KSHIM_READ_ERR IIOWIRE_KSHIM_SCAN_RACE
check "a driver's EIO" "iiowire: read: EIO: ads1015 in_voltage2_raw: input/output error" \
	$a read ads1015 in_voltage2_raw
check "a driver's EAGAIN" "iiowire: read: EAGAIN: ads1015 in_voltage3_raw: try again" \
	$a read ads1015 in_voltage3_raw
check "a driver's EBUSY" "iiowire: read: EBUSY: tsl2563 in_intensity_ir_raw: device or resource busy" \
	$a read tsl2563 in_intensity_ir_raw
check "... the same device's other files read" "1000" $a read tsl2563 in_intensity_both_raw
check "a device gone while the first scan listed it is left out" \
	"iio:device0 iio:device1 iio:device2 iio:device6" sh -c "$a devices | cut -d' ' -f1 | tr '\n' ' ' | sed 's/ $//'"
check "... the others are served" "564" $a read ads1015 in_voltage0_raw
kt_bmp280
kill -HUP "$dpid"
settle "... and a rescan finds it back" "25080" $a read bmp280 in_temp_input
stop_daemon
if grep -q "ERROR\|AddressSanitizer" "$tmp/log"; then bad "daemon log: $(cat "$tmp/log")"; else ok; fi
shtest_end
