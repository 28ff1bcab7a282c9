// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup: a process's container id from its cgroup path (cgroup.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cgroup.h"
#include "procfs.h"
#include "safename.h"

/* The runtimes' prefixes of a container's own cgroup (cgroup.h). */
static const char *const prefixes[] = {"docker-", "cri-containerd-", "crio-",
				       "libpod-"};

/* One path component (n bytes): the id it is, or NULL. */
static const char *component_id(const char *s, size_t n)
{
	static const char scope[] = ".scope";
	size_t sl = sizeof(scope) - 1;

	if (n == CGROUP_ID_LEN)
		return cgroup__all_hex(s, n) ? s : NULL;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t pl = strlen(prefixes[i]), rest;

		if (n <= pl || memcmp(s, prefixes[i], pl))
			continue;
		rest = n - pl;
		if (rest == CGROUP_ID_LEN + sl &&
		    !memcmp(s + pl + CGROUP_ID_LEN, scope, sl))
			rest = CGROUP_ID_LEN;
		if (rest == CGROUP_ID_LEN && cgroup__all_hex(s + pl, rest))
			return s + pl;
	}
	return NULL;
}

bool cgroup__container_id(const char *path, size_t len, char *id)
{
	size_t end = len;

	/* innermost first: a process may sit below its container's cgroup */
	while (end > 0) {
		size_t start = end;
		const char *hit;

		while (start > 0 && path[start - 1] != '/')
			start--;
		hit = component_id(path + start, end - start);
		if (hit) {
			memcpy(id, hit, CGROUP_ID_LEN);
			id[CGROUP_ID_LEN] = 0;
			return true;
		}
		end = start ? start - 1 : 0;
	}
	id[0] = 0;
	return false;
}

int cgroup__path(const char *text, size_t len, const char **path, size_t *plen)
{
	const char *p = text, *end = text + len, *first = NULL;
	size_t first_len = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p), *eol = nl ? nl : end;
		const char *c1 = memchr(p, ':', eol - p);
		const char *c2 = c1 ? memchr(c1 + 1, ':', eol - c1 - 1) : NULL;

		if (c2 && c2 + 1 < eol) {
			/* "0::" is the v2 hierarchy's line: the one to use */
			if (c1 - p == 1 && *p == '0' && c2 == c1 + 1) {
				*path = c2 + 1;
				*plen = eol - c2 - 1;
				return 0;
			}
			if (!first) {
				first = c2 + 1;
				first_len = eol - c2 - 1;
			}
		}
		p = eol + 1;
	}
	if (!first)
		return -ENOENT;
	*path = first;
	*plen = first_len;
	return 0;
}

int cgroup__read_pid(uint32_t pid, char *id, char **path)
{
	const char *p;
	size_t len, n;
	char *buf;
	int err;

	id[0] = 0;
	if (path)
		*path = NULL;
	err = procfs__read_pid(pid, "cgroup", PROCFS_SMALL_MAX, &buf, &len);
	if (err)
		return err;
	if (cgroup__path(buf, len, &p, &n) || !cgroup__container_id(p, n, id))
		goto out;
	if (path) {
		size_t cap = SAFENAME_SIZE(n);

		*path = malloc(cap);
		if (*path) {
			safename__copy(*path, cap, p, n, 0);
		} else {
			id[0] = 0;
			err = -ENOMEM;
		}
	}
out:
	free(buf);
	return err;
}
