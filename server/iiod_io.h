/*
 * iiod_io.h - one attribute request of the iiod listener's two rows (the
 * 0.24 text protocol in iiod_proto.c, libiio 1.0's binary one in
 * iiodb_proto.c): made on the loop, run there or on the device's bus
 * worker (busq.c), its framed answer put in the session's reply order.
 * Private to those two files.
 */
#ifndef IIOWIRE_SRV_IIOD_IO_H
#define IIOWIRE_SRV_IIOD_IO_H

#include <stdbool.h>
#include <stdint.h>

#include "busq.h"
#include "iio_core.h"
#include "proto.h"

struct srv_session;
struct srv_slot;
struct iio_trigger;

/*
 * struct srv_iiod_io - one READ or WRITE (one attribute or all of them).
 * Made on the loop; @run is the one piece of code a bus worker executes,
 * and it touches only this struct and the device.
 * @bin: answered in binary frames for @client_id (else text lines).
 */
struct srv_iiod_io {
	struct srv_job job;
	struct srv_session *s;		/* valid while @slot is set */
	struct srv_slot *slot;		/* cleared by the session if it closes first */
	struct iio_dev *dev;		/* referenced */
	/* what it does: append its framed answer to @out; 0, or -ENOMEM (nothing kept) */
	int (*run)(struct srv_iiod_io *io, struct proto_buf *out);
	struct iio_trigger *trig;	/* SETTRIG: a reference */
	const struct iio_attr *one;
	const struct iio_attr **attrs;	/* @all: owned array; else &@one */
	int nattrs;
	char *wbuf;			/* WRITE payload (owned) */
	size_t wlen;
	bool bin;
	uint16_t client_id;
	struct proto_buf reply;		/* on a bus: the framed answer */
	char val[IIO_VALUE_MAX_BYTES + 1];
};

/** srv_iiod_io_new() - a request on attribute @a (may be NULL) of @dev; NULL: -ENOMEM. */
struct srv_iiod_io *srv_iiod_io_new(struct iio_dev *dev, const struct iio_attr *a);
/** srv_iiod_io_free() - drop a request that was never started. */
void srv_iiod_io_free(struct srv_iiod_io *io);
/**
 * srv_iiod_io_code() - a status answer for @io's row (a text integer line,
 * or a binary RESPONSE for its client id). Return: 0 or -ENOMEM.
 */
int srv_iiod_io_code(const struct srv_iiod_io *io, struct proto_buf *b, long long code);
/** srv_iiod_io_start() - run @io now or on its bus; @io is consumed either way. */
void srv_iiod_io_start(struct srv_session *s, struct srv_iiod_io *io);

#endif /* IIOWIRE_SRV_IIOD_IO_H */
