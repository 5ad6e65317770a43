/*
 * shim.c - fake /dev/i2c-N and /dev/spidevB.C nodes for tests (see shim.h).
 *
 * Place in the flow: chip model -> *shim* (standing in for the kernel's
 * i2c-dev and spidev drivers) -> the real i2c-dev/spidev backends -> bus.c
 * -> driver. This file defines open, open64, openat, openat64, __open_2,
 * __open64_2, close and ioctl in the test executable; calls on anything
 * that is not a registered fake node go on to the next definition
 * (dlsym(RTLD_NEXT): libc, or ASan's interceptor in sanitizer builds).
 * ioctl payloads are decoded as the kernel decodes them, with the kernel's
 * limits and errnos, so the backends are exercised for real. It must not
 * call anything that could come back into open/close/ioctl while holding
 * its lock, and it never touches the real /dev.
 * Its state is process-wide by nature (it plays the kernel): the one place
 * in the tree with mutable globals, all under one mutex.
 */
#undef _FORTIFY_SOURCE	/* fortified fcntl.h would inline its own open() */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>
#include <linux/spi/spidev.h>

#include "shim.h"

#define SHIM_PATH_MAX		256
/* The kernel's i2c-dev limits: messages per I2C_RDWR, bytes per message. */
#define SHIM_I2C_MSGS_MAX	I2C_RDWR_IOCTL_MAX_MSGS
#define SHIM_I2C_MSG_MAX_BYTES	8192
#define SHIM_HANG_MS_DEFAULT	60000
/* A fresh spidev node: mode 0, 500 kHz, 8-bit words. */
#define SHIM_SPI_SPEED_HZ_DEFAULT	500000
#define SHIM_SPI_BITS_DEFAULT		8
/* What our fake adapter reports for I2C_FUNCS: plain I2C, so SMBus is emulated. */
#define SHIM_I2C_FUNCS	(I2C_FUNC_I2C | I2C_FUNC_SMBUS_EMUL | I2C_FUNC_SMBUS_READ_BLOCK_DATA)

/* One chip on a node: an I2C address, or the one chip of an SPI node (addr 0). */
struct shim_dev {
	uint16_t addr;
	struct emu_chip *chip;		/* owned */
	struct emu_fault fault;		/* after/count are what is left */
	unsigned long fault_gen;	/* bumped on every change: wakes hangs */
};

struct shim_node {
	char path[SHIM_PATH_MAX];
	bool spi;
	struct shim_dev *devs;
	int ndevs;
	unsigned long opens;
	uint32_t mode;			/* spidev settings */
	uint32_t speed_hz;
	uint8_t bits;
	uint8_t lsb_first;
	struct shim_node *next;
};

struct shim_fd {
	int fd;
	struct shim_node *node;
	int addr;			/* I2C_SLAVE of this open file, -1 for none */
};

typedef int (*shim_open_fn)(const char *path, int flags, ...);
typedef int (*shim_openat_fn)(int dirfd, const char *path, int flags, ...);
typedef int (*shim_close_fn)(int fd);
typedef int (*shim_ioctl_fn)(int fd, unsigned long req, ...);

static struct {
	pthread_once_t once;
	pthread_mutex_t lock;		/* guards all but the clock and the real calls */
	pthread_cond_t changed;		/* a fault changed */
	struct shim_node *nodes;
	struct shim_fd *fds;
	int nfds;
	int capfds;
	unsigned long counts[SHIM_IOCTL_KINDS];
	unsigned long i2c_funcs;	/* shim_set_i2c_funcs(); 0: SHIM_I2C_FUNCS */

	pthread_mutex_t clock_lock;	/* chips read the clock while lock is held */
	struct emu_clock clock;
	struct timespec t0;

	shim_open_fn real_open;
	shim_open_fn real_open64;
	shim_openat_fn real_openat;
	shim_openat_fn real_openat64;
	shim_close_fn real_close;
	shim_ioctl_fn real_ioctl;
} shim = {
	.once = PTHREAD_ONCE_INIT,
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.clock_lock = PTHREAD_MUTEX_INITIALIZER,
};

/* ---- setup and the clock ---- */

