/*
 * iio.h - the IIO core as drivers see it: channel specs, device ops, drivers.
 *
 * This is the userspace twin of the kernel's <linux/iio/iio.h>. A driver is a
 * table of struct iio_chan_spec plus read_raw/write_raw callbacks; the core
 * (iio_core.c) turns the table into sysfs-exact attribute names and the value
 * codes into text (abi/iio_value.c). Place in the flow: bus -> driver -> *core* ->
 * server. Nothing here formats text for a driver, talks to a socket or logs.
 *
 * Channel types, modifiers, info-mask bits and IIO_VAL_* codes come from the
 * ABI leaf (abi/iio_types.h), which drivers, protocol and client share.
 */
#ifndef IIOWIRE_IIO_H
#define IIOWIRE_IIO_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include "iio_types.h"	/* the ABI leaf: types, modifiers, IIO_VAL_*, info bits */
#include "iio_events.h"	/* ...and the event ABI: types, directions, info bits, codes */

#define BIT(n)	(1UL << (n))

enum iio_shared_by {
	IIO_SEPARATE,
	IIO_SHARED_BY_TYPE,
	IIO_SHARED_BY_DIR,
	IIO_SHARED_BY_ALL
};

enum iio_endian {
	IIO_CPU,
	IIO_BE,
	IIO_LE,
};

/* Layout of a sample in a buffered scan; kept for buffered capture, unused in direct reads. */
struct iio_scan_type {
	char sign;		/* 's' or 'u' */
	uint8_t realbits;
	uint8_t storagebits;
	uint8_t shift;
	uint8_t repeat;
	enum iio_endian endianness;
};

struct iio_dev;
struct iio_chan_spec;
struct iio_attr;

/*
 * Extended channel attribute with its own postfix and sharing level, as the
 * kernel's struct iio_chan_spec_ext_info. read fills buf with the full text
 * (including the trailing '\n') and returns its length or -errno; write gets
 * the user's text and returns 0 or -errno. Either may be NULL.
 */
struct iio_chan_spec_ext_info {
	const char *name;
	enum iio_shared_by shared;
	int (*read)(struct iio_dev *indio_dev, uintptr_t priv,
		    const struct iio_chan_spec *chan, char *buf, size_t len);
	int (*write)(struct iio_dev *indio_dev, uintptr_t priv,
		     const struct iio_chan_spec *chan, const char *buf, size_t len);
	uintptr_t private;
};

/**
 * struct iio_event_spec - one event a channel can signal, as the kernel's:
 * its type and direction and the IIO_EV_INFO_* bits of its events/
 * attributes at each sharing level (iio_event.c names them).
 */
struct iio_event_spec {
	enum iio_event_type type;
	enum iio_event_direction dir;
	unsigned long mask_separate;
	unsigned long mask_shared_by_type;
	unsigned long mask_shared_by_dir;
	unsigned long mask_shared_by_all;
};

/*
 * A device attribute outside the channel tables, as the kernel's
 * attribute groups (iio_info.attrs, .event_attrs): events/sampling_frequency,
 * iio_evgen's poke_evN. read fills buf with the text ('\n' included) and
 * returns its length or -errno; write gets the user's text, returns 0 or
 * -errno. Either may be NULL. Arrays end with an entry with a NULL name.
 */
struct iio_dev_attr {
	const char *name;
	int (*read)(struct iio_dev *indio_dev, uintptr_t priv, char *buf, size_t len);
	int (*write)(struct iio_dev *indio_dev, uintptr_t priv, const char *buf, size_t len);
	uintptr_t private;
};

/**
 * struct iio_chan_spec - one channel, field for field as the kernel's.
 * @channel2: modifier (when @modified) or the negative input's index (when
 *	@differential); the two are exclusive.
 * @address: driver-private (register, mux code, table row).
 * @info_mask_*: BIT(IIO_CHAN_INFO_*) sets at the four sharing levels, each
 *	with its *_available twin.
 * @ext_info: array ended by an entry with a NULL name, or NULL.
 * @event_spec/@num_event_specs: the events the channel can signal.
 */
