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
 * bus_node_open() - how a real backend binds to its /dev node: open @device
 * into *@fd (a field of @priv), let @check ask the node what it is, and on
 * success make @priv the bus's state and mark the bus as blocking.
 * @priv: the backend's calloc'd state; freed here on failure.
 * @check: an ioctl or two on *@fd; -ENOTTY from it (another kind of node)
 *	comes back as -ENODEV.
 * Return: 0 or -errno.
 */
int bus_node_open(struct bus *bus, const char *device, void *priv, int *fd,
		  int (*check)(void *priv));
/** bus_node_close() - close @fd and free the bus's state; a bus without state is left alone. */
void bus_node_close(struct bus *bus, int fd);

/**
 * bus_spidev_check_cs() - whether @cs is the chip select of the spidev node
 * @bus opened. Return: 0, or -EINVAL when the node is another chip select.
 */
int bus_spidev_check_cs(struct bus *bus, int cs);

#endif /* IIOWIRE_BUS_PRIV_H */
