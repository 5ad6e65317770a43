#!/bin/sh
# kernel_rig.sh - the kernel-rig tier: iiowire's drivers against the real
# Linux 6.1 drivers, attribute for attribute. For each tests/kernel-rig/*.conf
# (chips.conf lines: SIDE DRIVER ADDR [json keys]) one QEMU guest boots
# Debian's 6.1 kernel with i2c-stub, binds the kernel's drivers and iiowire's
# (i2c-dev, same register presets, other addresses), and the rig's compare.md
# says where they differ. Every difference must be listed in
# tests/kernel-rig/known.txt with its reason (a rig artefact or a K-row of
# maps/README.md's deviations table); any other fails the tier
# (tests/kernel_rig_check.py gives the verdict).
# The rig is shared/tools/qemu-iio (read-only): it is copied to a temporary
# directory, and its gen-regs.py there asks the presets of
# tests/kernel-rig/*.py first (each defines DRIVERS and preset(driver, addr)).
# Usage: tests/kernel_rig.sh [BUILD] [CONF...]
#   BUILD  a cmake build tree (default build/release), configured if absent;
#          only iiowired, iiowire-board and iiowire are built, -j "$JOBS" (1),
#          or with KERNEL_RIG_NO_BUILD=1 taken as they are
#   CONF   only these confs (default: every tests/kernel-rig/*.conf)
# Settings: IIOWIRE_RIG (the rig, default ../shared/tools/qemu-iio),
#   QEMU_DIR (kernel and busybox cache, default /tmp/qemu), RIG_OUT (keep
#   each guest's results there instead of a temporary directory).
# Needs root (the rig installs qemu-system-x86 and downloads the kernel with
# apt-get the first time) and about 1 GB of memory; each guest takes ~20-60 s.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build/release}
[ $# -gt 0 ] && shift
rig=${IIOWIRE_RIG:-$top/../shared/tools/qemu-iio}
presets=$top/tests/kernel-rig
known=$presets/known.txt

skip() {
	echo "rig: SKIPPED ($*)"
	exit 0
}
[ -x "$rig/run-guest.sh" ] || skip "no rig at $rig"
[ "$(id -u)" = 0 ] || skip "the rig needs root"
command -v python3 >/dev/null || skip "no python3"

confs=$*
[ -n "$confs" ] || confs=$(ls "$presets"/*.conf 2>/dev/null)
[ -n "$confs" ] || { echo "kernel rig: FAIL: no tests/kernel-rig/*.conf"; exit 1; }

work=$(mktemp -d /tmp/iiowire-rig-XXXXXX)
trap 'rm -rf "$work"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# iiowire's three programs: built here, then staged in a tree whose Makefile
# does nothing, so that the rig's own `make -j$(nproc)` builds nothing more
if [ "${KERNEL_RIG_NO_BUILD:-0}" = 1 ]; then
	:
elif [ ! -f "$build/CMakeCache.txt" ]; then
	cmake -S "$top" -B "$build" -DIIOWIRE_SANITIZE=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		>/dev/null || { echo "kernel rig: FAIL: configuring $build"; exit 1; }
fi
[ "${KERNEL_RIG_NO_BUILD:-0}" = 1 ] ||
nice -n 10 cmake --build "$build" -j "${JOBS:-1}" --target iiowired iiowire-board iiowire_cli \
	>"$work/build.log" 2>&1 || {
	tail -20 "$work/build.log"
	echo "kernel rig: FAIL: building iiowire in $build"
	exit 1
}
stage=$work/stage
mkdir -p "$stage/server" "$stage/drivers" "$stage/client"
printf 'all:\n\t@:\n' >"$stage/Makefile"
cp "$build/server/iiowired" "$stage/server/"
cp "$build/drivers/iiowire-board" "$stage/drivers/"
cp "$build/client/iiowire" "$stage/client/"

# the rig, with a gen-regs.py that asks our presets first
cp -r "$rig" "$work/rig"
chmod -R u+w "$work/rig"
rm -rf "$work/rig/out"
mv "$work/rig/gen-regs.py" "$work/rig/gen_regs_rig.py"
cat >"$work/rig/gen-regs.py" <<'EOF'
#!/usr/bin/env python3
"""The rig's gen-regs.py, with the presets of KERNEL_RIG_PRESETS/*.py first."""
import glob
import importlib.util
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_regs_rig as rig

ours = []
for path in sorted(glob.glob(os.path.join(os.environ["KERNEL_RIG_PRESETS"], "*.py"))):
    spec = importlib.util.spec_from_file_location("preset_" + os.path.basename(path)[:-3], path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    ours.append(mod)
rig_preset = rig.preset

def preset(driver, addr):
    for mod in ours:
        if driver in mod.DRIVERS:
            return mod.preset(driver, addr)
    return rig_preset(driver, addr)

rig.preset = preset
rig.main()
EOF
# compare.py pairs the two sides by IIO device name; a driver that names every
# part alike (ti-ads1015: "ads1015") must be paired by the I2C client's name,
# which is the driver name the conf gives on both sides
python3 - "$work/rig/compare.py" <<'EOF' || { echo "kernel rig: FAIL: the rig's compare.py changed"; exit 1; }
import sys
path = sys.argv[1]
src = open(path).read()
old = '''        kdev[p[1]] = (p[0], p[2])
'''
new = '''        kdev[p[1]] = (p[0], p[2])
client = {}
for line in (section("kernel-i2c") or "").splitlines():
    m = re.match(r"(\\S+) name=(\\S+) driver=\\S+ iio=(iio:device\\d+)", line)
    if m:
        client[m.group(3)] = m.group(2)
# "iio:deviceN NAME PARENT"; NAME is empty for a device without a name file (max517)
for line in (section("kernel-devices") or "").splitlines():
    p = line.split(" ")
    if len(p) == 3 and p[0] in client:
        kdev.pop(p[1], None)
for line in (section("kernel-devices") or "").splitlines():
    p = line.split(" ")
    if len(p) == 3 and re.match(r"iio:device\\d+$", p[0]) and (p[1] or p[0] in client):
        kdev[client.get(p[0], p[1])] = (p[0], p[2])
'''
if src.count(old) != 1:
    sys.exit(1)
open(path, "w").write(src.replace(old, new))
EOF


# one guest per conf; its equal attributes are counted from compare.md
passed=0 failed=0
for conf in $confs; do
	fam=$(basename "$conf" .conf)
	out=${RIG_OUT:+$RIG_OUT/$fam}
	out=${out:-$work/out-$fam}
	echo "=== kernel rig: $fam ($conf) ==="
	t0=$(date +%s)
	KERNEL_RIG_PRESETS=$presets IIOWIRE_BUILD=$stage IIOWIRE_SRC=$top OUT_DIR=$out \
		CHIPS_CONF=$(realpath "$conf") QEMU_DIR=${QEMU_DIR:-/tmp/qemu} \
		"$work/rig/run-guest.sh" >"$work/guest-$fam.log" 2>&1
	rc=$?
	if [ $rc -ne 0 ] || ! grep -q '^RIG: done' "$out/serial.log" 2>/dev/null ||
	   [ ! -s "$out/compare.md" ]; then
		tail -15 "$work/guest-$fam.log"
		echo "kernel rig: FAIL: $fam: the guest did not finish (run-guest.sh status $rc)"
		failed=$((failed + 1))
		continue
	fi
	grep -E '^kernel iio:device[0-9]+ at ' "$out/compare.md" | sed 's/^/  /'
	if python3 "$top/tests/kernel_rig_check.py" "$out" "$known"; then
		passed=$((passed + 1))
		echo "$fam: ok ($(($(date +%s) - t0)) s)"
	else
		failed=$((failed + 1))
		echo "kernel rig: FAIL: $fam: differences not in tests/kernel-rig/known.txt" \
			"(compare.md: ${RIG_OUT:-set RIG_OUT to keep it})"
	fi
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
