/*
 * play.h - buffered output over the native protocol: PLAY and LOOP open a
 * player on an output device (the core's OUT buffer, iio_buffer.h), SEND
 * carries a block of raw scans after its line, UNSTREAM stops a player as
 * it stops a stream (PROTOCOL.md's PLAY section).
 *
 * One writer per device (the core's EBUSY). A player queues two blocks
 * ahead of the trigger; a SEND that finds no room waits, its reply held in
 * a slot and its connection read no further, until the handler's pops have
 * emptied half the queue: a fast writer is paced by the trigger, a slow
 * one underruns (counted, in SEND's reply) and nobody else waits.
 * Place in the flow: dispatch -> *play* -> core -> session.
 */
#ifndef IIOWIRE_SRV_PLAY_H
#define IIOWIRE_SRV_PLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto.h"

struct srv_session;

/* Blocks a player queues ahead of its device's trigger. */
#define SRV_PLAY_QUEUE_BLOCKS		2
/* libiio 1.0 TX blocks one player holds unanswered (its client's, at most 64 a buffer). */
#define SRV_PLAY_BIN_BLOCKS		64

/** srv_play_request() - PLAY or LOOP: attach the player and answer. */
void srv_play_request(struct srv_session *s, const struct proto_request *req);
/** srv_play_send() - SEND's line: the next @req->bytes bytes are its block. */
void srv_play_send(struct srv_session *s, const struct proto_request *req);
/**
 * srv_play_feed() - while a SEND's bytes are due: take up to @len of them;
 * the last one plays (or queues) the block and answers. Return: bytes taken.
 */
size_t srv_play_feed(struct srv_session *s, const char *data, size_t len);
/** srv_play_in_payload() - are a SEND's bytes due? */
bool srv_play_in_payload(const struct srv_session *s);
/** srv_play_waiting() - does a SEND wait for room (read nothing more)? */
bool srv_play_waiting(const struct srv_session *s);
struct iio_dev;

/**
 * srv_play_open_iiod() - an iiod OPEN of an output device: a player of
 * @samples-scan blocks (a LOOP when @cyclic) on its current trigger.
 * Return: 0 (the caller answers 0) or -errno (EBUSY: another writer).
 */
int srv_play_open_iiod(struct srv_session *s, struct iio_dev *dev, uint64_t mask,
		       unsigned int samples, bool cyclic);
/**
 * srv_play_writebuf() - iiod's WRITEBUF <dev> <bytes>: answers 0 and reads
 * the samples (the block's answer, the bytes, comes once they are queued),
 * or answers the -errno (no OPEN: EBADF; not whole samples or over a
 * block: EINVAL) and reads nothing.
 */
void srv_play_writebuf(struct srv_session *s, const struct iio_dev *dev, uint64_t bytes);
/**
 * srv_play_open_bin() - libiio 1.0's OPEN_BUFFER of an output device: a
 * player of blocks up to @samples scans, answering in binary frames.
 * Return: as srv_play_open_iiod().
 */
int srv_play_open_bin(struct srv_session *s, struct iio_dev *dev, uint64_t mask,
		      unsigned int samples);
/**
 * srv_play_block_bin() - a TRANSFER_BLOCK of @len bytes of scans: queued
 * (what does not fit waits, the connection read no further meanwhile) and
 * answered 0 to @client_id once its last scan has played, as a DMA block's
 * dequeue returns; with @cyclic (ENQUEUE_BLOCK_CYCLIC) set as the block
 * the trigger repeats, answered at once. Refused: an error shifted up 16
 * bits (not enqueued).
 */
void srv_play_block_bin(struct srv_session *s, const struct iio_dev *dev, const void *data,
			size_t len, bool cyclic, uint16_t client_id);
struct srv;
/** srv_play_tick() - the streams' periodic tick: answer the TX blocks that have played. */
void srv_play_tick(struct srv *srv);
/** srv_play_close_dev() - iiod's CLOSE of an output device. Return: 0, -ENOENT. */
int srv_play_close_dev(struct srv_session *s, const struct iio_dev *dev);
/** srv_play_stop() - UNSTREAM <id>: stop that player. Return: 0, -ENOENT. */
int srv_play_stop(struct srv_session *s, int id);
/** srv_play_stop_all() - UNSTREAM, or the connection ends: every player stops. */
void srv_play_stop_all(struct srv_session *s);

#endif /* IIOWIRE_SRV_PLAY_H */
