/*
 * bus_priv.h - what bus.c needs to know about its backends, and nothing else.
 *
 * bus.c is the only file that looks at a backend by identity: it picks the
 * ops table by name, lets the emulated backend turn bus_msleep() into a
 * step of its virtual clock, and asks spidev whether a chip select matches
 * the /dev/spidevB.C node it opened. Drivers and models never include this;
 * they see only bus.h and emu.h.
 */
#ifndef IIOWIRE_BUS_PRIV_H
#define IIOWIRE_BUS_PRIV_H

#include "bus/bus.h"

extern const struct bus_ops bus_emu_ops;
extern const struct bus_ops bus_i2cdev_ops;
extern const struct bus_ops bus_spidev_ops;

/* Default per-transaction timeout of a new bus (bus->timeout_ms), in ms. */
#define BUS_TIMEOUT_MS_DEFAULT	1000

/** bus_emu_msleep() - advance an emulated bus's virtual clock by @ms. */
void bus_emu_msleep(struct bus *bus, unsigned int ms);

/**
 * bus_spidev_check_cs() - whether @cs is the chip select of the spidev node
 * @bus opened. Return: 0, or -EINVAL when the node is another chip select.
 */
int bus_spidev_check_cs(struct bus *bus, int cs);

#endif /* IIOWIRE_BUS_PRIV_H */
