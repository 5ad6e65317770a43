/*
 * bus_emu.c - the "emulated" backend: a bus whose chips are register-level
 * models (emu.h), with per-address fault injection and a virtual clock.
 *
 * Place in the flow: *emulated chip* -> bus.c -> driver. An I2C transaction
 * goes to the model attached at its address (none there: -ENXIO, as a NACK
 * on a real bus); an SPI transfer to the model at its chip select. Faults
 * armed per address stand in for a dead or flaky chip: NACK, -EIO, or a hang
 * that blocks until its time runs out or the fault is cleared.
 * Locking: bus.c holds bus->lock around every transfer, so transfers never
 * overlap; this file's own mutex guards only the slot table, the faults and
 * the clock, and is never held while a model runs or a transfer hangs, so a
 * test thread can always clear a fault that a hung transfer waits on.
 * Models are called, never call back; this file owns and destroys them.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bus/bus.h"
#include "bus/bus_priv.h"
#include "emu/emu.h"

/* How long a HANG fault blocks when the test did not say (longer than any bus timeout). */
#define BUS_EMU_HANG_MS_DEFAULT	60000

/* One address (I2C) or chip select (SPI) that has a chip, a fault or both. */
struct bus_emu_slot {
	uint16_t addr;
	struct emu_chip *chip;		/* owned */
	struct emu_fault fault;		/* after/count are what is left */
	unsigned long transfers;
	unsigned long fault_gen;	/* bumped whenever the fault changes: wakes hangs */
};

struct bus_emu {
	struct bus *bus;
	pthread_mutex_t lock;		/* guards everything below */
	pthread_cond_t changed;		/* a fault changed */
	struct bus_emu_slot *slots;
	int nslots;
	struct emu_clock clock;		/* models hold a pointer to it */
	struct timespec t0;		/* CLOCK_MONOTONIC at bus creation */
};

static struct bus_emu *bus_emu_of(struct bus *bus)
{
	return bus && bus->ops == &bus_emu_ops ? bus->priv : NULL;
}

static struct bus_emu *bus_emu_of_clock(const struct emu_clock *clock)
{
	/* the clock is embedded in its bus_emu; the cast drops only our own const */
	return (struct bus_emu *)((const char *)clock - offsetof(struct bus_emu, clock));
}

