/*
 * sd.h - iiowired under systemd: readiness and state notifications
 * (Type=notify) and the listening sockets systemd hands over (socket
 * activation, iiowired.socket). Outside systemd every call is a no-op and
 * srv_sd_listen_fds() finds nothing, so the daemon binds its own sockets.
 * Place in the flow: server.c calls it at start, reload and stop.
 */
#ifndef IIOWIRE_SRV_SD_H
#define IIOWIRE_SRV_SD_H

#include <stdbool.h>

/* sockets systemd may pass (one per ListenStream= of iiowired.socket) */
#define SRV_SD_FDS_MAX		16

/**
 * struct srv_sd_fd - one socket systemd passed.
 * @fd: the descriptor, listening already; the caller owns it.
 * @is_unix: AF_UNIX (else AF_INET or AF_INET6).
 * @iiod: the socket unit named it "iiod" (FileDescriptorName=iiod): it
 *	serves libiio's protocol rather than iiowire's.
 */
struct srv_sd_fd {
	int fd;
	bool is_unix;
	bool iiod;
};

/**
 * srv_sd_listen_fds() - the listening stream sockets systemd passed to this
 * process ($LISTEN_FDS for $LISTEN_PID), at most @max of them; the
 * variables are unset so that children do not see them.
 * @err: why on failure (a passed descriptor that is not a listening stream socket).
 * Return: how many (0 when not socket-activated), or -errno.
 */
int srv_sd_listen_fds(struct srv_sd_fd *out, int max, char *err, size_t errlen);

/** srv_sd_ready() - tell systemd the listeners are open; @status is shown by systemctl status. */
void srv_sd_ready(const char *status);

/** srv_sd_reloading() - a board reload began (@done false) or ended (@done true). */
void srv_sd_reloading(bool done, const char *status);

/** srv_sd_stopping() - shutdown began. */
void srv_sd_stopping(void);

#endif /* IIOWIRE_SRV_SD_H */
