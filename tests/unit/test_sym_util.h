/*
 * Helpers shared by the symbolizer's unit tests: fixture paths from
 * $TOP/$BUILD (tests/run exports both; the binary's own location is the
 * fallback), and reading a fixture whole.
 */
#ifndef MIXPROF_TEST_SYM_UTIL_H
#define MIXPROF_TEST_SYM_UTIL_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* $BUILD, or the build dir this binary sits in ($BUILD/tests/unit/x). */
static inline const char *sym_build_dir(void)
{
	static char dir[PATH_MAX];
	const char *b = getenv("BUILD");
	ssize_t n;

	if (b && *b)
		return b;
	n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
	if (n <= 0)
		return "build";
	dir[n] = '\0';
	for (int i = 0; i < 3; i++)
		if (strrchr(dir, '/'))
			*strrchr(dir, '/') = '\0';
	return dir;
}

static inline const char *sym_top_dir(void)
{
	static char dir[PATH_MAX + 8];
	const char *t = getenv("TOP");

	if (t && *t)
		return t;
	snprintf(dir, sizeof(dir), "%s/..", sym_build_dir());
	return dir;
}

/* A source fixture, read whole; NULL when missing. Caller frees. */
static inline char *sym_fixture(const char *name, size_t *len)
{
	char path[2 * PATH_MAX];
	char *buf = NULL;
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/fixtures/symbolizer/%s",
		 sym_top_dir(), name);
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "cannot open fixture %s\n", path);
		return NULL;
	}
	*len = getdelim(&buf, &cap, '\0', f);
	fclose(f);
	return buf;
}

#endif
