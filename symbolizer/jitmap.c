// SPDX-License-Identifier: GPL-2.0
/* Time-stamped JIT map entries, indexed by start for interval lookups. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "jitmap.h"
#include "jitline.h"
#include "common/strpool.h"

struct entry {
	uint64_t start, end;
	uint64_t lower, stamp;
	uint64_t seq; /* its line's number in the file: expiry drops entries,
		       * counts and ranges of jitmap__eligible/covered stay */
	/* nframes NUL-separated parts, outermost first; or, while nframes
	 * is 0, the name as the line wrote it (named on first lookup: a
	 * JVM's map has thousands of lines, its samples hit a few hundred) */
	const char *name;
	uint16_t nframes;
	uint8_t kind; /* of the outermost part */
};

/* Index slot: entries sorted by start; maxend = max end up to here. */
struct ix {
	uint64_t start, maxend;
	uint32_t e;
};

struct jitmap {
	struct strpool *pool; /* ours: expiry moves the names kept */
	bool no_inline;
	struct entry *ents;
	size_t n, cap;
	uint64_t lines; /* entries ever added: the next seq */
	uint64_t over; /* lines skipped: JITMAP_MAX_LINES held */
	struct ix *ix;
	size_t nix; /* entries [0, nix) are indexed */
	char *partial; /* an unfinished last line */
	size_t plen, pcap;
	char *scratch; /* for normalising names */
	size_t scap;
	bool unsorted; /* an entry's lower is below the one before it */
};

struct jitmap *jitmap__new(bool no_inline)
{
	struct jitmap *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->pool = strpool__new();
	if (!m->pool) {
		free(m);
		return NULL;
	}
	m->no_inline = no_inline;
	return m;
}

void jitmap__free(struct jitmap *m)
{
	if (!m)
		return;
	strpool__free(m->pool);
	free(m->ents);
	free(m->ix);
	free(m->partial);
	free(m->scratch);
	free(m);
}

size_t jitmap__count(const struct jitmap *m)
{
	return m ? m->n : 0;
}

uint64_t jitmap__over(const struct jitmap *m)
{
	return m ? m->over : 0;
}

/* The first entry not eligible under limit (lower never decreases). */
static size_t first_after(const struct jitmap *m, uint64_t limit)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->ents[mid].lower < limit)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t jitmap__eligible(const struct jitmap *m, uint64_t limit)
{
	size_t i;

	if (!m)
		return 0;
	if (m->unsorted)
		return SIZE_MAX;
	/* in lines of the file: the same count before and after expiry */
	i = first_after(m, limit);
	return i < m->n ? m->ents[i].seq : m->lines;
}

void jitmap__drop_partial(struct jitmap *m)
{
	m->plen = 0;
}

static int reserve(char **buf, size_t *cap, size_t need)
{
	char *nb;
	size_t ncap = *cap ? *cap : 256;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	nb = realloc(*buf, ncap);
	if (!nb)
		return -ENOMEM;
	*buf = nb;
	*cap = ncap;
	return 0;
}

/* Split a normalised Java chain in place at "->"; returns the part count. */
static int split_chain(char *s, size_t len)
{
	int n = 1;

	for (size_t i = 0; i + 1 < len; i++) {
		if (s[i] == '-' && s[i + 1] == '>' && n < UINT16_MAX) {
			/* "a->b" becomes "a\0\0b"; close the gap */
			memmove(s + i + 1, s + i + 2, len - i - 1);
			s[i] = '\0';
			len--;
			n++;
		}
	}
	return n;
}

