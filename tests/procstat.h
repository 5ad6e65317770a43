/*
 * procstat.h - what /proc says of a running process: resident memory, open
 * descriptors, CPU time. Read by the live-daemon tests (through srvtest.h)
 * and by the soak load generator (bench/iiowire_soak.c), which both watch an
 * iiowired for leaks. Header-only and free of CUnit and of the tree's
 * libraries, so bench/ can include it by path and build with a bare cc.
 */
#ifndef IIOWIRE_PROCSTAT_H
#define IIOWIRE_PROCSTAT_H

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

/* VmRSS of @pid in KiB, or -1. */
static inline long procstat_rss_kb(pid_t pid)
{
	char path[64], line[256];
	long kb = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/* Number of open descriptors of @pid, or -1. */
static inline long procstat_fds(pid_t pid)
{
	struct dirent *de;
	char path[64];
	long n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

/* Sum of user and system CPU time of @pid, in clock ticks, or -1. */
static inline long procstat_cpu_ticks(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long ut = 0, st = 0;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	p = strrchr(buf, ')');
	/* fields after the name: state is 3; utime 14, stime 15: stop at the blank before 14 */
	for (i = 3; p && i < 15; i++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%lu %lu", &ut, &st) != 2)
		return -1;
	return (long)(ut + st);
}

#endif /* IIOWIRE_PROCSTAT_H */
