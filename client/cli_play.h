/*
 * cli_play.h - `iiowire play` (cli_play.c), called by the command line's
 * command table (cli.c). Not part of libiiowire; not installed.
 */
#ifndef IIOWIRE_CLI_PLAY_H
#define IIOWIRE_CLI_PLAY_H

#include "iiowire.h"

/* Exit statuses, the same as the command line's. */
#define CLI_PLAY_EXIT_OK	0
#define CLI_PLAY_EXIT_ERROR	1
#define CLI_PLAY_EXIT_USAGE	2

/* Scans per block when -b is not given. */
#define CLI_PLAY_BLOCK_SCANS	256

#define CLI_PLAY_USAGE	"play DEVICE [CHAN...] [OPT...] < FILE"
#define CLI_PLAY_HELP	"scans from stdin to an output device (see below)"

/**
 * cli_play_run() - parse `play`'s words (after the command name), play
 * stdin on the device; errors go to stderr.
 * @w: the connection, borrowed.
 * Return: CLI_PLAY_EXIT_OK, _ERROR or _USAGE.
 */
int cli_play_run(struct iiowire *w, int argc, char **argv);

#endif /* IIOWIRE_CLI_PLAY_H */
