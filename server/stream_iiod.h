/*
 * stream_iiod.h - the iiod listener's buffer requests (stream_iiod.c), on
 * the same captures as the native STREAMs. Loop thread; each answers its
 * request (READBUF possibly later, through a reply slot).
 */
#ifndef IIOWIRE_SRV_STREAM_IIOD_H
#define IIOWIRE_SRV_STREAM_IIOD_H

/* The file a device's trigger is set in (a userspace driver's, or a kernel one's). */
#define SRV_IIOD_TRIGGER_ATTR	"trigger/current_trigger"

struct srv_session;
struct srv_iiod_dev;
struct proto_iiod_cmd;

/* How long a READBUF waits for samples when the client set no TIMEOUT (iiod's refill). */
#define SRV_IIOD_READBUF_TIMEOUT_MS	2500
/* The most one OPEN queues (iiod: samples x 4 blocks), in bytes. */
#define SRV_IIOD_QUEUE_BYTES		(4 * 1024 * 1024)

void srv_iiod_buf_open(struct srv_session *s, const struct srv_iiod_dev *d,
		       const struct proto_iiod_cmd *cmd);
void srv_iiod_buf_readbuf(struct srv_session *s, const struct srv_iiod_dev *d,
			  const struct proto_iiod_cmd *cmd);
void srv_iiod_buf_close(struct srv_session *s, const struct srv_iiod_dev *d);
void srv_iiod_buf_gettrig(struct srv_session *s, const struct srv_iiod_dev *d);
struct iio_trigger;
/**
 * srv_iiod_buf_settrig_check() - what a SETTRIG names, and whether this
 * connection may set it; the setting itself is the caller's (iiod_proto.c
 * runs it on the device's worker).
 * Return: 0 with *@trig (NULL: clear), -ENOENT (no trigger/, no such
 * trigger), -EACCES (--read-only, --allow-write).
 */
int srv_iiod_buf_settrig_check(struct srv_session *s, const struct srv_iiod_dev *d,
			       const struct proto_iiod_cmd *cmd, struct iio_trigger **trig);
/** srv_iiod_buf_stop_all() - the connection ends: its readers go (no CLOSE needed). */
void srv_iiod_buf_stop_all(struct srv_session *s);

#endif /* IIOWIRE_SRV_STREAM_IIOD_H */
