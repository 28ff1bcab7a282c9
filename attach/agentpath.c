/*
 * agentpath: where libjmap.so is (see agentpath.h).
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "agentpath.h"

/* path (malloc'ed) when it is readable, else NULL (and path freed). */
static char *readable(char *path)
{
	if (path && access(path, R_OK)) {
		free(path);
		return NULL;
	}
	return path;
}

/*
 * libjmap.so: $MIXPROF_AGENT when set; else next to the mixprof binary
 * (the build tree), else in ../lib/mixprof beside its bin/ (make
 * install's layout, whatever PREFIX was).
 */
char *agentpath__find(void)
{
	char exe[4096], *dir, *path = NULL, *env = getenv("MIXPROF_AGENT");
	ssize_t n;

	if (env && *env)
		return readable(strdup(env));
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return NULL;
	exe[n] = 0;
	dir = dirname(exe);
	if (asprintf(&path, "%s/libjmap.so", dir) < 0)
		return NULL;
	path = readable(path);
	if (!path && asprintf(&path, "%s/../lib/mixprof/libjmap.so", dir) < 0)
		return NULL;
	return readable(path);
}
