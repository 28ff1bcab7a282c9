// SPDX-License-Identifier: GPL-2.0
/*
 * containers: the containers a run has met (containers.h). A host holds
 * tens to a few hundred containers, and a process is looked up once, when
 * it is first seen: a list searched in order is enough.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "common/cgroup.h"
#include "containers.h"

struct container {
	char id[CGROUP_ID_LEN + 1];
	char *path; /* made safe, owned */
};

struct containers {
	struct container **v; /* each its own allocation: ids never move */
	size_t n, cap;
};

struct containers *containers__new(void)
{
	return calloc(1, sizeof(struct containers));
}

void containers__free(struct containers *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i]->path);
		free(c->v[i]);
	}
	free(c->v);
	free(c);
}

static struct container *find(const struct containers *c, const char *id)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->v[i]->id, id))
			return c->v[i];
	return NULL;
}

/* A new entry for id, taking path; NULL (path freed) without memory. */
static struct container *add(struct containers *c, const char *id, char *path)
{
	struct container *e;

	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 16;
		struct container **v = realloc(c->v, cap * sizeof(*v));

		if (!v)
			goto fail;
		c->v = v;
		c->cap = cap;
	}
	e = malloc(sizeof(*e));
	if (!e)
		goto fail;
	memcpy(e->id, id, sizeof(e->id));
	e->path = path;
	c->v[c->n++] = e;
	return e;
fail:
	free(path);
	return NULL;
}

const char *containers__of_pid(struct containers *c, uint32_t pid)
{
	char id[CGROUP_ID_LEN + 1], *path;
	struct container *e;

	if (cgroup__read_pid(pid, id, &path) || !id[0])
		return NULL;
	e = find(c, id);
	if (e)
		free(path);
	else
		e = add(c, id, path);
	return e ? e->id : NULL;
}

const char *containers__path(const struct containers *c, const char *id)
{
	const struct container *e = c ? find(c, id) : NULL;

	return e ? e->path : NULL;
}
