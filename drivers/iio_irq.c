/*
 * iio_irq.c - interrupt lines (iio_irq.h): one thread per requested line
 * waits for its edge and runs the driver's handler under the device lock.
 *
 * An emulated line is the chip model's output, sampled every
 * IIO_IRQ_EMU_POLL_US (IIO_IRQ_EMU_IDLE_US while the chip keeps it off)
 * under the bus lock (so the model sees no transfer half done); each sample that finds it asserted is an edge. A GPIO line is requested
 * from libgpiod 1.6 for edge events and waited on in steps of
 * IIO_IRQ_GPIO_WAIT_MS, so that stopping never waits long. The thread holds
 * no reference: the core stops it (iio_irq_stop()) before the device goes.
 *
 * A board reload probes the new board while the old one still holds its
 * GPIO lines, and the kernel answers a second request of a held line with
 * EBUSY. So a line this process holds is handed over: the new device's
 * request stops the old device's thread and takes the line; if the new
 * device goes while the old one is still there (a reload that failed), the
 * line goes back and the old thread waits on it again.
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

/**
 * struct iio_irq - one requested line.
 * @running: the thread runs (a GPIO line lent to a newer request has none).
 * @held_next: the process's GPIO requests (iio_irq_held), under iio_irq_lock.
 * @lender/@borrower: the older request this one took its line from, and the
 *	newer one it lent its line to (GPIO, under iio_irq_lock).
 */
struct iio_irq {
	pthread_t thread;
	atomic_bool stop;
	bool running;
	struct iio_dev *dev;
	iio_irq_handler_t handler;
	struct iio_irq_spec spec;
	enum iio_irq_edge edge;
	struct gpiod_chip *chip;	/* GPIO only */
	struct gpiod_line *line;
	struct iio_irq *held_next;
	struct iio_irq *lender;
	struct iio_irq *borrower;
};

/* The GPIO requests of this process (a reload hands their lines over). */
static pthread_mutex_t iio_irq_lock = PTHREAD_MUTEX_INITIALIZER;
static struct iio_irq *iio_irq_held;

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
	struct timespec poll = { 0, IIO_IRQ_EMU_POLL_US * 1000L };
	struct timespec idle = { 0, IIO_IRQ_EMU_IDLE_US * 1000L };
	int level;

	/*
	 * An alert the handler cleared and the chip raised again at once is a
	 * new edge on a real line: so every sample that finds it asserted is one
	 * (a chip out of its window interrupts at every conversion).
	 */
	while (!atomic_load(&irq->stop)) {
		level = emu_bus_irq_level(irq->spec.bus, irq->spec.addr);
		if (level == EMU_IRQ_ASSERTED)
			iio_irq_fire(irq);
		nanosleep(level == EMU_IRQ_DISABLED ? &idle : &poll, NULL);
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

/* Request @irq's line (got from its chip) for @irq's edge. Return: 0 or -1 (errno set). */
static int iio_irq_gpio_request(struct iio_irq *irq)
{
	return irq->edge == IIO_IRQ_RISING ?
	       gpiod_line_request_rising_edge_events(irq->line, IIO_IRQ_CONSUMER) :
	       gpiod_line_request_falling_edge_events(irq->line, IIO_IRQ_CONSUMER);
}

/* Move @from's requested line to @to, asked again if @to waits for the other edge. */
static int iio_irq_gpio_move(struct iio_irq *from, struct iio_irq *to)
{
	to->chip = from->chip;
	to->line = from->line;
	from->chip = NULL;
	from->line = NULL;
	if (from->edge == to->edge)
		return 0;
	gpiod_line_release(to->line);
	return iio_irq_gpio_request(to);
}

/*
 * Under iio_irq_lock: take the line from the request of this process that
 * holds it now, stopping its thread. Return: 1 if taken, 0 if no one here
 * holds it, -1 (errno set) if it could not be asked again for our edge.
 */
static int iio_irq_gpio_take_over(struct iio_irq *irq)
{
	struct iio_irq *h;

	for (h = iio_irq_held; h; h = h->held_next)
		if (!h->borrower && h->line && h->spec.line == irq->spec.line &&
		    strcmp(h->spec.chip, irq->spec.chip) == 0)
			break;
	if (!h)
		return 0;
	if (h->running) {
		atomic_store(&h->stop, true);
		pthread_join(h->thread, NULL);
		h->running = false;
	}
	h->borrower = irq;
	irq->lender = h;
	return iio_irq_gpio_move(h, irq) < 0 ? -1 : 1;
}

/* Open and request the board's GPIO line for @irq's edge. Return: 0 or -errno, @err set. */
static int iio_irq_gpio_open(struct iio_irq *irq, char *err, size_t errlen)
{
	int ret;

	pthread_mutex_lock(&iio_irq_lock);
	irq->held_next = iio_irq_held;
	iio_irq_held = irq;
	ret = iio_irq_gpio_take_over(irq);
	pthread_mutex_unlock(&iio_irq_lock);
	if (ret > 0)
		return 0;
	if (ret < 0) {
		ret = -errno;
		snprintf(err, errlen, "irq: cannot request %s line %u: %s", irq->spec.chip,
			 irq->spec.line, strerror(-ret));
		return ret;
	}
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
	ret = iio_irq_gpio_request(irq);
	if (ret < 0) {
		ret = -errno;
		snprintf(err, errlen, "irq: cannot request %s line %u: %s", irq->spec.chip,
			 irq->spec.line, strerror(-ret));
		return ret;
	}
	return 0;
}

/*
 * Under iio_irq_lock: @irq leaves the process's list; a line it borrowed
 * goes back to its lender, whose thread starts again (a failure there
 * leaves the lender without events: nothing is left to tell).
 */
static void iio_irq_gpio_forget(struct iio_irq *irq)
{
	struct iio_irq **pp;
	struct iio_irq *lender = irq->lender;

	for (pp = &iio_irq_held; *pp; pp = &(*pp)->held_next) {
		if (*pp == irq) {
			*pp = irq->held_next;
			break;
		}
	}
	if (irq->borrower)
		irq->borrower->lender = NULL;
	if (!lender)
		return;
	lender->borrower = NULL;
	if (!irq->line || iio_irq_gpio_move(irq, lender) < 0)
		return;
	atomic_store(&lender->stop, false);
	lender->running = pthread_create(&lender->thread, NULL, iio_irq_gpio_thread, lender) == 0;
}

static void iio_irq_free(struct iio_irq *irq)
{
	if (irq->spec.kind == IIO_IRQ_GPIO) {
		pthread_mutex_lock(&iio_irq_lock);
		iio_irq_gpio_forget(irq);
		pthread_mutex_unlock(&iio_irq_lock);
	}
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
		irq->running = ret == 0;
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
	/* a GPIO thread may be stopped or started by a hand-over meanwhile */
	if (irq->spec.kind == IIO_IRQ_GPIO)
		pthread_mutex_lock(&iio_irq_lock);
	atomic_store(&irq->stop, true);
	if (irq->running)
		pthread_join(irq->thread, NULL);
	irq->running = false;
	if (irq->spec.kind == IIO_IRQ_GPIO)
		pthread_mutex_unlock(&iio_irq_lock);
	op->irq = NULL;
	iio_irq_free(irq);
}
