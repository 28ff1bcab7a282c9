// SPDX-License-Identifier: GPL-2.0
/* Chunked string arena plus an open-addressing set for interning. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "strpool.h"

#define CHUNK_SIZE (64 * 1024)

struct chunk {
	struct chunk *next;
	size_t used, size;
	char data[];
};

struct strpool {
	struct chunk *chunks;
	const char **set; /* interned strings; NULL = empty slot */
	size_t set_n, set_cap; /* set_cap is a power of two */
};

struct strpool *strpool__new(void)
{
	return calloc(1, sizeof(struct strpool));
}

void strpool__free(struct strpool *p)
{
	struct chunk *c, *next;

	if (!p)
		return;
	for (c = p->chunks; c; c = next) {
		next = c->next;
		free(c);
	}
	free(p->set);
	free(p);
}

char *strpool__add(struct strpool *p, const char *s, size_t len)
{
	struct chunk *c = p->chunks;
	char *r;

	if (!c || c->size - c->used < len + 1) {
		size_t size = len + 1 > CHUNK_SIZE ? len + 1 : CHUNK_SIZE;

		c = malloc(sizeof(*c) + size);
		if (!c) {
			errno = ENOMEM;
			return NULL;
		}
		c->used = 0;
		c->size = size;
		/* a big one-off string goes behind, keeping the open chunk */
		if (p->chunks && size > CHUNK_SIZE) {
			c->next = p->chunks->next;
			p->chunks->next = c;
		} else {
			c->next = p->chunks;
			p->chunks = c;
		}
	}
	r = c->data + c->used;
	memcpy(r, s, len);
	r[len] = '\0';
	c->used += len + 1;
	return r;
}

static uint64_t hash(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */

	while (len--)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static int set_grow(struct strpool *p)
{
	size_t cap = p->set_cap ? p->set_cap * 2 : 256;
	const char **set = calloc(cap, sizeof(*set));

	if (!set)
		return -ENOMEM;
	for (size_t i = 0; i < p->set_cap; i++) {
		const char *s = p->set[i];
		size_t j;

		if (!s)
			continue;
		j = hash(s, strlen(s)) & (cap - 1);
		while (set[j])
			j = (j + 1) & (cap - 1);
		set[j] = s;
	}
	free(p->set);
	p->set = set;
	p->set_cap = cap;
	return 0;
}

const char *strpool__intern(struct strpool *p, const char *s, size_t len)
{
	size_t i;
	char *r;

	if ((p->set_n + 1) * 2 > p->set_cap && set_grow(p)) {
		errno = ENOMEM;
		return NULL;
	}
	i = hash(s, len) & (p->set_cap - 1);
	for (; p->set[i]; i = (i + 1) & (p->set_cap - 1))
		if (!strncmp(p->set[i], s, len) && p->set[i][len] == '\0')
			return p->set[i];
	r = strpool__add(p, s, len);
	if (!r)
		return NULL;
	p->set[i] = r;
	p->set_n++;
	return r;
}
