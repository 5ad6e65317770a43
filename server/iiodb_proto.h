/*
 * iiodb_proto.h - libiio 1.0's binary protocol row of the iiod listener.
 *
 * A session starts on the 0.24 text row (iiod_proto.c); "BINARY" answered
 * 0 switches it to this row for the rest of the connection. Commands name
 * devices, channels, attributes and blocks by number, as the 1.0 XML
 * (iiod_xml.c's xml1) orders them; answers are tagged with the client id
 * of their command and leave when ready: attribute I/O in order through
 * the bus workers' reply slots, block data when the capture fills it,
 * events when they fire. Buffers and blocks are stream_iiodb.c's, event
 * streams events.c's. Place in the flow: session -> *iiod binary row* ->
 * core / busq / streams / events.
 */
#ifndef IIOWIRE_SRV_IIODB_PROTO_H
#define IIOWIRE_SRV_IIODB_PROTO_H

#include <stdint.h>

#include "iiod_binary.h"
#include "list.h"

struct srv_session;
struct srv_iiod_bdev;

/*
 * Limits (PROTOCOL-iiod.md): event streams one connection holds; blocks one
 * buffer holds, and the largest block.
 */
#define SRV_IIODB_EVSTREAMS_MAX		32
#define SRV_IIODB_BLOCKS_MAX		64
#define SRV_IIODB_BLOCK_MAX_BYTES	(4 * 1024 * 1024)
/* An output buffer's block: what one SEND carries (PROTO_SEND_BYTES_MAX). */
#define SRV_IIODB_OUT_BLOCK_MAX_BYTES	(1024 * 1024)

/**
 * struct srv_iiodb_conn - a binary session's own state, made by BINARY.
 * @gen: srv->iiod_model_gen of the XML the client read (PRINT); 0 before.
 *	Numbers from an older model are refused (-ESTALE).
 * @timeout_ms: TIMEOUT's value: how long a block waits for its data; <= 0 none.
 * @evstreams: its CREATE_EVSTREAMs (events.c); @nevstreams how many;
 *	@ev_flush: it is on events.c's flush list.
 */
struct srv_iiodb_conn {
	struct proto_iiodb_dec dec;
	uint64_t gen;
	int timeout_ms;
	struct srv_list evstreams;
	unsigned int nevstreams;
	bool ev_flush;			/* on events.c's flush list */
};

/* The row (session.h's struct srv_proto_ops). */
extern const struct srv_proto_ops srv_proto_iiodb;

/**
 * srv_iiodb_begin() - BINARY: @s speaks the binary row from its next byte.
 * Return: 0 (answer it, then stop feeding the text row), or -ENOMEM.
 */
int srv_iiodb_begin(struct srv_session *s);

/** srv_iiodb_answer() - a status answer to @client_id (counted when negative). */
void srv_iiodb_answer(struct srv_session *s, uint16_t client_id, int32_t code);

/* stream_iiodb.c: OPEN/CLOSE/ENABLE/DISABLE_BUFFER and the block commands on @bd. */
void srv_iiodb_buffer_cmd(struct srv_session *s, const struct srv_iiod_bdev *bd,
			  const struct proto_iiodb_cmd *c);
/* stream_iiodb.c: the connection ends: its buffers go. */
void srv_iiodb_buffers_close(struct srv_session *s);

#endif /* IIOWIRE_SRV_IIODB_PROTO_H */