static double shim_clock_now(const struct emu_clock *clock)
{
	struct timespec ts;
	double t;

	(void)clock;
	pthread_mutex_lock(&shim.clock_lock);
	if (shim.clock.fixed_s >= 0) {
		t = shim.clock.fixed_s;
	} else {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		t = (double)(ts.tv_sec - shim.t0.tv_sec) +
		    (double)(ts.tv_nsec - shim.t0.tv_nsec) / 1e9 + shim.clock.offset_s;
	}
	pthread_mutex_unlock(&shim.clock_lock);
	return t;
}

static void shim_init_once(void)
{
	pthread_condattr_t attr;

	/* the casts go from dlsym's void * to the libc prototypes */
	shim.real_open = (shim_open_fn)dlsym(RTLD_NEXT, "open");
	shim.real_open64 = (shim_open_fn)dlsym(RTLD_NEXT, "open64");
	shim.real_openat = (shim_openat_fn)dlsym(RTLD_NEXT, "openat");
	shim.real_openat64 = (shim_openat_fn)dlsym(RTLD_NEXT, "openat64");
	shim.real_close = (shim_close_fn)dlsym(RTLD_NEXT, "close");
	shim.real_ioctl = (shim_ioctl_fn)dlsym(RTLD_NEXT, "ioctl");
	if (!shim.real_open64)
		shim.real_open64 = shim.real_open;
	if (!shim.real_openat64)
		shim.real_openat64 = shim.real_openat;
	if (!shim.real_open || !shim.real_openat || !shim.real_close || !shim.real_ioctl) {
		fprintf(stderr, "shim: cannot find the real open/close/ioctl\n");
		abort();
	}
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&shim.changed, &attr);
	pthread_condattr_destroy(&attr);
	shim.clock.now = shim_clock_now;
	shim.clock.offset_s = 0;
	shim.clock.fixed_s = -1;
	clock_gettime(CLOCK_MONOTONIC, &shim.t0);
}

static void shim_init(void)
{
	pthread_once(&shim.once, shim_init_once);
}

void shim_set_time(double t_s)
{
	shim_init();
	pthread_mutex_lock(&shim.clock_lock);
	shim.clock.fixed_s = t_s >= 0 ? t_s : -1;
	pthread_mutex_unlock(&shim.clock_lock);
}

/* ---- the registry of nodes and fds (all with shim.lock held) ---- */

static struct shim_node *shim_node_find(const char *path)
{
	struct shim_node *n;

	if (!path)
		return NULL;
	for (n = shim.nodes; n; n = n->next)
		if (strcmp(n->path, path) == 0)
			return n;
	return NULL;
}

static struct shim_dev *shim_dev_find(struct shim_node *node, uint16_t addr)
{
	int i;

	if (node->spi)
		return node->ndevs ? &node->devs[0] : NULL;
	for (i = 0; i < node->ndevs; i++)
		if (node->devs[i].addr == addr)
			return &node->devs[i];
	return NULL;
}

static struct shim_fd *shim_fd_find(int fd)
{
	int i;

	for (i = 0; i < shim.nfds; i++)
		if (shim.fds[i].fd == fd)
			return &shim.fds[i];
	return NULL;
}

static void shim_chip_destroy(struct emu_chip *chip)
{
	if (chip && chip->ops && chip->ops->destroy)
		chip->ops->destroy(chip);
}

static struct shim_node *shim_node_create(const char *path, bool spi)
{
	struct shim_node *node;

	if (strlen(path) >= SHIM_PATH_MAX)
		return NULL;
	node = calloc(1, sizeof(*node));
	if (!node)
		return NULL;
	snprintf(node->path, sizeof(node->path), "%s", path);
	node->spi = spi;
	node->speed_hz = SHIM_SPI_SPEED_HZ_DEFAULT;
	node->bits = SHIM_SPI_BITS_DEFAULT;
	node->next = shim.nodes;
	shim.nodes = node;
	return node;
}

static int shim_dev_add(struct shim_node *node, uint16_t addr, struct emu_chip *chip)
{
	struct shim_dev *devs;

	devs = realloc(node->devs, (size_t)(node->ndevs + 1) * sizeof(*devs));
	if (!devs)
		return -ENOMEM;
	node->devs = devs;
	memset(&devs[node->ndevs], 0, sizeof(devs[0]));
	devs[node->ndevs].addr = addr;
	devs[node->ndevs].chip = chip;
	node->ndevs++;
	chip->clock = &shim.clock;
	return 0;
}

