/*
 * gpioshim.c - an LD_PRELOAD library for tests that plays the kernel's GPIO
 * character device for one chip, so that iiowired's interrupt lines
 * ({"chip": "gpiochip0", "line": N} in a board) run through the real
 * libgpiod 1.6 where no gpiochip exists (gpio-sim needs a kernel module).
 *
 * What it answers is the kernel's uAPI v1 as libgpiod 1.6 uses it:
 * GPIO_GET_CHIPINFO_IOCTL, GPIO_GET_LINEINFO_IOCTL and
 * GPIO_GET_LINEEVENT_IOCTL on the fd of an open() of /dev/gpiochip0, and
 * struct gpioevent_data records read from the line's event fd (a pipe, so
 * libgpiod's ppoll() and read() work unchanged). libgpiod also checks that
 * /dev/gpiochip0 is a character device whose major:minor is in
 * /sys/bus/gpio/devices/gpiochip0/dev: the test makes both in a private
 * mount namespace (tests/test_gpio.sh), and the open() of that node is
 * what this library takes over (it opens /dev/null instead).
 *
 * Environment: IIOWIRE_GPIOSHIM_CTL, a FIFO from which lines "N rising" or
 * "N falling" fire that edge on line N (delivered when the line's request
 * asked for it); IIOWIRE_GPIOSHIM_LINES, the chip's line count (default
 * 32); IIOWIRE_GPIOSHIM_BUSY, a line another consumer holds (EBUSY).
 * Its state is process-wide by nature (it plays the kernel): globals under
 * one mutex, and nothing called under it comes back here.
 */
#undef _FORTIFY_SOURCE	/* fortified fcntl.h would inline its own open() */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/gpio.h>

#define GPIOSHIM_PATH		"/dev/gpiochip0"
#define GPIOSHIM_NAME		"gpiochip0"
#define GPIOSHIM_LABEL		"iiowire-gpioshim"
#define GPIOSHIM_LINES_DEFAULT	32
#define GPIOSHIM_LINES_MAX	512
#define GPIOSHIM_CHIP_FDS	16
#define GPIOSHIM_BUSY_CONSUMER	"other-consumer"
#define GS_CTL_QUIT		"quit\n"

struct gpioshim_line {
	bool requested;
	uint32_t eventflags;
	int rfd;		/* libgpiod's event fd */
	int wfd;		/* where edges are written */
	char consumer[GPIO_MAX_NAME_SIZE];
};

static pthread_mutex_t gs_lock = PTHREAD_MUTEX_INITIALIZER;
static int gs_chip_fds[GPIOSHIM_CHIP_FDS];
static int gs_nchip_fds;
static struct gpioshim_line gs_lines[GPIOSHIM_LINES_MAX];
static bool gs_ctl_started;
static pthread_t gs_ctl;

static int (*gs_real_open)(const char *, int, ...);
static int (*gs_real_close)(int);
static int (*gs_real_ioctl)(int, unsigned long, ...);

static void gs_resolve(void)
{
	if (!gs_real_open) {
		gs_real_open = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
		gs_real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
		gs_real_ioctl = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	}
}

static int gs_env_int(const char *name, int dflt)
{
	const char *v = getenv(name);

	return v && *v ? atoi(v) : dflt;
}

static int gs_nlines(void)
{
	int n = gs_env_int("IIOWIRE_GPIOSHIM_LINES", GPIOSHIM_LINES_DEFAULT);

	return n < 0 ? 0 : n > GPIOSHIM_LINES_MAX ? GPIOSHIM_LINES_MAX : n;
}

static bool gs_is_chip_fd(int fd)
{
	int i;

	for (i = 0; i < gs_nchip_fds; i++)
		if (gs_chip_fds[i] == fd)
			return true;
	return false;
}