static double bus_emu_mono_s(const struct timespec *t0)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)(ts.tv_sec - t0->tv_sec) + (double)(ts.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Virtual time: frozen at fixed_s, or monotonic since creation plus what bus_msleep() added. */
static double bus_emu_clock_now(const struct emu_clock *clock)
{
	struct bus_emu *emu = bus_emu_of_clock(clock);
	double t;

	pthread_mutex_lock(&emu->lock);
	if (emu->clock.fixed_s >= 0)
		t = emu->clock.fixed_s;
	else
		t = bus_emu_mono_s(&emu->t0) + emu->clock.offset_s;
	pthread_mutex_unlock(&emu->lock);
	return t;
}

/*
 * A frozen clock moves only by bus_msleep(): a driver that waits for an
 * integration or conversion time still sees it elapse, and a test that froze
 * time still gets the same values on every run.
 */
void bus_emu_msleep(struct bus *bus, unsigned int ms)
{
	struct bus_emu *emu = bus_emu_of(bus);

	if (!emu)
		return;
	pthread_mutex_lock(&emu->lock);
	if (emu->clock.fixed_s >= 0)
		emu->clock.fixed_s += ms / 1000.0;
	else
		emu->clock.offset_s += ms / 1000.0;
	pthread_mutex_unlock(&emu->lock);
}

void emu_bus_set_time(struct bus *bus, double t_s)
{
	struct bus_emu *emu = bus_emu_of(bus);

	if (!emu)
		return;
	pthread_mutex_lock(&emu->lock);
	if (t_s >= 0) {
		emu->clock.fixed_s = t_s;
	} else if (emu->clock.fixed_s >= 0) {
		/* let it run on from where it stood, so time never jumps back */
		emu->clock.offset_s = emu->clock.fixed_s - bus_emu_mono_s(&emu->t0);
		emu->clock.fixed_s = -1;
	}
	pthread_mutex_unlock(&emu->lock);
}

static int bus_emu_open(struct bus *bus, const char *device)
{
	struct bus_emu *emu;
	pthread_condattr_t attr;
	int ret;

	(void)device;
	emu = calloc(1, sizeof(*emu));
	if (!emu)
		return -ENOMEM;
	emu->bus = bus;
	ret = -pthread_mutex_init(&emu->lock, NULL);
	if (ret)
		goto err_free_emu;
	ret = -pthread_condattr_init(&attr);
	if (ret)
		goto err_destroy_lock;
	/* hang deadlines are on the monotonic clock: a settime must not shorten them */
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	ret = -pthread_cond_init(&emu->changed, &attr);
	pthread_condattr_destroy(&attr);
	if (ret)
		goto err_destroy_lock;
	emu->clock.now = bus_emu_clock_now;
	emu->clock.offset_s = 0;
	emu->clock.fixed_s = -1;
	clock_gettime(CLOCK_MONOTONIC, &emu->t0);
	bus->priv = emu;
	bus->may_block = false;
	return 0;

err_destroy_lock:
	pthread_mutex_destroy(&emu->lock);
err_free_emu:
	free(emu);
	return ret;
}

static void bus_emu_close(struct bus *bus)
{
	struct bus_emu *emu = bus_emu_of(bus);
	int i;

	if (!emu)
		return;
	for (i = 0; i < emu->nslots; i++) {
		struct emu_chip *chip = emu->slots[i].chip;

		if (chip && chip->ops && chip->ops->destroy)
			chip->ops->destroy(chip);
	}
	free(emu->slots);
	pthread_cond_destroy(&emu->changed);
	pthread_mutex_destroy(&emu->lock);
	free(emu);
	bus->priv = NULL;
}

/* The slot for @addr, or NULL; with @create, a new empty one. Called with emu->lock held. */
static struct bus_emu_slot *bus_emu_slot(struct bus_emu *emu, uint16_t addr, bool create)
{
	struct bus_emu_slot *slots;
	int i;

	for (i = 0; i < emu->nslots; i++)
		if (emu->slots[i].addr == addr)
			return &emu->slots[i];
	if (!create)
		return NULL;
	slots = realloc(emu->slots, (size_t)(emu->nslots + 1) * sizeof(*slots));
	if (!slots)
		return NULL;
	emu->slots = slots;
	memset(&slots[emu->nslots], 0, sizeof(slots[0]));
	slots[emu->nslots].addr = addr;
	return &slots[emu->nslots++];
}

/* may_block is true while any HANG is armed. Called with emu->lock held. */
static void bus_emu_update_may_block(struct bus_emu *emu)
{
	bool hang = false;
	int i;

	for (i = 0; i < emu->nslots; i++)
		if (emu->slots[i].fault.mode == EMU_FAULT_HANG)
			hang = true;
	__atomic_store_n(&emu->bus->may_block, hang, __ATOMIC_RELEASE);
}

/**
 * emu_bus_attach() - see emu.h. Ownership of @chip passes to the bus even
 * when this fails: the chip is destroyed then, so the caller never frees it.
 */
int emu_bus_attach(struct bus *bus, uint16_t addr, struct emu_chip *chip)
{
	struct bus_emu *emu = bus_emu_of(bus);
	struct bus_emu_slot *slot;
	int ret = 0;

	if (!chip)
		return -EINVAL;
	if (!emu) {
		ret = -EINVAL;
		goto err_destroy_chip;
	}
	pthread_mutex_lock(&emu->lock);
	slot = bus_emu_slot(emu, addr, true);
	if (!slot)
		ret = -ENOMEM;
	else if (slot->chip)
		ret = -EBUSY;
	if (ret) {
		pthread_mutex_unlock(&emu->lock);
		goto err_destroy_chip;
	}
	chip->clock = &emu->clock;
	slot->chip = chip;
	slot->transfers = 0;
	pthread_mutex_unlock(&emu->lock);
	return 0;

err_destroy_chip:
	if (chip->ops && chip->ops->destroy)
		chip->ops->destroy(chip);
	return ret;
}

struct emu_chip *emu_bus_chip(struct bus *bus, uint16_t addr)
{
	struct bus_emu *emu = bus_emu_of(bus);
	struct bus_emu_slot *slot;
	struct emu_chip *chip;

	if (!emu)
		return NULL;
	pthread_mutex_lock(&emu->lock);
	slot = bus_emu_slot(emu, addr, false);
	chip = slot ? slot->chip : NULL;
	pthread_mutex_unlock(&emu->lock);
	return chip;
}

int emu_bus_irq_level(struct bus *bus, uint16_t addr)
{
	struct emu_chip *chip = emu_bus_chip(bus, addr);
	int ret = -ENODEV;

	if (!chip || !chip->ops->irq_level)
		return ret;
	/* bus.c's lock: the model never sees a transfer half done */
	pthread_mutex_lock(&bus->lock);
	ret = (int)chip->ops->irq_level(chip);
	pthread_mutex_unlock(&bus->lock);
	return ret;
}

int emu_bus_dac_output_locked(struct bus *bus, uint16_t addr, int channel,
			      struct emu_dac_state *out)
{
	struct emu_chip *chip = emu_bus_chip(bus, addr);

	if (!chip || !chip->ops->dac_output)
		return -ENODEV;
	return chip->ops->dac_output(chip, channel, out);
}

int emu_bus_dac_output(struct bus *bus, uint16_t addr, int channel, struct emu_dac_state *out)
{
	int ret;

	pthread_mutex_lock(&bus->lock);
	ret = emu_bus_dac_output_locked(bus, addr, channel, out);
	pthread_mutex_unlock(&bus->lock);
	return ret;
}

unsigned long emu_bus_transfers(struct bus *bus, uint16_t addr)
{
	struct bus_emu *emu = bus_emu_of(bus);
	struct bus_emu_slot *slot;
	unsigned long n;

	if (!emu)
		return 0;
	pthread_mutex_lock(&emu->lock);
	slot = bus_emu_slot(emu, addr, false);
	n = slot ? slot->transfers : 0;
	pthread_mutex_unlock(&emu->lock);
	return n;
}

int emu_bus_set_fault(struct bus *bus, uint16_t addr, const struct emu_fault *fault)
{
	struct bus_emu *emu = bus_emu_of(bus);
	struct bus_emu_slot *slot;

	if (!emu || !fault || fault->mode < EMU_FAULT_NONE || fault->mode > EMU_FAULT_HANG)
		return -EINVAL;
	pthread_mutex_lock(&emu->lock);
	slot = bus_emu_slot(emu, addr, fault->mode != EMU_FAULT_NONE);
	if (!slot) {
		pthread_mutex_unlock(&emu->lock);
		return fault->mode == EMU_FAULT_NONE ? 0 : -ENOMEM;
	}
	slot->fault = *fault;
	if (slot->fault.mode == EMU_FAULT_HANG && !slot->fault.hang_ms)
		slot->fault.hang_ms = BUS_EMU_HANG_MS_DEFAULT;
	slot->fault_gen++;
	bus_emu_update_may_block(emu);
	pthread_cond_broadcast(&emu->changed);
	pthread_mutex_unlock(&emu->lock);
	return 0;
}

/*
 * Block for @ms or until the slot's fault changes. Called with emu->lock
 * held (the wait releases it, so emu_bus_set_fault() can get in).
 */
static void bus_emu_hang(struct bus_emu *emu, uint16_t addr, unsigned int ms)
{
	struct bus_emu_slot *slot = bus_emu_slot(emu, addr, false);
	unsigned long gen = slot ? slot->fault_gen : 0;
	struct timespec deadline;

	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += ms / 1000;
	deadline.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (deadline.tv_nsec >= 1000000000L) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000L;
	}
	for (;;) {
		/* the slot table may move while we wait: look the slot up again */
		slot = bus_emu_slot(emu, addr, false);
		if (!slot || slot->fault_gen != gen)
			return;
		if (pthread_cond_timedwait(&emu->changed, &emu->lock, &deadline) == ETIMEDOUT)
			return;
	}
}