/* Add @chip at @addr of node @path; on failure the chip is destroyed (it is ours either way). */
static int shim_add(const char *path, bool spi, uint16_t addr, struct emu_chip *chip)
{
	struct shim_node *node;
	int ret = 0;

	shim_init();
	if (!chip)
		return -EINVAL;
	if (!path || !*path || (!spi && addr > 0x7f)) {
		ret = -EINVAL;
		goto err_destroy_chip;
	}
	pthread_mutex_lock(&shim.lock);
	node = shim_node_find(path);
	if (node && node->spi != spi)
		ret = -EINVAL;
	else if (node && (spi || shim_dev_find(node, addr)))
		ret = -EBUSY;
	else if (!node && !(node = shim_node_create(path, spi)))
		ret = -ENOMEM;
	else
		ret = shim_dev_add(node, addr, chip);
	pthread_mutex_unlock(&shim.lock);
	if (ret)
		goto err_destroy_chip;
	return 0;

err_destroy_chip:
	shim_chip_destroy(chip);
	return ret;
}

int shim_i2c_add(const char *path, uint16_t addr, struct emu_chip *chip)
{
	return shim_add(path, false, addr, chip);
}

int shim_spi_add(const char *path, struct emu_chip *chip)
{
	return shim_add(path, true, 0, chip);
}

struct emu_chip *shim_chip(const char *path, uint16_t addr)
{
	struct shim_node *node;
	struct shim_dev *dev;
	struct emu_chip *chip = NULL;

	shim_init();
	pthread_mutex_lock(&shim.lock);
	node = shim_node_find(path);
	dev = node ? shim_dev_find(node, addr) : NULL;
	if (dev)
		chip = dev->chip;
	pthread_mutex_unlock(&shim.lock);
	return chip;
}

void shim_set_i2c_funcs(unsigned long funcs)
{
	shim_init();
	pthread_mutex_lock(&shim.lock);
	shim.i2c_funcs = funcs;
	pthread_mutex_unlock(&shim.lock);
}

void shim_reset(void)
{
	struct shim_node *node, *next;
	int i;

	shim_init();
	pthread_mutex_lock(&shim.lock);
	for (node = shim.nodes; node; node = next) {
		next = node->next;
		for (i = 0; i < node->ndevs; i++)
			shim_chip_destroy(node->devs[i].chip);
		free(node->devs);
		free(node);
	}
	shim.nodes = NULL;
	free(shim.fds);
	shim.fds = NULL;
	shim.nfds = 0;
	shim.capfds = 0;
	memset(shim.counts, 0, sizeof(shim.counts));
	/* a hang waiting on a node that is gone must wake up */
	pthread_cond_broadcast(&shim.changed);
	pthread_mutex_unlock(&shim.lock);

	pthread_mutex_lock(&shim.clock_lock);
	clock_gettime(CLOCK_MONOTONIC, &shim.t0);
	shim.clock.offset_s = 0;
	shim.clock.fixed_s = -1;
	pthread_mutex_unlock(&shim.clock_lock);
}

unsigned long shim_ioctl_count(enum shim_ioctl kind)
{
	unsigned long n;

	if (kind < 0 || kind >= SHIM_IOCTL_KINDS)
		return 0;
	shim_init();
	pthread_mutex_lock(&shim.lock);
	n = shim.counts[kind];
	pthread_mutex_unlock(&shim.lock);
	return n;
}

unsigned long shim_open_count(const char *path)
{
	struct shim_node *node;
	unsigned long n;

	shim_init();
	pthread_mutex_lock(&shim.lock);
	node = shim_node_find(path);
	n = node ? node->opens : 0;
	pthread_mutex_unlock(&shim.lock);
	return n;
}

int shim_open_fds(void)
{
	int n;

	shim_init();
	pthread_mutex_lock(&shim.lock);
	n = shim.nfds;
	pthread_mutex_unlock(&shim.lock);
	return n;
}