struct iio_chan_spec {
	enum iio_chan_type type;
	int channel;
	int channel2;
	unsigned long address;
	int scan_index;
	struct iio_scan_type scan_type;
	unsigned long info_mask_separate;
	unsigned long info_mask_separate_available;
	unsigned long info_mask_shared_by_type;
	unsigned long info_mask_shared_by_type_available;
	unsigned long info_mask_shared_by_dir;
	unsigned long info_mask_shared_by_dir_available;
	unsigned long info_mask_shared_by_all;
	unsigned long info_mask_shared_by_all_available;
	const struct iio_chan_spec_ext_info *ext_info;
	const struct iio_event_spec *event_spec;
	unsigned int num_event_specs;
	const char *extend_name;
	const char *datasheet_name;
	unsigned modified:1;
	unsigned indexed:1;
	unsigned output:1;
	unsigned differential:1;
};

/**
 * struct iio_info - a driver's callbacks; all run with the device lock held,
 * so per-device state needs no further locking. Bus transfers inside them may
 * block: the server calls them off the event loop for real buses.
 * @read_raw: fill val/val2 for @mask (IIO_CHAN_INFO_*); return IIO_VAL_* or -errno.
 * @read_raw_multi: as read_raw for values of more than two ints (INT_MULTIPLE).
 * @read_avail: point *vals at a driver-owned array of *length ints (static or
 *	in the device's private state), set *type (IIO_VAL_*); return IIO_AVAIL_*.
 * @write_raw: apply (val, val2) for @mask; return 0 or -errno (-EINVAL if
 *	the attribute is read-only in practice).
 * @write_raw_get_fmt: the IIO_VAL_* format the written text is parsed with;
 *	absent means IIO_VAL_INT_PLUS_MICRO.
 * @read_label: write the channel's label (with '\n') to @label, which holds
 *	IIO_LABEL_MAX bytes; return its length or -errno.
 * @read_text: a device whose attributes are text already (a mirrored kernel
 *	device, drivers/kernel/): the core hands every attribute read to it and
 *	passes the text through, instead of formatting what read_raw gives.
 *	Fill @buf (NUL-terminated, fewer than @len bytes) and return the
 *	length, or -errno.
 * @write_text: likewise for writes: the user's text as written, not parsed;
 *	return 0 or -errno.
 * @read_event_config: whether (@type, @dir) of @chan is enabled: the value
 *	the events/..._en file prints ("%d"), or -errno.
 * @write_event_config: enable (@state 1) or disable (0) it; 0 or -errno.
 * @read_event_value: fill val/val2 for @info (IIO_EV_INFO_*); return IIO_VAL_*.
 * @write_event_value: apply (val, val2), parsed as INT_PLUS_MICRO; 0 or -errno.
 * @attrs: device attributes (iio_evgen's poke_evN), or NULL.
 * @event_attrs: device attributes under events/ (sampling_frequency), or NULL.
 * @event_open: a device whose events come from a source of its own (a
 *	mirrored kernel device's event fd, drivers/kernel/kernel_event.c):
 *	start delivering them with iio_push_event() now that the queue has a
 *	reader; 0 or -errno, which iio_event_open() returns. Called without
 *	core locks, never twice at once for one device.
 * @event_close: stop delivering them; called once after each successful
 *	@event_open, when the reader closes the queue or the device is freed.
 */
