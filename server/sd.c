/*
 * sd.c - readiness notifications and socket activation through libsystemd
 * (sd_notify(3), sd_listen_fds_with_names(3)). Notifications go to
 * $NOTIFY_SOCKET when systemd set it and are dropped otherwise.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <systemd/sd-daemon.h>

#include "sd.h"

static int srv_sd_one(struct srv_sd_fd *out, int fd, const char *name, char *err, size_t errlen)
{
	int ret = sd_is_socket(fd, AF_UNSPEC, SOCK_STREAM, 1);

	if (ret <= 0) {
		snprintf(err, errlen, "systemd passed descriptor %d (%s), which is not a listening "
			 "stream socket", fd, name ? name : "unnamed");
		return ret < 0 ? ret : -EINVAL;
	}
	out->fd = fd;
	out->is_unix = sd_is_socket(fd, AF_UNIX, SOCK_STREAM, 1) > 0;
	out->iiod = name && strcmp(name, "iiod") == 0;
	return 0;
}

int srv_sd_listen_fds(struct srv_sd_fd *out, int max, char *err, size_t errlen)
{
	char **names = NULL;
	int n = sd_listen_fds_with_names(1, &names);
	int ret = 0;

	if (n <= 0)
		return n;
	if (n > max) {
		snprintf(err, errlen, "systemd passed %d sockets; at most %d are served", n, max);
		ret = -E2BIG;
	}
	for (int i = 0; i < n && ret == 0; i++)
		ret = srv_sd_one(&out[i], SD_LISTEN_FDS_START + i, names ? names[i] : NULL, err,
				 errlen);
	for (int i = 0; names && names[i]; i++)
		free(names[i]);
	free(names);
	return ret < 0 ? ret : n;
}

void srv_sd_ready(const char *status)
{
	sd_notifyf(0, "READY=1\nSTATUS=%s", status);
}

void srv_sd_reloading(bool done, const char *status)
{
	if (done)
		sd_notifyf(0, "READY=1\nSTATUS=%s", status);
	else
		sd_notify(0, "RELOADING=1\nSTATUS=reloading the board");
}

void srv_sd_stopping(void)
{
	sd_notify(0, "STOPPING=1\nSTATUS=stopping");
}
