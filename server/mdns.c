/*
 * mdns.c - DNS-SD announcements through avahi-daemon, on the libuv loop.
 *
 * Avahi integrates with a foreign main loop through its AvahiPoll table
 * (watches on descriptors, timeouts at absolute gettimeofday() times); this
 * file is that table over uv_poll and uv_timer. D-Bus, under the Avahi
 * client, keeps separate watches for reading and writing one socket, and
 * libuv allows one poll handle per descriptor: so a descriptor has one
 * struct mdns_fd whose uv_poll waits for the union of its watches' events,
 * and a wakeup is handed to each watch that asked for what happened.
 *
 * Avahi may free watches and timeouts from inside their own callbacks.
 * Timeouts close their timer and go in its close callback; a watch freed
 * while its descriptor's wakeup is being handed out is only marked dead
 * and reaped after the hand-out. The client is made with
 * AVAHI_CLIENT_NO_FAIL: without avahi-daemon it waits in CONNECTING and
 * publishes when the daemon comes; when the daemon goes away the client is
 * made again after SRV_MDNS_RETRY_MS.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include <avahi-client/client.h>
#include <avahi-client/publish.h>
#include <avahi-common/alternative.h>
#include <avahi-common/error.h>
#include <avahi-common/malloc.h>
#include <avahi-common/watch.h>

#include "log.h"
#include "mdns.h"

/* how long after avahi-daemon went away the client is made again */
#define SRV_MDNS_RETRY_MS	2000
/* ...and how often it is looked for when there is no D-Bus at all */
#define SRV_MDNS_ABSENT_RETRY_MS	30000

struct mdns_fd;

struct AvahiWatch {
	struct srv_mdns *m;
	struct mdns_fd *pfd;
	struct AvahiWatch *next;	/* m->watches */
	AvahiWatchEvent want;
	AvahiWatchEvent got;		/* of the wakeup being handed out */
	AvahiWatchCallback cb;
	void *userdata;
	bool dead;			/* freed by Avahi during a hand-out */
};

/* One uv_poll per descriptor, shared by the watches on it. */
struct mdns_fd {
	uv_poll_t poll;
	struct srv_mdns *m;
	struct mdns_fd *next;		/* m->fds */
	int fd;
	int watches;
};

struct AvahiTimeout {
	uv_timer_t timer;
	struct srv_mdns *m;
	AvahiTimeoutCallback cb;
	void *userdata;
};

struct srv_mdns {
	uv_loop_t *loop;
	const struct srv_log *log;
	AvahiPoll api;
	AvahiClient *client;
	AvahiEntryGroup *group;
	char *name;			/* avahi_malloc'd: renamed on collisions */
	char txt[128];
	struct srv_mdns_service svc[SRV_MDNS_SERVICES_MAX];
	int nsvc;
	struct AvahiWatch *watches;
	struct mdns_fd *fds;
	int handing_out;		/* inside a poll callback: defer watch frees */
	uv_timer_t retry;
	int handles;			/* uv handles not yet closed; m goes at 0 when stopping */
	bool stopping;
	bool said_absent;		/* "no avahi-daemon" logged once */
};

static void mdns_client_make(struct srv_mdns *m);
static void mdns_retry_cb(uv_timer_t *timer);

static void mdns_handle_gone(struct srv_mdns *m)
{
	if (--m->handles == 0 && m->stopping) {
		avahi_free(m->name);
		free(m);
	}
}

/* ---- AvahiPoll: watches ---- */

static int mdns_uv_events(AvahiWatchEvent ev)
{
	return ((ev & AVAHI_WATCH_IN) ? UV_READABLE : 0) | ((ev & AVAHI_WATCH_OUT) ? UV_WRITABLE : 0);
}

static void mdns_fd_close_cb(uv_handle_t *h)
{
	struct mdns_fd *pfd = h->data;
	struct srv_mdns *m = pfd->m;

	free(pfd);
	mdns_handle_gone(m);
}

static void mdns_poll_cb(uv_poll_t *poll, int status, int events);

