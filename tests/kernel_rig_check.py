#!/usr/bin/env python3
"""kernel_rig_check.py OUT_DIR KNOWN: the verdict of one kernel-rig guest (tests/kernel_rig.sh).

Reads the rig's compare.md and sections/ in OUT_DIR and lists every difference
between the kernel's devices and iiowire's, each "known" (a line of KNOWN,
tests/kernel-rig/known.txt: DRIVER KEY REASON, shell patterns) or "UNEXPECTED".
Exit status 1 if any is unexpected. Keys: an attribute; mode:ATTR (access
mode); daemon:ATTR (iiowired's read differs from iiowire-board's); regs
(i2c-stub's register file after both sides ran); libiio (iio_info);
kernel-probe / iiowire-probe (one side did not bind); probe (both refused,
with other errors).
Two cases compare.py reports as failures are settled here: an iiowire-board
that printed its device but exited 1 because a file read failed (compared
file by file with the kernel's dump, read errors included), and a chip both
sides refused (the kernel's probe error in dmesg against iiowire's errno).
"""
import errno
import fnmatch
import glob
import os
import re
import sys

OUT, KNOWN = sys.argv[1], sys.argv[2]
DEV = r"/sys/bus/iio/devices/iio:device\d+/"


def section(name):
    path = os.path.join(OUT, "sections", name + ".txt")
    return open(path, errors="replace").read() if os.path.exists(path) else ""


def kernel_client(drv):
    """(hwid, iio:deviceN or None) of the kernel's I2C client named @drv, or None."""
    for line in section("kernel-i2c").splitlines():
        m = re.match(r"(\S+) name=(\S+) driver=\S+ iio=(\S+)", line)
        if m and m.group(2) == drv:
            return m.group(1), m.group(3) if m.group(3).startswith("iio:") else None
    return None


def board_files(drv):
    """{attr: value or 'ERR text'} iiowire-board printed for @drv, or None without a device."""
    boards = glob.glob(os.path.join(OUT, "sections", f"iiowire-board_{drv}_0x*.txt"))
    if len(boards) != 1:
        return None
    text = open(boards[0], errors="replace").read()
    if not re.search(r"^# iio:device\d+: name ", text, re.M):
        return None
    w = {}
    for line in text.splitlines():
        m = re.match(r"iiowire-board: " + DEV + r"([^:]+): (.*)$", line)
        if m:
            w[m.group(1)] = "ERR " + m.group(2)
        m = re.match(DEV + r"([^:]+):(.*)$", line)
        if m:
            w[m.group(1)] = m.group(2)
    return w


def kernel_files(dev):
    """{attr: value or 'ERR text'} of the kernel's @dev (sysdump; uevent and dev left out)."""
    k = {}
    for line in open(os.path.join(OUT, "kernel-sysfs.txt"), errors="replace"):
        line = line.rstrip("\n")
        m = re.match(rf"grep: /sys/bus/iio/devices/{dev}/([^:/]+): (.*) \(E[A-Z]+\)$", line)
        if m:
            k[m.group(1)] = "ERR " + m.group(2)
        m = re.match(rf"/sys/bus/iio/devices/{dev}/([^:/]+):(.*)$", line)
        if m:
            k[m.group(1)] = m.group(2)
    return {a: v for a, v in k.items() if a not in ("uevent", "dev")}


def kernel_probe_error(hwid):
    """The kernel's probe error for @hwid from dmesg ("probe of 0-0060 failed with error -95")."""
    m = re.search(rf"probe of {re.escape(hwid)} failed with error (-\d+)", section("dmesg"))
    return int(m.group(1)) if m else None


def settle_failed_board(drv, text, diffs):
    """iiowire-board failed for @drv: compare what it printed, or both sides' refusals."""
    kc = kernel_client(drv)
    w = board_files(drv)
    if kc and kc[1] and w is not None:
        k = kernel_files(kc[1])
        errs = sorted(a for a, v in w.items() if v.startswith("ERR") and k.get(a) == v)
        for a in sorted(set(k) | set(w)):
            if k.get(a) != w.get(a):
                diffs.append((drv, a, f"kernel {k.get(a, '(absent)')!r}, "
                                      f"iiowire {w.get(a, '(absent)')!r}"))
        print(f"  compared   {drv}: {len(set(k) & set(w))} attributes on both sides, read "
              f"errors on both ({', '.join(errs) or 'none'}); iiowire-board exited 1 on them")
        return True
    if kc and not kc[1]:
        kerr = kernel_probe_error(kc[0])
        m = re.search(r"\((E[A-Z0-9]+)\)$", text)
        if kerr is not None and m and getattr(errno, m.group(1), None) == -kerr:
            print(f"  equal      {drv}: both refuse it ({m.group(1)}; the kernel's probe: {kerr})")
        else:
            diffs.append((drv, "probe", f"kernel {kerr}, iiowire {text}"))
        return True
    return False


def collect(md):
    diffs, drv, settled = [], None, set()
    for line in md.splitlines():
        m = re.match(r"\| iiowire \| (\S+) \| \S+ \| FAILED: (.*) \|$", line)
        if m:
            if settle_failed_board(m.group(1), m.group(2), diffs):
                settled.add(m.group(1))
            else:
                diffs.append((m.group(1), "iiowire-probe", m.group(2)))
            continue
        m = re.match(r"\| kernel \| (\S+) \| \S+ \| NOT probed \|$", line)
        if m:
            if not re.search(rf"^\| iiowire \| {re.escape(m.group(1))} \|", md, re.M):
                diffs.append((m.group(1), "kernel-probe", "NOT probed"))
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
        if line.startswith("no kernel device of this name") and drv and drv not in settled:
            diffs.append((drv, "kernel-probe", line))
    return diffs


def main():
    known = []
    for line in open(KNOWN):
        line = line.strip()
        if line and not line.startswith("#"):
            known.append((line.split(None, 2) + ["", ""])[:3])
    md = open(os.path.join(OUT, "compare.md")).read()
    diffs = collect(md)
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


if __name__ == "__main__":
    main()
