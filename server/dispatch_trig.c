/*
 * dispatch_trig.c - triggers as devices on the native protocol (see
 * dispatch_trig.h): the kernel's triggerN and iio_sysfs_trigger, listed by
 * DEVICES after the iio:deviceN devices, described by DEVICE and ATTRS,
 * their files read and written with the kernel's texts and errors.
 *
 * Writes obey --allow-write like any device's: a pattern names a trigger
 * by its triggerN or its name, the control device as iio_sysfs_trigger.
 * An add_trigger or remove_trigger changes the board's triggers at run
 * time (until the next reload rebuilds them from the board file), so the
 * iiod listener's XML is rebuilt (srv->trig_gen).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "acl.h"
#include "board.h"
#include "dispatch.h"
#include "dispatch_trig.h"
#include "iio_buffer.h"
#include "iio_registry.h"
#include "iio_value.h"
#include "session.h"
#include "srv.h"

/*
 * iio_sysfs_trigger exists on a board with a "triggers" key (maps/README.md
 * K-46), or with --kernel when the kernel has one (then it is the kernel's).
 */
static bool srv_trigdev_has_ctl(const struct srv *srv)
{
	return iio_trigger_ctl_present(srv->board->reg);
}

int srv_trigdev_count(const struct srv *srv)
{
	return srv_trigdev_has_ctl(srv) + iio_trigger_count(srv->board->reg);
}

static void srv_trigdev_fill(struct srv_trigdev *td, struct iio_trigger *trig)
{
	td->trig = trig;
	if (trig) {
		snprintf(td->id, sizeof(td->id), "trigger%d", trig->id);
		td->name = trig->name;
	} else {
		snprintf(td->id, sizeof(td->id), "%s", SRV_TRIGDEV_SYSFS_CTL);
		td->name = SRV_TRIGDEV_SYSFS_CTL;
	}
	td->names[0] = td->id;
	td->names[1] = td->name;
	td->nnames = trig ? 2 : 1;
}

void srv_trigdev_at(const struct srv *srv, int i, struct srv_trigdev *td)
{
	if (srv_trigdev_has_ctl(srv) && i-- == 0)
		srv_trigdev_fill(td, NULL);
	else
		srv_trigdev_fill(td, iio_trigger_at(srv->board->reg, i));
}

bool srv_trigdev_find(const struct srv *srv, const char *key, struct srv_trigdev *td)
{
	struct iio_trigger *trig;

	if (!key)
		return false;
	if (srv_trigdev_has_ctl(srv) && strcmp(key, SRV_TRIGDEV_SYSFS_CTL) == 0) {
		srv_trigdev_fill(td, NULL);
		return true;
	}
	trig = iio_trigger_find(srv->board->reg, key);
	if (!trig)
		return false;
	srv_trigdev_fill(td, trig);
	return true;
}

const char *const *srv_trigdev_files(const struct srv *srv, const struct srv_trigdev *td)
{
	if (td->trig)
		return iio_trigger_attr_names(td->trig);
	return iio_trigger_ctl_attr_names(srv->board->reg);
}

unsigned int srv_trigdev_attr_mode(const struct srv *srv, const struct srv_trigdev *td,
				   const char *attr)
{
	if (!td->trig)
		return iio_trigger_ctl_attr_mode(srv->board->reg, attr);
	return iio_trigger_attr_mode(td->trig, attr);
}

int srv_trigdev_read_file(const struct srv *srv, const struct srv_trigdev *td, const char *attr,
			  char *buf, size_t len)
{
	if (td->trig)
		return iio_trigger_attr_read(td->trig, attr, buf, len);
	return iio_trigger_ctl_attr_read(srv->board->reg, attr, buf, len);
}

static int srv_trigdev_nfiles(const struct srv *srv, const struct srv_trigdev *td)
{
	const char *const *f = srv_trigdev_files(srv, td);
	int n = 0;

	while (f[n])
		n++;
	return n;
}

int srv_trigdev_list(struct srv *srv, struct proto_buf *b, const struct proto_request *req,
		     int i0)
{
	struct proto_device_info info = { .num_channels = -1, .num_attrs = -1 };
	struct srv_trigdev td;
	int i, n = srv_trigdev_count(srv), ret = 0;

	for (i = 0; i < n && !ret; i++) {
		srv_trigdev_at(srv, i, &td);
		info.id = td.id;
		info.name = td.name;
		ret = proto_list_device(b, req, i0 + i, &info);
	}
	return ret;
}

