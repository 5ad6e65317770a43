/*
 * tool.c - the helpers every libiiowire tool shares (iiowire, iiowire-hwmon,
 * iiowire-mqtt, iiowire-exporter): number parsing, connect-then-AUTH, the
 * SIGINT/SIGTERM signalfd, reconnect backoff and option files.
 *
 * Place in the flow: a tool's main loop -> *tool.c* -> libiiowire's public
 * API. It is linked into the tools, not into libiiowire; but for tool_log()
 * and tool_usage_error() it never prints (messages go to the caller's
 * buffer), and it keeps no state of its own.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "iiowire.h"
#include "iiowire_tool.h"

static void tool_vlog(const char *prog, const char *fmt, va_list ap, const char *tail)
{
	fprintf(stderr, "%s: ", prog);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "%s\n", tail);
}

void tool_log(const char *prog, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tool_vlog(prog, fmt, ap, "");
	va_end(ap);
}

int tool_usage_error(const char *prog, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tool_vlog(prog, fmt, ap, " (try --help)");
	va_end(ap);
	return TOOL_EXIT_USAGE;
}

int tool_parse_ms(const char *s, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end || errno || v <= 0 || v > INT_MAX)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

const char *tool_errname(int err)
{
	const char *n = iiowire_errno_name(err);

	return n ? n : "EIO";
}

struct iiowire *tool_connect(const char *address, int timeout_ms, const char *token_file,
			     char *msg, size_t len)
{
	struct iiowire *w = iiowire_connect(address, timeout_ms);
	int ret;

	if (!w) {
		ret = errno;
		snprintf(msg, len, "%s", *iiowire_connect_errmsg() ? iiowire_connect_errmsg() :
			 iiowire_strerror(ret));
		errno = ret;
		return NULL;
	}
	if (token_file) {
		ret = iiowire_auth_file(w, token_file);
		if (ret < 0) {
			snprintf(msg, len, "token %s: %s", token_file,
				 *iiowire_errmsg(w) ? iiowire_errmsg(w) : iiowire_strerror(ret));
			iiowire_close(w);
			errno = -ret;
			return NULL;
		}
	}
	msg[0] = '\0';
	return w;
}

int tool_signalfd_open(sigset_t *old)
{
	sigset_t set;
	int fd;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	if (sigprocmask(SIG_BLOCK, &set, old) < 0)
		return -errno;
	fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (fd < 0) {
		fd = -errno;
		sigprocmask(SIG_SETMASK, old, NULL);
	}
	return fd;
}

void tool_signalfd_close(int fd, const sigset_t *old)
{
	struct signalfd_siginfo si;

	if (fd >= 0) {
		/* take a pending signal, or unblocking delivers it and kills us */
		if (read(fd, &si, sizeof(si)) < 0)
			si.ssi_signo = 0;
		close(fd);
	}
	sigprocmask(SIG_SETMASK, old, NULL);
}

void tool_backoff_reset(struct tool_backoff *b)
{
	b->next_ms = b->min_ms;
}

int tool_backoff_next(struct tool_backoff *b)
{
	int ms = b->next_ms;

	b->next_ms = ms > b->max_ms / 2 ? b->max_ms : ms * 2;
	return ms;
}

int64_t tool_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void tool_optfile_free(char **argv)
{
	int i;

	if (!argv)
		return;
	for (i = 0; argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* Append "--NAME" and VALUE (if any) of one trimmed line. Return: 0, or -errno. */
static int tool_optfile_line(char *line, char **argv, int *argc)
{
	char *value = line, *end;

	while (*value && !isspace((unsigned char)*value))
		value++;
	if (*value)
		*value++ = '\0';
	while (isspace((unsigned char)*value))
		value++;
	end = value + strlen(value);
	while (end > value && isspace((unsigned char)end[-1]))
		*--end = '\0';
	if (*argc + 2 > TOOL_OPTFILE_MAX_OPTIONS * 2)
		return -E2BIG;
	if (asprintf(&argv[*argc], "--%s", line) < 0)
		return -ENOMEM;
	(*argc)++;
	if (*value) {
		argv[*argc] = strdup(value);
		if (!argv[*argc])
			return -ENOMEM;
		(*argc)++;
	}
	return 0;
}

/* Whether @s holds a control character other than the line's end. */
static int tool_has_control(const char *s)
{
	for (; *s; s++)
		if (iscntrl((unsigned char)*s) && *s != '\n' && *s != '\t')
			return 1;
	return 0;
}

char **tool_optfile_read(const char *path, const char *argv0, int *argc, char *msg, size_t len)
{
	char line[TOOL_OPTFILE_LINE_MAX_BYTES + 2], *p;
	char **argv = calloc(TOOL_OPTFILE_MAX_OPTIONS * 2 + 2, sizeof(*argv));
	int n = 1, lineno = 0, ret = 0;
	FILE *f;

	if (!argv || !(argv[0] = strdup(argv0))) {
		free(argv);
		snprintf(msg, len, "%s: out of memory", path);
		errno = ENOMEM;
		return NULL;
	}
	f = fopen(path, "re");
	if (!f) {
		ret = -errno;
		snprintf(msg, len, "%s: %s", path, strerror(errno));
		goto err_free;
	}
	while (ret == 0 && fgets(line, sizeof(line), f)) {
		lineno++;
		if (!strchr(line, '\n') && !feof(f))
			ret = -E2BIG;
		else if (tool_has_control(line))
			ret = -EINVAL;
		if (ret < 0)
			break;
		for (p = line; isspace((unsigned char)*p); p++)
			;
		if (*p && *p != '#')
			ret = tool_optfile_line(p, argv, &n);
	}
	fclose(f);
	if (ret < 0)
		snprintf(msg, len, "%s:%d: %s", path, lineno, ret == -E2BIG ?
			 "line or option count over the limit" : ret == -EINVAL ?
			 "control character" : strerror(-ret));
err_free:
	if (ret < 0) {
		tool_optfile_free(argv);
		errno = -ret;
		return NULL;
	}
	*argc = n;
	return argv;
}
