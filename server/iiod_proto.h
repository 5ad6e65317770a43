/*
 * iiod_proto.h - the iiod protocol row: libiio's iiod 0.24 over a session.
 *
 * With --iiod-listen, the daemon also accepts libiio clients (iio_info,
 * iio_attr, the Python bindings, ...) and answers them in iiod 0.24's text
 * protocol from the same registry, the same limits, the same read-only
 * switch and the same bus workers as the native protocol. Its listeners
 * and sessions are the daemon's own (listener.c, session.c): this row is
 * what the bytes mean - requests, the WRITE payload, the XML model (in
 * iiod_xml.c), the wire codec (protocol/iiod.h). Place in the flow:
 * session -> *iiod row* -> core / busq. Off unless asked for.
 */
#ifndef IIOWIRE_SRV_IIOD_PROTO_H
#define IIOWIRE_SRV_IIOD_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "list.h"
#include <stdio.h>

#include "iiod.h"

struct srv;
struct srv_config;
struct srv_iiodb_conn;

/**
 * struct srv_iiod_conn - an iiod session's own state: a WRITE waiting for
 * its payload.
 * @in_payload: the payload of @wcmd is still coming.
 * @wcmd: the WRITE (owned, while @in_payload; NULL when out of memory).
 * @werr: answer this once the payload is skipped; 0: apply it.
 * @wleft: payload bytes still to come.
 * @wbuf: the payload so far, when applied (owned); @wlen its bytes.
 */
struct srv_iiod_conn {
	struct srv_list readers;	/* its OPENs (stream_iiod.c) */
	unsigned int timeout_ms;	/* TIMEOUT's value; 0: the default */
	bool in_payload;
	struct proto_iiod_cmd *wcmd;
	int werr;
	uint64_t wleft;
	char *wbuf;
	size_t wlen;
	struct srv_iiodb_conn *bin;	/* after BINARY: libiio 1.0's row (iiodb_proto.c) */
};

/* The row (session.h's struct srv_proto_ops). */
extern const struct srv_proto_ops srv_proto_iiod;

/**
 * srv_iiod_config_check() - the iiod options against the rest: with an
 * authentication token configured, iiod (which has no authentication)
 * must be acknowledged with --iiod-unauthenticated.
 * Return: 0, or -EACCES with @err saying what to do.
 */
int srv_iiod_config_check(const struct srv_config *cfg, char *err, size_t errlen);

/** srv_iiod_usage() - the iiod part of --help. */
void srv_iiod_usage(FILE *out);

/**
 * srv_iiod_start() - build the model of the board, so a board iiod cannot
 * describe fails at start; nothing happens with no --iiod-listen.
 * Return: 0, or -ENOMEM (logged).
 */
int srv_iiod_start(struct srv *srv);

/** srv_iiod_fini() - free the model (srv_destroy()). */
void srv_iiod_fini(struct srv *srv);

struct srv_iiod_ctx;
/**
 * srv_iiod_model() - the model and XML of the current board, rebuilt when the
 * registry or its triggers changed (srv->iiod_model_gen counts the builds).
 * Return: borrowed until the next turn of the loop, or NULL (-ENOMEM, logged).
 */
const struct srv_iiod_ctx *srv_iiod_model(struct srv *srv);

#endif /* IIOWIRE_SRV_IIOD_PROTO_H */
