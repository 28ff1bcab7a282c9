// SPDX-License-Identifier: GPL-2.0
/*
 * readcache: a target's memory a line at a time, kept for a moment (see
 * readcache.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "readcache.h"
#include "common/nsec.h"

static struct readcache_line *slot_of(struct readcache *c, uint64_t line)
{
	uint64_t h = (line / READCACHE_LINE) * 0x9e3779b97f4a7c15ULL;

	return &c->line[(h >> 32) % READCACHE_SLOTS];
}

/* The line at line (aligned) kept now, read if it was not (*missed set):
 * NULL when the inner reader cannot read it whole. */
static struct readcache_line *line_at(struct readcache *c, uint64_t line,
				      bool *missed)
{
	struct readcache_line *l = slot_of(c, line);

	if (l->addr == line + 1 && l->gen == c->gen)
		return l;
	*missed = true;
	if (c->inner->read(c->inner->ctx, line, l->b, READCACHE_LINE)) {
		l->addr = 0;
		return NULL;
	}
	l->addr = line + 1;
	l->gen = c->gen;
	c->st.lines++;
	return l;
}

static int cached_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct readcache *c = ctx;
	uint64_t first = addr & ~(uint64_t)(READCACHE_LINE - 1);
	size_t in_a = first + READCACHE_LINE - addr;
	struct readcache_line *a, *b = NULL;
	bool missed = false;

	c->st.reads++;
	if (!len || addr + len < addr ||
	    addr + len - first > 2 * READCACHE_LINE) {
		c->st.through++;
		return c->inner->read(c->inner->ctx, addr, buf, len);
	}
	if (c->now_ns() - c->gen_ns >= READCACHE_TTL_NS)
		readcache__forget(c);
	a = line_at(c, first, &missed);
	if (a)
		memcpy(buf, a->b + (addr - first), in_a < len ? in_a : len);
	/* the second line may take the first's slot: the first is copied */
	if (a && in_a < len &&
	    (b = line_at(c, first + READCACHE_LINE, &missed)))
		memcpy((uint8_t *)buf + in_a, b->b, len - in_a);
	if (!a || (in_a < len && !b)) {
		c->st.through++;
		return c->inner->read(c->inner->ctx, addr, buf, len);
	}
	c->st.hits += !missed;
	return 0;
}

int readcache__init(struct readcache *c, const struct hotspot_mem *inner)
{
	*c = (struct readcache){
	    .mem = {cached_read, c}, .inner = inner, .now_ns = nsec__now};
	c->line = calloc(READCACHE_SLOTS, sizeof(*c->line));
	return c->line ? 0 : -ENOMEM;
}

void readcache__fini(struct readcache *c)
{
	free(c->line);
	c->line = NULL;
}

void readcache__forget(struct readcache *c)
{
	c->gen++;
	c->gen_ns = c->now_ns();
}
