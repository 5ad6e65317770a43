"""Register presets of the bmp280 family for the kernel rig (tests/kernel_rig.sh).

bmp280: the rig's own preset again (the BMP280 datasheet's worked example:
calibration T1..P9, adc_T 519888, adc_P 415148: 25.08 degC, 100653.27 Pa).
bme280: the same plus humidity calibration of a real part and adc_H 27000.
At the addresses of bmp280-extreme.conf (0x40-0x45) the codes are extreme
instead (EXTREME), where the compensation's 32- and 64-bit arithmetic wraps:
the kernel's wrap-arounds, reproduced.
bmp180/bmp085: the BMP180 datasheet's example (AC1..MD, UT 27898, UP 23843 at
oss 0: 15.0 degC, 69964 Pa); i2c-stub keeps ctrl_meas as written, so the SCO
bit never clears and every reading is EIO on both sides (the error path).
bmp380: status CMD_RDY, no error, a synthetic NVM (drivers/emu/emu_bmp280.c
has the same) and adc_T 8300000, adc_P 6000000.
"""

DRIVERS = {"bmp280", "bme280", "bmp180", "bmp085", "bmp380"}

BMP280_CAL = [27504, 26435, -1000, 36477, -10685, 3024, 2855, 140, -7, 15500, -14600, 6000]
BMP280_ADC_T, BMP280_ADC_P, BME280_ADC_H = 519888, 415148, 27000
# H1 (0xa1), H2 (0xe1, s16 le), H3 (0xe3), H4 (12 bits), H5 (12 bits), H6 (s8)
BME280_HUM = (75, 370, 0, 309, 50, 30)
BMP180_CAL = [408, -72, -14383, 32741, 32757, 23153, 6190, 4, -32768, -8711, 2868]
BMP180_UT = 27898
BMP380_CAL = (27700, 19000, -10, 20000, -5000, 30, 0, 10000, 3000, 10, -5, 16000, 10, -60)
BMP380_ADC_T, BMP380_ADC_P = 8300000, 6000000
# bmp280-extreme.conf: adc_T, adc_P, adc_H (bmp380: 24-bit adc_T, adc_P)
EXTREME_ADDRS = range(0x40, 0x46)
EXTREME = (0xfffff, 1, 0xffff)
EXTREME_BMP380 = (0xfffff0, 0x10)


def _bytes(a, start, data):
    return [f"b {a:#04x} {start + i:#04x} {v:#04x}" for i, v in enumerate(data)]


def _le(v, n):
    return list((v & ((1 << (8 * n)) - 1)).to_bytes(n, "little"))


def bmx280(a, bme):
    adc_t, adc_p, adc_h = (EXTREME if a in EXTREME_ADDRS else
                           (BMP280_ADC_T, BMP280_ADC_P, BME280_ADC_H))
    c = []
    cal = b"".join(v.to_bytes(2, "little", signed=v < 0) for v in BMP280_CAL)
    c += _bytes(a, 0x88, cal)
    c += _bytes(a, 0xd0, [0x60 if bme else 0x58])
    p, t = adc_p << 4, adc_t << 4
    c += _bytes(a, 0xf7, [(p >> 16) & 0xff, (p >> 8) & 0xff, p & 0xff,
                          (t >> 16) & 0xff, (t >> 8) & 0xff, t & 0xff])
    desc = f"datasheet calibration T1..P9, adc_T {adc_t}, adc_P {adc_p}"
    if not bme:
        return c, "chip id 0x58, " + desc
    h1, h2, h3, h4, h5, h6 = BME280_HUM
    c += _bytes(a, 0xa1, [h1])
    c += _bytes(a, 0xe1, _le(h2, 2) + [h3, (h4 >> 4) & 0xff, (h4 & 0xf) | ((h5 & 0xf) << 4),
                                       (h5 >> 4) & 0xff, h6 & 0xff])
    c += _bytes(a, 0xfd, [adc_h >> 8, adc_h & 0xff])
    return c, f"chip id 0x60, {desc}, humidity H1..H6 {BME280_HUM}, adc_H {adc_h}"


def bmp180(a):
    cal = b"".join(v.to_bytes(2, "big", signed=True) for v in BMP180_CAL)
    c = _bytes(a, 0xaa, cal) + _bytes(a, 0xd0, [0x55])
    c += _bytes(a, 0xf6, [BMP180_UT >> 8, BMP180_UT & 0xff, 0])
    return c, ("chip id 0x55, the BMP180 datasheet's calibration AC1..MD and UT 27898; "
               "ctrl_meas keeps SCO as written, so readings are EIO")


def bmp380(a):
    t1, t2, t3, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11 = BMP380_CAL
    nvm = (_le(t1, 2) + _le(t2, 2) + _le(t3, 1) + _le(p1, 2) + _le(p2, 2) + _le(p3, 1) +
           _le(p4, 1) + _le(p5, 2) + _le(p6, 2) + _le(p7, 1) + _le(p8, 1) + _le(p9, 2) +
           _le(p10, 1) + _le(p11, 1))
    c = _bytes(a, 0x00, [0x50]) + _bytes(a, 0x02, [0x00, 0x10])
    adc_t, adc_p = EXTREME_BMP380 if a in EXTREME_ADDRS else (BMP380_ADC_T, BMP380_ADC_P)
    c += _bytes(a, 0x04, _le(adc_p, 3) + _le(adc_t, 3))
    c += _bytes(a, 0x31, nvm)
    return c, (f"chip id 0x50, STATUS cmd_rdy, ERROR 0, synthetic NVM {BMP380_CAL}, "
               f"adc_T {adc_t}, adc_P {adc_p}")


def preset(driver, addr):
    if driver in ("bmp280", "bme280"):
        return bmx280(addr, driver == "bme280")
    if driver == "bmp380":
        return bmp380(addr)
    return bmp180(addr)