int shim_set_fault(const char *path, uint16_t addr, const struct emu_fault *fault)
{
	struct shim_node *node;
	struct shim_dev *dev;
	int ret = 0;

	if (!fault || fault->mode < EMU_FAULT_NONE || fault->mode > EMU_FAULT_HANG)
		return -EINVAL;
	shim_init();
	pthread_mutex_lock(&shim.lock);
	node = shim_node_find(path);
	dev = node ? shim_dev_find(node, addr) : NULL;
	if (!dev) {
		ret = -ENOENT;
	} else {
		dev->fault = *fault;
		if (dev->fault.mode == EMU_FAULT_HANG && !dev->fault.hang_ms)
			dev->fault.hang_ms = SHIM_HANG_MS_DEFAULT;
		dev->fault_gen++;
		pthread_cond_broadcast(&shim.changed);
	}
	pthread_mutex_unlock(&shim.lock);
	return ret;
}

int shim_spi_settings(const char *path, uint32_t *mode, uint32_t *speed_hz, uint8_t *bits)
{
	struct shim_node *node;
	int ret = 0;

	shim_init();
	pthread_mutex_lock(&shim.lock);
	node = shim_node_find(path);
	if (!node || !node->spi) {
		ret = -ENOENT;
	} else {
		if (mode)
			*mode = node->mode;
		if (speed_hz)
			*speed_hz = node->speed_hz;
		if (bits)
			*bits = node->bits;
	}
	pthread_mutex_unlock(&shim.lock);
	return ret;
}

/* ---- faults (shim.lock held) ---- */

/* Wait @ms or until the fault of @path/@addr changes or the node goes. */
static void shim_hang(const char *path, uint16_t addr, unsigned long gen, unsigned int ms)
{
	char key[SHIM_PATH_MAX];
	struct shim_node *node;
	struct shim_dev *dev;
	struct timespec deadline;

	/* the node may be freed while we wait: keep its name, look it up again */
	snprintf(key, sizeof(key), "%s", path);
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += ms / 1000;
	deadline.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (deadline.tv_nsec >= 1000000000L) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000L;
	}
	for (;;) {
		if (pthread_cond_timedwait(&shim.changed, &shim.lock, &deadline) == ETIMEDOUT)
			return;
		node = shim_node_find(key);
		dev = node ? shim_dev_find(node, addr) : NULL;
		if (!dev || dev->fault_gen != gen)
			return;
	}
}

/*
 * Apply the fault of @dev to one transfer. Return: 0 to go on, or -errno.
 * May wait (HANG), after which @node and @dev must not be used again.
 */
static int shim_fault(struct shim_node *node, struct shim_dev *dev)
{
	enum emu_fault_mode mode;

	if (dev->fault.mode == EMU_FAULT_NONE)
		return 0;
	if (dev->fault.after) {
		dev->fault.after--;
		return 0;
	}
	mode = dev->fault.mode;
	if (dev->fault.count && --dev->fault.count == 0)
		dev->fault.mode = EMU_FAULT_NONE;
	switch (mode) {
	case EMU_FAULT_NACK:
		return -ENXIO;
	case EMU_FAULT_EIO:
		return -EIO;
	case EMU_FAULT_HANG:
		shim_hang(node->path, dev->addr, dev->fault_gen, dev->fault.hang_ms ?
			  dev->fault.hang_ms : SHIM_HANG_MS_DEFAULT);
		return -ETIMEDOUT;
	default:
		return 0;
	}
}

/* ---- I2C (shim.lock held) ---- */

/* One transaction; each run of messages to one address goes to that chip. */
static int shim_i2c_xfer(struct shim_node *node, struct bus_i2c_msg *msgs, int n)
{
	struct shim_dev *dev;
	int start, end, ret;

	for (start = 0; start < n; start = end) {
		for (end = start + 1; end < n && msgs[end].addr == msgs[start].addr; end++)
			;
		dev = shim_dev_find(node, msgs[start].addr);
		if (!dev || !dev->chip->ops->i2c_transfer)
			return -ENXIO;	/* nobody acknowledged the address */
		ret = shim_fault(node, dev);
		if (ret < 0)
			return ret;
		ret = dev->chip->ops->i2c_transfer(dev->chip, &msgs[start], end - start);
		if (ret < 0)
			return ret;
		if (ret != end - start)
			return -EIO;
	}
	return n;
}