/* Fire one edge on a requested line, if its request asked for that edge. */
static void gs_fire(unsigned int offset, uint32_t id)
{
	struct gpioevent_data ev = { 0 };
	struct timespec ts;
	struct gpioshim_line *l;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ev.timestamp = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	ev.id = id;
	pthread_mutex_lock(&gs_lock);
	l = offset < GPIOSHIM_LINES_MAX ? &gs_lines[offset] : NULL;
	if (l && l->requested &&
	    (l->eventflags & (id == GPIOEVENT_EVENT_RISING_EDGE ? GPIOEVENT_REQUEST_RISING_EDGE :
								    GPIOEVENT_REQUEST_FALLING_EDGE)))
		if (write(l->wfd, &ev, sizeof(ev)) != (ssize_t)sizeof(ev))
			fprintf(stderr, "gpioshim: line %u: event not written\n", offset);
	pthread_mutex_unlock(&gs_lock);
}

/*
 * The control FIFO: "N rising" / "N falling" lines, reopened after each
 * writer; GS_CTL_QUIT (what the process's end writes) ends the thread.
 */
static void *gs_ctl_thread(void *arg)
{
	const char *path = arg;
	char line[64], edge[16];
	unsigned int offset;
	FILE *f;

	for (;;) {
		f = fopen(path, "r");
		if (!f)
			return NULL;
		while (fgets(line, sizeof(line), f)) {
			if (strcmp(line, GS_CTL_QUIT) == 0) {
				fclose(f);
				return NULL;
			}
			if (sscanf(line, "%u %15s", &offset, edge) != 2)
				continue;
			gs_fire(offset, strcmp(edge, "rising") == 0 ? GPIOEVENT_EVENT_RISING_EDGE :
								      GPIOEVENT_EVENT_FALLING_EDGE);
		}
		fclose(f);
	}
	return NULL;
}

/* At the process's end: tell the control thread to go (it waits in open or read), join it. */
__attribute__((destructor)) static void gs_ctl_stop(void)
{
	struct timespec nap = { 0, 10000000L };
	int i, fd;

	if (!gs_ctl_started)
		return;
	for (i = 0; i < 100; i++) {
		/* ENXIO until the thread is back in its open() */
		fd = gs_real_open(getenv("IIOWIRE_GPIOSHIM_CTL"), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0) {
			if (write(fd, GS_CTL_QUIT, strlen(GS_CTL_QUIT)) < 0)
				i = 100;
			gs_real_close(fd);
			break;
		}
		nanosleep(&nap, NULL);
	}
	if (i < 100)
		pthread_join(gs_ctl, NULL);
	gs_ctl_started = false;
}

/* Under gs_lock: the control thread, once. */
static void gs_start_ctl(void)
{
	const char *path = getenv("IIOWIRE_GPIOSHIM_CTL");

	if (gs_ctl_started || !path)
		return;
	if (pthread_create(&gs_ctl, NULL, gs_ctl_thread, (void *)path) == 0)
		gs_ctl_started = true;
}

static int gs_chipinfo(struct gpiochip_info *info)
{
	memset(info, 0, sizeof(*info));
	snprintf(info->name, sizeof(info->name), "%s", GPIOSHIM_NAME);
	snprintf(info->label, sizeof(info->label), "%s", GPIOSHIM_LABEL);
	info->lines = (uint32_t)gs_nlines();
	return 0;
}

/* The kernel's lineinfo: "used" (KERNEL) while requested, with its consumer. */
static int gs_lineinfo(struct gpioline_info *info)
{
	uint32_t offset = info->line_offset;

	if (offset >= (uint32_t)gs_nlines()) {
		errno = EINVAL;
		return -1;
	}
	memset(info, 0, sizeof(*info));
	info->line_offset = offset;
	if ((int)offset == gs_env_int("IIOWIRE_GPIOSHIM_BUSY", -1)) {
		info->flags = GPIOLINE_FLAG_KERNEL;
		snprintf(info->consumer, sizeof(info->consumer), "%s", GPIOSHIM_BUSY_CONSUMER);
	} else if (gs_lines[offset].requested) {
		info->flags = GPIOLINE_FLAG_KERNEL;
		memcpy(info->consumer, gs_lines[offset].consumer, sizeof(info->consumer));
	}
	return 0;
}

