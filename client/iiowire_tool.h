/*
 * iiowire_tool.h - what the libiiowire tools (the iiowire command line, the
 * iiowire-hwmon, iiowire-mqtt and iiowire-exporter bridges) share: the
 * options every tool takes, spelled once, and the helpers of tool.c
 * (number parsing, connecting with a token, a signalfd for SIGINT/SIGTERM,
 * reconnect backoff, option files).
 *
 * Not part of libiiowire's API and not installed; each tool still owns its
 * parsing (a getopt_long switch), so a tool may add options but spells
 * these the same as the others: -a/--address, -t/--timeout,
 * -k/--token-file, -h/--help. Nothing here prints but tool_log() and
 * tool_usage_error(), the tools' one way to say things on stderr.
 */
#ifndef IIOWIRE_TOOL_H
#define IIOWIRE_TOOL_H

#include <getopt.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

struct iiowire;

/* Rows of a struct option table (getopt_long), to put first in a tool's table. */
#define IIOWIRE_TOOL_COMMON_OPTIONS					\
	{ "address", required_argument, NULL, 'a' },			\
	{ "timeout", required_argument, NULL, 't' },			\
	{ "token-file", required_argument, NULL, 'k' },			\
	{ "help", no_argument, NULL, 'h' }

/* Longest line of an option file (tool_optfile_read()). */
#define TOOL_OPTFILE_LINE_MAX_BYTES	1024
/* Most options one option file may hold. */
#define TOOL_OPTFILE_MAX_OPTIONS	256
/* Longest message tool_connect() leaves in its buffer. */
#define TOOL_MSG_MAX_BYTES		512

/* The exit status of a usage error, the same for every tool. */
#define TOOL_EXIT_USAGE			2

/** tool_log() - "PROG: MESSAGE\n" on stderr. */
void tool_log(const char *prog, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * tool_usage_error() - "PROG: MESSAGE (try --help)\n" on stderr.
 * Return: TOOL_EXIT_USAGE, for the caller to exit with.
 */
int tool_usage_error(const char *prog, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * tool_parse_ms() - a positive int (milliseconds, a count) from @s.
 * Return: 0 with *@out set, or -EINVAL for anything but 1..INT_MAX digits.
 */
int tool_parse_ms(const char *s, int *out);

/**
 * tool_errname() - the errno name of @err for messages ("ENOENT").
 * Return: static string; "EIO" for a code the protocol has no name for.
 */
const char *tool_errname(int err);

/**
 * tool_connect() - iiowire_connect() to @address, then AUTH with the token on
 * the first line of @token_file when that is not NULL.
 * @msg: caller's buffer (TOOL_MSG_MAX_BYTES is enough) for why it failed.
 * Return: owned connection (end with iiowire_close()), or NULL with errno
 * set and @msg filled: the connect errors of iiowire_connect(), or the
 * token's (EACCES, ENOENT).
 */
struct iiowire *tool_connect(const char *address, int timeout_ms, const char *token_file,
			     char *msg, size_t len);

/**
 * tool_signalfd_open() - block SIGINT and SIGTERM and return a signalfd that
 * reads them, so a poll loop ends on them without a handler or a global flag.
 * @old: caller's memory: the previous mask, for tool_signalfd_close().
 * Return: the fd, or -errno (the mask is restored then).
 */
int tool_signalfd_open(sigset_t *old);

/** tool_signalfd_close() - close @fd (if >= 0) and restore the mask of tool_signalfd_open(). */
void tool_signalfd_close(int fd, const sigset_t *old);

/**
 * struct tool_backoff - the wait between reconnect attempts: doubles from
 * @min_ms to @max_ms on each failure, back to @min_ms on a success.
 * Caller's memory; set @min_ms and @max_ms, then tool_backoff_reset().
 */
struct tool_backoff {
	int min_ms;
	int max_ms;
	int next_ms;
};

/** tool_backoff_reset() - the next wait is @b->min_ms again. */
void tool_backoff_reset(struct tool_backoff *b);

/** tool_backoff_next() - the wait before the next attempt. Return: ms, then doubled. */
int tool_backoff_next(struct tool_backoff *b);

/** tool_now_ms() - CLOCK_MONOTONIC in milliseconds. */
int64_t tool_now_ms(void);

/**
 * tool_optfile_read() - an option file as extra command-line words: each
 * line "NAME VALUE" or "NAME" becomes "--NAME" [VALUE]; blank lines and
 * lines starting with '#' are skipped; VALUE is the rest of the line, blanks
 * at either end removed. The tool parses the words with its own getopt table,
 * so the file takes exactly the long options the command line does.
 * @argv0: the program name, put first.
 * @argc: set to the number of words.
 * @msg: caller's buffer for why it failed.
 * Return: owned NULL-terminated word array (free with tool_optfile_free()),
 * or NULL with errno set (the open's errno, E2BIG for a line or a count over
 * the limits, EINVAL for a control character) and @msg filled.
 */
char **tool_optfile_read(const char *path, const char *argv0, int *argc, char *msg, size_t len);

/** tool_optfile_free() - free tool_optfile_read()'s array; NULL-safe. */
void tool_optfile_free(char **argv);

#endif /* IIOWIRE_TOOL_H */
