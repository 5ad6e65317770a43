/*
 * events.h - SUBSCRIBE and UNSUBSCRIBE: a device's IIO events pushed to
 * the connections that asked for them.
 *
 * The server is each device's one event reader (iio_event_open()); a
 * device's events fan out to every subscription on it, each with its own
 * bounded queue, in the order the device pushed them. A subscription moves
 * events to its connection's output only while that output is short: a
 * client that does not read loses its own oldest events, counted in an
 * IIOEVENTLOST line, and delays no one else. These are not WATCH's EVENT
 * lines (periodic attribute reads): the words are IIOEVENT,
 * IIOEVENTLOST and IIOEVENTEND. Place in the flow: driver -> core queue
 * -> *events* -> session output. Loop thread only, except the wake-up.
 */
#ifndef IIOWIRE_SRV_EVENTS_H
#define IIOWIRE_SRV_EVENTS_H

#include "proto.h"

struct srv;
struct srv_session;

/* Devices one connection may subscribe to at once. */
#define SRV_EVENT_SUBS_MAX_PER_SESSION	32
/* Events a subscription holds for a slow reader; one more drops the oldest. */
#define SRV_EVENT_QUEUE_MAX		256
/* Output a connection may have queued before its events wait in their queue. */
#define SRV_EVENT_OUT_MAX_BYTES		(64 * 1024)

/** srv_events_init() - the wake-up handle; Return: 0 or a negative libuv error. */
int srv_events_init(struct srv *srv);
/** srv_events_fini() - close it at shutdown (every session is gone by then). */
void srv_events_fini(struct srv *srv);
/**
 * srv_events_reload() - after a board reload: subscriptions follow the
 * device names they gave to the new board; one whose device is gone gets
 * IIOEVENTEND ENODEV and ends.
 */
void srv_events_reload(struct srv *srv);
/**
 * srv_events_devices_gone() - hotplug took the @n devices of @gone off the
 * board: their subscriptions end with IIOEVENTEND ENODEV; the others'
 * are left alone.
 */
struct iio_dev;
void srv_events_devices_gone(struct srv *srv, struct iio_dev *const *gone, int n);

/** srv_events_subscribe() - answer SUBSCRIBE (a new subscription, or a new filter). */
void srv_events_subscribe(struct srv_session *s, struct proto_request *req);
/** srv_events_unsubscribe() - answer UNSUBSCRIBE (one device, or all with none). */
void srv_events_unsubscribe(struct srv_session *s, struct proto_request *req);
/**
 * srv_events_session_close() - end every subscription (or event stream) of
 * @s (closing); no output.
 */
void srv_events_session_close(struct srv_session *s);
struct proto_iiodb_cmd;
/**
 * srv_events_iiodb() - libiio 1.0's CREATE_EVSTREAM, READ_EVENT and
 * FREE_EVSTREAM on @dev (NULL: a device without events, a trigger), from
 * the iiod listener's binary row: every event of the device, one per
 * READ_EVENT, on the same queues as SUBSCRIBE's (a slow reader loses its
 * oldest, unreported: the protocol has no word for it).
 */
void srv_events_iiodb(struct srv_session *s, struct iio_dev *dev, const struct proto_iiodb_cmd *c);
/** srv_events_writable() - @s's output drained: move what its subscriptions hold. */
void srv_events_writable(struct srv_session *s);

#endif /* IIOWIRE_SRV_EVENTS_H */
