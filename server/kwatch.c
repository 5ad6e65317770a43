/*
 * kwatch.c - hotplug of the devices' sources through uevents (see
 * kwatch.h): a netlink socket on the loop, a settle timer, then the
 * rescan (hotplug.c: device by device, or a board reload). Which uevents matter is the sources' word
 * (iio_source.h: the kernel's are SUBSYSTEM=iio); this file knows no source.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/netlink.h>

#include "iio_registry.h"
#include "board.h"
#include "iio_source.h"
#include "hotplug.h"
#include "kwatch.h"
#include "srv.h"

/* The kernel's uevent multicast group (kobject_uevent.c sends to group 1). */
#define SRV_KWATCH_GROUP	1
#define SRV_KWATCH_KEY		"SUBSYSTEM="

struct srv_kwatch {
	struct srv *srv;
	uv_poll_t poll;
	uv_timer_t settle;
	int fd;
	int open_handles;
};

/* Is @value the uevent subsystem of a source? */
static bool srv_kwatch_source_subsystem(const char *value, size_t n)
{
	const char *want;
	size_t i;

	for (i = 0; i < iio_source_count(); i++) {
		want = iio_source_at(i)->uevent_subsystem;
		if (want && strlen(want) == n && memcmp(value, want, n) == 0)
			return true;
	}
	return false;
}

/* Does one uevent (NUL-separated KEY=VALUE lines after "ACTION@path") concern a source? */
static bool srv_kwatch_is_source(const char *msg, size_t len)
{
	size_t off = 0, n, k = strlen(SRV_KWATCH_KEY);

	while (off < len) {
		n = strnlen(msg + off, len - off);
		if (n > k && memcmp(msg + off, SRV_KWATCH_KEY, k) == 0 &&
		    srv_kwatch_source_subsystem(msg + off + k, n - k))
			return true;
		off += n + 1;
	}
	return false;
}

static void srv_kwatch_settle_cb(uv_timer_t *timer)
{
	struct srv_kwatch *kw = timer->data;

	srv_hotplug(kw->srv);
}

static void srv_kwatch_poll_cb(uv_poll_t *poll, int status, int events)
{
	struct srv_kwatch *kw = poll->data;
	char msg[SRV_KWATCH_MSG_BYTES];
	bool iio = false;
	ssize_t n;

	(void)events;
	if (status < 0)
		return;
	while ((n = recv(kw->fd, msg, sizeof(msg), MSG_DONTWAIT)) > 0)
		iio = iio || srv_kwatch_is_source(msg, (size_t)n);
	if (iio)
		uv_timer_start(&kw->settle, srv_kwatch_settle_cb, SRV_KWATCH_SETTLE_MS, 0);
}

/* Does the daemon serve a source's devices at all? */
static bool srv_kwatch_wanted(const struct srv *srv)
{
	int i;

	if (iio_source_serving_all())
		return true;
	for (i = 0; i < iio_registry_count(srv->board->reg); i++)
		if (iio_source_of_device(iio_registry_at(srv->board->reg, i)))
			return true;
	return false;
}

static int srv_kwatch_socket(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = SRV_KWATCH_GROUP };
	int fd;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
		    NETLINK_KOBJECT_UEVENT);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

int srv_kwatch_start(struct srv *srv)
{
	struct srv_kwatch *kw;
	int fd;

	if (!srv_kwatch_wanted(srv))
		return 0;
	fd = srv_kwatch_socket();
	if (fd < 0) {
		srv_info(&srv->log, "no kernel uevents (%s): SIGHUP rescans the kernel's devices",
			 strerror(-fd));
		return 0;
	}
	kw = calloc(1, sizeof(*kw));
	if (!kw) {
		close(fd);
		return -ENOMEM;
	}
	kw->srv = srv;
	kw->fd = fd;
	uv_poll_init(&srv->loop, &kw->poll, fd);
	uv_timer_init(&srv->loop, &kw->settle);
	kw->poll.data = kw;
	kw->settle.data = kw;
	kw->open_handles = 2;
	uv_poll_start(&kw->poll, UV_READABLE, srv_kwatch_poll_cb);
	/* neither keeps the loop alive: shutdown closes them */
	uv_unref((uv_handle_t *)&kw->poll);
	uv_unref((uv_handle_t *)&kw->settle);
	srv->kwatch = kw;
	return 0;
}

static void srv_kwatch_close_cb(uv_handle_t *h)
{
	struct srv_kwatch *kw = h->data;

	if (--kw->open_handles)
		return;
	close(kw->fd);
	free(kw);
}

void srv_kwatch_close(struct srv *srv)
{
	struct srv_kwatch *kw = srv->kwatch;

	if (!kw)
		return;
	srv->kwatch = NULL;
	uv_close((uv_handle_t *)&kw->poll, srv_kwatch_close_cb);
	uv_close((uv_handle_t *)&kw->settle, srv_kwatch_close_cb);
}
