// SPDX-License-Identifier: GPL-2.0
/* /proc/PID/maps text -> sorted executable mappings. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "common/procfs.h"
#include "procmaps.h"

static int vma_cmp(const void *a, const void *b)
{
	const struct vma *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

struct procmaps *procmaps__parse(const char *text, size_t len)
{
	struct procmaps *m = calloc(1, sizeof(*m));
	const char *p = text, *end = text + len;
	size_t cap = 0, plen = 0;
	struct procfs_map pm;
	int r;

	if (!m)
		return NULL;
	m->paths = malloc(len + 1);
	if (!m->paths)
		goto fail;
	/* r < 0: a line that does not parse, counted and skipped */
	while ((r = procfs__maps_next(&p, end, &pm))) {
		if (r < 0)
			m->bad++;
		if (r < 0 || pm.perms[2] != 'x')
			continue;
		if (m->n == cap) {
			size_t nc = cap ? cap * 2 : 64;
			struct vma *nv = realloc(m->v, nc * sizeof(*nv));

			if (!nv)
				goto fail;
			m->v = nv;
			cap = nc;
		}
		memcpy(m->paths + plen, pm.path, pm.path_len);
		m->paths[plen + pm.path_len] = '\0';
		m->v[m->n++] = (struct vma){
		    .start = pm.start,
		    .end = pm.end,
		    .offset = pm.offset,
		    .dev = pm.dev,
		    .inode = pm.inode,
		    .path = (const char *)(uintptr_t)plen,
		};
		plen += pm.path_len + 1;
	}
	for (size_t i = 0; i < m->n; i++)
		m->v[i].path = m->paths + (uintptr_t)m->v[i].path;
	if (m->n > 1)
		qsort(m->v, m->n, sizeof(*m->v), vma_cmp);
	return m;
fail:
	procmaps__free(m);
	errno = ENOMEM;
	return NULL;
}

void procmaps__free(struct procmaps *m)
{
	if (!m)
		return;
	free(m->v);
	free(m->paths);
	free(m);
}

const struct vma *procmaps__find(const struct procmaps *m, uint64_t addr)
{
	size_t lo = 0, hi = m ? m->n : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && addr < m->v[lo - 1].end)
		return &m->v[lo - 1];
	return NULL;
}