/* An event request: input only, edges only, a free line; the fd is a pipe's read end. */
static int gs_lineevent(struct gpioevent_request *req)
{
	struct gpioshim_line *l;
	int p[2];

	if (req->lineoffset >= (uint32_t)gs_nlines() ||
	    (req->handleflags & GPIOHANDLE_REQUEST_OUTPUT) ||
	    (req->eventflags & ~(uint32_t)GPIOEVENT_REQUEST_BOTH_EDGES)) {
		errno = EINVAL;
		return -1;
	}
	l = &gs_lines[req->lineoffset];
	if (l->requested || (int)req->lineoffset == gs_env_int("IIOWIRE_GPIOSHIM_BUSY", -1)) {
		errno = EBUSY;
		return -1;
	}
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	l->requested = true;
	l->eventflags = req->eventflags;
	l->rfd = p[0];
	l->wfd = p[1];
	memcpy(l->consumer, req->consumer_label, sizeof(l->consumer));
	l->consumer[sizeof(l->consumer) - 1] = '\0';
	req->fd = p[0];
	gs_start_ctl();
	return 0;
}

static int gs_open_chip(const char *path, int flags)
{
	int fd;

	gs_resolve();
	if (strcmp(path, GPIOSHIM_PATH) != 0)
		return -2;
	fd = gs_real_open("/dev/null", flags & ~(O_CREAT | O_TRUNC));
	if (fd < 0)
		return fd;
	pthread_mutex_lock(&gs_lock);
	if (gs_nchip_fds < GPIOSHIM_CHIP_FDS) {
		gs_chip_fds[gs_nchip_fds++] = fd;
	} else {
		pthread_mutex_unlock(&gs_lock);
		gs_real_close(fd);
		errno = EMFILE;
		return -1;
	}
	pthread_mutex_unlock(&gs_lock);
	return fd;
}

/* open() and its aliases: our node, or on to libc. */
static int gs_open_any(const char *path, int flags, mode_t mode)
{
	int fd = gs_open_chip(path, flags);

	return fd != -2 ? fd : gs_real_open(path, flags, mode);
}

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	return gs_open_any(path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	return gs_open_any(path, flags, mode);
}

int __open_2(const char *path, int flags);
int __open_2(const char *path, int flags)
{
	return gs_open_any(path, flags, 0);
}

int __open64_2(const char *path, int flags);
int __open64_2(const char *path, int flags)
{
	return gs_open_any(path, flags, 0);
}

/* A chip fd is forgotten; a line's event fd releases the line (its write end closes). */
int close(int fd)
{
	int i, wfd = -1;

	gs_resolve();
	pthread_mutex_lock(&gs_lock);
	for (i = 0; i < gs_nchip_fds; i++) {
		if (gs_chip_fds[i] == fd) {
			gs_chip_fds[i] = gs_chip_fds[--gs_nchip_fds];
			break;
		}
	}
	for (i = 0; i < GPIOSHIM_LINES_MAX; i++) {
		if (gs_lines[i].requested && gs_lines[i].rfd == fd) {
			wfd = gs_lines[i].wfd;
			memset(&gs_lines[i], 0, sizeof(gs_lines[i]));
			break;
		}
	}
	pthread_mutex_unlock(&gs_lock);
	if (wfd >= 0)
		gs_real_close(wfd);
	return gs_real_close(fd);
}

int ioctl(int fd, unsigned long req, ...)
{
	void *arg;
	va_list ap;
	int ret;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	gs_resolve();
	pthread_mutex_lock(&gs_lock);
	if (!gs_is_chip_fd(fd)) {
		pthread_mutex_unlock(&gs_lock);
		return gs_real_ioctl(fd, req, arg);
	}
	switch (req) {
	case GPIO_GET_CHIPINFO_IOCTL:
		ret = gs_chipinfo(arg);
		break;
	case GPIO_GET_LINEINFO_IOCTL:
		ret = gs_lineinfo(arg);
		break;
	case GPIO_GET_LINEEVENT_IOCTL:
		ret = gs_lineevent(arg);
		break;
	default:
		errno = ENOTTY;
		ret = -1;
		break;
	}
	pthread_mutex_unlock(&gs_lock);
	return ret;
}
