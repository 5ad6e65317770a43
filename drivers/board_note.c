/*
 * board_note.c - notes on a board that loaded: what is allowed but probably
 * a mistake, which a loader that only refuses would let pass in silence.
 * Today one kind: an I2C address unlikely for its chip (an 8-bit datasheet
 * address, 0x72 for a TSL2561's 0x39), which an emulated bus answers
 * anyway, so the board "works" until it meets the real chip.
 *
 * Place in the flow: after board_load(), read by iiowired (its log) and
 * iiowire-board (stderr). It reads the registry; it never refuses, changes
 * or logs anything itself.
 */
#include <stdio.h>

#include "board.h"
#include "bus/bus.h"
#include "iio.h"

int board_note(const struct board *b, int *pos, char *buf, size_t len)
{
	char note[BOARD_ERR_MAX];
	const struct iio_driver *drv;
	struct bus_i2c_client *i2c;
	struct iio_dev *dev;

	for (; *pos < iio_registry_count(b->reg); (*pos)++) {
		dev = iio_registry_at(b->reg, *pos);
		drv = iio_device_driver(dev);
		i2c = iio_device_i2c(dev);
		if (!drv || !i2c || !iio_driver_addr_note(drv, i2c->addr, note, sizeof(note)))
			continue;
		snprintf(buf, len, "%s at %s%s%s%s: %s", dev->name, dev->hwid,
			 dev->label ? " (" : "", dev->label ? dev->label : "",
			 dev->label ? ")" : "", note);
		(*pos)++;
		return 1;
	}
	return 0;
}