static int add_line(struct jitmap *m, const char *line, size_t len,
		    uint64_t lower, uint64_t stamp, uint64_t *bad)
{
	struct jitline pl;
	struct entry *e;

	if (jitline__parse(line, len, &pl)) {
		if (bad)
			(*bad)++;
		return 0;
	}
	if (m->n >= JITMAP_MAX_LINES) {
		m->over++;
		return 0;
	}
	if (m->n == m->cap) {
		size_t ncap = m->cap ? m->cap * 2 : 1024;
		struct entry *ne = realloc(m->ents, ncap * sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		m->ents = ne;
		m->cap = ncap;
	}
	e = &m->ents[m->n];
	if (m->n && lower < e[-1].lower)
		m->unsorted = true; /* a file read again from its start */
	e->name = strpool__add(m->pool, pl.name, pl.name_len);
	if (!e->name)
		return -ENOMEM;
	e->start = pl.start;
	e->end = pl.start + pl.size;
	e->lower = lower;
	e->stamp = stamp;
	e->seq = m->lines++;
	e->nframes = 0;
	e->kind = FRAME_UNKNOWN;
	m->n++;
	return 0;
}

/* Normalise e's name as written into its frames (jitline.h). */
static int name_entry(struct jitmap *m, struct entry *e)
{
	size_t nlen = strlen(e->name);
	int nframes = 1;
	enum frame_kind kind;
	const char *name;

	if (reserve(&m->scratch, &m->scap, nlen + 1))
		return -ENOMEM;
	kind = jitline__name(e->name, nlen, m->scratch);
	nlen = strlen(m->scratch);
	if (kind == FRAME_JAVA && !m->no_inline) {
		nframes = split_chain(m->scratch, nlen);
		nlen -= nframes - 1;
	}
	name = strpool__add(m->pool, m->scratch, nlen);
	if (!name)
		return -ENOMEM;
	e->name = name;
	e->nframes = nframes;
	e->kind = kind;
	return 0;
}

int jitmap__feed(struct jitmap *m, const char *buf, size_t len,
		 uint64_t lower_ns, uint64_t stamp_ns, uint64_t *bad)
{
	const char *p = buf, *end = buf + len;
	int err;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);

		if (!nl) {
			if (reserve(&m->partial, &m->pcap, m->plen + (end - p)))
				return -ENOMEM;
			memcpy(m->partial + m->plen, p, end - p);
			m->plen += end - p;
			break;
		}
		if (m->plen) {
			if (reserve(&m->partial, &m->pcap, m->plen + (nl - p)))
				return -ENOMEM;
			memcpy(m->partial + m->plen, p, nl - p);
			err = add_line(m, m->partial, m->plen + (nl - p),
				       lower_ns, stamp_ns, bad);
			m->plen = 0;
		} else if (nl > p) {
			err = add_line(m, p, nl - p, lower_ns, stamp_ns, bad);
		} else {
			err = 0; /* empty line */
		}
		if (err)
			return err;
		p = nl + 1;
	}
	return 0;
}

static int ix_cmp(const void *a, const void *b)
{
	const struct ix *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->e < y->e ? -1 : x->e > y->e;
}

/* Index entries added since the last lookup: sort them, merge them in. */
static int reindex(struct jitmap *m)
{
	size_t nnew = m->n - m->nix, i = 0, j = 0, k = 0;
	struct ix *add, *all;
	uint64_t maxend = 0;

	add = malloc(nnew * sizeof(*add));
	all = malloc(m->n * sizeof(*all));
	if (!add || !all) {
		free(add);
		free(all);
		return -ENOMEM;
	}
	for (size_t q = 0; q < nnew; q++) {
		add[q].start = m->ents[m->nix + q].start;
		add[q].e = m->nix + q;
	}
	qsort(add, nnew, sizeof(*add), ix_cmp);
	while (i < m->nix || j < nnew) {
		if (j == nnew || (i < m->nix && ix_cmp(&m->ix[i], &add[j]) < 0))
			all[k] = m->ix[i++];
		else
			all[k] = add[j++];
		if (m->ents[all[k].e].end > maxend)
			maxend = m->ents[all[k].e].end;
		all[k++].maxend = maxend;
	}
	free(add);
	free(m->ix);
	m->ix = all;
	m->nix = m->n;
	return 0;
}

/*
 * The last-written entry covering ip among those read by a refresh whose
 * previous look was before limit; NULL if none.
 */
static struct entry *covering(const struct jitmap *m, size_t lo, uint64_t ip,
			      uint64_t limit)
{
	struct entry *best = NULL;

	/* every covering entry sits before lo, and the walk stops at the
	 * first slot whose running max end cannot reach ip */
	for (size_t i = lo; i-- > 0 && m->ix[i].maxend > ip;) {
		struct entry *e = &m->ents[m->ix[i].e];

		if (e->end > ip && e->lower < limit && (!best || e > best))
			best = e;
	}
	return best;
}

