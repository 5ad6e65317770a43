/*
 * kwatch.h - kernel IIO hotplug: a device that appears under or leaves
 * /sys/bus/iio/devices (a module loaded, an overlay applied) joins or
 * leaves the registry.
 *
 * The kernel says so with a uevent (SUBSYSTEM=iio) on the kobject netlink
 * socket; iiowired listens there when it serves kernel devices and, a
 * moment after the last such event, reloads the board, which rescans the
 * tree (drivers/kernel/). Where no uevent arrives (a container in its own
 * network namespace, a fake tree in tests), SIGHUP is the rescan. A device
 * that left is gone for every request still holding it (-ENODEV), as in
 * the kernel. Place in the flow: kernel -> *kwatch* -> reload (server.c).
 */
#ifndef IIOWIRE_SRV_KWATCH_H
#define IIOWIRE_SRV_KWATCH_H

struct srv;

/* How long after the last IIO uevent the rescan starts (a module adds several devices). */
#define SRV_KWATCH_SETTLE_MS	100
/* Bytes of one uevent read at once (the kernel's UEVENT_BUFFER_SIZE is 2048). */
#define SRV_KWATCH_MSG_BYTES	8192

/**
 * srv_kwatch_start() - listen for IIO uevents when the daemon serves kernel
 * devices (--kernel, or a board naming one). Without the netlink socket
 * (no permission, another namespace) it logs that SIGHUP is the rescan.
 * Loop thread. Return: 0 (a missing socket is no error), -ENOMEM.
 */
int srv_kwatch_start(struct srv *srv);

/** srv_kwatch_close() - stop listening (shutdown); loop thread; idempotent. */
void srv_kwatch_close(struct srv *srv);

#endif /* IIOWIRE_SRV_KWATCH_H */