/*
 * Account one transfer at @addr and apply its fault. Return: the chip to run
 * the transfer on (borrowed; it lives until the bus closes, which cannot
 * happen during a transfer), or NULL with *err set.
 */
static struct emu_chip *bus_emu_begin(struct bus_emu *emu, uint16_t addr, int *err)
{
	struct bus_emu_slot *slot;
	struct emu_chip *chip = NULL;
	enum emu_fault_mode mode = EMU_FAULT_NONE;
	unsigned int hang_ms = 0;

	pthread_mutex_lock(&emu->lock);
	slot = bus_emu_slot(emu, addr, false);
	if (slot) {
		chip = slot->chip;
		if (chip)
			slot->transfers++;
		if (slot->fault.mode != EMU_FAULT_NONE) {
			if (slot->fault.after) {
				slot->fault.after--;
			} else {
				mode = slot->fault.mode;
				hang_ms = slot->fault.hang_ms;
				/* count 0 = until cleared; the last counted failure disarms it */
				if (slot->fault.count && --slot->fault.count == 0) {
					slot->fault.mode = EMU_FAULT_NONE;
					bus_emu_update_may_block(emu);
				}
			}
		}
	}
	switch (mode) {
	case EMU_FAULT_NONE:
		*err = chip ? 0 : -ENXIO;
		break;
	case EMU_FAULT_NACK:
		*err = -ENXIO;
		break;
	case EMU_FAULT_EIO:
		*err = -EIO;
		break;
	case EMU_FAULT_HANG:
		bus_emu_hang(emu, addr, hang_ms);
		*err = -ETIMEDOUT;
		break;
	}
	pthread_mutex_unlock(&emu->lock);
	return *err ? NULL : chip;
}

