#!/bin/sh
# kernel_rig.sh - the kernel-rig tier: iiowire's drivers against the real
# Linux 6.1 drivers, attribute for attribute. For each tests/kernel-rig/*.conf
# (chips.conf lines: SIDE DRIVER ADDR [json keys]) one QEMU guest boots
# Debian's 6.1 kernel with i2c-stub, binds the kernel's drivers and iiowire's
# (i2c-dev, same register presets, other addresses), and the rig's compare.md
# says where they differ. Every difference must be listed in
# tests/kernel-rig/known.txt with its reason (a rig artefact or a K-row of
# maps/README.md's deviations table); any other fails the tier.
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
    m = re.match(r"(\S+) name=(\S+) driver=\S+ iio=(iio:device\d+)", line)
    if m:
        client[m.group(3)] = m.group(2)
for line in (section("kernel-devices") or "").splitlines():
    p = line.split()
    if len(p) == 3 and p[0] in client:
        kdev.pop(p[1], None)
for line in (section("kernel-devices") or "").splitlines():
    p = line.split()
    if len(p) == 3:
        kdev[client.get(p[0], p[1])] = (p[0], p[2])
'''
if src.count(old) != 1:
    sys.exit(1)
open(path, "w").write(src.replace(old, new))
EOF

# CHECK OUT_DIR: every difference in its compare.md, known (with its reason) or not
check() {
	python3 - "$1" "$known" <<'EOF'
import fnmatch, glob, os, re, sys
out, known_path = sys.argv[1], sys.argv[2]
md = open(os.path.join(out, "compare.md")).read()

def read_errors_only(drv):
    """compare.py counts an iiowire-board that printed the device but exited 1 (a
    file read failed) as not loaded. Compare those boards here: the same files with
    the same values and the same read errors as the kernel's device is no difference."""
    boards = glob.glob(os.path.join(out, "sections", f"iiowire-board_{drv}_0x*.txt"))
    hw = [l.split()[0] for l in open(os.path.join(out, "sections", "kernel-i2c.txt"))
          if f" name={drv} " in l]
    kfiles = [f for h in hw for f in glob.glob(os.path.join(out, "kernel", f"*-{h}.txt"))]
    if len(boards) != 1 or len(kfiles) != 1:
        return None
    w, k = {}, {}
    for line in open(boards[0]):
        m = (re.match(r"iiowire-board: /sys/bus/iio/devices/iio:device\d+/([^:]+): (.*)$", line) or
             re.match(r"/sys/bus/iio/devices/iio:device\d+/([^:]+):(.*)()$", line))
        if m:
            w[m.group(1)] = "ERR " + m.group(2) if line.startswith("iiowire-board:") else m.group(2)
    for line in open(kfiles[0]):
        m = (re.match(r"grep: /sys/bus/iio/devices/iio:device\d+/([^:]+): (.*) \(E[A-Z]+\)$", line) or
             re.match(r"/sys/bus/iio/devices/iio:device\d+/([^:]+):(.*)()$", line))
        if m and m.group(1) != "uevent":
            k[m.group(1)] = "ERR " + m.group(2) if line.startswith("grep:") else m.group(2)
    return w == k and w, sorted(a for a, v in w.items() if v.startswith("ERR"))
known = []
for line in open(known_path):
    line = line.strip()
    if line and not line.startswith("#"):
        drv, key, reason = (line.split(None, 2) + ["", ""])[:3]
        known.append((drv, key, reason))
diffs, drv = [], None
for line in md.splitlines():
    m = re.match(r"\| (kernel|iiowire) \| (\S+) \| \S+ \| (NOT probed|FAILED: .*) \|$", line)
    if m:
        same = read_errors_only(m.group(2)) if m.group(1) == "iiowire" else None
        if same and same[0]:
            print(f"  equal      {m.group(2)}: {len(same[0])} attributes, read errors on both "
                  f"sides ({', '.join(same[1])})")
        else:
            diffs.append((m.group(2), m.group(1) + "-probe", m.group(3)))
        continue
    m = re.match(r"## (\S+): kernel vs iiowire", line)
    if m:
        drv = m.group(1)
        continue
    if line.startswith("## "):
        drv = None
    m = re.match(r"\| (\S+) \| (`.*`|\(absent\)) \| (`.*`|\(absent\)) \|$", line)
    if drv and m:
        diffs.append((drv, m.group(1), f"kernel {m.group(2)}, iiowire {m.group(3)}"))
        continue
    m = re.match(r"access modes \(.*\): (.*)$", line)
    if drv and m and m.group(1) not in ("all equal", "no iiowired data"):
        for part in m.group(1).split("; "):
            diffs.append((drv, "mode:" + part.split(":")[0], part))
    m = re.match(r"iiowired reads vs iiowire-board: (.*)$", line)
    if drv and m and m.group(1) != "all equal":
        for part in m.group(1).split("; "):
            diffs.append((drv, "daemon:" + part.split(":")[0], part))
    m = re.match(r"\| (\S+) \| 0x\S+ / 0x\S+ \| (.*) \|$", line)
    if m and m.group(2) != "identical":
        diffs.append((m.group(1), "regs", m.group(2)))
    m = re.match(r"### (\S+): (\d+) lines differ", line)
    if m:
        diffs.append((m.group(1), "libiio", m.group(2) + " lines differ"))
    if line.startswith("no kernel device of this name") and drv:
        diffs.append((drv, "kernel-probe", line))
bad = 0
for d, k, what in diffs:
    why = next((r for kd, kk, r in known if fnmatch.fnmatchcase(d, kd) and
                fnmatch.fnmatchcase(k, kk)), None)
    if why is None:
        bad += 1
        print(f"  UNEXPECTED {d} {k}: {what}")
    else:
        print(f"  known      {d} {k}: {why}")
total = re.search(r"TOTAL kernel/iiowire differences.*: (\d+)", md)
print(f"  {len(diffs)} differences ({bad} unexpected); compare.md's total: "
      f"{total.group(1) if total else '?'}")
sys.exit(1 if bad else 0)
EOF
}

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
	if check "$out"; then
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