static int shim_i2c_rdwr(struct shim_node *node, struct i2c_rdwr_ioctl_data *d)
{
	struct bus_i2c_msg msgs[SHIM_I2C_MSGS_MAX];
	unsigned int i;

	if (!d || !d->msgs || d->nmsgs == 0 || d->nmsgs > SHIM_I2C_MSGS_MAX)
		return -EINVAL;
	for (i = 0; i < d->nmsgs; i++) {
		if (d->msgs[i].len > SHIM_I2C_MSG_MAX_BYTES)
			return -EINVAL;
		/* ten-bit, no-start and friends: our fake adapter does plain I2C only */
		if (d->msgs[i].flags & ~I2C_M_RD)
			return -EOPNOTSUPP;
		msgs[i].addr = d->msgs[i].addr;
		msgs[i].flags = d->msgs[i].flags & I2C_M_RD ? BUS_I2C_M_RD : 0;
		msgs[i].len = d->msgs[i].len;
		msgs[i].buf = d->msgs[i].buf;
	}
	return shim_i2c_xfer(node, msgs, (int)d->nmsgs);
}

/*
 * I2C_SMBUS on an adapter that only does I2C: the request becomes one or two
 * messages as the SMBus spec frames it, checked as i2c-dev checks it.
 * @m: [0] a write from @w (the command byte first), [1] a read into the
 * caller's buffer. Return: how many of @m to send, or -errno.
 */
static int shim_smbus_frame(const struct i2c_smbus_ioctl_data *d, bool rd,
			    struct bus_i2c_msg *m, uint8_t *w)
{
	union i2c_smbus_data *data = d->data;
	uint16_t len;

	w[0] = d->command;
	switch (d->size) {
	case I2C_SMBUS_QUICK:
		/* the R/W bit is the message: no byte either way */
		m[0].len = 0;
		m[0].flags = rd ? BUS_I2C_M_RD : 0;
		return 1;
	case I2C_SMBUS_BYTE:
		/* send byte: the command alone; receive byte: one read, no command */
		if (rd) {
			m[0] = m[1];
			m[0].len = 1;
		}
		return 1;
	case I2C_SMBUS_BYTE_DATA:
	case I2C_SMBUS_WORD_DATA:
	case I2C_SMBUS_PROC_CALL:
		/* words little endian; a process call writes a word and reads one */
		len = d->size == I2C_SMBUS_BYTE_DATA ? 1 : 2;
		if (!rd || d->size == I2C_SMBUS_PROC_CALL) {
			m[0].len = (uint16_t)(1 + len);
			w[1] = len == 1 ? data->byte : (uint8_t)(data->word & 0xff);
			if (len == 2)
				w[2] = (uint8_t)(data->word >> 8);
		}
		m[1].len = len;
		return rd ? 2 : 1;
	case I2C_SMBUS_BLOCK_DATA:
		/* a read asks for the count byte and the largest block */
		if (rd) {
			m[1].len = I2C_SMBUS_BLOCK_MAX + 1;
			return 2;
		}
		if (data->block[0] == 0 || data->block[0] > I2C_SMBUS_BLOCK_MAX)
			return -EINVAL;
		m[0].len = (uint16_t)(data->block[0] + 2);
		memcpy(&w[1], data->block, data->block[0] + 1);
		return 1;
	case I2C_SMBUS_I2C_BLOCK_DATA:
		if (rd && data->block[0] > I2C_SMBUS_BLOCK_MAX)
			data->block[0] = I2C_SMBUS_BLOCK_MAX;
		if (data->block[0] == 0 || data->block[0] > I2C_SMBUS_BLOCK_MAX)
			return -EINVAL;
		if (rd) {
			m[1].len = data->block[0];
			return 2;
		}
		m[0].len = (uint16_t)(data->block[0] + 1);
		memcpy(&w[1], &data->block[1], data->block[0]);
		return 1;
	}
	return -EOPNOTSUPP;
}

