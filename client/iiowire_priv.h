/*
 * iiowire_priv.h - libiiowire's private structures, shared by its own files.
 *
 * The connection handle, the parsed address, the event queue and the
 * internal calls between the library's files: conn.c (sockets, lines,
 * timeouts), request.c (one request, one reply, reconnect and retry),
 * errors.c (errno names), and the API files on top (device.c, consumer.c,
 * watch.c). Nothing here is exported; programs include iiowire.h only.
 * Must not include protocol/ or drivers/ headers, so that every file that
 * includes it stays independent of them; request.c keeps those to itself.
 */
#ifndef IIOWIRE_PRIV_H
#define IIOWIRE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "iiowire.h"

/* Bytes of input read per recv(); lines may be longer and are joined. */
#define IIOWIRE_RECV_CHUNK_BYTES	16384
/* Longest message kept for iiowire_errmsg(). */
#define IIOWIRE_ERRMSG_MAX_BYTES	512
/*
 * Largest block payload a stream accepts: 4096 scans of a CSV line of 64
 * values of at most 21 characters, with room to spare; more is -EMSGSIZE.
 */
#define IIOWIRE_STREAM_BLOCK_MAX_BYTES	(8 * 1024 * 1024)
/* Largest repeat count of a scan element's _type ("...X<repeat>>>..."). */
#define IIOWIRE_SCAN_REPEAT_MAX		256
/* Events queued in a connection before the oldest are dropped (counted). */
#define IIOWIRE_EVENT_QUEUE_MAX		4096

/* A parsed address: AF_UNIX path, or host and port for getaddrinfo(). */
struct iiowire_addr {
	bool is_unix;
	char host[IIOWIRE_ADDRESS_MAX_BYTES];	/* or the unix path */
	char port[8];
	/* "host:port", "[v6]:port" or "unix:/path" */
	char normal[IIOWIRE_ADDRESS_MAX_BYTES + 16];
};

/* One queued event; one allocation holding the struct and its strings. */
struct iiowire_qevent {
	struct iiowire_qevent *next;
	struct iiowire_event ev;	/* strings point into buf */
	char buf[];
};

/* One subscription, sent again after a reconnect. */
struct iiowire_watch {
	struct iiowire_watch *next;
	int interval_ms;
	char *device;	/* owned, as are attr */
	char *attr;
};

struct iiowire {
	/* configuration, fixed at connect time */
	struct iiowire_addr addr;
	int timeout_ms;
	char *token;			/* owned, NULL without AUTH */

	/* the socket and its input buffer */
	int fd;				/* -1 while disconnected */
	char *in;			/* owned; unread bytes are in[in_off, in_len) */
	size_t in_off;
	size_t in_len;
	size_t in_cap;
	char *line;			/* the last line taken (in in[]), until the next read */

	/* request bookkeeping */
	uint64_t next_id;
	/*
	 * The end of the current API call (CLOCK_MONOTONIC ms), 0 outside one:
	 * every wait of the call, reconnect included, ends by it, however many
	 * unsolicited lines arrive meanwhile (a total deadline, as hiredis and
	 * curl keep).
	 */
	int64_t call_deadline;
	unsigned int reconnects;
	bool in_reconnect;		/* AUTH/WATCH replays must not reconnect again */

	/* events and subscriptions */
	struct iiowire_qevent *evq_head;	/* owned list, oldest first */
	struct iiowire_qevent *evq_tail;
	int evq_len;
	unsigned long evq_dropped;
	struct iiowire_qevent *ev_current;	/* owned: the one last handed out */
	struct iiowire_watch *watches;		/* owned list */
	struct iiowire_event_stream *streams;	/* open IIO event streams (events.c) */

	char errmsg[IIOWIRE_ERRMSG_MAX_BYTES];
};

/* conn.c */
int iiowire_conn_parse_address(const char *text, struct iiowire_addr *addr);
int iiowire_conn_open(struct iiowire *w);
void iiowire_conn_shut(struct iiowire *w);
int64_t iiowire_conn_deadline(int timeout_ms);
bool iiowire_conn_expired(int64_t deadline);
int iiowire_conn_send(struct iiowire *w, const char *buf, size_t len, int64_t deadline);
int iiowire_conn_read_line(struct iiowire *w, int64_t deadline, char **line, size_t *len);
int iiowire_conn_pump(struct iiowire *w);
bool iiowire_conn_has_line(const struct iiowire *w);
bool iiowire_conn_is_broken_err(int err);
int iiowire_conn_read_bytes(struct iiowire *w, int64_t deadline, size_t n, const char **p);
size_t iiowire_conn_buffered(const struct iiowire *w);

/* scan.c: raw records (see iiowire_scan_raw() in iiowire.h) */
int iiowire_scan_type_parse(const char *text, struct iiowire_scan_channel *ch);
int64_t iiowire_scan_extract(const struct iiowire_scan_channel *ch, const void *record);
int iiowire_scan_convert(const struct iiowire_scan_channel *ch, int64_t raw, int *val,
			 unsigned int scale);

/* errors.c */
void iiowire_err_set(struct iiowire *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void iiowire_err_clear(struct iiowire *w);
/* Fill errmsg with a local description of @err when the caller has none; returns @err. */
int iiowire_err_local(struct iiowire *w, int err, const char *what);
/* Keep @msg for iiowire_connect_errmsg() ("" on success). */
void iiowire_err_keep_connect(const char *msg);

/* watch.c: an incoming event line was decoded; take it into the queue. */
void iiowire_evq_push(struct iiowire *w, const char *device, const char *attr,
		      const char *value, int error, uint64_t timestamp_ns);
void iiowire_evq_clear(struct iiowire *w);
void iiowire_watch_list_free(struct iiowire *w);
int iiowire_watch_replay(struct iiowire *w);

/* events.c: IIO event streams */
struct proto_ievent;
void iiowire_evstream_push(struct iiowire *w, const struct proto_ievent *ev);
int iiowire_evstream_replay(struct iiowire *w);
void iiowire_evstream_free_all(struct iiowire *w);

/* alloc.c: one-allocation listings (an array followed by its strings). */
struct iiowire_pack {
	char *base;		/* owned until iiowire_pack_finish() */
	size_t size;
	size_t used;
};
int iiowire_pack_init(struct iiowire_pack *p, size_t array_bytes, size_t string_bytes);
const char *iiowire_pack_str(struct iiowire_pack *p, const char *s);
size_t iiowire_pack_len(const char *s);
void *iiowire_pack_finish(struct iiowire_pack *p);
void iiowire_pack_fini(struct iiowire_pack *p);

#endif /* IIOWIRE_PRIV_H */