struct iio_info {
	int (*read_raw)(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			int *val, int *val2, long mask);
	int (*read_raw_multi)(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			      int max_len, int *vals, int *val_len, long mask);
	int (*read_avail)(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			  const int **vals, int *type, int *length, long mask);
	int (*write_raw)(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			 int val, int val2, long mask);
	int (*write_raw_get_fmt)(struct iio_dev *indio_dev,
				 const struct iio_chan_spec *chan, long mask);
	int (*read_label)(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
			  char *label);
	ssize_t (*read_text)(struct iio_dev *indio_dev, const struct iio_attr *attr,
			     char *buf, size_t len);
	int (*write_text)(struct iio_dev *indio_dev, const struct iio_attr *attr,
			  const char *buf, size_t len);
	int (*read_event_config)(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
				 enum iio_event_type type, enum iio_event_direction dir);
	int (*write_event_config)(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
				  enum iio_event_type type, enum iio_event_direction dir,
				  int state);
	int (*read_event_value)(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
				enum iio_event_type type, enum iio_event_direction dir,
				enum iio_event_info info, int *val, int *val2);
	int (*write_event_value)(struct iio_dev *indio_dev, const struct iio_chan_spec *chan,
				 enum iio_event_type type, enum iio_event_direction dir,
				 enum iio_event_info info, int val, int val2);
	const struct iio_dev_attr *attrs;
	const struct iio_dev_attr *event_attrs;
	int (*event_open)(struct iio_dev *indio_dev);
	void (*event_close)(struct iio_dev *indio_dev);
};

#define IIO_LABEL_MAX		256

/**
 * struct iio_dev - a registered (or about to be) IIO device.
 * Driver-visible fields only; the core keeps its own state behind it.
 * @name: the id name ("max1363"); borrowed, must outlive the device.
 * @label: optional label from the board file, or NULL.
 * @hwid: hardware id, "0-0035" or "spi0.0", or "" for bus-less devices.
 * @data: for the device's user (server); the core never touches it.
 */
struct iio_dev {
	const char *name;
	const char *label;
	char hwid[32];
	const struct iio_chan_spec *channels;
	int num_channels;
	const struct iio_info *info;
	void *data;
};

struct bus_i2c_client;
struct bus_spi_device;
struct iio_registry;
struct iio_irq_spec;

/* One row of a driver's id table, as struct i2c_device_id; ends with a NULL name. */
struct iio_device_id {
	const char *name;
	unsigned long driver_data;
};

/**
 * struct iio_probe - what a driver's probe gets about the device to bind.
 * Borrowed by probe for the duration of the call, except @i2c/@spi, whose
 * ownership passes to the device on success (released by the core when the
 * device is unregistered; see iio_device_set_bus_client()).
 * @id: the id-table row that matched.
 * @name: the board's device name, if it gave one (iio_dummy), else id->name.
 * @label: the board's label or NULL.
 * @i2c: the I2C client at the board's bus/address, or NULL.
 * @spi: the SPI device at the board's bus/chip select, or NULL.
 * @props: opaque board properties, read with iio_probe_prop_int().
 * @reg: the registry the device will join, holding every device the board
 *	declared before it (for drivers that consume other devices' channels).
 * @irq: the interrupt line the board wires, or NULL (iio_request_threaded_irq()).
 */
struct iio_probe {
	const struct iio_device_id *id;
	const char *name;
	const char *label;
	struct bus_i2c_client *i2c;
	struct bus_spi_device *spi;
	const void *props;
	struct iio_registry *reg;
	const struct iio_irq_spec *irq;
	/* core-private: the lookup function for props */
	int (*prop_int)(const void *props, const char *key, int *val);
	int (*prop_str)(const void *props, const char *key, const char **val);
};

/**
 * iio_probe_prop_int() - read an integer property of the board's device entry.
 * Return: 0 with *val set, -ENOENT when absent, -EINVAL when not an integer.
 */
int iio_probe_prop_int(const struct iio_probe *p, const char *key, int *val);
/**
 * iio_probe_prop_str() - read a string property; *val borrowed for the probe call.
 * Return: 0, -ENOENT when absent, -EINVAL when not a string.
 */
int iio_probe_prop_str(const struct iio_probe *p, const char *key, const char **val);

