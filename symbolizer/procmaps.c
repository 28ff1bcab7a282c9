// SPDX-License-Identifier: GPL-2.0
/* /proc/PID/maps text -> sorted executable mappings. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include "common/parse_util.h"
#include "procmaps.h"

/*
 * "start-end perms offset major:minor inode   path". Returns 1 and fills
 * v (path as an offset into the text, stashed in v->path) when the line
 * is an executable mapping, 0 when it is not, -1 when it does not parse.
 */
static int parse_line(const char *p, const char *end, struct vma *v,
		      size_t *path_off, size_t *path_len, const char *base)
{
	uint64_t maj, min;
	const char *perms;

	if (pu_hex(&p, end, &v->start, false) || p >= end || *p++ != '-' ||
	    pu_hex(&p, end, &v->end, false) || p >= end || *p++ != ' ')
		return -1;
	if (end - p < 5 || p[4] != ' ' || v->end <= v->start)
		return -1;
	perms = p;
	p += 5;
	if (pu_hex(&p, end, &v->offset, false) || p >= end || *p++ != ' ' ||
	    pu_hex(&p, end, &maj, false) || p >= end || *p++ != ':' ||
	    pu_hex(&p, end, &min, false) || p >= end || *p++ != ' ' ||
	    pu_dec(&p, end, &v->inode))
		return -1;
	if (maj > 0xfff || min > 0xfffff)
		return -1;
	v->dev = makedev(maj, min);
	pu_skip_blanks(&p, end);
	*path_off = p - base;
	*path_len = end - p;
	return perms[2] == 'x';
}

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

	if (!m)
		return NULL;
	m->paths = malloc(len + 1);
	if (!m->paths)
		goto fail;
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *le = nl ? nl : end;
		size_t off, n;
		struct vma v;
		int r = le > p ? parse_line(p, le, &v, &off, &n, text) : 0;

		if (r < 0)
			m->bad++;
		if (r > 0) {
			if (m->n == cap) {
				size_t nc = cap ? cap * 2 : 64;
				struct vma *nv =
				    realloc(m->v, nc * sizeof(*nv));

				if (!nv)
					goto fail;
				m->v = nv;
				cap = nc;
			}
			memcpy(m->paths + plen, text + off, n);
			m->paths[plen + n] = '\0';
			v.path = (const char *)(uintptr_t)plen;
			plen += n + 1;
			m->v[m->n++] = v;
		}
		p = le + 1;
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
