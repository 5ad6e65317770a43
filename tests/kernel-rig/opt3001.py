"""opt3001.py - the QEMU rig's i2c-stub preset for the TI OPT3001 (tests/kernel-rig, RIG.md).

The chip's registers are big-endian words; i2c-stub keeps SMBus words little-endian, so each
is stored byte-swapped for the drivers' read_word_swapped. CONFIGURATION holds its reset
value 0xc810 with the conversion-ready flag (0x0080) set: i2c-stub does not convert, and both
drivers read the flag after their 1000 ms wait and keep it through their read-modify-writes.
RESULT 0x5f11 is E = 5, R = 3857: 0.01 x 2^5 x 3857 = 1234.24 lux.
"""

DRIVERS = {"opt3001"}

RESULT = 0x5F11            # E 5, R 3857: 1234.240000 lux
CONFIG = 0xC810 | 0x0080   # reset value (auto range, 800 ms, latched) + CRF
LOW, HIGH = 0xC000, 0xBFFF  # reset values: 0 and 83865.6 lux (E 12 = end-of-conversion mode)
MANUFACTURER, DEVICE = 0x5449, 0x3001


def _swap16(v):
    return ((v & 0xff) << 8) | (v >> 8)


def preset(driver, addr):
    regs = [(0x00, RESULT), (0x01, CONFIG), (0x02, LOW), (0x03, HIGH),
            (0x7E, MANUFACTURER), (0x7F, DEVICE)]
    cmds = [f"w {addr:#04x} {r:#04x} {_swap16(v):#06x}" for r, v in regs]
    return cmds, (f"RESULT {RESULT:#06x} (1234.24 lux), CONFIGURATION {CONFIG:#06x} (reset + CRF), "
                  f"limits {LOW:#06x}/{HIGH:#06x}, IDs {MANUFACTURER:#06x}/{DEVICE:#06x}")
