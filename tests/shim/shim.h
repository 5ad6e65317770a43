/*
 * shim.h - test-only stand-ins for /dev/i2c-N and /dev/spidevB.C, so the
 * real i2c-dev and spidev backends run against the same chip models as the
 * emulated backend, with no hardware and no kernel module.
 *
 * How: every tests/test_shim_*.c executable links tests/shim/shim.c, which
 * defines open/open64/openat(64)/__open_2/close/ioctl in the executable
 * itself. The executable's definitions win symbol lookup over libc's (for
 * libi2c too), so no LD_PRELOAD is needed and ASan builds work; everything
 * that is not a registered fake node goes on to the real call (dlsym
 * RTLD_NEXT). Opening a registered path returns a real fd (a memfd) that
 * the shim remembers; ioctls on it are decoded exactly as the kernel's
 * i2c-dev and spidev drivers take them (I2C_SLAVE, I2C_SLAVE_FORCE,
 * I2C_FUNCS, I2C_RDWR, I2C_SMBUS, I2C_TIMEOUT, I2C_RETRIES,
 * SPI_IOC_MESSAGE(n), SPI_IOC_{RD,WR}_{MODE,MODE32,MAX_SPEED_HZ,
 * BITS_PER_WORD,LSB_FIRST}) and routed to struct emu_chip models. I2C_SMBUS
 * is turned into I2C messages the way the kernel does for an adapter without
 * native SMBus (command write, repeated start, read; words little endian; a
 * block read asks for count + 32 bytes).
 *
 * Nothing is created on disk: a fake path can be anything, e.g.
 * SHIM_DIR "/i2c-0" or SHIM_DIR "/spidev0.1" (a spidev path must end in
 * ".C", its chip select, as the spidev backend reads it from there). The
 * shim is process-wide state by nature (it stands in for the kernel), which
 * is why it is the one place with mutable globals; it is thread-safe.
 *
 * Typical use (see tests/test_shim_bus.c):
 *	shim_i2c_add(SHIM_DIR "/i2c-0", 0x35, chip);   // the shim owns chip
 *	bus_create(bus_backend_find("i2c-dev"), BUS_I2C, 0, SHIM_DIR "/i2c-0", &bus);
 *	... driver code ...
 *	CU_ASSERT(shim_ioctl_count(SHIM_IOCTL_I2C_RDWR) > 0);
 *	bus_put(bus);
 *	shim_reset();                                  // destroys the chips
 *
 * Time: chips added here read a shim clock (seconds since the last
 * shim_reset(), real time, since bus_msleep() really sleeps on a real bus),
 * unless shim_set_time() froze it. Not handled: dup() of a fake fd, read()
 * and write() on it (i2c-dev's plain read/write; our backends never use
 * them), ten-bit addresses.
 */
#ifndef IIOWIRE_TEST_SHIM_H
#define IIOWIRE_TEST_SHIM_H

#include <stdint.h>
#include "emu/emu.h"

/* A directory prefix for fake nodes; nothing is ever created there. */
#define SHIM_DIR	"/tmp/iiowire-shim"

/**
 * shim_i2c_add() - make @path an I2C adapter node (if it is not one yet)
 * and put @chip at 7-bit address @addr on it.
 * The shim owns @chip from this call on, also when it fails (then the chip
 * is destroyed at once); shim_reset() destroys it.
 * Return: 0, -EBUSY (address taken), -EINVAL (bad address, or @path is an
 * SPI node), -ENOMEM.
 */
int shim_i2c_add(const char *path, uint16_t addr, struct emu_chip *chip);

/**
 * shim_spi_add() - make @path a spidev node holding @chip (one chip per
 * node: a spidev node is one chip select). Ownership as shim_i2c_add().
 * Return: 0, -EBUSY (@path exists), -EINVAL, -ENOMEM.
 */
int shim_spi_add(const char *path, struct emu_chip *chip);

/**
 * shim_chip() - the chip at @addr on I2C node @path, or the chip of SPI node
 * @path (@addr ignored). Return: borrowed until shim_reset(), or NULL.
 */
