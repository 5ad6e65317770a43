/*
 * iio_dummy_evgen.c - iio_evgen, the kernel's dummy event generator: a
 * bus-less device whose write-only poke_ev0..poke_ev9 fire the event
 * handler of the iio_dummy holding that slot (iio_dummy_evgen.h).
 *
 * The board declares it as {"driver": "iio_evgen"}; every user who may
 * write attributes can then make a dummy push events, as root can on the
 * kernel. The hard half's timestamp is taken when the poke arrives.
 * Place in the flow: *driver* -> core (iio_push_event through the dummy).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

#include "iio_dummy_evgen.h"
#include "iio_core.h"
#include "iio_event.h"
#include "iio_kit.h"
#include "iio_value.h"

struct iio_evgen_slot {
	struct iio_dev *dev;	/* borrowed: the dummy releases the slot before it goes */
	void (*handler)(struct iio_dev *indio_dev, unsigned long value, int64_t timestamp);
};

static pthread_mutex_t iio_evgen_lock = PTHREAD_MUTEX_INITIALIZER;
static struct iio_evgen_slot iio_evgen_slots[IIO_EVGEN_SLOTS];

int iio_evgen_get_slot(struct iio_dev *indio_dev,
		       void (*handler)(struct iio_dev *indio_dev, unsigned long value,
				       int64_t timestamp))
{
	int i, ret = -ENOMEM;

	pthread_mutex_lock(&iio_evgen_lock);
	for (i = 0; i < IIO_EVGEN_SLOTS; i++) {
		if (!iio_evgen_slots[i].dev) {
			iio_evgen_slots[i].dev = indio_dev;
			iio_evgen_slots[i].handler = handler;
			ret = i;
			break;
		}
	}
	pthread_mutex_unlock(&iio_evgen_lock);
	return ret;
}

void iio_evgen_release_slot(int slot)
{
	if (slot < 0 || slot >= IIO_EVGEN_SLOTS)
		return;
	pthread_mutex_lock(&iio_evgen_lock);
	iio_evgen_slots[slot].dev = NULL;
	iio_evgen_slots[slot].handler = NULL;
	pthread_mutex_unlock(&iio_evgen_lock);
}

/*
 * The dummy is referenced before the slot lock is dropped, then run under
 * its own lock: a dummy being removed takes the slot lock from under its
 * device lock, so the two are never held the other way round.
 */
static int iio_evgen_poke(struct iio_dev *evgen, uintptr_t slot, const char *buf, size_t len)
{
	void (*handler)(struct iio_dev *indio_dev, unsigned long value, int64_t timestamp);
	struct iio_dev *dev;
	unsigned long value;
	int64_t ts;
	int ret;

	(void)evgen;
	(void)len;
	ret = iio_kstrtoul10(buf, &value);
	if (ret < 0)
		return ret;
	pthread_mutex_lock(&iio_evgen_lock);
	dev = iio_device_get(iio_evgen_slots[slot].dev);
	handler = iio_evgen_slots[slot].handler;
	pthread_mutex_unlock(&iio_evgen_lock);
	if (!dev)
		return 0;	/* nobody requested that interrupt */
	ts = iio_get_time_ns(dev);
	iio_device_lock(dev);
	if (!iio_device_is_gone(dev))
		handler(dev, value, ts);
	iio_device_unlock(dev);
	iio_device_put(dev);
	return 0;
}

#define IIO_EVGEN_POKE(n) { .name = "poke_ev" #n, .write = iio_evgen_poke, .private = (n) }

static const struct iio_dev_attr iio_evgen_attrs[] = {
	IIO_EVGEN_POKE(0), IIO_EVGEN_POKE(1), IIO_EVGEN_POKE(2), IIO_EVGEN_POKE(3),
	IIO_EVGEN_POKE(4), IIO_EVGEN_POKE(5), IIO_EVGEN_POKE(6), IIO_EVGEN_POKE(7),
	IIO_EVGEN_POKE(8), IIO_EVGEN_POKE(9),
	{ NULL, NULL, NULL, 0 },
};
_Static_assert(ARRAY_SIZE(iio_evgen_attrs) == IIO_EVGEN_SLOTS + 1, "one poke per slot");

static const struct iio_info iio_evgen_info = {
	.attrs = iio_evgen_attrs,
};

static int iio_evgen_probe(const struct iio_probe *p, struct iio_dev **out, char *err,
			   size_t errlen)
{
	struct iio_dev *indio_dev;

	(void)err;
	(void)errlen;
	indio_dev = iio_device_alloc(0);
	if (!indio_dev)
		return -ENOMEM;
	iio_device_setup(indio_dev, p->id->name, NULL, 0, &iio_evgen_info);
	*out = indio_dev;
	return 0;
}

static const struct iio_device_id iio_evgen_id[] = {
	{ "iio_evgen", 0 },
	{ NULL, 0 },
};

static const struct iio_driver iio_evgen_driver = {
	.name = "iio_dummy_evgen",
	.bus = IIO_DRIVER_BUS_NONE,
	.id_table = iio_evgen_id,
	.probe = iio_evgen_probe,
};
IIO_DRIVER_REGISTER(iio_evgen_driver);