/* The first index slot starting after ip. */
static size_t slot_after(const struct jitmap *m, uint64_t ip)
{
	size_t lo = 0, hi = m->nix;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->ix[mid].start <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int jitmap__find(struct jitmap *m, uint64_t ip, uint64_t when_ns,
		 uint64_t slack_ns, struct frame *out, int max)
{
	uint64_t limit = when_ns + slack_ns;
	struct entry *best;
	const char *name;
	int n;

	if (!m || max < 1 || (m->nix < m->n && reindex(m)))
		return 0;
	if (limit < when_ns)
		limit = UINT64_MAX;
	best = covering(m, slot_after(m, ip), ip, limit);
	if (!best || (!best->nframes && name_entry(m, best)))
		return 0;
	name = best->name;
	for (n = 0; n < best->nframes && n < max; n++) {
		out[n].name = name;
		out[n].kind = n == 0 ? best->kind : FRAME_INLINED;
		name += strlen(name) + 1;
	}
	return n;
}

int jitmap__covered(struct jitmap *m, uint64_t ip, size_t from, size_t to)
{
	if (!m || from >= to)
		return 0;
	if (m->nix < m->n && reindex(m))
		return -ENOMEM;
	/* as covering(): every entry covering ip sits before the slot */
	for (size_t i = slot_after(m, ip); i-- > 0 && m->ix[i].maxend > ip;) {
		const struct ix *x = &m->ix[i];

		const struct entry *e = &m->ents[x->e];

		if (e->seq >= from && e->seq < to && e->end > ip)
			return 1;
	}
	return 0;
}

/* ---- expiry ------------------------------------------------------------- */

/* Ranges covered so far: sorted, disjoint, not touching. */
struct cover {
	struct range {
		uint64_t start, end;
	} * r;
	size_t n, cap;
};

/* The first range ending at or after x. */
static size_t cover_at(const struct cover *c, uint64_t x)
{
	size_t lo = 0, hi = c->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->r[mid].end < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool cover_has(const struct cover *c, uint64_t start, uint64_t end)
{
	size_t i = cover_at(c, start);

	return start >= end ||
	       (i < c->n && c->r[i].start <= start && c->r[i].end >= end);
}

/* Add [start, end), merged with the ranges it touches. 0 or -ENOMEM. */
static int cover_add(struct cover *c, uint64_t start, uint64_t end)
{
	size_t i = cover_at(c, start), j = i;

	while (j < c->n && c->r[j].start <= end) {
		if (c->r[j].start < start)
			start = c->r[j].start;
		if (c->r[j].end > end)
			end = c->r[j].end;
		j++;
	}
	if (j == i && c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 256;
		struct range *r = realloc(c->r, cap * sizeof(*r));

		if (!r)
			return -ENOMEM;
		c->r = r;
		c->cap = cap;
	}
	/* ranges i..j-1 become one: shift the tail to i + 1 */
	memmove(c->r + i + 1, c->r + j, (c->n - j) * sizeof(*c->r));
	c->n = c->n - (j - i) + 1;
	c->r[i].start = start;
	c->r[i].end = end;
	return 0;
}

/* Bytes of e's name in the pool: one string, or nframes of them. */
static size_t name_bytes(const struct entry *e)
{
	size_t len = 0;
	int parts = e->nframes ? e->nframes : 1;

	while (parts--)
		len += strlen(e->name + len) + 1;
	return len;
}

/*
 * Mark dead[i] the settled entries (the first k) whose range later settled
 * entries cover whole: with theirs eligible, no lookup can pick them.
 * Returns how many, or -ENOMEM.
 */
static long mark_dead(const struct jitmap *m, size_t k, bool *dead)
{
	struct cover c = {};
	long ndead = 0;

	for (size_t i = k; i-- > 0;) {
		const struct entry *e = &m->ents[i];

		if (cover_has(&c, e->start, e->end)) {
			dead[i] = true;
			ndead++;
		} else if (cover_add(&c, e->start, e->end)) {
			ndead = -ENOMEM;
			break;
		}
	}
	free(c.r);
	return ndead;
}

/*
 * Keep the entries not dead, their names copied to a new pool (memcpy:
 * the parts' inner NULs go along). On ENOMEM nothing has changed.
 */
static int compact(struct jitmap *m, const bool *dead)
{
	struct strpool *pool = strpool__new();
	const char **names = malloc(m->n * sizeof(*names));
	size_t n = 0;

	if (!pool || !names)
		goto nomem;
	for (size_t i = 0; i < m->n; i++) {
		if (dead[i])
			continue;
		names[i] = strpool__add(pool, m->ents[i].name,
					name_bytes(&m->ents[i]) - 1);
		if (!names[i])
			goto nomem;
	}
	for (size_t i = 0; i < m->n; i++) {
		if (dead[i])
			continue;
		m->ents[n] = m->ents[i];
		m->ents[n++].name = names[i];
	}
	free(names);
	strpool__free(m->pool);
	m->pool = pool;
	m->n = n;
	free(m->ix);
	m->ix = NULL;
	m->nix = 0; /* indexed again on the next lookup */
	return 0;
nomem:
	free(names);
	strpool__free(pool);
	return -ENOMEM;
}

long jitmap__expire(struct jitmap *m, uint64_t cutoff)
{
	size_t k;
	bool *dead;
	long ndead;

	if (!m || m->unsorted || m->n < 2)
		return 0;
	k = first_after(m, cutoff);
	dead = calloc(m->n, sizeof(*dead));
	if (!dead)
		return -ENOMEM;
	ndead = mark_dead(m, k, dead);
	if (ndead > 0 && compact(m, dead))
		ndead = -ENOMEM;
	free(dead);
	return ndead;
}
