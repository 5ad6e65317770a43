/*
 * iiowire.h - libiiowire, the C client of iiowired: the whole public API.
 *
 * Place in the flow: ... server -> wire -> *client library* -> your program,
 * the iiowire command line and the iiowire-hwmon bridge. libiiowire opens a
 * blocking connection to one iiowired, sends requests (the protocol's JSON
 * spelling, see protocol/PROTOCOL.md) and hands back decoded answers: attribute
 * text exactly as the kernel's sysfs shows it, listings, and a consumer API
 * with the shape and the semantics of the kernel's inkern.c
 * (iio_channel_get(), iio_read_channel_processed(), ...).
 *
 * This file is the contract. Anything not declared here is not part of the
 * published API, and the shared library exports nothing else. The library
 * never logs, never prints, never installs signal handlers and keeps no
 * library-wide state: everything lives in the connection handle.
 */
#ifndef IIOWIRE_H
#define IIOWIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/iio/types.h>	/* enum iio_chan_type, enum iio_modifier */
#include <linux/iio/events.h>	/* struct iio_event_data */

#ifdef __cplusplus
extern "C" {
#endif

#if defined(IIOWIRE_BUILDING_LIBRARY)
#define IIOWIRE_EXPORT __attribute__((visibility("default")))
#else
#define IIOWIRE_EXPORT
#endif

/*
 * OVERVIEW
 *
 * Objects. There are three opaque handles:
 *   struct iiowire          a connection: made by iiowire_connect(), ended by
 *                           iiowire_close();
 *   struct iiowire_channel  a consumer's channel: made by iiowire_channel_get()
 *                           or iiowire_channel_get_all(), ended by
 *                           iiowire_channel_release() or
 *                           iiowire_channel_release_all(). A channel uses the
 *                           connection it was made on; release every channel
 *                           before closing that connection.
 *   struct iiowire_stream   a stream of scans (buffered capture): made by
 *                           iiowire_stream_open(), ended by
 *                           iiowire_stream_close(); see Streams below.
 * Every close, release and free function accepts NULL and does nothing.
 *
 * Errors. Functions returning int return 0, a documented non-negative value
 * (a length, a count, an IIO_VAL_* code), or a negative errno value: -ENOENT
 * (no such attribute or consumer channel), -ENODEV (no such device, or the
 * provider of a held channel went away), -EINVAL, -EACCES, -ETIMEDOUT,
 * -ECONNREFUSED, -ECONNRESET, ... The server sends errno names ("ENOENT") and
 * the library maps them back with iiowire_errno_from_name(); a name this
 * system does not know becomes -EPROTO. Functions returning pointers
 * (iiowire_connect(), iiowire_channel_get(), iiowire_channel_get_all())
 * return NULL and set errno to the positive value, as libc does. The
 * server's human message for the last failure on a connection is kept in the
 * connection: iiowire_errmsg().
 *
 * Ownership. Listings come back as one allocation holding the array and all
 * of its strings: "owned: free with iiowire_free()". Strings inside such an
 * array live exactly as long as the array. "Borrowed: valid until the next
 * call on @w" means the pointer points into the connection and is overwritten
 * by the next call that takes the same connection.
 *
 * Threads. A connection and the channels made on it belong to one thread at a
 * time: calls on one connection must not overlap. Different connections are
 * independent; use one connection per thread. The library takes no locks and
 * raises no signals (MSG_NOSIGNAL: a peer that went away is -EPIPE, not
 * SIGPIPE).
 *
 * Timeouts. Connecting, and each request (sending it and receiving its
 * reply), must finish within the connection's timeout (iiowire_connect()'s
 * @timeout_ms, changed with iiowire_set_timeout()), else the call fails with
 * -ETIMEDOUT and the connection stays usable: every request carries an id,
 * so a late answer to a timed-out request is recognised and dropped.
 *
 * Restarts. When the daemon restarts or the connection breaks, the next call
 * reconnects once (same address, same token, same watches). Requests that
 * only read (READ, listings, the consumer reads) are sent again after a
 * reconnect; a WRITE is sent again only if the break was seen before it left,
 * otherwise it fails with -ECONNRESET and the caller decides. A reply that
 * cannot be parsed drops the connection the same way (-EPROTO if it happens
 * again). While the daemon stays away, calls fail with the connect error
 * (-ECONNREFUSED, ...) and each later call tries again. Channels made before
 * a restart are looked up again on their next use, so a provider that
 * disappeared in the meantime gives -ENODEV, as a kernel consumer whose
 * provider unbound does. Unlike a kernel handle, a held channel is resolved
 * by its consumer and channel names on every read: if a board reload brings
 * the maps back, it reads again (deviation K-15 in maps/README.md).
 *
 * Authentication. A daemon started with --auth-token-file refuses everything
 * but HELP, VERSION, AUTH and QUIT with -EACCES until the token is sent.
 * iiowire_connect() sends the token named by $IIOWIRE_TOKEN_FILE if that is
 * set; iiowire_auth() and iiowire_auth_file() send one explicitly. The token
 * is kept in the connection and sent again after every reconnect.
 */

/* Library version (of this header); compare with iiowire_lib_version(). */
#define IIOWIRE_LIB_VERSION_MAJOR	0
#define IIOWIRE_LIB_VERSION_MINOR	1
#define IIOWIRE_LIB_VERSION_PATCH	0

/** Default port of iiowired, and the address used when none is given. */
#define IIOWIRE_DEFAULT_PORT		30432
#define IIOWIRE_DEFAULT_ADDRESS		"localhost:30432"
/** Environment variables read by iiowire_connect() and the tools. */
#define IIOWIRE_ADDRESS_ENV		"IIOWIRE_ADDRESS"
#define IIOWIRE_TOKEN_FILE_ENV		"IIOWIRE_TOKEN_FILE"
/** Timeout used when iiowire_connect() gets @timeout_ms <= 0. */
#define IIOWIRE_DEFAULT_TIMEOUT_MS	5000
/** Longest address string accepted ("unix:" + a sun_path, or host:port). */
#define IIOWIRE_ADDRESS_MAX_BYTES	256
/** Longest reply line the library accepts (a sysfs page plus framing, JSON-escaped). */
#define IIOWIRE_REPLY_MAX_BYTES		(1024 * 1024)
/** Longest token accepted by iiowire_auth() / read from a token file (the daemon's limit). */
#define IIOWIRE_TOKEN_MAX_BYTES		255

/*
 * Value type codes, kernel numbering (what iiowire_read_channel_scale()
 * returns): IIO_VAL_INT, ..., IIO_VAL_DECIMAL64_PICO. The same numbers as
 * the kernel's include/linux/iio/types.h, which userspace headers do not
 * carry; iiowire_abi.h is generated at build time from the tables the
 * daemon uses, and installed beside this file.
 */
#include "iiowire_abi.h"

struct iiowire;
struct iiowire_channel;

/* ---------------------------------------------------------------------------
 * Connections
 */

/**
 * iiowire_connect() - open a connection to iiowired.
 * @address: "host:port", "host" (port 30432), "[v6addr]:port", or
 *	"unix:/path/to/socket"; NULL or "" means $IIOWIRE_ADDRESS, or
 *	"localhost:30432" when that is unset too. A host name resolving to
 *	several addresses is tried address by address.
 * @timeout_ms: the connection's timeout for connecting and for each request
 *	(see Timeouts above); <= 0 means IIOWIRE_DEFAULT_TIMEOUT_MS.
 *
 * If $IIOWIRE_TOKEN_FILE is set, the token it names is sent (iiowire_auth_file()).
 * Return: owned connection: end with iiowire_close(). NULL with errno set on
 * failure: EINVAL (malformed address), ECONNREFUSED, ETIMEDOUT, EHOSTUNREACH,
 * ENOENT (unix socket path), EACCES (token refused or unreadable), ENOMEM, ...
 */
IIOWIRE_EXPORT struct iiowire *iiowire_connect(const char *address, int timeout_ms);

/**
 * iiowire_close() - close the socket and free the connection, its queued
 * events, its watches and its token (the daemon drops the watches).
 * @w: connection, or NULL. Channels made on @w must be released before.
 */
IIOWIRE_EXPORT void iiowire_close(struct iiowire *w);

/**
 * iiowire_set_timeout() - change the connection's timeout.
 * @timeout_ms: > 0; applies to the next step of every later call.
 * Return: 0, or -EINVAL for @timeout_ms <= 0.
 */
IIOWIRE_EXPORT int iiowire_set_timeout(struct iiowire *w, int timeout_ms);

/** iiowire_get_timeout() - the connection's timeout. Return: milliseconds (> 0). */
IIOWIRE_EXPORT int iiowire_get_timeout(const struct iiowire *w);

/**
 * iiowire_address() - the address the connection was made to, normalised
 * ("localhost:30432", "[::1]:30432", "unix:/run/iiowire.sock").
 * Return: borrowed: valid until iiowire_close().
 */
IIOWIRE_EXPORT const char *iiowire_address(const struct iiowire *w);

/**
 * iiowire_reconnect() - drop the socket and connect again to the same
 * address, sending the token and the watches again. The library does this by
 * itself when it finds the connection broken; call it to force one.
 * Return: 0, or -errno as iiowire_connect() fails (the connection stays
 * usable: the next call tries again).
 */
IIOWIRE_EXPORT int iiowire_reconnect(struct iiowire *w);

/**
 * iiowire_reconnect_count() - how many times this connection reconnected.
 * Channels compare it with the value they were looked up at.
 * Return: the count (>= 0).
 */
IIOWIRE_EXPORT unsigned int iiowire_reconnect_count(const struct iiowire *w);

/**
 * iiowire_fd() - the socket, for poll()/select() on incoming events
 * (see iiowire_event_next()). Do not read from it or write to it; it changes
 * after a reconnect.
 * Return: the fd (>= 0), or -ENOTCONN while disconnected.
 */
IIOWIRE_EXPORT int iiowire_fd(const struct iiowire *w);

/**
 * iiowire_auth() - send AUTH with @token and keep it for reconnects.
 * Return: 0, -EACCES if the daemon refuses it, -EINVAL for an empty token,
 * one with a control character or a blank at either end, or one longer than
 * IIOWIRE_TOKEN_MAX_BYTES (blanks inside are part of it), or a connection error.
 */
IIOWIRE_EXPORT int iiowire_auth(struct iiowire *w, const char *token);

/**
 * iiowire_auth_file() - read a token from the first line of @path and send
 * it as iiowire_auth() does.
 * Return: 0, -errno from opening or reading the file (-ENOENT, -EACCES),
 * -EINVAL for an empty first line, or as iiowire_auth().
 */
IIOWIRE_EXPORT int iiowire_auth_file(struct iiowire *w, const char *path);

/**
 * struct iiowire_version - what VERSION answers.
 * @proto_major/@proto_minor: protocol version: a minor bump adds fields, a
 *	major bump breaks compatibility. This library speaks major 1.
 * @server: the daemon's software version ("0.1.0").
 */
struct iiowire_version {
	int proto_major;
	int proto_minor;
	char server[64];
};

/**
 * iiowire_server_version() - ask the daemon for its versions.
 * @v: caller's memory, filled on success.
 * Return: 0, or -errno.
 */
IIOWIRE_EXPORT int iiowire_server_version(struct iiowire *w, struct iiowire_version *v);

/** iiowire_lib_version() - this library's version, "MAJOR.MINOR.PATCH". Return: static string. */
IIOWIRE_EXPORT const char *iiowire_lib_version(void);

/* ---------------------------------------------------------------------------
 * Errors
 */

/**
 * iiowire_errmsg() - the message that came with the last failure of a call
 * on @w: the server's text ("max1363 has no attribute in_voltage9_raw"), or a
 * local description ("connect to localhost:30432: Connection refused").
 * Return: borrowed: valid until the next call on @w; "" after a success.
 */
IIOWIRE_EXPORT const char *iiowire_errmsg(const struct iiowire *w);

/**
 * iiowire_connect_errmsg() - why the last iiowire_connect() of this thread
 * failed, as iiowire_errmsg() would say it ("name lookup of nosuchhost.invalid
 * failed: Name or service not known", "connect to 127.0.0.1:30432:
 * Connection refused"); a connect that fails leaves no connection to ask.
 * Return: borrowed, thread-local: valid until the next iiowire_connect() in
 * this thread; "" when it succeeded or failed before trying (ENOMEM).
 */
IIOWIRE_EXPORT const char *iiowire_connect_errmsg(void);

/**
 * iiowire_strerror() - a human description of an error code.
 * @err: negative or positive errno value.
 * Return: static string, never NULL ("No such device", "Unknown error 4242").
 */
IIOWIRE_EXPORT const char *iiowire_strerror(int err);

/**
 * iiowire_errno_name() - the wire name of an error code ("ENODEV").
 * @err: negative or positive errno value.
 * Return: static string, or NULL if the protocol has no name for it.
 */
IIOWIRE_EXPORT const char *iiowire_errno_name(int err);

/**
 * iiowire_errno_from_name() - the inverse: "ENOENT" -> -ENOENT.
 * Return: a negative errno value, or -EPROTO for a name this library does not know.
 */
IIOWIRE_EXPORT int iiowire_errno_from_name(const char *name);

/* ---------------------------------------------------------------------------
 * Devices and attributes (the sysfs view)
 *
 * A device is named as the server accepts it: "iio:deviceN", its name
 * ("max1363"), its label, or its hardware id ("0-0035"); an ambiguous name
 * is -ENOTUNIQ.
 */

/** iiowire_free() - free any array or string the library handed over as "owned"; NULL-safe. */
IIOWIRE_EXPORT void iiowire_free(void *p);

/**
 * struct iiowire_device - one device as DEVICES and DEVICE describe it.
 * @id: "iio:deviceN". @name: the driver's name for it ("max1363").
 * @label: the board's label, or "" if none. @hwid: "0-0035", "spi0.0", or "".
 * @num_channels/@num_attrs: counts, or -1 when the server did not say.
 */
struct iiowire_device {
	const char *id;
	const char *name;
	const char *label;
	const char *hwid;
	int num_channels;
	int num_attrs;
};

/**
 * iiowire_device_list() - every registered device, in registration order,
 * then the triggers as the server lists them ("iio_sysfs_trigger", "trigger0"
 * named "hrt0", ...; PROTOCOL.md DEVICES): their files are read and written
 * with iiowire_attr_read()/iiowire_attr_write() as a device's.
 * @devices: set to an owned array of the return value's length: free with
 *	iiowire_free() (NULL when the count is 0).
 * Return: the number of devices (>= 0), or -errno.
 */
IIOWIRE_EXPORT int iiowire_device_list(struct iiowire *w, struct iiowire_device **devices);

/**
 * iiowire_device_get_info() - the details of one device.
 * @info: set to an owned struct: free with iiowire_free().
 * Return: 0, -ENODEV (no such device), -ENOTUNIQ, or -errno.
 */
IIOWIRE_EXPORT int iiowire_device_get_info(struct iiowire *w, const char *device,
					   struct iiowire_device **info);

/* Access bits of struct iiowire_attr.access. */
#define IIOWIRE_ATTR_READ	0x1
#define IIOWIRE_ATTR_WRITE	0x2

/**
 * struct iiowire_attr - one attribute of a device.
 * @name: the sysfs name ("in_voltage0_raw", "name", "in_voltage_scale").
 * @access: IIOWIRE_ATTR_READ and/or IIOWIRE_ATTR_WRITE, as the file mode says.
 */
struct iiowire_attr {
	const char *name;
	unsigned int access;
};

/**
 * iiowire_attr_list() - the attributes of @device, in the kernel's order.
 * @attrs: owned array: free with iiowire_free().
 * Return: the number of attributes (>= 0), -ENODEV, or -errno.
 */
IIOWIRE_EXPORT int iiowire_attr_list(struct iiowire *w, const char *device,
				     struct iiowire_attr **attrs);

/**
 * iiowire_attr_read() - read an attribute's text, exactly as sysfs shows it
 * but without the trailing newline.
 * @buf: caller's buffer, always NUL-terminated when @len > 0.
 * Return: the text length (< @len), -ENOENT (no such attribute), -ENODEV,
 * -EFBIG (the text does not fit in @len - 1: @buf holds nothing useful),
 * -EACCES (write-only), the driver's -errno (-EINVAL, -EIO, -ETIMEDOUT), or a
 * connection error.
 */
IIOWIRE_EXPORT int iiowire_attr_read(struct iiowire *w, const char *device, const char *attr,
				     char *buf, size_t len);

/**
 * iiowire_attr_write() - write text to an attribute; it is parsed on the
 * server in the driver's format, as a write to sysfs is.
 * @value: the text; one trailing newline is allowed.
 * Return: 0, -ENOENT, -ENODEV, -EACCES (read-only attribute, --read-only
 * daemon or not in --allow-write), -EINVAL (malformed or refused value), the
 * driver's -errno, or a connection error (-ECONNRESET if the connection broke
 * while the write was on its way: it may or may not have happened).
 */
IIOWIRE_EXPORT int iiowire_attr_write(struct iiowire *w, const char *device, const char *attr,
				      const char *value);

/**
 * iiowire_attr_read_longlong() - read an attribute holding an integer.
 * Return: 0 with *val set, -EINVAL if the text is not one integer, or as
 * iiowire_attr_read().
 */
IIOWIRE_EXPORT int iiowire_attr_read_longlong(struct iiowire *w, const char *device,
					      const char *attr, long long *val);

/**
 * iiowire_attr_read_double() - read an attribute holding a decimal number
 * ("0.500000000", "1.000010 dB": the " dB" is skipped).
 * Return: 0 with *val set, -EINVAL if the text is not a number, or as
 * iiowire_attr_read().
 */
IIOWIRE_EXPORT int iiowire_attr_read_double(struct iiowire *w, const char *device,
					    const char *attr, double *val);

/** iiowire_attr_write_longlong() - write an integer. Return: as iiowire_attr_write(). */
IIOWIRE_EXPORT int iiowire_attr_write_longlong(struct iiowire *w, const char *device,
					       const char *attr, long long val);

/**
 * struct iiowire_chan - one channel of a device as CHANNELS describes it.
 * @type: the channel type, or -1 if this library does not know its name.
 * @type_name: "voltage", "temp", "illuminance", ...
 * @index: the channel number when indexed, else -1.
 * @index2: the negative input of a differential channel, else -1.
 * @modifier: the modifier name ("x", "ir") or NULL.
 * @datasheet_name: "AIN0", "AIN0-AIN1", or NULL (then no map can name it).
 * @output: 1 for an output channel (out_*), else 0.
 * @differential: 1 for a differential channel (in_voltage0-voltage1_*).
 * @attrs/@num_attrs: the names of the attributes it owns or shares.
 */
struct iiowire_chan {
	int type;
	const char *type_name;
	int index;
	int index2;
	const char *modifier;
	const char *datasheet_name;
	int output;
	int differential;
	const char *const *attrs;
	int num_attrs;
};

/**
 * iiowire_chan_list() - the channels of @device, in the driver's order.
 * @chans: owned array: free with iiowire_free().
 * Return: the number of channels (>= 0), -ENODEV, or -errno.
 */
IIOWIRE_EXPORT int iiowire_chan_list(struct iiowire *w, const char *device,
				     struct iiowire_chan **chans);

/**
 * struct iiowire_map - one consumer map (the kernel's struct iio_map plus
 * the provider device).
 * @consumer: consumer_dev_name ("iio_hwmon.0").
 * @consumer_channel: its channel name, or NULL when the map has none.
 * @provider: the provider device as the board file names it (hardware id,
 *	name or label).
 * @device: the provider's "iio:deviceN", or NULL while it is not registered.
 * @datasheet_name: adc_channel_label, the provider channel's datasheet_name.
 */
struct iiowire_map {
	const char *consumer;
	const char *consumer_channel;
	const char *provider;
	const char *device;
	const char *datasheet_name;
};

/**
 * iiowire_map_list() - every map, in registration order (the lookup order).
 * @maps: owned array: free with iiowire_free().
 * Return: the number of maps (>= 0), or -errno.
 */
IIOWIRE_EXPORT int iiowire_map_list(struct iiowire *w, struct iiowire_map **maps);

/**
 * struct iiowire_stat - one counter of STATS ("clients", 3); the set of
 * names may grow between versions (protocol/PROTOCOL.md lists them).
 */
struct iiowire_stat {
	const char *name;
	int64_t value;
};

/**
 * iiowire_stats() - the daemon's counters.
 * @stats: owned array: free with iiowire_free().
 * Return: the number of counters (>= 0), or -errno.
 */
IIOWIRE_EXPORT int iiowire_stats(struct iiowire *w, struct iiowire_stat **stats);

/* ---------------------------------------------------------------------------
 * The consumer API (the kernel's inkern.c, over the wire)
 *
 * A consumer names itself and one of its channels; the daemon's maps say
 * which provider channel that is. Reads go through the daemon's consumer
 * code, so the values, formats and errors are the kernel's.
 */

/**
 * iiowire_channel_get() - look a consumer channel up, with the errors of the
 * kernel's iio_channel_get().
 * @consumer: consumer_dev_name ("iio_hwmon.0"); must not be NULL.
 * @channel: consumer_channel; NULL means the consumer's first map (in map
 *	order, as MAPS lists them).
 * Return: owned channel: release with iiowire_channel_release(); it uses @w,
 * which must outlive it. NULL with errno set: ENODEV (no such map, or the
 * provider is gone), EINVAL (NULL consumer, or the map's label matches no
 * datasheet_name), ENOMEM, or a connection error.
 */
IIOWIRE_EXPORT struct iiowire_channel *iiowire_channel_get(struct iiowire *w,
							   const char *consumer,
							   const char *channel);

/**
 * iiowire_channel_get_all() - every channel of a consumer, in map order.
 * Return: owned NULL-terminated array of owned channels: release with
 * iiowire_channel_release_all(). NULL with errno set: ENODEV (no map for
 * @consumer), EINVAL, ENOMEM, or a connection error. The reads of a channel
 * whose map has no consumer channel name fail with -EOPNOTSUPP (the wire
 * names channels; board files always give one).
 */
IIOWIRE_EXPORT struct iiowire_channel **iiowire_channel_get_all(struct iiowire *w,
								const char *consumer);

/** iiowire_channel_release() - free a channel from iiowire_channel_get(); NULL-safe. */
IIOWIRE_EXPORT void iiowire_channel_release(struct iiowire_channel *ch);

/** iiowire_channel_release_all() - free an array from iiowire_channel_get_all(); NULL-safe. */
IIOWIRE_EXPORT void iiowire_channel_release_all(struct iiowire_channel **chs);

/** iiowire_channel_consumer() - the consumer name. Return: borrowed: valid while @ch is held. */
IIOWIRE_EXPORT const char *iiowire_channel_consumer(const struct iiowire_channel *ch);

/**
 * iiowire_channel_name() - the consumer channel name of the map ("vcc", or ""
 * when the map has none).
 * Return: borrowed: valid while @ch is held.
 */
IIOWIRE_EXPORT const char *iiowire_channel_name(const struct iiowire_channel *ch);

/**
 * iiowire_channel_provider() - the provider device ("max1238") and
 * iiowire_channel_datasheet_name() - its channel ("AIN0"), as last looked up.
 * Return: borrowed: valid while @ch is held and until its next read (a
 * re-lookup after a restart may change them).
 */
IIOWIRE_EXPORT const char *iiowire_channel_provider(const struct iiowire_channel *ch);
IIOWIRE_EXPORT const char *iiowire_channel_datasheet_name(const struct iiowire_channel *ch);

/**
 * iiowire_read_channel_raw() - the provider channel's raw value.
 * Return: the IIO_VAL_* code of the driver's answer (> 0, normally
 * IIO_VAL_INT), -EINVAL if the channel has no raw value, -ENODEV once the
 * provider is gone, or -errno.
 */
IIOWIRE_EXPORT int iiowire_read_channel_raw(struct iiowire_channel *ch, int *val);

/**
 * iiowire_read_channel_processed() - the value in the type's standard unit
 * (mV, milli °C, mA, mW, lux, ...), computed by the daemon's consumer code
 * as current mainline's inkern.c does: the driver's processed value if it
 * has one, else (raw + offset) * scale with the kernel's integer truncation.
 * Return: 0, -EINVAL (a scale or offset type that cannot be applied),
 * -ENODEV, or -errno.
 */
IIOWIRE_EXPORT int iiowire_read_channel_processed(struct iiowire_channel *ch, int *val);

/**
 * iiowire_read_channel_processed_scale() - as processed, multiplied by
 * @scale first (1000: µV from a voltage channel, µW from mW), with the
 * kernel's integer arithmetic, so results equal iio_read_channel_processed_scale().
 * Return: 0, -EINVAL, -ENODEV, or -errno.
 */
IIOWIRE_EXPORT int iiowire_read_channel_processed_scale(struct iiowire_channel *ch, int *val,
							unsigned int scale);

/**
 * iiowire_read_channel_scale() - the channel's scale, exactly.
 * Return: the IIO_VAL_* format of (*val, *val2), kernel numbering (for
 * max1363: IIO_VAL_FRACTIONAL_LOG2 with 2048 and 12), -EINVAL if the channel
 * has no scale, -ENODEV, or -errno.
 */
IIOWIRE_EXPORT int iiowire_read_channel_scale(struct iiowire_channel *ch, int *val, int *val2);

/**
 * iiowire_read_channel_offset() - the channel's offset.
 * Return: as iiowire_read_channel_scale().
 */
IIOWIRE_EXPORT int iiowire_read_channel_offset(struct iiowire_channel *ch, int *val, int *val2);

/**
 * iiowire_convert_raw_to_processed() - turn a raw value already read into a
 * processed one with the channel's current offset and scale (read from the
 * daemon) and the kernel's arithmetic.
 * Return: 0, -EINVAL, -ENODEV, or -errno.
 */
IIOWIRE_EXPORT int iiowire_convert_raw_to_processed(struct iiowire_channel *ch, int raw,
						    int *processed, unsigned int scale);

/**
 * iiowire_get_channel_type() - the provider channel's type.
 * Return: 0, -ENODEV, -EPROTO (a type name this library does not know), or -errno.
 */
IIOWIRE_EXPORT int iiowire_get_channel_type(struct iiowire_channel *ch,
					    enum iio_chan_type *type);

/**
 * iiowire_read_channel_label() - the provider channel's label, as the
 * kernel's iio_read_channel_label() gives it, without the newline.
 * @buf: caller's buffer, NUL-terminated when @len > 0.
 * Return: the length, -EINVAL if the channel has no label, -EFBIG if it does
 * not fit, -ENODEV, or -errno.
 */
IIOWIRE_EXPORT int iiowire_read_channel_label(struct iiowire_channel *ch, char *buf, size_t len);

/**
 * iiowire_chan_type_name() - "voltage" for IIO_VOLTAGE, as sysfs spells it.
 * Return: static string, or NULL for an unknown type.
 */
IIOWIRE_EXPORT const char *iiowire_chan_type_name(int type);

/** iiowire_chan_type_from_name() - the inverse. Return: the type (>= 0), or -EINVAL. */
IIOWIRE_EXPORT int iiowire_chan_type_from_name(const char *name);

/**
 * iiowire_val_type_name() - the wire name of an IIO_VAL_* code.
 * Return: static string ("FRACTIONAL_LOG2"), or NULL for an unknown code.
 */
IIOWIRE_EXPORT const char *iiowire_val_type_name(int type);

/**
 * iiowire_format_value() - format (type, val, val2) as sysfs would show it,
 * without the newline ("0.500000000" for FRACTIONAL_LOG2 2048 12).
 * Return: the length, -EINVAL for an unknown type or a zero divisor, -EFBIG
 * if @buf is too small.
 */
IIOWIRE_EXPORT int iiowire_format_value(char *buf, size_t len, int type, int val, int val2);

/* ---------------------------------------------------------------------------
 * Watching attributes
 *
 * WATCH makes the daemon read an attribute every interval and push the value.
 * Events are queued in the connection while other calls wait for their
 * replies, and handed out by iiowire_event_next() or iiowire_event_dispatch().
 * For an event loop: poll iiowire_fd() for POLLIN, then drain with
 * iiowire_event_next(w, &ev, 0) until it returns 0 (events already queued in
 * the connection do not make the fd readable again).
 */

/**
 * struct iiowire_event - one pushed value.
 * @device/@attr: as given to iiowire_watch_start(). @value: the attribute text
 * without newline, or "" when @error is set. @error: 0, or the -errno the
 * read failed with. @timestamp_ns: the daemon's CLOCK_REALTIME at the read.
 * Strings are borrowed: valid until the next call on the connection.
 */
struct iiowire_event {
	const char *device;
	const char *attr;
	const char *value;
	int error;
	uint64_t timestamp_ns;
};

/**
 * iiowire_watch_start() - subscribe to @attr of @device every @interval_ms;
 * stopped by iiowire_watch_stop(). Subscriptions are sent again after a
 * reconnect.
 * Return: 0, -ENODEV, -ENOENT, -EINVAL (interval out of the daemon's range),
 * or -errno.
 */
IIOWIRE_EXPORT int iiowire_watch_start(struct iiowire *w, const char *device, const char *attr,
				       int interval_ms);

/**
 * iiowire_watch_stop() - end one subscription, or all with @device and
 * @attr NULL. Events already queued stay queued.
 * Return: 0, -ENOENT if no such subscription, or -errno.
 */
IIOWIRE_EXPORT int iiowire_watch_stop(struct iiowire *w, const char *device, const char *attr);

/**
 * iiowire_event_next() - take the next event, waiting up to @timeout_ms for
 * one (0: do not wait; < 0: wait without limit).
 * @ev: caller's struct; its strings are borrowed (see struct iiowire_event).
 * Return: 1 with @ev filled, 0 if none came in time, or -errno (a broken
 * connection is reconnected once, with the watches sent again).
 */
IIOWIRE_EXPORT int iiowire_event_next(struct iiowire *w, struct iiowire_event *ev,
				      int timeout_ms);

/** iiowire_event_pending() - events queued in the connection. Return: the count (>= 0). */
IIOWIRE_EXPORT int iiowire_event_pending(const struct iiowire *w);

/**
 * iiowire_event_cb - called once per event by iiowire_event_dispatch().
 * @ev: borrowed for the duration of the call. @data: the caller's pointer.
 * Return: 0 to go on, non-zero to make iiowire_event_dispatch() return now.
 * The callback must not call the library on the same connection.
 */
typedef int (*iiowire_event_cb)(const struct iiowire_event *ev, void *data);

/**
 * iiowire_event_dispatch() - wait up to @timeout_ms (< 0: without limit) for
 * events and call @cb for each, until @max_events were delivered (0: no
 * limit), the callback returns non-zero, or the time is up.
 * Return: the number of events delivered (>= 0), or -errno (events delivered
 * before the error count as delivered).
 */
IIOWIRE_EXPORT int iiowire_event_dispatch(struct iiowire *w, iiowire_event_cb cb, void *data,
					  int max_events, int timeout_ms);

/* ---------------------------------------------------------------------------
 * Streams: buffered capture (PROTOCOL.md, STREAM)
 *
 * A stream reads whole scans of a device, as a read() of the kernel's
 * /dev/iio:deviceN does, or of a consumer's channels, as the kernel's
 * iio_channel_get_all_cb() buffer consumers get them. Each stream has a
 * connection of its own to the same daemon (same address, timeout and
 * token), as libiio's buffers do, so calls on the connection it was opened
 * from go on meanwhile; the stream's blocks wait in the daemon until they
 * are read (a reader that falls behind loses its oldest blocks, counted in
 * struct iiowire_block.lost, and never slows the capture).
 *
 * A record (format IIOWIRE_STREAM_RAW) is the kernel's: elements in
 * ascending scan index, each aligned to its own size, the timestamp last,
 * storage byte order, top bits as the chip sent them.
 * iiowire_scan_raw() takes one element apart as the ABI says (byte order,
 * shift, realbits, sign); iiowire_scan_processed() applies offset and scale
 * as the kernel's iio_convert_raw_to_processed() does. Formats
 * IIOWIRE_STREAM_CSV and IIOWIRE_STREAM_JSON are decoded by the daemon (the
 * same values, as text).
 *
 * Objects: struct iiowire_stream, made by iiowire_stream_open(), ended by
 * iiowire_stream_close(). It belongs to one thread at a time, like a
 * connection; the connection it was opened from must outlive it (the
 * processed values' scale and offset are read through it at open).
 */

struct iiowire_stream;

/** Scans per block, and channels named in one stream: the daemon's limits. */
#define IIOWIRE_STREAM_SCANS_MAX	4096
#define IIOWIRE_STREAM_CHANNELS_MAX	64

/* struct iiowire_stream_config.format */
enum iiowire_stream_format {
	IIOWIRE_STREAM_RAW = 0,	/* the kernel's records */
	IIOWIRE_STREAM_CSV,	/* one line of processed values per scan, joined by ',' */
	IIOWIRE_STREAM_JSON,	/* one JSON array per block, an array of values per scan */
};

/**
 * struct iiowire_stream_config - what to capture.
 * @device: the device (as iiowire_attr_read() names it); or
 * @consumer: a consumer's channels (consumer_dev_name); exactly one is set.
 * @channels: NULL-terminated list of channel ids as libiio and
 *	protocol/PROTOCOL.md name them ("voltage0", "voltage0-voltage1",
 *	"accel_x", "timestamp"), or consumer channel names; NULL or empty:
 *	every scan element (every channel of the consumer).
 * @trigger: a trigger's name or id, made the device's current trigger (a
 *	write); NULL: the current one.
 * @scans: scans per block, 1..IIOWIRE_STREAM_SCANS_MAX; 0 means 1.
 * @format: enum iiowire_stream_format.
 */
struct iiowire_stream_config {
	const char *device;
	const char *consumer;
	const char *const *channels;
	const char *trigger;
	unsigned int scans;
	int format;
};

/**
 * struct iiowire_scan_channel - one element of the stream's record.
 * @name: its id ("voltage0", "timestamp") or, for a consumer's stream, the
 *	consumer's channel name.
 * @index: its scan index. @offset: bytes into the record.
 * @type: its scan_elements _type ("be:u12/16>>0"), and taken apart:
 * @big_endian, @is_signed, @realbits, @storagebits, @shift, @repeat.
 * @has_scale/@scale_type/@scale_val/@scale_val2 and the same for the
 *	offset: what iiowire_scan_processed() applies (IIO_VAL_* codes).
 */
struct iiowire_scan_channel {
	const char *name;
	int index;
	int offset;
	const char *type;
	int big_endian;
	int is_signed;
	int realbits;
	int storagebits;
	int shift;
	int repeat;
	int has_scale;
	int scale_type;
	int scale_val;
	int scale_val2;
	int has_offset;
	int offset_type;
	int offset_val;
	int offset_val2;
};

/**
 * iiowire_stream_open() - start a stream.
 * @w: the connection whose address, token and timeout the stream's own
 *	connection takes, and through which scale and offset are read.
 * The call returns once the capture runs (the kernel's enable sequence has
 * passed), within @w's timeout.
 * Return: owned stream: end with iiowire_stream_close(). NULL with errno
 * set: EINVAL (no such channel set in the scan masks, no trigger, a device
 * without a buffer, a bad @cfg), ENOENT (no such channel), ENODEV (no such
 * device, consumer or trigger), ERANGE (@scans), EBUSY (another trigger is
 * current while the device captures, too many streams or readers), EACCES
 * (setting the trigger on a read-only daemon), ENOMEM, or a connection
 * error; iiowire_errmsg(@w) holds the daemon's message.
 */
IIOWIRE_EXPORT struct iiowire_stream *iiowire_stream_open(struct iiowire *w,
							  const struct iiowire_stream_config *cfg);

/*
 * Output (PROTOCOL.md, PLAY): a stream the other way. iiowire_play_open()
 * makes the connection the output device's one writer; iiowire_play_send()
 * hands it a block of records in the layout iiowire_stream_channels() and
 * iiowire_stream_scan_bytes() describe, which the device plays one scan
 * per poll of its trigger; iiowire_stream_close() stops it (the outputs
 * keep their last codes).
 */

/**
 * struct iiowire_play_config - what to play.
 * @device: the output device; @channels: NULL-terminated output channel
 *	ids, NULL or empty for all; @trigger: as for a stream.
 * @scans: scans per block (the most one iiowire_play_send() takes),
 *	1..IIOWIRE_STREAM_SCANS_MAX; 0 means 1.
 * @cyclic: non-zero: the first block sent is played over and over.
 */
struct iiowire_play_config {
	const char *device;
	const char *const *channels;
	const char *trigger;
	unsigned int scans;
	int cyclic;
};

/**
 * iiowire_play_open() - start playing on an output device.
 * Return: owned stream (raw records; end with iiowire_stream_close()), or
 * NULL with errno set: EBUSY (another writer plays the device), EINVAL (no
 * output buffer, no trigger, a bad @cfg), ENOENT, ENODEV, ERANGE, EACCES,
 * ENOMEM, or a connection error; iiowire_errmsg(@w) holds the message.
 */
IIOWIRE_EXPORT struct iiowire_stream *iiowire_play_open(struct iiowire *w,
							const struct iiowire_play_config *cfg);

/**
 * iiowire_play_send() - one block: @bytes of whole records, at most the
 * block size. Returns once all of it is queued in the daemon: a writer
 * faster than the trigger waits here (up to the stream's timeout,
 * iiowire_stream_set_timeout(); -1: no limit).
 * Return: the polls that found nothing to play since the start
 * (underruns), or -errno: EINVAL (not whole records, over a block), EBUSY
 * (a cyclic stream's second block), ENODEV (the device went away),
 * ETIMEDOUT, a connection error; iiowire_stream_errmsg() says more.
 */
IIOWIRE_EXPORT long long iiowire_play_send(struct iiowire_stream *s, const void *recs,
					   size_t bytes);

/**
 * iiowire_stream_close() - stop the stream (UNSTREAM), close its connection
 * and free it; NULL-safe. Blocks not yet read are dropped.
 */
IIOWIRE_EXPORT void iiowire_stream_close(struct iiowire_stream *s);

/**
 * iiowire_stream_channels() - the record's elements, in record order.
 * @chans: set to the array; borrowed: valid until iiowire_stream_close().
 * Return: the number of elements (>= 1).
 */
IIOWIRE_EXPORT int iiowire_stream_channels(const struct iiowire_stream *s,
					   const struct iiowire_scan_channel **chans);

/**
 * iiowire_stream_scan_bytes() - the size of one raw record.
 * Return: bytes (> 0).
 */
IIOWIRE_EXPORT size_t iiowire_stream_scan_bytes(const struct iiowire_stream *s);

/**
 * iiowire_stream_device() - the device's "iio:deviceN" and
 * iiowire_stream_trigger() - the trigger's name, as the daemon answered.
 * Return: borrowed: valid until iiowire_stream_close().
 */
IIOWIRE_EXPORT const char *iiowire_stream_device(const struct iiowire_stream *s);
IIOWIRE_EXPORT const char *iiowire_stream_trigger(const struct iiowire_stream *s);

/**
 * struct iiowire_block - one block of a stream.
 * @data/@bytes: the payload: @scans raw records (IIOWIRE_STREAM_RAW),
 *	@scans CSV lines each ended by '\n' (IIOWIRE_STREAM_CSV), or one JSON
 *	array of @scans arrays (IIOWIRE_STREAM_JSON). Borrowed: valid until the
 *	next call on the stream.
 * @scans: the scans in it. @lost: scans this reader lost since the previous
 *	block (its queue overflowed, or the chip's FIFO overran).
 */
struct iiowire_block {
	const void *data;
	size_t bytes;
	unsigned int scans;
	uint64_t lost;
};

/**
 * iiowire_stream_read() - the next block, waiting up to the stream's
 * timeout (the connection's at open; iiowire_stream_set_timeout()).
 * Return: 0 with @blk filled; -ETIMEDOUT when none came in time (the
 * stream goes on: a block half received is kept for the next call). Once
 * the stream is over, this and every later call return why: the -errno the
 * daemon ended it with (-ENODEV: the device was removed; -EIO, -ETIMEDOUT,
 * ... from the bus), -ECONNRESET when its connection broke, -EPROTO for
 * input that is no block; iiowire_stream_errmsg() says more. Open it again
 * to go on.
 */
IIOWIRE_EXPORT int iiowire_stream_read(struct iiowire_stream *s, struct iiowire_block *blk);

/**
 * iiowire_stream_errmsg() - why the last call on @s failed: the daemon's
 * STREAMEND message ("max1363 removed by a board reload") or a local one.
 * Return: borrowed: valid until the next call on @s; "" after a success.
 */
IIOWIRE_EXPORT const char *iiowire_stream_errmsg(const struct iiowire_stream *s);

/**
 * iiowire_stream_set_timeout() - how long iiowire_stream_read() waits.
 * @timeout_ms: > 0, or < 0 for no limit.
 * Return: 0, or -EINVAL for 0.
 */
IIOWIRE_EXPORT int iiowire_stream_set_timeout(struct iiowire_stream *s, int timeout_ms);

/**
 * iiowire_stream_fd() - the stream's socket, for poll() (POLLIN: a block
 * may be ready; blocks already buffered in the stream do not make it
 * readable, see iiowire_stream_pending()). Do not read it.
 * Return: the fd (>= 0), or -ENOTCONN once the stream is over.
 */
IIOWIRE_EXPORT int iiowire_stream_fd(const struct iiowire_stream *s);

/**
 * iiowire_stream_pending() - whether a whole block is already buffered, so
 * iiowire_stream_read() returns it without waiting.
 * Return: 1 or 0.
 */
IIOWIRE_EXPORT int iiowire_stream_pending(const struct iiowire_stream *s);

/**
 * iiowire_stream_cb - called once per block by iiowire_stream_dispatch().
 * @blk: borrowed for the duration of the call. @data: the caller's pointer.
 * Return: 0 to go on, non-zero to make iiowire_stream_dispatch() return.
 * The callback may decode @blk (iiowire_scan_*()), but must not read or
 * close the stream.
 */
typedef int (*iiowire_stream_cb)(struct iiowire_stream *s, const struct iiowire_block *blk,
				 void *data);

/**
 * iiowire_stream_dispatch() - read blocks and call @cb for each, until
 * @max_blocks were delivered (0: no limit), the callback returns non-zero,
 * or @timeout_ms passed (< 0: no limit; the whole call, not per block).
 * Return: the number of blocks delivered (>= 0; a timeout ends the call
 * with what was delivered), or, when the stream ends before any block was
 * delivered, its -errno as iiowire_stream_read() gives it (the next read
 * gives it too, so nothing is lost after a partial count).
 */
IIOWIRE_EXPORT int iiowire_stream_dispatch(struct iiowire_stream *s, iiowire_stream_cb cb,
					   void *data, int max_blocks, int timeout_ms);

/**
 * iiowire_scan_raw() - one element of a raw record as the ABI decodes it
 * (iio_generic_buffer's print2byte): byte-swapped from its storage order,
 * shifted right by its shift, cut to realbits and sign-extended when
 * signed; the timestamp is its s64 ns. Elements with repeat > 1 give their
 * first value.
 * @record: one record of iiowire_stream_scan_bytes() bytes.
 * @chan: the element's position in iiowire_stream_channels().
 * Return: 0 with *@raw set, -EINVAL for a bad @chan.
 */
IIOWIRE_EXPORT int iiowire_scan_raw(const struct iiowire_stream *s, const void *record,
				    int chan, int64_t *raw);

/**
 * iiowire_scan_processed() - one element in the channel type's unit (mV,
 * m°C, ...) times @scale, as the kernel's iio_convert_raw_to_processed()
 * computes it from the raw value: (raw + offset) x scale, integer
 * arithmetic, the channel's raw value when it has no scale. The offset and
 * scale are those read at open: exact (IIO_VAL_* with val, val2) for a
 * consumer's stream; for a device stream the sysfs text of the channel's
 * _scale/_offset, which for a FRACTIONAL scale is rounded to 9 decimals
 * (a last-digit difference from the kernel is possible there).
 * @scale: the kernel's scale argument (1: the unit itself, 1000: µV ...).
 * Return: 0, -EINVAL (bad @chan, the timestamp, a scale type that cannot
 * be applied), -ERANGE (the result does not fit in an int).
 */
IIOWIRE_EXPORT int iiowire_scan_processed(const struct iiowire_stream *s, const void *record,
					  int chan, int *val, unsigned int scale);

/* ---------------------------------------------------------------------------
 * IIO events
 *
 * A stream of one device's IIO events (thresholds crossed, steps counted):
 * the daemon's SUBSCRIBE. Each event carries the kernel's struct
 * iio_event_data (the 64-bit event code and its timestamp in ns on the
 * device's current_timestamp_clock), and the decoders are named after
 * libiio 1.0's iio_event_get_*(). A connection holds at most one stream
 * per device; streams are sent again after a reconnect. A stream is read
 * from the thread that uses its connection.
 */

struct iiowire_event_stream;

/**
 * struct iiowire_iio_event - one IIO event.
 * @data: the kernel's record: .id (event code), .timestamp (ns).
 * @device: the stream's device, as opened (borrowed from the stream).
 * @lost: events dropped for this stream just before this one (a reader
 *	that fell behind: the daemon drops the oldest and counts them).
 */
struct iiowire_iio_event {
	struct iio_event_data data;
	const char *device;
	uint64_t lost;
};

/**
 * iiowire_event_stream_open() - start receiving @device's IIO events,
 * all of them or those of @channel ("voltage0", "activity_running"; NULL
 * for any) and of @evtype ("thresh", "change"; NULL for any).
 * @out: the stream (owned: iiowire_event_stream_close()).
 * Return: 0; -ENODEV (no such device, or it has no events), -ENOENT (no
 * such channel or event type on it), -EINVAL, -EBUSY (a stream of that
 * device is already open on @w, or the daemon's per-connection limit),
 * -ENOMEM, or the connection's -errno.
 */
IIOWIRE_EXPORT int iiowire_event_stream_open(struct iiowire *w, const char *device,
					     const char *channel, const char *evtype,
					     struct iiowire_event_stream **out);

/**
 * iiowire_event_stream_read() - the next event, waiting up to @timeout_ms
 * (0: do not wait; < 0: without limit).
 * Return: 1 with @ev filled; 0 when none came in time; -ENODEV once the
 * device left the daemon's board (the stream has ended); or -errno.
 */
IIOWIRE_EXPORT int iiowire_event_stream_read(struct iiowire_event_stream *st,
					     struct iiowire_iio_event *ev, int timeout_ms);

/**
 * iiowire_event_stream_close() - stop the stream and free it (events not
 * read are dropped). NULL-safe. Close streams before their connection.
 */
IIOWIRE_EXPORT void iiowire_event_stream_close(struct iiowire_event_stream *st);

/** iiowire_event_get_type() - the event type (enum iio_event_type: IIO_EV_TYPE_THRESH, ...). */
IIOWIRE_EXPORT int iiowire_event_get_type(const struct iiowire_iio_event *ev);
/** iiowire_event_get_direction() - enum iio_event_direction (IIO_EV_DIR_RISING, ...). */
IIOWIRE_EXPORT int iiowire_event_get_direction(const struct iiowire_iio_event *ev);
/** iiowire_event_get_chan_type() - the channel type (enum iio_chan_type). */
IIOWIRE_EXPORT int iiowire_event_get_chan_type(const struct iiowire_iio_event *ev);
/** iiowire_event_get_modifier() - the modifier (enum iio_modifier; 0 for none). */
IIOWIRE_EXPORT int iiowire_event_get_modifier(const struct iiowire_iio_event *ev);
/**
 * iiowire_event_get_channel() - the channel number, or with @diff the
 * negative input of a differential pair.
 * Return: the number (>= 0), or -1 (no number; @diff for a code that is
 * not differential).
 */
IIOWIRE_EXPORT int iiowire_event_get_channel(const struct iiowire_iio_event *ev, bool diff);
/**
 * iiowire_event_format() - the line tools/iio/iio_event_monitor prints for
 * @ev, without the newline ("Event: time: ..., type: voltage, ...").
 * Return: 1 for a line the tool prints on stdout, 0 for its stderr
 * "Unknown event: ..." line.
 */
IIOWIRE_EXPORT int iiowire_event_format(char *buf, size_t len, const struct iiowire_iio_event *ev);

#ifdef __cplusplus
}
#endif

#endif /* IIOWIRE_H */