/* What a read request of @d gets back from the bytes read, @r. Return: 0, -EPROTO. */
static int shim_smbus_result(struct i2c_smbus_ioctl_data *d, const uint8_t *r)
{
	union i2c_smbus_data *data = d->data;

	switch (d->size) {
	case I2C_SMBUS_BYTE:
	case I2C_SMBUS_BYTE_DATA:
		data->byte = r[0];
		break;
	case I2C_SMBUS_WORD_DATA:
	case I2C_SMBUS_PROC_CALL:
		data->word = (uint16_t)(r[0] | r[1] << 8);
		break;
	case I2C_SMBUS_BLOCK_DATA:
		if (r[0] == 0 || r[0] > I2C_SMBUS_BLOCK_MAX)
			return -EPROTO;
		memcpy(data->block, r, r[0] + 1);
		break;
	case I2C_SMBUS_I2C_BLOCK_DATA:
		memcpy(&data->block[1], r, data->block[0]);
		break;
	}
	return 0;
}

static int shim_i2c_smbus(struct shim_node *node, uint16_t addr, struct i2c_smbus_ioctl_data *d)
{
	uint8_t w[I2C_SMBUS_BLOCK_MAX + 3], r[I2C_SMBUS_BLOCK_MAX + 2];
	struct bus_i2c_msg m[2] = {
		{ .addr = addr, .flags = 0, .len = 1, .buf = w },
		{ .addr = addr, .flags = BUS_I2C_M_RD, .len = 0, .buf = r },
	};
	bool rd;
	int n, ret;

	if (!d)
		return -EFAULT;
	if (d->read_write != I2C_SMBUS_READ && d->read_write != I2C_SMBUS_WRITE)
		return -EINVAL;
	rd = d->read_write == I2C_SMBUS_READ;
	if (!d->data && d->size != I2C_SMBUS_QUICK && !(d->size == I2C_SMBUS_BYTE && !rd))
		return -EINVAL;
	/* a process call reads whatever the R/W bit says */
	if (d->size == I2C_SMBUS_PROC_CALL)
		rd = true;
	n = shim_smbus_frame(d, rd, m, w);
	if (n < 0)
		return n;
	ret = shim_i2c_xfer(node, m, n);
	if (ret < 0)
		return ret;
	return rd && d->size != I2C_SMBUS_QUICK ? shim_smbus_result(d, r) : 0;
}

static int shim_i2c_ioctl(struct shim_fd *f, unsigned long req, void *arg)
{
	unsigned long addr = (unsigned long)arg;

	switch (req) {
	case I2C_SLAVE:
	case I2C_SLAVE_FORCE:
		shim.counts[req == I2C_SLAVE ? SHIM_IOCTL_I2C_SLAVE : SHIM_IOCTL_I2C_SLAVE_FORCE]++;
		if (addr > 0x7f)
			return -EINVAL;
		f->addr = (int)addr;
		return 0;
	case I2C_FUNCS:
		shim.counts[SHIM_IOCTL_I2C_FUNCS]++;
		if (!arg)
			return -EFAULT;
		*(unsigned long *)arg = shim.i2c_funcs ? shim.i2c_funcs : SHIM_I2C_FUNCS;
		return 0;
	case I2C_RDWR:
		shim.counts[SHIM_IOCTL_I2C_RDWR]++;
		/* as i2c-dev on an SMBus-only adapter (no master_xfer) */
		if (shim.i2c_funcs && !(shim.i2c_funcs & I2C_FUNC_I2C))
			return -EOPNOTSUPP;
		return shim_i2c_rdwr(f->node, arg);
	case I2C_SMBUS:
		shim.counts[SHIM_IOCTL_I2C_SMBUS]++;
		/* as i2c-dev: before any I2C_SLAVE the client sits at address 0 */
		return shim_i2c_smbus(f->node, f->addr < 0 ? 0 : (uint16_t)f->addr, arg);
	case I2C_TIMEOUT:
	case I2C_RETRIES:
		shim.counts[SHIM_IOCTL_I2C_TIMEOUT]++;
		return 0;
	default:
		shim.counts[SHIM_IOCTL_OTHER]++;
		return -ENOTTY;
	}
}

/* ---- SPI (shim.lock held) ---- */