/* Wait for the union of what the live watches on @pfd want. */
static void mdns_fd_arm(struct mdns_fd *pfd)
{
	int want = 0;

	for (struct AvahiWatch *w = pfd->m->watches; w; w = w->next)
		if (w->pfd == pfd && !w->dead)
			want |= mdns_uv_events(w->want);
	if (want)
		uv_poll_start(&pfd->poll, want, mdns_poll_cb);
	else
		uv_poll_stop(&pfd->poll);
}

static void mdns_fd_put(struct mdns_fd *pfd)
{
	struct mdns_fd **pp;

	if (--pfd->watches > 0) {
		mdns_fd_arm(pfd);
		return;
	}
	for (pp = &pfd->m->fds; *pp != pfd; pp = &(*pp)->next)
		;
	*pp = pfd->next;
	uv_close((uv_handle_t *)&pfd->poll, mdns_fd_close_cb);
}

static struct mdns_fd *mdns_fd_get(struct srv_mdns *m, int fd)
{
	struct mdns_fd *pfd;

	for (pfd = m->fds; pfd; pfd = pfd->next)
		if (pfd->fd == fd) {
			pfd->watches++;
			return pfd;
		}
	pfd = calloc(1, sizeof(*pfd));
	if (!pfd)
		return NULL;
	if (uv_poll_init(m->loop, &pfd->poll, fd) < 0) {
		free(pfd);
		return NULL;
	}
	pfd->poll.data = pfd;
	pfd->m = m;
	pfd->fd = fd;
	pfd->watches = 1;
	pfd->next = m->fds;
	m->fds = pfd;
	m->handles++;
	return pfd;
}

static void mdns_watch_unlink_free(struct AvahiWatch *w)
{
	struct AvahiWatch **pp;

	for (pp = &w->m->watches; *pp != w; pp = &(*pp)->next)
		;
	*pp = w->next;
	free(w);
}

/* Free the watches Avahi let go of while a wakeup was handed out. */
static void mdns_watch_reap(struct srv_mdns *m)
{
	struct AvahiWatch *w = m->watches, *next;

	for (; w; w = next) {
		next = w->next;
		if (w->dead)
			mdns_watch_unlink_free(w);
	}
}

static void mdns_poll_cb(uv_poll_t *poll, int status, int events)
{
	struct mdns_fd *pfd = poll->data;
	struct srv_mdns *m = pfd->m;
	AvahiWatchEvent got = 0;

	if (status < 0)
		got = AVAHI_WATCH_ERR;
	if (events & UV_READABLE)
		got |= AVAHI_WATCH_IN;
	if (events & UV_WRITABLE)
		got |= AVAHI_WATCH_OUT;
	if (events & UV_DISCONNECT)
		got |= AVAHI_WATCH_HUP;
	m->handing_out++;
	/* watches made by a callback are at the head and have got == 0 */
	for (struct AvahiWatch *w = m->watches; w; w = w->next)
		w->got = (w->pfd == pfd && !w->dead) ? (got & (w->want | AVAHI_WATCH_ERR | AVAHI_WATCH_HUP)) : 0;
	for (struct AvahiWatch *w = m->watches; w; w = w->next)
		if (w->got && !w->dead)
			w->cb(w, pfd->fd, w->got, w->userdata);
	for (struct AvahiWatch *w = m->watches; w; w = w->next)
		w->got = 0;
	if (--m->handing_out == 0)
		mdns_watch_reap(m);
}

static AvahiWatch *mdns_watch_new(const AvahiPoll *api, int fd, AvahiWatchEvent event,
				  AvahiWatchCallback cb, void *userdata)
{
	struct srv_mdns *m = api->userdata;
	struct AvahiWatch *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->pfd = mdns_fd_get(m, fd);
	if (!w->pfd) {
		free(w);
		return NULL;
	}
	w->m = m;
	w->want = event;
	w->cb = cb;
	w->userdata = userdata;
	w->next = m->watches;
	m->watches = w;
	mdns_fd_arm(w->pfd);
	return w;
}

static void mdns_watch_update(AvahiWatch *w, AvahiWatchEvent event)
{
	w->want = event;
	mdns_fd_arm(w->pfd);
}

static AvahiWatchEvent mdns_watch_get_events(AvahiWatch *w)
{
	return w->got;
}