static int bus_emu_i2c_run(struct bus_emu *emu, struct bus_i2c_msg *msgs, int n)
{
	struct emu_chip *chip;
	int ret;

	chip = bus_emu_begin(emu, msgs[0].addr, &ret);
	if (!chip)
		return ret;
	if (!chip->ops || !chip->ops->i2c_transfer)
		return -ENXIO;
	ret = chip->ops->i2c_transfer(chip, msgs, n);
	if (ret >= 0 && ret != n)
		return -EIO;
	return ret;
}

/*
 * One combined transaction. The messages of a kernel transaction may address
 * several chips; each run of messages to one address goes to that chip.
 */
static int bus_emu_i2c_transfer(struct bus *bus, struct bus_i2c_msg *msgs, int n)
{
	struct bus_emu *emu = bus_emu_of(bus);
	int start, end, ret;

	if (!emu || bus->type != BUS_I2C || !msgs || n <= 0)
		return -EINVAL;
	for (start = 0; start < n; start = end) {
		for (end = start + 1; end < n && msgs[end].addr == msgs[start].addr; end++)
			;
		ret = bus_emu_i2c_run(emu, &msgs[start], end - start);
		if (ret < 0)
			return ret;
	}
	return n;
}

static int bus_emu_spi_transfer(struct bus *bus, int cs, uint32_t mode,
				const struct bus_spi_transfer *xfers, int n)
{
	struct bus_emu *emu = bus_emu_of(bus);
	struct emu_chip *chip;
	int ret;

	(void)mode;
	if (!emu || bus->type != BUS_SPI || cs < 0 || cs > UINT16_MAX || !xfers || n <= 0)
		return -EINVAL;
	chip = bus_emu_begin(emu, (uint16_t)cs, &ret);
	if (!chip)
		return ret;
	if (!chip->ops || !chip->ops->spi_transfer)
		return -ENXIO;
	ret = chip->ops->spi_transfer(chip, xfers, n);
	return ret < 0 ? ret : 0;
}

const struct bus_ops bus_emu_ops = {
	.name = "emulated",
	.open = bus_emu_open, .close = bus_emu_close,
	.i2c_transfer = bus_emu_i2c_transfer,
	.smbus_xfer = NULL,	/* bus.c frames SMBus as I2C, as the kernel does */
	.spi_transfer = bus_emu_spi_transfer,
};
