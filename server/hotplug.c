/*
 * hotplug.c - a source's devices coming and going one by one (see
 * hotplug.h): the source's hot_begin on the loop, its hot_scan on the
 * reload thread, its hot_apply on the loop, the streams and subscriptions
 * of what went ended here, then iio_device_remove() of each on the thread.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "busq.h"
#include "events.h"
#include "hotplug.h"
#include "iio_core.h"
#include "iio_registry.h"
#include "iio_source.h"
#include "srv.h"
#include "stream.h"

/* The source whose change this is: the one serving every device of its own, with hot ops. */
static const struct iio_source *srv_hotplug_source(const struct srv *srv)
{
	const struct iio_source *src = iio_source_serving_all();
	struct iio_dev *provider;
	int i;

	if (!src || !src->hot_begin || srv->board->names_source)
		return NULL;	/* the board file names the source's devices: its reload binds them */
	for (i = 0; iio_registry_map_at(srv->board->reg, i, &provider); i++)
		if (iio_source_of_device(provider))
			return NULL;	/* a map points at one: a reload re-resolves maps */
	return src;
}

void srv_hotplug(struct srv *srv)
{
	const struct iio_source *src = srv_hotplug_source(srv);

	if (srv->stopping)
		return;
	if (!src || srv->reload_busy || srv->reload_old) {
		srv_info(&srv->log, "kernel IIO uevent: rescanning");
		srv_reload(srv);
		return;
	}
	srv->hot = src->hot_begin(srv->board->reg);
	if (!srv->hot) {
		srv_reload(srv);
		return;
	}
	srv->hot_src = src;
	srv->hot_ret = 0;
	srv_reload_thread_start(srv);
	if (!srv->reload_busy) {	/* no thread: the board reload is the fallback */
		src->hot_free(srv->hot);
		srv->hot = NULL;
		srv_reload(srv);
	}
}

bool srv_hotplug_thread(struct srv *srv)
{
	int i;

	if (srv->hot) {
		srv->hot_ret = srv->hot_src->hot_scan(srv->hot);
		return true;
	}
	if (!srv->hot_gone)
		return false;
	for (i = 0; i < srv->nhot_gone; i++)
		iio_device_remove(srv->hot_gone[i]);
	return true;
}

/* The devices of @gone are off the board: end what used them, then remove them off the loop. */
static void srv_hotplug_gone(struct srv *srv, struct iio_dev **gone, int n)
{
	int i;

	srv_streams_devices_gone(srv, gone, n);
	srv_events_devices_gone(srv, gone, n);
	for (i = 0; i < n; i++)
		srv_busq_retire(srv, iio_device_bus_key(gone[i]));
	srv->hot_gone = gone;
	srv->nhot_gone = n;
	srv_reload_thread_start(srv);
	if (srv->reload_busy)
		return;
	/* no thread: remove them here, a wait on a file and all */
	srv_hotplug_thread(srv);
	free(gone);
	srv->hot_gone = NULL;
}

/* The scan is back: apply it, or reload when the source cannot take it device by device. */
static void srv_hotplug_apply(struct srv *srv, struct iio_source_hot *hot)
{
	const struct iio_source *src = srv->hot_src;
	struct iio_dev **gone;
	char summary[128];
	int n = -ENOMEM;

	gone = calloc(SRV_HOTPLUG_GONE_MAX, sizeof(*gone));
	if (gone && srv->hot_ret == 0)
		n = src->hot_apply(hot, srv->board->reg, gone, SRV_HOTPLUG_GONE_MAX, summary,
				   sizeof(summary));
	src->hot_free(hot);
	if (n < 0) {
		free(gone);
		srv_info(&srv->log, "kernel IIO uevent: rescanning the board (%s)",
			 n == -EBUSY ? "a change to take whole" : strerror(-(srv->hot_ret ?
									    srv->hot_ret : n)));
		srv_reload(srv);
		return;
	}
	srv->reg_gen++;		/* lookups, memos and the iiod XML see the change */
	srv->trig_gen++;
	srv_info(&srv->log, "kernel IIO uevent: %s", summary);
	if (n)
		srv_hotplug_gone(srv, gone, n);
	else
		free(gone);
}

bool srv_hotplug_done(struct srv *srv)
{
	struct iio_source_hot *hot = srv->hot;

	if (hot) {
		srv->hot = NULL;
		if (srv->stopping)
			srv->hot_src->hot_free(hot);
		else
			srv_hotplug_apply(srv, hot);
		return true;
	}
	if (!srv->hot_gone)
		return false;
	free(srv->hot_gone);
	srv->hot_gone = NULL;
	srv->nhot_gone = 0;
	return true;
}
