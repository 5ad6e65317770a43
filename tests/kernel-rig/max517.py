"""Kernel-rig presets for the max517 family (tests/kernel-rig/, RIG.md).

The MAX517-521 are write-only to their drivers (the kernel's and iiowire's
probe send nothing and read nothing), so there is no register file to preset:
the chips only have to answer at their addresses.
"""
DRIVERS = {"max517", "max518", "max519", "max520", "max521"}


def preset(driver, addr):
    return [], "write-only DAC: nothing to preset; the drivers never read it"
