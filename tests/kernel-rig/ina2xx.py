"""Register presets of the ina2xx-adc family for the kernel rig (tests/kernel_rig.sh).

The driver reads each register as an SMBus word, byte-swapped (regmap's
smbus_word_swapped on i2c-stub), so words hold the register swapped. The
probe writes CONFIG and CALIBRATION on both sides; the preset gives the
measurement registers a conversion's values, from the datasheets' arithmetic:
INA219 (ina219, ina220): 1 A through 0.1 ohm at 12 V: shunt 100 mV / 10 uV =
10000, bus 12 V / 4 mV = 3000 in bits 15:3 with CNVR (bit 1) set, current
10000 x 4096 / 4096 = 10000, power 10000 x 3000 / 5000 = 6000.
INA226 (ina226, ina230, ina231): -8 A through 2.5 mOhm at 12 V: shunt -20 mV /
2.5 uV = -8000, bus 12 V / 1.25 mV = 9600, current -8000 x 2048 / 2048 =
-8000, power 8000 x 9600 / 20000 = 3840, Mask/Enable with CVRF (bit 3).
Raw values with the sign bit set show that shunt and current are read signed.
"""

DRIVERS = {"ina219", "ina220", "ina226", "ina230", "ina231"}


def _swap16(v):
    v &= 0xffff
    return ((v & 0xff) << 8) | (v >> 8)


def preset(driver, a):
    if driver in ("ina219", "ina220"):
        regs = {1: 10000, 2: 3000 << 3 | 0x2, 3: 6000, 4: 10000}
        desc = ("INA219: shunt 10000 (100 mV), bus 0x5dc2 (12 V, CNVR), power 6000, "
                "current 10000")
    else:
        regs = {1: -8000, 2: 9600, 3: 3840, 4: -8000, 6: 0x0008, 0xfe: 0x5449, 0xff: 0x2260}
        desc = ("INA226: shunt -8000 (-20 mV), bus 9600 (12 V), power 3840, current -8000, "
                "Mask/Enable CVRF, IDs 0x5449/0x2260")
    return [f"w {a:#04x} {r:#04x} {_swap16(v):#06x}" for r, v in sorted(regs.items())], desc
