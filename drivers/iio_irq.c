/*
 * iio_irq.c - interrupt lines (iio_irq.h): one thread per requested line
 * waits for its edge and runs the driver's handler under the device lock.
 *
 * An emulated line is the chip model's output, sampled every
 * IIO_IRQ_EMU_POLL_US under the bus lock (so the model sees no transfer
 * half done); each sample that finds it asserted is an edge. A GPIO line is requested
 * from libgpiod 1.6 for edge events and waited on in steps of
 * IIO_IRQ_GPIO_WAIT_MS, so that stopping never waits long. The thread holds
 * no reference: the core stops it (iio_irq_stop()) before the device goes.
 */
#include <errno.h>
#include <gpiod.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "emu/emu.h"
#include "iio_core.h"
#include "iio_event.h"
#include "iio_irq.h"
#include "iio_priv.h"

#define IIO_IRQ_CONSUMER	"iiowired"

struct iio_irq {
	pthread_t thread;
	atomic_bool stop;
	struct iio_dev *dev;
	iio_irq_handler_t handler;
	struct iio_irq_spec spec;
	enum iio_irq_edge edge;
	struct gpiod_chip *chip;	/* GPIO only */
	struct gpiod_line *line;
};

static void iio_irq_fire(struct iio_irq *irq)
{
	int64_t ts = iio_get_time_ns(irq->dev);

	iio_device_lock(irq->dev);
	if (!iio_device_is_gone(irq->dev))
		irq->handler(irq->dev, ts);
	iio_device_unlock(irq->dev);
}

static void *iio_irq_emu_thread(void *arg)
{
	struct iio_irq *irq = arg;
	struct timespec nap = { 0, IIO_IRQ_EMU_POLL_US * 1000L };

	/*
	 * An alert the handler cleared and the chip raised again at once is a
	 * new edge on a real line: so every sample that finds it asserted is one
	 * (a chip out of its window interrupts at every conversion).
	 */
	while (!atomic_load(&irq->stop)) {
		if (emu_bus_irq_level(irq->spec.bus, irq->spec.addr) > 0)
			iio_irq_fire(irq);
		nanosleep(&nap, NULL);
	}
	return NULL;
}

static void *iio_irq_gpio_thread(void *arg)
{
	struct iio_irq *irq = arg;
	struct timespec wait = { 0, IIO_IRQ_GPIO_WAIT_MS * 1000000L };
	struct gpiod_line_event ev;
	int ret;

	while (!atomic_load(&irq->stop)) {
		ret = gpiod_line_event_wait(irq->line, &wait);
		if (ret < 0)
			break;
		if (ret == 0 || gpiod_line_event_read(irq->line, &ev) < 0)
			continue;
		iio_irq_fire(irq);
	}
	return NULL;
}

/* Open and request the board's GPIO line for @irq's edge. Return: 0 or -errno, @err set. */
static int iio_irq_gpio_open(struct iio_irq *irq, char *err, size_t errlen)
{
	int ret;

	irq->chip = gpiod_chip_open_lookup(irq->spec.chip);
	if (!irq->chip) {
		ret = -errno;
		snprintf(err, errlen, "irq: cannot open GPIO chip %s: %s", irq->spec.chip,
			 strerror(-ret));
		return ret;
	}
	irq->line = gpiod_chip_get_line(irq->chip, irq->spec.line);
	if (!irq->line) {
		ret = -errno;
		snprintf(err, errlen, "irq: %s has no line %u: %s", irq->spec.chip, irq->spec.line,
			 strerror(-ret));
		return ret;
	}
	ret = irq->edge == IIO_IRQ_RISING ?
	      gpiod_line_request_rising_edge_events(irq->line, IIO_IRQ_CONSUMER) :
	      gpiod_line_request_falling_edge_events(irq->line, IIO_IRQ_CONSUMER);
	if (ret < 0) {
		ret = -errno;
		snprintf(err, errlen, "irq: cannot request %s line %u: %s", irq->spec.chip,
			 irq->spec.line, strerror(-ret));
		return ret;
	}
	return 0;
}

static void iio_irq_free(struct iio_irq *irq)
{
	if (irq->line)
		gpiod_line_release(irq->line);
	if (irq->chip)
		gpiod_chip_close(irq->chip);
	free(irq);
}

int iio_request_threaded_irq(struct iio_dev *indio_dev, const struct iio_probe *p,
			     enum iio_irq_edge edge, iio_irq_handler_t handler,
			     char *err, size_t errlen)
{
	struct iio_dev_opaque *op = to_iio_dev_opaque(indio_dev);
	char dummy[1];
	struct iio_irq *irq;
	int ret;

	if (!err || !errlen) {
		err = dummy;
		errlen = sizeof(dummy);
	}
	if (!p->irq || p->irq->kind == IIO_IRQ_NONE)
		return -ENOENT;
	if (op->irq)
		return -EBUSY;
	irq = calloc(1, sizeof(*irq));
	if (!irq)
		return -ENOMEM;
	irq->dev = indio_dev;
	irq->handler = handler;
	irq->spec = *p->irq;
	irq->edge = edge;
	atomic_init(&irq->stop, false);
	ret = irq->spec.kind == IIO_IRQ_GPIO ? iio_irq_gpio_open(irq, err, errlen) : 0;
	if (!ret) {
		ret = -pthread_create(&irq->thread, NULL, irq->spec.kind == IIO_IRQ_GPIO ?
				      iio_irq_gpio_thread : iio_irq_emu_thread, irq);
		if (ret)
			snprintf(err, errlen, "irq: cannot start its thread: %s", strerror(-ret));
	}
	if (ret) {
		iio_irq_free(irq);
		/* ENOENT says "no line in the board": a missing chip must not read so */
		return ret == -ENOENT ? -ENODEV : ret;
	}
	op->irq = irq;
	return 0;
}

bool iio_device_has_irq(const struct iio_dev *indio_dev)
{
	return to_iio_dev_opaque(indio_dev)->irq != NULL;
}

void iio_irq_stop(struct iio_dev *indio_dev)
{
	struct iio_dev_opaque *op = to_iio_dev_opaque(indio_dev);
	struct iio_irq *irq = op->irq;

	if (!irq)
		return;
	atomic_store(&irq->stop, true);
	pthread_join(irq->thread, NULL);
	op->irq = NULL;
	iio_irq_free(irq);
}
