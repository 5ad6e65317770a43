/*
 * cli_hint.h - "did you mean" for the command line (cli_hint.c): the
 * device, attribute or consumer a failed command most likely meant, by the
 * rule the board loader uses for chip names (iio_near.h). Not part of
 * libiiowire; not installed.
 */
#ifndef IIOWIRE_CLI_HINT_H
#define IIOWIRE_CLI_HINT_H

#include <stdbool.h>
#include <stddef.h>

#include "iiowire.h"

/**
 * cli_hint_find() - after command @cmd failed with @err (-ENODEV: no such
 * device or consumer; -ENOENT: no such attribute) on its words @argv, the
 * name the user most likely meant, asked of the daemon on @w.
 * @buf: caller's buffer for the name, NUL-terminated when @len > 0.
 * Return: whether there is one (none for other errors, or when nothing is near).
 */
bool cli_hint_find(struct iiowire *w, const char *cmd, int argc, char **argv, int err,
		   char *buf, size_t len);

#endif /* IIOWIRE_CLI_HINT_H */