/**
 * iio_probe_vref_mv() - the board's optional "vref_mv" (an external
 * reference or supply): *vref_mv is 0 when the board gives none.
 * Return: 0, or -EINVAL for a value that is not a positive integer, with
 * @err (if non-NULL) naming the part and where it sits.
 */
int iio_probe_vref_mv(const struct iio_probe *p, int *vref_mv, char *err, size_t errlen);

/**
 * iio_probe_prop_mv() - an optional positive integer property @key (a
 * supply or reference in mV: "vdd_mv", "vref3_mv"): *mv is 0 when absent.
 * Return: 0, or -EINVAL with @err (if non-NULL) saying "@key must be a
 * positive integer".
 */
int iio_probe_prop_mv(const struct iio_probe *p, const char *key, int *mv, char *err,
		      size_t errlen);

/* The bus a driver's chips sit on; iio_driver_probe() checks it before probe runs. */
enum iio_driver_bus {
	IIO_DRIVER_BUS_NONE,	/* bus-less (platform), or a driver that checks for itself */
	IIO_DRIVER_BUS_I2C,
	IIO_DRIVER_BUS_SPI,
};

/**
 * struct iio_driver - a driver: the names it handles and how to bind one.
 * @bus: what @probe needs in struct iio_probe (an I2C client, an SPI
 *	device); the core refuses the device before probing when it is absent.
 * @probe: check the chip (ID registers, power-up) and return a device made
 *	with iio_device_alloc() in *out, not yet registered. On failure return
 *	-errno and fill @err (a message naming what failed, iio_probe_err())
 *	if non-NULL; the bus client in @p stays the caller's.
 * @remove: undo probe's hardware setup (power down); called once when the
 *	device is unregistered, before the memory goes. May be NULL.
 * @takes_name: the device's name comes from the board (iio_dummy's configfs
 *	group name, a front end's node name); without it the name is the id
 *	name, as in the kernel, and a board "name" is refused.
 * @address_list: the 7-bit I2C addresses the datasheets give the chips,
 *	ended by IIO_I2C_ADDR_END (the kernel's i2c_driver.address_list), or
 *	NULL when the driver knows none: an address outside it is loaded, with
 *	a note (iio_driver_addr_note()).
 */
struct iio_driver {
	const char *name;
	enum iio_driver_bus bus;
	const struct iio_device_id *id_table;
	int (*probe)(const struct iio_probe *p, struct iio_dev **out, char *err, size_t errlen);
	void (*remove)(struct iio_dev *indio_dev);
	bool takes_name;
	const unsigned short *address_list;
};

/* The end of struct iio_driver's address_list, as the kernel's I2C_CLIENT_END. */
#define IIO_I2C_ADDR_END	0xfffeU
/* The highest 7-bit address a device may have: 0x78-0x7f are reserved (10-bit, future). */
#define IIO_I2C_ADDR_DEVICE_MAX	0x77

/**
 * iio_driver_addr_note() - whether 7-bit I2C address @addr is an unlikely
 * one for @drv: outside its address_list, or without one in the reserved
 * range past IIO_I2C_ADDR_DEVICE_MAX; a datasheet's 8-bit address (the
 * 7-bit one shifted left, R/W bit included) is the usual cause, and the
 * note says which 7-bit address that would be.
 * @buf: caller's, the note ("0x72 is not one of tsl2563's datasheet ...").
 * Return: 1 with @buf filled, or 0 when the address is a likely one.
 */
int iio_driver_addr_note(const struct iio_driver *drv, unsigned int addr, char *buf, size_t len);

/*
 * Drivers register themselves by placing a pointer in a link-time section,
 * as module_init() does; the core walks the section and never names a driver.
 */
#define IIO_DRIVER_REGISTER(drv)						\
	static const struct iio_driver *const iio_driver_ptr_##drv		\
	__attribute__((used, section("iiowire_drivers"), aligned(sizeof(void *)))) = &(drv)