static int shim_spi_message(struct shim_node *node, const struct spi_ioc_transfer *k, int n)
{
	struct bus_spi_transfer *x;
	struct shim_dev *dev;
	int i, ret, total = 0;

	if (!k || n <= 0)
		return -EINVAL;
	dev = shim_dev_find(node, 0);
	if (!dev || !dev->chip->ops->spi_transfer)
		return -ENODEV;
	x = calloc((size_t)n, sizeof(*x));
	if (!x)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		/* as spidev: 0 means the node's setting */
		x[i].tx_buf = (const uint8_t *)(uintptr_t)k[i].tx_buf;
		x[i].rx_buf = (uint8_t *)(uintptr_t)k[i].rx_buf;
		x[i].len = k[i].len;
		x[i].speed_hz = k[i].speed_hz ? k[i].speed_hz : node->speed_hz;
		x[i].bits_per_word = k[i].bits_per_word ? k[i].bits_per_word : node->bits;
		x[i].delay_usecs = k[i].delay_usecs;
		x[i].cs_change = k[i].cs_change;
		total += (int)k[i].len;
	}
	ret = shim_fault(node, dev);
	if (ret == 0)
		ret = dev->chip->ops->spi_transfer(dev->chip, x, n);
	free(x);
	return ret < 0 ? ret : total;
}

static int shim_spi_ioctl(struct shim_fd *f, unsigned long req, void *arg)
{
	struct shim_node *node = f->node;
	size_t size = _IOC_SIZE(req);

	if (_IOC_TYPE(req) == SPI_IOC_MAGIC && _IOC_NR(req) == 0 && _IOC_DIR(req) == _IOC_WRITE) {
		shim.counts[SHIM_IOCTL_SPI_MESSAGE]++;
		if (size % sizeof(struct spi_ioc_transfer))
			return -EINVAL;
		return shim_spi_message(node, arg, (int)(size / sizeof(struct spi_ioc_transfer)));
	}
	if (!arg) {
		shim.counts[SHIM_IOCTL_OTHER]++;
		return -EFAULT;
	}
	switch (req) {
	case SPI_IOC_WR_MODE:
		shim.counts[SHIM_IOCTL_SPI_WR_MODE]++;
		node->mode = (node->mode & ~0xffu) | *(uint8_t *)arg;
		return 0;
	case SPI_IOC_WR_MODE32:
		shim.counts[SHIM_IOCTL_SPI_WR_MODE]++;
		node->mode = *(uint32_t *)arg;
		return 0;
	case SPI_IOC_RD_MODE:
		shim.counts[SHIM_IOCTL_SPI_RD_MODE]++;
		*(uint8_t *)arg = (uint8_t)node->mode;
		return 0;
	case SPI_IOC_RD_MODE32:
		shim.counts[SHIM_IOCTL_SPI_RD_MODE]++;
		*(uint32_t *)arg = node->mode;
		return 0;
	case SPI_IOC_WR_MAX_SPEED_HZ:
		shim.counts[SHIM_IOCTL_SPI_WR_MAX_SPEED_HZ]++;
		if (*(uint32_t *)arg == 0)
			return -EINVAL;
		node->speed_hz = *(uint32_t *)arg;
		return 0;
	case SPI_IOC_RD_MAX_SPEED_HZ:
		shim.counts[SHIM_IOCTL_SPI_RD_MAX_SPEED_HZ]++;
		*(uint32_t *)arg = node->speed_hz;
		return 0;
	case SPI_IOC_WR_BITS_PER_WORD:
		shim.counts[SHIM_IOCTL_SPI_WR_BITS_PER_WORD]++;
		/* as the SPI core: 0 means 8 */
		node->bits = *(uint8_t *)arg ? *(uint8_t *)arg : 8;
		return 0;
	case SPI_IOC_RD_BITS_PER_WORD:
		shim.counts[SHIM_IOCTL_SPI_RD_BITS_PER_WORD]++;
		*(uint8_t *)arg = node->bits;
		return 0;
	case SPI_IOC_WR_LSB_FIRST:
		shim.counts[SHIM_IOCTL_SPI_LSB_FIRST]++;
		node->lsb_first = *(uint8_t *)arg;
		return 0;
	case SPI_IOC_RD_LSB_FIRST:
		shim.counts[SHIM_IOCTL_SPI_LSB_FIRST]++;
		*(uint8_t *)arg = node->lsb_first;
		return 0;
	default:
		shim.counts[SHIM_IOCTL_OTHER]++;
		return -ENOTTY;
	}
}

