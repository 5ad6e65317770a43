/*
 * iio_dummy_evgen.h - the kernel's iio_dummy_evgen: slots that iio_dummy
 * devices take at probe, fired by writing poke_evN of the iio_evgen device.
 *
 * A dummy takes the first free slot (the first dummy gets 0) and gives it
 * back at remove; a poke runs the slot's handler on the poking thread, as
 * the kernel's simulated interrupt runs its threaded handler. Slots are
 * process-wide (the kernel's are module-wide), guarded by one mutex.
 */
#ifndef IIOWIRE_IIO_DUMMY_EVGEN_H
#define IIOWIRE_IIO_DUMMY_EVGEN_H

#include "iio.h"

/* The kernel's IIO_EVENTGEN_NO: poke_ev0 .. poke_ev9. */
#define IIO_EVGEN_SLOTS		10

/**
 * iio_evgen_get_slot() - take the first free slot for @indio_dev, whose
 * @handler runs with the value poked (under @indio_dev's lock).
 * Return: the slot number, or -ENOMEM when all are taken.
 */
int iio_evgen_get_slot(struct iio_dev *indio_dev,
		       void (*handler)(struct iio_dev *indio_dev, unsigned long value,
				       int64_t timestamp));
/** iio_evgen_release_slot() - give slot @slot back; a poke of it then does nothing. */
void iio_evgen_release_slot(int slot);

#endif /* IIOWIRE_IIO_DUMMY_EVGEN_H */
