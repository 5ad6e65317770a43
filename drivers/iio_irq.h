/*
 * iio_irq.h - interrupt lines for drivers: a chip's alert or interrupt
 * output, as the board wires it, waited on off the event loop.
 *
 * The board names the line ("irq": {"chip": "gpiochip0", "line": 17}, a
 * GPIO line through libgpiod 1.6; or "irq": "emulated", the chip model's
 * own output on an emulated bus). A driver asks for it in probe with
 * iio_request_threaded_irq(), as the kernel's drivers call
 * request_threaded_irq(): one thread per line waits for the edge, takes a
 * timestamp and runs the handler with the device lock held, where it may
 * use the bus. Without an irq in the board the driver goes on without
 * one, as the kernel's do. Place in the flow: chip -> *line* -> driver ->
 * core. The core stops the thread before the driver's remove().
 */
#ifndef IIOWIRE_IIO_IRQ_H
#define IIOWIRE_IIO_IRQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct iio_dev;
struct iio_probe;
struct bus;

/* How often an emulated line is sampled: the model's alert is seen within this. */
#define IIO_IRQ_EMU_POLL_US	1000
/*
 * ... and while the chip's registers keep its output off: nothing can fire
 * then, and an idle demo board would otherwise cost ~1.3 % of a core per
 * line. A driver arming the chip is seen within this.
 */
#define IIO_IRQ_EMU_IDLE_US	20000
/* How long a GPIO wait lasts before the thread checks whether to stop. */
#define IIO_IRQ_GPIO_WAIT_MS	100
/* Longest GPIO chip name a board may give ("gpiochip0", a label, a path). */
#define IIO_IRQ_CHIP_MAX	64

enum iio_irq_kind {
	IIO_IRQ_NONE,		/* the board wires no interrupt */
	IIO_IRQ_EMULATED,	/* the chip model's output (emulated buses) */
	IIO_IRQ_GPIO,		/* a GPIO line of a gpiochip */
};

/**
 * struct iio_irq_spec - the line the board gives a device (struct iio_probe.irq).
 * @bus/@addr: EMULATED: where the model sits.
 * @chip/@line: GPIO: the chip (name, label or path, as gpiod_chip_open_lookup)
 *	and the line offset.
 */
struct iio_irq_spec {
	enum iio_irq_kind kind;
	struct bus *bus;
	uint16_t addr;
	char chip[IIO_IRQ_CHIP_MAX];
	unsigned int line;
};

/* The edge a driver's interrupt fires on, as its IRQF_TRIGGER_*. */
enum iio_irq_edge {
	IIO_IRQ_RISING,
	IIO_IRQ_FALLING,
};

typedef void (*iio_irq_handler_t)(struct iio_dev *indio_dev, int64_t timestamp);

/**
 * iio_request_threaded_irq() - start waiting on the board's line for
 * @indio_dev (not yet registered); @handler runs on each @edge with the
 * device lock held and the time of the edge (iio_get_time_ns()).
 * @err: a message naming the line when it cannot be had.
 * Return: 0; -ENOENT when the board gives no line (the driver goes on
 * without events); -errno (the line cannot be requested: the probe fails).
 */
int iio_request_threaded_irq(struct iio_dev *indio_dev, const struct iio_probe *p,
			     enum iio_irq_edge edge, iio_irq_handler_t handler,
			     char *err, size_t errlen);

/** iio_device_has_irq() - whether a line was requested for the device. */
bool iio_device_has_irq(const struct iio_dev *indio_dev);

/* iio_irq_stop() - core: stop and join the thread (no device lock held); idempotent. */
void iio_irq_stop(struct iio_dev *indio_dev);

#endif /* IIOWIRE_IIO_IRQ_H */
