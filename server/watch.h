/*
 * watch.h - WATCH and UNWATCH: an attribute read every N ms, pushed as events.
 *
 * A watch is a uv_timer owned by its session. Each tick reads the attribute
 * (on the loop, or through the bus worker when the device can block; a tick
 * is skipped while the previous one is still on the bus) and appends an
 * EVENT line in the spelling of the WATCH that made it. The device is found
 * again after a board reload, so a watch follows its name. Place in the
 * flow: dispatch -> *watch* -> core / busq -> session output. A watch's
 * memory goes in its timer's close callback.
 */
#ifndef IIOWIRE_SRV_WATCH_H
#define IIOWIRE_SRV_WATCH_H

#include "proto.h"

struct srv_session;

/* Watches one connection may hold. */
#define SRV_WATCH_MAX_PER_SESSION	32

/** srv_watch_request() - answer a WATCH (start, or change the interval of) request. */
void srv_watch_request(struct srv_session *s, const struct proto_request *req);
/** srv_watch_unwatch() - answer UNWATCH (one watch, or all with no device). */
void srv_watch_unwatch(struct srv_session *s, const struct proto_request *req);
/** srv_watch_stop_all() - end every watch of @s (closing); no output. */
void srv_watch_stop_all(struct srv_session *s);

#endif /* IIOWIRE_SRV_WATCH_H */
