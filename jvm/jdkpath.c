// SPDX-License-Identifier: GPL-2.0
/*
 * jdkpath: a launched JDK's libjvm.so, from its command (jdkpath.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "jvm/jdkpath.h"

/* cand, its links followed, is a JDK's bin/java: its libjvm.so into lib. */
static int java_libjvm(const char *cand, char *lib, size_t cap)
{
	char real[PATH_MAX];
	size_t n;

	if (access(cand, X_OK) || !realpath(cand, real))
		return -ENOENT;
	n = strlen(real);
	if (n < 9 || strcmp(real + n - 9, "/bin/java"))
		return -ENOENT;
	snprintf(lib, cap, "%.*s/lib/server/libjvm.so", (int)(n - 9), real);
	return access(lib, R_OK) ? -ENOENT : 0;
}

int jdkpath__libjvm(const char *cmd, const char *path, char *lib, size_t cap)
{
	char *copy, *dir, *save = NULL, cand[PATH_MAX];
	int ret = -ENOENT;

	if (strchr(cmd, '/'))
		return java_libjvm(cmd, lib, cap);
	copy = strdup(path ? path : "/usr/bin:/bin");
	for (dir = copy ? strtok_r(copy, ":", &save) : NULL; ret && dir;
	     dir = strtok_r(NULL, ":", &save)) {
		snprintf(cand, sizeof(cand), "%s/%s", dir, cmd);
		if (access(cand, X_OK))
			continue;
		ret = java_libjvm(cand, lib, cap);
		break; /* the one execvp runs */
	}
	free(copy);
	return ret;
}
