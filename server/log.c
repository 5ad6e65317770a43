/*
 * log.c - the daemon's one-line-per-event log on stderr (see log.h).
 *
 * Each line is formatted into a stack buffer and written with one write(2):
 * stderr is shared by the loop thread and the bus workers, and a single
 * write of less than PIPE_BUF bytes is never interleaved with another.
 * A failed or short write is ignored: logging must never take the daemon
 * down or make it wait (a full pipe on stderr drops lines, by design of
 * whoever reads it). It must not allocate, and it keeps no state of its own.
 * A line starts as its reader wants it (enum srv_log_style): a terminal
 * gets the time, journald the syslog priority, a pipe the bare line.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "log.h"

static const char *const srv_log_level_names[] = {
	[SRV_LOG_ERROR] = "error",
	[SRV_LOG_WARN] = "warn",
	[SRV_LOG_INFO] = "info",
	[SRV_LOG_DEBUG] = "debug",
};

/* stderr is journald's stream when $JOURNAL_STREAM names its device and inode */
static bool srv_log_is_journal(int fd)
{
	const char *env = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	if (!env || sscanf(env, "%llu:%llu", &dev, &ino) != 2 || fstat(fd, &st) < 0)
		return false;
	return (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino;
}

void srv_log_init(struct srv_log *log, enum srv_log_level level)
{
	log->level = level;
	log->fd = STDERR_FILENO;
	log->style = srv_log_is_journal(log->fd) ? SRV_LOG_JOURNAL :
		     isatty(log->fd) ? SRV_LOG_TIMESTAMPED : SRV_LOG_PLAIN;
}

/* syslog(3) priorities of the levels, for journald */
static const char srv_log_priority[] = {
	[SRV_LOG_ERROR] = '3', [SRV_LOG_WARN] = '4', [SRV_LOG_INFO] = '6', [SRV_LOG_DEBUG] = '7',
};

/* The line's start as log->style has it. Return: its length. */
static int srv_log_head(const struct srv_log *log, enum srv_log_level level, char *buf,
			size_t len)
{
	struct timespec ts;
	struct tm tm;
	char when[32];

	if (log->style == SRV_LOG_JOURNAL)
		return snprintf(buf, len, "<%c>iiowired: %s: ", srv_log_priority[level],
				srv_log_level_name(level));
	if (log->style == SRV_LOG_TIMESTAMPED) {
		clock_gettime(CLOCK_REALTIME, &ts);
		localtime_r(&ts.tv_sec, &tm);
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
		return snprintf(buf, len, "%s.%03ld iiowired: %s: ", when, ts.tv_nsec / 1000000,
				srv_log_level_name(level));
	}
	return snprintf(buf, len, "iiowired: %s: ", srv_log_level_name(level));
}

int srv_log_level_parse(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(srv_log_level_names) / sizeof(srv_log_level_names[0]); i++)
		if (strcasecmp(name, srv_log_level_names[i]) == 0)
			return (int)i;
	return -EINVAL;
}

const char *srv_log_level_name(enum srv_log_level level)
{
	if ((unsigned int)level >= sizeof(srv_log_level_names) / sizeof(srv_log_level_names[0]))
		return "?";
	return srv_log_level_names[level];
}

void srv_log_v(const struct srv_log *log, enum srv_log_level level, const char *fmt,
	       va_list ap)
{
	char line[SRV_LOG_LINE_MAX_BYTES];
	size_t head, len, i;
	ssize_t w;
	int n;

	if (!srv_log_enabled(log, level))
		return;
	n = srv_log_head(log, level, line, sizeof(line));
	head = (size_t)n;
	n = vsnprintf(line + head, sizeof(line) - head - 1, fmt, ap);
	if (n < 0)
		n = 0;
	len = head + (size_t)n;
	if (len > sizeof(line) - 2) {
		/* cut: say so rather than end mid-word silently */
		len = sizeof(line) - 2;
		memcpy(line + len - 3, "...", 3);
	}
	for (i = head; i < len; i++)
		if ((unsigned char)line[i] < 0x20 || line[i] == 0x7f)
			line[i] = '?';
	line[len++] = '\n';
	do {
		w = write(log->fd, line, len);
	} while (w < 0 && errno == EINTR);
}

void srv_log(const struct srv_log *log, enum srv_log_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	srv_log_v(log, level, fmt, ap);
	va_end(ap);
}
