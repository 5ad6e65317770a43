/*
 * log.h - the daemon's log: one line per event on stderr, with a level.
 *
 * Only server/ prints (libraries return -errno and fill message buffers);
 * every line the daemon writes goes through srv_log(). A line is built in
 * full and written with one write(2), so lines from the loop and from bus
 * workers never interleave, and text that came from a peer (a request, a
 * board-file message) is escaped so that one event stays one line.
 * Place in the flow: beside the server, never on the wire. It must not
 * allocate, block on a lock or exit the process.
 */
#ifndef IIOWIRE_SRV_LOG_H
#define IIOWIRE_SRV_LOG_H

#include <stdarg.h>

enum srv_log_level {
	SRV_LOG_ERROR,
	SRV_LOG_WARN,
	SRV_LOG_INFO,
	SRV_LOG_DEBUG,
};

/*
 * How a line starts: as it is (a pipe or file: the reader adds its own
 * stamps), with the local time (a terminal), or with the syslog priority
 * "<N>" that journald reads (stderr is the journal's stream).
 */
enum srv_log_style {
	SRV_LOG_PLAIN,
	SRV_LOG_TIMESTAMPED,
	SRV_LOG_JOURNAL,
};

/* Longest line we write; longer messages are cut and end with "...". */
#define SRV_LOG_LINE_MAX_BYTES	1024

/**
 * struct srv_log - where and how much to log; the caller's memory.
 * @level: lines above this level are dropped before formatting.
 * @fd: file descriptor lines are written to (2, or a test's pipe).
 * @style: how each line starts (srv_log_init() looks at stderr).
 */
struct srv_log {
	enum srv_log_level level;
	int fd;
	enum srv_log_style style;
};

/** srv_log_init() - fill @log for stderr at @level. */
void srv_log_init(struct srv_log *log, enum srv_log_level level);

/**
 * srv_log_level_parse() - "error", "warn", "info", "debug" (any case).
 * Return: the level (>= 0), or -EINVAL for any other word.
 */
int srv_log_level_parse(const char *name);
/** srv_log_level_name() - the word for @level; borrowed static text. */
const char *srv_log_level_name(enum srv_log_level level);

/** srv_log_enabled() - true if a line at @level would be written. */
static inline int srv_log_enabled(const struct srv_log *log, enum srv_log_level level)
{
	return level <= log->level;
}

/**
 * srv_log() - write one line "iiowired: LEVEL: message". Control characters
 * in the message become '?' so peer text cannot forge or split lines.
 */
void srv_log(const struct srv_log *log, enum srv_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void srv_log_v(const struct srv_log *log, enum srv_log_level level, const char *fmt,
	       va_list ap);

#define srv_err(log, ...)	srv_log((log), SRV_LOG_ERROR, __VA_ARGS__)
#define srv_warn(log, ...)	srv_log((log), SRV_LOG_WARN, __VA_ARGS__)
#define srv_info(log, ...)	srv_log((log), SRV_LOG_INFO, __VA_ARGS__)
#define srv_debug(log, ...)						\
	do {								\
		if (srv_log_enabled((log), SRV_LOG_DEBUG))		\
			srv_log((log), SRV_LOG_DEBUG, __VA_ARGS__);	\
	} while (0)

#endif /* IIOWIRE_SRV_LOG_H */
