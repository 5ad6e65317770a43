/*
 * iiowire_req.h - libiiowire's internal request API (request.c), for the
 * library's own API files.
 *
 * An API file fills a struct proto_request (protocol/proto.h) with the op and
 * its arguments, calls iiowire_req_run() and reads the decoded struct
 * proto_reply. Only the library's files include this header; it is where
 * protocol/ enters the client, so iiowire.h stays free of it.
 */
#ifndef IIOWIRE_REQ_H
#define IIOWIRE_REQ_H

#include <stdbool.h>
#include "proto.h"

struct iiowire;

int iiowire_req_run(struct iiowire *w, struct proto_request *req, bool idempotent,
		    struct proto_reply *r);
int iiowire_req_reconnect(struct iiowire *w);
int iiowire_req_drain(struct iiowire *w);
int iiowire_req_wait(struct iiowire *w, int64_t deadline,
		     bool (*ready)(struct iiowire *w, void *ctx), void *ctx);
/* A line that is not the awaited reply: events to their queues, the rest dropped. */
void iiowire_req_unsolicited(struct iiowire *w, struct proto_reply *r);

#endif /* IIOWIRE_REQ_H */
