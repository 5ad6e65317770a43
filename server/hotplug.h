/*
 * hotplug.h - a device source's change (a kernel uevent) taken device by
 * device: the devices that came are registered, those that went are taken
 * off the board, their streams and subscriptions ended, and every other
 * device is left alone, with its streams, events and readers. Where the
 * source cannot take the change that way (iio_source.h's hot_apply), or
 * the board file names the source's devices or maps them, the board is
 * reloaded instead, as SIGHUP does.
 *
 * The source is read, and the devices that went are removed, on the reload
 * thread (server.c), so a file that hangs never holds the loop; one change
 * at a time, and none while a reload runs (the uevent then reloads).
 */
#ifndef IIOWIRE_SRV_HOTPLUG_H
#define IIOWIRE_SRV_HOTPLUG_H

#include <stdbool.h>

struct srv;

/* Devices one change may take off the board (a source's own limit is lower: 256). */
#define SRV_HOTPLUG_GONE_MAX	256

/** srv_hotplug() - a source changed (kwatch.c's settle): take it. Loop thread. */
void srv_hotplug(struct srv *srv);
/** srv_hotplug_thread() - the reload thread's hotplug work, if it has any: true when it ran. */
bool srv_hotplug_thread(struct srv *srv);
/**
 * srv_hotplug_done() - the reload thread ended: true when its work was a
 * hotplug step (taken here), false for a board load or destroy. Loop thread.
 */
bool srv_hotplug_done(struct srv *srv);

#endif /* IIOWIRE_SRV_HOTPLUG_H */
