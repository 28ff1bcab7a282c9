/*
 * selfmaps: the path of a file the test's own process maps (its libc,
 * libelf's libz), from /proc/self/maps: real libraries to read, whatever
 * the host's multiarch layout.
 */
#ifndef MIXPROF_TEST_SELFMAPS_H
#define MIXPROF_TEST_SELFMAPS_H

#include <stdio.h>
#include <string.h>

/* The first mapped path holding name, in buf; NULL if none. */
static inline const char *selfmaps__path(const char *name, char *buf,
					 size_t size)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4400], *p;
	const char *r = NULL;

	while (f && !r && fgets(line, sizeof(line), f)) {
		p = strchr(line, '/');
		if (!p || !strstr(p, name))
			continue;
		p[strcspn(p, "\n")] = 0;
		snprintf(buf, size, "%s", p);
		r = buf;
	}
	if (f)
		fclose(f);
	return r;
}

#endif