struct emu_chip *shim_chip(const char *path, uint16_t addr);

/**
 * shim_reset() - forget every node, destroy every chip, zero every counter,
 * let the clock run again from 0. Fds still open on fake nodes stay valid
 * fds but are no longer fake nodes (their ioctls get ENOTTY).
 */
void shim_reset(void);

/* What the shim counts: one counter per ioctl request on a fake node. */
enum shim_ioctl {
	SHIM_IOCTL_I2C_SLAVE,
	SHIM_IOCTL_I2C_SLAVE_FORCE,
	SHIM_IOCTL_I2C_FUNCS,
	SHIM_IOCTL_I2C_RDWR,
	SHIM_IOCTL_I2C_SMBUS,
	SHIM_IOCTL_I2C_TIMEOUT,		/* I2C_TIMEOUT and I2C_RETRIES */
	SHIM_IOCTL_SPI_MESSAGE,		/* SPI_IOC_MESSAGE(n), any n */
	SHIM_IOCTL_SPI_WR_MODE,		/* SPI_IOC_WR_MODE and SPI_IOC_WR_MODE32 */
	SHIM_IOCTL_SPI_RD_MODE,		/* SPI_IOC_RD_MODE and SPI_IOC_RD_MODE32 */
	SHIM_IOCTL_SPI_WR_MAX_SPEED_HZ,
	SHIM_IOCTL_SPI_RD_MAX_SPEED_HZ,
	SHIM_IOCTL_SPI_WR_BITS_PER_WORD,
	SHIM_IOCTL_SPI_RD_BITS_PER_WORD,
	SHIM_IOCTL_SPI_LSB_FIRST,	/* SPI_IOC_{RD,WR}_LSB_FIRST */
	SHIM_IOCTL_OTHER,		/* anything else on a fake node: ENOTTY */
	SHIM_IOCTL_KINDS,
};

/** shim_ioctl_count() - ioctls of @kind on fake nodes since shim_reset(). */
unsigned long shim_ioctl_count(enum shim_ioctl kind);

/** shim_open_count() - successful opens of fake node @path since it was added. */
unsigned long shim_open_count(const char *path);

/**
 * shim_open_fds() - fds currently open on fake nodes (0 after every bus is
 * closed: tests use it to prove a backend closes what it opened).
 */
int shim_open_fds(void);

/**
 * shim_set_fault() - fail transfers to @addr on I2C node @path (or to SPI
 * node @path, @addr ignored) with the emulated backend's semantics
 * (emu.h struct emu_fault: after, count; NACK gives the ioctl errno ENXIO,
 * EIO gives EIO, HANG blocks @hang_ms (default 60000) or until cleared, then
 * ETIMEDOUT). Counted per I2C_RDWR, I2C_SMBUS or SPI_IOC_MESSAGE ioctl.
 * Return: 0, -ENOENT (no such node or address), -EINVAL.
 */
int shim_set_fault(const char *path, uint16_t addr, const struct emu_fault *fault);

/**
 * shim_spi_settings() - what SPI node @path was last set to with
 * SPI_IOC_WR_* (initially mode 0, 500000 Hz, 8 bits); any pointer may be NULL.
 * Return: 0, -ENOENT.
 */
int shim_spi_settings(const char *path, uint32_t *mode, uint32_t *speed_hz, uint8_t *bits);

/**
 * shim_set_i2c_funcs() - what I2C adapters answer to I2C_FUNCS from now on
 * (I2C_FUNC_* bits; 0: plain I2C with SMBus emulated, the default). Without
 * I2C_FUNC_I2C, I2C_RDWR fails with -EOPNOTSUPP as on an SMBus controller.
 * Kept across shim_reset(): set 0 again when done.
 */
void shim_set_i2c_funcs(unsigned long funcs);

/** shim_set_time() - freeze the chips' clock at @t_s seconds (< 0: run again). */
void shim_set_time(double t_s);

#endif /* IIOWIRE_TEST_SHIM_H */
