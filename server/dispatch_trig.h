/*
 * dispatch_trig.h - triggers as devices on the native protocol, as in the
 * kernel's /sys/bus/iio/devices: each trigger a device "triggerN" (its
 * files name, sampling_frequency, trigger_now) and the sysfs trigger's
 * control device "iio_sysfs_trigger" (add_trigger, remove_trigger).
 *
 * dispatch.c asks here when a request's device word names no iio:deviceN:
 * DEVICE, ATTRS, CHANNELS (none), READ and WRITE of a trigger are answered
 * on the loop (a trigger's files touch no bus). acl.c walks the same list
 * for --allow-write's report. Place in the flow: dispatch -> *dispatch_trig*
 * -> core triggers.
 */
#ifndef IIOWIRE_SRV_DISPATCH_TRIG_H
#define IIOWIRE_SRV_DISPATCH_TRIG_H

#include <stdbool.h>

#include "proto.h"

struct srv;
struct srv_session;
struct iio_trigger;

/* The control device's directory name, as in sysfs. */
#define SRV_TRIGDEV_SYSFS_CTL	"iio_sysfs_trigger"

/**
 * struct srv_trigdev - one trigger device as a request sees it.
 * @trig: the trigger; NULL for iio_sysfs_trigger (the board's, or with
 *	--kernel the kernel's: iio_trigger_ctl_present()).
 * @id: "trigger0" or "iio_sysfs_trigger"; @name: the trigger's name (the
 *	control device has no name file: its directory name).
 * @names: what a request or an --allow-write pattern may call it.
 */
struct srv_trigdev {
	struct iio_trigger *trig;
	char id[24];
	const char *name;
	const char *names[2];
	int nnames;
};

/** srv_trigdev_count() - trigger devices DEVICES lists after the iio:deviceN ones. */
int srv_trigdev_count(const struct srv *srv);
/** srv_trigdev_at() - the @i-th (iio_sysfs_trigger first, then trigger0, ...). */
void srv_trigdev_at(const struct srv *srv, int i, struct srv_trigdev *td);
/** srv_trigdev_find() - by triggerN, a trigger's name or iio_sysfs_trigger. */
bool srv_trigdev_find(const struct srv *srv, const char *key, struct srv_trigdev *td);
/** srv_trigdev_files() - @td's files, NULL-ended, in sysfs order. */
const char *const *srv_trigdev_files(const struct srv *srv, const struct srv_trigdev *td);
/** srv_trigdev_attr_mode() - the sysfs mode of @td's file @attr, 0 for none. */
unsigned int srv_trigdev_attr_mode(const struct srv *srv, const struct srv_trigdev *td,
				   const char *attr);
/**
 * srv_trigdev_read_file() - @td's file @attr into @buf (with its newline).
 * Return: its length, or -errno as the kernel's (-EACCES write-only).
 */
int srv_trigdev_read_file(const struct srv *srv, const struct srv_trigdev *td, const char *attr,
			  char *buf, size_t len);

/**
 * srv_trigdev_write_file() - write @value to @td's file @attr (no policy
 * check: the caller's). trigger_now polls at CLOCK_REALTIME now.
 * Return: 0 or -errno as the kernel's store.
 */
int srv_trigdev_write_file(struct srv *srv, const struct srv_trigdev *td, const char *attr,
			   const char *value);

/**
 * srv_trigdev_answer() - answer DEVICE, ATTRS, CHANNELS, READ or WRITE of
 * @td (the --read-only check is the caller's, made before the lookup).
 * Return: false for another op (the caller answers "no device").
 */
bool srv_trigdev_answer(struct srv_session *s, const struct proto_request *req,
			const struct srv_trigdev *td);

/** srv_trigdev_list() - DEVICES items @i0.. for every trigger device. Return: 0, -ENOMEM. */
int srv_trigdev_list(struct srv *srv, struct proto_buf *b, const struct proto_request *req,
		     int i0);

#endif /* IIOWIRE_SRV_DISPATCH_TRIG_H */
