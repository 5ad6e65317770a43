/*
 * exporter_deadline.c - the whole-request deadline of iiowire-exporter's HTTP
 * connections: a watchdog thread over the connections whose request is
 * still being read (see exporter_deadline.h for why and how).
 *
 * Each open connection is one struct exp_deadline_conn on a list (its
 * libmicrohttpd socket context), made when it opens and freed when it
 * closes; every field is read and written under dl->lock only.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

#include "exporter_deadline.h"

/* One open connection. */
struct exp_deadline_conn {
	struct exp_deadline_conn *prev, *next;
	int fd;
	bool reading;			/* its request's headers are not all in */
	bool cut;			/* shut down already */
	struct timespec since;		/* when its time started */
};

struct exp_deadline {
	pthread_mutex_t lock;
	pthread_cond_t wake;		/* stop() */
	pthread_t thread;
	bool stop;
	struct exp_deadline_conn *head;
};

static void exp_deadline_now(struct timespec *t)
{
	clock_gettime(CLOCK_MONOTONIC, t);
}

/* Shut down every connection reading a request for longer than EXP_DEADLINE_S. */
static void exp_deadline_sweep(struct exp_deadline *dl)
{
	struct exp_deadline_conn *c;
	struct timespec now;

	exp_deadline_now(&now);
	for (c = dl->head; c; c = c->next) {
		if (!c->reading || c->cut ||
		    (now.tv_sec - c->since.tv_sec) * 1000 +
		    (now.tv_nsec - c->since.tv_nsec) / 1000000 < EXP_DEADLINE_S * 1000L)
			continue;
		/* libmicrohttpd's thread sees the end of the stream and closes it */
		shutdown(c->fd, SHUT_RDWR);
		c->cut = true;
	}
}

static void *exp_deadline_main(void *arg)
{
	struct exp_deadline *dl = arg;
	struct timespec t;

	pthread_mutex_lock(&dl->lock);
	while (!dl->stop) {
		exp_deadline_now(&t);
		t.tv_nsec += EXP_DEADLINE_TICK_MS * 1000000L;
		if (t.tv_nsec >= 1000000000L) {
			t.tv_sec++;
			t.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&dl->wake, &dl->lock, &t);
		exp_deadline_sweep(dl);
	}
	pthread_mutex_unlock(&dl->lock);
	return NULL;
}

struct exp_deadline *exp_deadline_start(void)
{
	struct exp_deadline *dl = calloc(1, sizeof(*dl));
	pthread_condattr_t ca;
	int ret;

	if (!dl)
		return NULL;
	pthread_mutex_init(&dl->lock, NULL);
	/* the waits are on the monotonic clock, as the deadlines are */
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&dl->wake, &ca);
	pthread_condattr_destroy(&ca);
	ret = pthread_create(&dl->thread, NULL, exp_deadline_main, dl);
	if (ret) {
		pthread_cond_destroy(&dl->wake);
		pthread_mutex_destroy(&dl->lock);
		free(dl);
		errno = ret;
		return NULL;
	}
	return dl;
}

void exp_deadline_stop(struct exp_deadline *dl)
{
	struct exp_deadline_conn *c;

	if (!dl)
		return;
	pthread_mutex_lock(&dl->lock);
	dl->stop = true;
	pthread_cond_signal(&dl->wake);
	pthread_mutex_unlock(&dl->lock);
	pthread_join(dl->thread, NULL);
	/* MHD_stop_daemon() reported every close; nothing should be left */
	while ((c = dl->head)) {
		dl->head = c->next;
		free(c);
	}
	pthread_cond_destroy(&dl->wake);
	pthread_mutex_destroy(&dl->lock);
	free(dl);
}

/* A connection opens (its time starts) or closes (it is forgotten). */
void exp_deadline_notify(void *cls, struct MHD_Connection *conn, void **socket_context,
			 enum MHD_ConnectionNotificationCode toe)
{
	const union MHD_ConnectionInfo *fd = MHD_get_connection_info(
		conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	struct exp_deadline *dl = cls;
	struct exp_deadline_conn *c = *socket_context;

	pthread_mutex_lock(&dl->lock);
	if (toe == MHD_CONNECTION_NOTIFY_STARTED && fd && (c = calloc(1, sizeof(*c)))) {
		c->fd = fd->connect_fd;
		c->reading = true;
		exp_deadline_now(&c->since);
		c->next = dl->head;
		if (dl->head)
			dl->head->prev = c;
		dl->head = c;
		*socket_context = c;
	} else if (toe == MHD_CONNECTION_NOTIFY_CLOSED && c) {
		if (c->prev)
			c->prev->next = c->next;
		else
			dl->head = c->next;
		if (c->next)
			c->next->prev = c->prev;
		free(c);
		*socket_context = NULL;
	}
	pthread_mutex_unlock(&dl->lock);
}

/* Set @conn's reading state (and restart its time when it reads again). */
static void exp_deadline_set(struct exp_deadline *dl, struct MHD_Connection *conn, bool reading)
{
	const union MHD_ConnectionInfo *info = MHD_get_connection_info(
		conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	struct exp_deadline_conn *c = info ? info->socket_context : NULL;

	if (!c)
		return;
	pthread_mutex_lock(&dl->lock);
	c->reading = reading;
	if (reading)
		exp_deadline_now(&c->since);
	pthread_mutex_unlock(&dl->lock);
}

void exp_deadline_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
			    enum MHD_RequestTerminationCode toe)
{
	(void)con_cls;
	(void)toe;
	exp_deadline_set(cls, conn, true);
}

void exp_deadline_headers_done(struct exp_deadline *dl, struct MHD_Connection *conn)
{
	exp_deadline_set(dl, conn, false);
}