static void mdns_watch_free(AvahiWatch *w)
{
	struct mdns_fd *pfd = w->pfd;

	w->dead = true;
	mdns_fd_put(pfd);
	if (w->m->handing_out == 0)
		mdns_watch_unlink_free(w);
}

/* ---- AvahiPoll: timeouts (absolute gettimeofday() times) ---- */

static void mdns_timeout_cb(uv_timer_t *timer)
{
	struct AvahiTimeout *t = timer->data;

	t->cb(t, t->userdata);
}

static void mdns_timeout_update(AvahiTimeout *t, const struct timeval *tv)
{
	struct timeval now;
	int64_t ms;

	uv_timer_stop(&t->timer);
	if (!tv)
		return;
	gettimeofday(&now, NULL);
	ms = (int64_t)(tv->tv_sec - now.tv_sec) * 1000 + (tv->tv_usec - now.tv_usec + 999) / 1000;
	uv_timer_start(&t->timer, mdns_timeout_cb, ms > 0 ? (uint64_t)ms : 0, 0);
}

static AvahiTimeout *mdns_timeout_new(const AvahiPoll *api, const struct timeval *tv,
				      AvahiTimeoutCallback cb, void *userdata)
{
	struct srv_mdns *m = api->userdata;
	struct AvahiTimeout *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	uv_timer_init(m->loop, &t->timer);
	t->timer.data = t;
	t->m = m;
	t->cb = cb;
	t->userdata = userdata;
	m->handles++;
	mdns_timeout_update(t, tv);
	return t;
}

static void mdns_timeout_close_cb(uv_handle_t *h)
{
	struct AvahiTimeout *t = h->data;
	struct srv_mdns *m = t->m;

	free(t);
	mdns_handle_gone(m);
}

static void mdns_timeout_free(AvahiTimeout *t)
{
	uv_close((uv_handle_t *)&t->timer, mdns_timeout_close_cb);
}

/* ---- the client and its entry group ---- */

static void mdns_publish(struct srv_mdns *m, AvahiClient *c);

static void mdns_rename(struct srv_mdns *m, AvahiClient *c)
{
	char *alt = avahi_alternative_service_name(m->name);

	srv_log(m->log, SRV_LOG_WARN, "mdns: the name \"%s\" is taken, announcing as \"%s\"", m->name,
		alt);
	avahi_free(m->name);
	m->name = alt;
	avahi_entry_group_reset(m->group);
	mdns_publish(m, c);
}

static void mdns_group_cb(AvahiEntryGroup *g, AvahiEntryGroupState state, void *userdata)
{
	struct srv_mdns *m = userdata;

	m->group = g;
	if (state == AVAHI_ENTRY_GROUP_ESTABLISHED) {
		for (int i = 0; i < m->nsvc; i++)
			srv_log(m->log, SRV_LOG_INFO, "mdns: announced \"%s\" as %s on port %u", m->name,
				m->svc[i].type, m->svc[i].port);
	} else if (state == AVAHI_ENTRY_GROUP_COLLISION) {
		mdns_rename(m, avahi_entry_group_get_client(g));
	} else if (state == AVAHI_ENTRY_GROUP_FAILURE) {
		srv_log(m->log, SRV_LOG_WARN, "mdns: announcement failed: %s",
			avahi_strerror(avahi_client_errno(avahi_entry_group_get_client(g))));
	}
}

static void mdns_publish(struct srv_mdns *m, AvahiClient *c)
{
	int ret = 0;

	if (!m->group)
		m->group = avahi_entry_group_new(c, mdns_group_cb, m);
	if (!m->group) {
		srv_log(m->log, SRV_LOG_WARN, "mdns: %s", avahi_strerror(avahi_client_errno(c)));
		return;
	}
	if (!avahi_entry_group_is_empty(m->group))
		return;
	for (int i = 0; i < m->nsvc && ret == 0; i++)
		ret = avahi_entry_group_add_service(m->group, AVAHI_IF_UNSPEC, AVAHI_PROTO_UNSPEC, 0,
						    m->name, m->svc[i].type, NULL, NULL, m->svc[i].port,
						    m->txt, NULL);
	if (ret == AVAHI_ERR_COLLISION) {
		mdns_rename(m, c);
		return;
	}
	if (ret == 0)
		ret = avahi_entry_group_commit(m->group);
	if (ret < 0)
		srv_log(m->log, SRV_LOG_WARN, "mdns: cannot announce: %s", avahi_strerror(ret));
}

