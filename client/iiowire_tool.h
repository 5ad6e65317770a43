/*
 * iiowire_tool.h - what the iiowire command line and the iiowire-hwmon
 * bridge share: the options every libiiowire tool takes, spelled once.
 *
 * Not part of libiiowire's API and not installed; each tool still owns its
 * parsing (a getopt_long switch), so a tool may add options but spells
 * these the same as the others: -a/--address, -t/--timeout,
 * -k/--token-file, -h/--help.
 */
#ifndef IIOWIRE_TOOL_H
#define IIOWIRE_TOOL_H

#include <getopt.h>

/* Rows of a struct option table (getopt_long), to put first in a tool's table. */
#define IIOWIRE_TOOL_COMMON_OPTIONS					\
	{ "address", required_argument, NULL, 'a' },			\
	{ "timeout", required_argument, NULL, 't' },			\
	{ "token-file", required_argument, NULL, 'k' },			\
	{ "help", no_argument, NULL, 'h' }

#endif /* IIOWIRE_TOOL_H */