/* ---- the interposed calls ---- */

/*
 * A fake open: a memfd stands for the node (a real fd, so close() and
 * select() behave). Return: the fd, -1 with errno, or -2 when @path is not
 * a fake node.
 */
static int shim_open_fake(const char *path, int flags)
{
	struct shim_node *node;
	struct shim_fd *fds;
	int fd, err;

	shim_init();
	if (!path)
		return -2;
	pthread_mutex_lock(&shim.lock);
	node = shim_node_find(path);
	if (!node) {
		pthread_mutex_unlock(&shim.lock);
		return -2;
	}
	if (shim.nfds == shim.capfds) {
		int cap = shim.capfds ? shim.capfds * 2 : 16;

		fds = realloc(shim.fds, (size_t)cap * sizeof(*fds));
		if (!fds) {
			pthread_mutex_unlock(&shim.lock);
			errno = ENOMEM;
			return -1;
		}
		shim.fds = fds;
		shim.capfds = cap;
	}
	fd = memfd_create("iiowire-shim", flags & O_CLOEXEC ? MFD_CLOEXEC : 0);
	if (fd < 0) {
		err = errno;
		pthread_mutex_unlock(&shim.lock);
		errno = err;
		return -1;
	}
	shim.fds[shim.nfds].fd = fd;
	shim.fds[shim.nfds].node = node;
	shim.fds[shim.nfds].addr = -1;
	shim.nfds++;
	node->opens++;
	pthread_mutex_unlock(&shim.lock);
	return fd;
}

static mode_t shim_open_mode(int flags, va_list ap)
{
	if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE)
		return (mode_t)va_arg(ap, int);
	return 0;
}

/* In an open(..., flags, ...): the mode argument, which is there only with O_CREAT or O_TMPFILE. */
#define SHIM_OPEN_MODE(flags, mode) do {		\
	va_list ap;					\
							\
	va_start(ap, flags);				\
	mode = shim_open_mode(flags, ap);		\
	va_end(ap);					\
} while (0)

int open(const char *path, int flags, ...)
{
	mode_t mode;
	int fd;

	SHIM_OPEN_MODE(flags, mode);
	fd = shim_open_fake(path, flags);
	return fd != -2 ? fd : shim.real_open(path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	mode_t mode;
	int fd;

	SHIM_OPEN_MODE(flags, mode);
	fd = shim_open_fake(path, flags);
	return fd != -2 ? fd : shim.real_open64(path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode;
	int fd;

	SHIM_OPEN_MODE(flags, mode);
	fd = shim_open_fake(path, flags);
	return fd != -2 ? fd : shim.real_openat(dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	mode_t mode;
	int fd;

	SHIM_OPEN_MODE(flags, mode);
	fd = shim_open_fake(path, flags);
	return fd != -2 ? fd : shim.real_openat64(dirfd, path, flags, mode);
}

/* What a fortified open() becomes when its flags are not a constant. */
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);

int __open_2(const char *path, int flags)
{
	return open(path, flags);
}

int __open64_2(const char *path, int flags)
{
	return open64(path, flags);
}

int close(int fd)
{
	struct shim_fd *f;

	shim_init();
	pthread_mutex_lock(&shim.lock);
	f = shim_fd_find(fd);
	if (f)
		*f = shim.fds[--shim.nfds];
	pthread_mutex_unlock(&shim.lock);
	return shim.real_close(fd);
}

int ioctl(int fd, unsigned long req, ...)
{
	struct shim_fd *f;
	va_list ap;
	void *arg;
	int ret;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	shim_init();
	pthread_mutex_lock(&shim.lock);
	f = shim_fd_find(fd);
	if (!f) {
		pthread_mutex_unlock(&shim.lock);
		return shim.real_ioctl(fd, req, arg);
	}
	ret = f->node->spi ? shim_spi_ioctl(f, req, arg) : shim_i2c_ioctl(f, req, arg);
	pthread_mutex_unlock(&shim.lock);
	if (ret < 0) {
		errno = -ret;
		return -1;
	}
	return ret;
}