static void mdns_retry_cb(uv_timer_t *timer)
{
	mdns_client_make(timer->data);
}

static void mdns_client_cb(AvahiClient *c, AvahiClientState state, void *userdata)
{
	struct srv_mdns *m = userdata;

	switch (state) {
	case AVAHI_CLIENT_S_RUNNING:
		mdns_publish(m, c);
		break;
	case AVAHI_CLIENT_S_COLLISION:
	case AVAHI_CLIENT_S_REGISTERING:
		if (m->group)
			avahi_entry_group_reset(m->group);
		break;
	case AVAHI_CLIENT_FAILURE:
		/* avahi-daemon went away: start again, waiting for it */
		srv_log(m->log, SRV_LOG_INFO, "mdns: avahi-daemon: %s; waiting for it",
			avahi_strerror(avahi_client_errno(c)));
		avahi_client_free(c);
		m->client = NULL;
		m->group = NULL;
		uv_timer_start(&m->retry, mdns_retry_cb, SRV_MDNS_RETRY_MS, 0);
		break;
	case AVAHI_CLIENT_CONNECTING:
		srv_log(m->log, SRV_LOG_DEBUG, "mdns: no avahi-daemon yet; waiting for it");
		break;
	}
}

/*
 * Without the system D-Bus even AVAHI_CLIENT_NO_FAIL fails at once: say so
 * once, then look again now and then, quietly.
 */
static void mdns_client_make(struct srv_mdns *m)
{
	int err = 0;

	m->client = avahi_client_new(&m->api, AVAHI_CLIENT_NO_FAIL, mdns_client_cb, m, &err);
	if (m->client)
		return;
	srv_log(m->log, m->said_absent ? SRV_LOG_DEBUG : SRV_LOG_INFO,
		"mdns: no avahi-daemon (%s): not announcing until it runs", avahi_strerror(err));
	m->said_absent = true;
	uv_timer_start(&m->retry, mdns_retry_cb, SRV_MDNS_ABSENT_RETRY_MS, 0);
}

int srv_mdns_start(uv_loop_t *loop, const struct srv_log *log, const char *board,
		   const struct srv_mdns_service *services, int n, struct srv_mdns **out)
{
	struct srv_mdns *m;
	char host[256] = "localhost";

	if (n < 1 || n > SRV_MDNS_SERVICES_MAX)
		return -EINVAL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	gethostname(host, sizeof(host) - 1);
	m->name = avahi_strdup_printf("iiowired on %s", host);
	if (!m->name) {
		free(m);
		return -ENOMEM;
	}
	snprintf(m->txt, sizeof(m->txt), "board=%s", board ? board : "");
	memcpy(m->svc, services, (size_t)n * sizeof(*services));
	m->nsvc = n;
	m->loop = loop;
	m->log = log;
	m->api = (AvahiPoll){
		.userdata = m,
		.watch_new = mdns_watch_new,
		.watch_update = mdns_watch_update,
		.watch_get_events = mdns_watch_get_events,
		.watch_free = mdns_watch_free,
		.timeout_new = mdns_timeout_new,
		.timeout_update = mdns_timeout_update,
		.timeout_free = mdns_timeout_free,
	};
	uv_timer_init(loop, &m->retry);
	m->retry.data = m;
	m->handles = 1;
	mdns_client_make(m);
	*out = m;
	return 0;
}

static void mdns_retry_close_cb(uv_handle_t *h)
{
	mdns_handle_gone(h->data);
}

void srv_mdns_stop(struct srv_mdns *m)
{
	if (!m || m->stopping)
		return;
	m->stopping = true;
	/* frees the group and every watch and timeout through the poll table */
	if (m->client)
		avahi_client_free(m->client);
	m->client = NULL;
	m->group = NULL;
	uv_close((uv_handle_t *)&m->retry, mdns_retry_close_cb);
}
