/*
 * cli_capture.h - `iiowire capture` (capture.c), called by the command
 * line's command table (cli.c). Not part of libiiowire; not installed.
 */
#ifndef IIOWIRE_CLI_CAPTURE_H
#define IIOWIRE_CLI_CAPTURE_H

#include "iiowire.h"

/* Exit statuses, the same as the command line's. */
#define CLI_CAPTURE_EXIT_OK	0
#define CLI_CAPTURE_EXIT_ERROR	1
#define CLI_CAPTURE_EXIT_USAGE	2

/* Scans per block when -b is not given: at most this, and never more than -n. */
#define CLI_CAPTURE_BLOCK_SCANS		256

/* The usage line and help of the command, for `iiowire --help`. */
#define CLI_CAPTURE_USAGE	"capture DEVICE [CHAN...] -n N [OPT...]"
#define CLI_CAPTURE_HELP	"N scans to stdout (see below)"

/**
 * cli_capture_run() - parse `capture`'s words (after the command name) and
 * write the scans to stdout; errors go to stderr.
 * @w: the connection, borrowed.
 * Return: CLI_CAPTURE_EXIT_OK, _ERROR or _USAGE.
 */
int cli_capture_run(struct iiowire *w, int argc, char **argv);

#endif /* IIOWIRE_CLI_CAPTURE_H */