/**
 * iio_driver_find() - the driver whose id table has @name.
 * @id: set to the matching row if non-NULL.
 * Return: borrowed pointer to a static driver, or NULL.
 */
const struct iio_driver *iio_driver_find(const char *name, const struct iio_device_id **id);
/** iio_driver_count()/iio_driver_at() - walk the built-in drivers (for --help, tests). */
size_t iio_driver_count(void);
const struct iio_driver *iio_driver_at(size_t i);

/** iio_driver_bus_name() - "i2c", "spi" or "none", as --list-drivers prints it. */
const char *iio_driver_bus_name(enum iio_driver_bus bus);

/**
 * iio_driver_list_print() - every chip name the built-in drivers handle, one
 * line each, sorted by name: "NAME DRIVER BUS" ("ad7991 ad799x i2c"), columns
 * padded with blanks. What `iiowired --list-drivers` and `iiowire-board
 * --list-drivers` print.
 * Return: the number of names printed, or -errno (-ENOMEM, -EIO on a write
 * error of @f).
 */
int iio_driver_list_print(FILE *f);

/**
 * iio_driver_suggest() - the known chip names nearest to @name, for "unknown
 * driver" messages: those within two edits of it, or that start with it.
 * Writes "a, b, c" (at most four, nearest first) to @buf, or "" if none.
 * Return: how many names were written.
 */
int iio_driver_suggest(const char *name, char *buf, size_t len);

/**
 * iio_driver_probe() - bind one device: check that @p has the bus @drv
 * needs, run its probe, then hand the device its bus client (which builds
 * the hardware id) and record the driver.
 * @out: the new device, not registered, with one reference.
 * Return: 0, or -errno with @err filled; on failure the bus client in @p
 * stays the caller's, on success it is the device's.
 */
int iio_driver_probe(const struct iio_driver *drv, const struct iio_probe *p,
		     struct iio_dev **out, char *err, size_t errlen);

/**
 * iio_device_alloc() - allocate a device with @sizeof_priv bytes of zeroed
 * driver state (reach it with iio_priv()). Free with iio_device_put() (or, if
 * registered, the registry drops it).
 * Return: the device with one reference, or NULL on -ENOMEM.
 */
struct iio_dev *iio_device_alloc(size_t sizeof_priv);
void *iio_priv(const struct iio_dev *indio_dev);
/** iio_device_get()/iio_device_put() - reference counting; put frees at zero. */
struct iio_dev *iio_device_get(struct iio_dev *indio_dev);
void iio_device_put(struct iio_dev *indio_dev);

/**
 * iio_device_set_i2c()/iio_device_set_spi() - hand the device its bus
 * client; the core destroys it after remove() when the device is
 * unregistered or freed. Also fills @hwid (iio_probe_hwid()'s text).
 * iio_driver_probe() calls them; drivers never do.
 */
void iio_device_set_i2c(struct iio_dev *indio_dev, struct bus_i2c_client *client);
void iio_device_set_spi(struct iio_dev *indio_dev, struct bus_spi_device *spi);
struct bus_i2c_client *iio_device_i2c(const struct iio_dev *indio_dev);
struct bus_spi_device *iio_device_spi(const struct iio_dev *indio_dev);
/**
 * iio_device_set_io_source() - declare that @indio_dev does its I/O through
 * @source's channels (an analog front end over an ADC), so that it blocks
 * and serialises as the source does. The caller keeps @source alive for as
 * long as this device (a consumer channel's reference does).
 */
void iio_device_set_io_source(struct iio_dev *indio_dev, struct iio_dev *source);
/** iio_device_driver() - the driver that probed the device, or NULL (set by the board loader). */
const struct iio_driver *iio_device_driver(const struct iio_dev *indio_dev);
void iio_device_set_driver(struct iio_dev *indio_dev, const struct iio_driver *drv);

#endif /* IIOWIRE_IIO_H */