static int srv_trigdev_device(const struct srv *srv, struct proto_buf *b,
			      const struct proto_request *req, const struct srv_trigdev *td)
{
	struct proto_device_info info = {
		.id = td->id, .name = td->name, .num_channels = 0,
		.num_attrs = srv_trigdev_nfiles(srv, td),
	};

	return proto_reply_device(b, req, &info);
}

static int srv_trigdev_attrs(const struct srv *srv, struct proto_buf *b,
			     const struct proto_request *req, const struct srv_trigdev *td)
{
	const char *const *f = srv_trigdev_files(srv, td);
	struct proto_attr_info info;
	unsigned int mode;
	int i, ret;

	ret = proto_list_begin(b, req, srv_trigdev_nfiles(srv, td));
	for (i = 0; f[i] && !ret; i++) {
		mode = srv_trigdev_attr_mode(srv, td, f[i]);
		info.name = f[i];
		info.mode = (mode & 0444 ? PROTO_ATTR_R : 0) | (mode & 0222 ? PROTO_ATTR_W : 0);
		ret = proto_list_attr(b, req, i, &info);
	}
	return ret ? ret : proto_list_end(b, req);
}

/* The file's sysfs mode, or 0 after answering ENOENT. */
static unsigned int srv_trigdev_mode(struct srv_session *s, const struct proto_request *req,
				     const struct srv_trigdev *td)
{
	unsigned int mode = srv_trigdev_attr_mode(s->srv, td, req->attr);

	if (!mode)
		srv_dispatch_error(s, req, -ENOENT, "%s has no attribute %s", req->device,
				   req->attr);
	return mode;
}

static void srv_trigdev_read(struct srv_session *s, const struct proto_request *req,
			     const struct srv_trigdev *td)
{
	char val[IIO_VALUE_MAX_BYTES];
	unsigned int mode = srv_trigdev_mode(s, req, td);
	int n;

	if (!mode)
		return;
	n = mode & 0444 ? srv_trigdev_read_file(s->srv, td, req->attr, val, sizeof(val)) : -EACCES;
	if (n < 0) {
		srv_dispatch_attr_error(s, req, n);
		return;
	}
	while (n > 0 && val[n - 1] == '\n')
		n--;	/* as a device's value: without the newline */
	srv_session_check(s, proto_reply_value(srv_session_out(s), req, val, (size_t)n));
}

static int64_t srv_trigdev_real_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int srv_trigdev_write_file(struct srv *srv, const struct srv_trigdev *td, const char *attr,
			   const char *value)
{
	int ret;

	if (td->trig)	/* a trigger_now poll is at the time of the write */
		return iio_trigger_attr_write(td->trig, attr, value, srv_trigdev_real_ns());
	ret = iio_trigger_ctl_attr_write(srv->board->reg, attr, value);
	if (!ret)
		srv->trig_gen++;	/* the iiod XML lists the triggers */
	return ret;
}

static void srv_trigdev_write(struct srv_session *s, const struct proto_request *req,
			      const struct srv_trigdev *td)
{
	struct srv *srv = s->srv;
	unsigned int mode = srv_trigdev_mode(s, req, td);
	int ret;

	if (!mode)
		return;
	if (!(mode & 0222)) {
		srv_dispatch_attr_error(s, req, -EACCES);
		return;
	}
	if (!srv_acl_may_write_named(&srv->cfg, td->names, td->nnames, req->attr)) {
		srv_dispatch_error(s, req, -EACCES, "%s %s: not writable here (--allow-write)",
				   req->device, req->attr);
		return;
	}
	ret = srv_trigdev_write_file(srv, td, req->attr, req->value);
	if (ret < 0)
		srv_dispatch_attr_error(s, req, ret);
	else
		srv_session_check(s, proto_reply_ok(srv_session_out(s), req));
}

bool srv_trigdev_answer(struct srv_session *s, const struct proto_request *req,
			const struct srv_trigdev *td)
{
	struct proto_buf *b = srv_session_out(s);
	int ret;

	switch (req->op) {
	case PROTO_OP_DEVICE:
		srv_session_check(s, srv_trigdev_device(s->srv, b, req, td));
		return true;
	case PROTO_OP_ATTRS:
		srv_session_check(s, srv_trigdev_attrs(s->srv, b, req, td));
		return true;
	case PROTO_OP_CHANNELS:	/* a trigger has none */
		ret = proto_list_begin(b, req, 0);
		srv_session_check(s, ret ? ret : proto_list_end(b, req));
		return true;
	case PROTO_OP_READ:
		srv_trigdev_read(s, req, td);
		return true;
	case PROTO_OP_WRITE:
		srv_trigdev_write(s, req, td);
		return true;
	default:
		return false;
	}
}
