/*
 * maprec: one method's map lines. Names of a record's methods are looked
 * up once each and kept in a small hash table for the record, because an
 * inline chain repeats the same few methods in hundreds of ranges.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "inline_ranges.h"
#include "maprec.h"

struct name_slot {
	jmethodID m; /* NULL: empty */
	size_t off; /* into names */
	size_t len;
};

struct maprec {
	maprec_name_fn fn;
	void *arg;
	struct strbuf names;
	struct name_slot *slots;
	size_t nslots; /* power of two */
	size_t used;
	struct code_range *ranges;
	size_t nranges;
};

static size_t slot_hash(jmethodID m, size_t n)
{
	return (((uintptr_t)m >> 3) * 0x9e3779b97f4a7c15ull) & (n - 1);
}

struct maprec *maprec__new(maprec_name_fn fn, void *arg)
{
	struct maprec *mr = calloc(1, sizeof(*mr));

	if (!mr)
		return NULL;
	mr->fn = fn;
	mr->arg = arg;
	return mr;
}

void maprec__free(struct maprec *mr)
{
	if (!mr)
		return;
	strbuf__release(&mr->names);
	free(mr->slots);
	free(mr->ranges);
	free(mr);
}

const jvmtiCompiledMethodLoadInlineRecord *
maprec__find_inline(const void *compile_info)
{
	const jvmtiCompiledMethodLoadRecordHeader *h = compile_info;

	for (; h; h = h->next)
		if (h->kind == JVMTI_CMLR_INLINE_INFO)
			return (const void *)h;
	return NULL;
}

/* Put s into a table of n slots (power of two); no duplicates. */
static void slot_insert(struct name_slot *tab, size_t n,
			const struct name_slot *s)
{
	size_t i = slot_hash(s->m, n);

	while (tab[i].m)
		i = (i + 1) & (n - 1);
	tab[i] = *s;
}

/* Double the table when half full, so probes stay short. */
static int cache_grow(struct maprec *mr)
{
	size_t n = mr->nslots ? mr->nslots * 2 : 64, i;
	struct name_slot *tab = calloc(n, sizeof(*tab));

	if (!tab)
		return -ENOMEM;
	for (i = 0; i < mr->nslots; i++)
		if (mr->slots[i].m)
			slot_insert(tab, n, &mr->slots[i]);
	free(mr->slots);
	mr->slots = tab;
	mr->nslots = n;
	return 0;
}

/* Empty the cache for a new record, keeping its memory. */
static int cache_reset(struct maprec *mr)
{
	if (!mr->slots)
		return cache_grow(mr);
	memset(mr->slots, 0, mr->nslots * sizeof(*mr->slots));
	mr->used = 0;
	strbuf__reset(&mr->names);
	return 0;
}

/* The cached name of m, looked up on first use. NULL on -ENOMEM. */
static struct name_slot *cache_get(struct maprec *mr, jmethodID m)
{
	size_t mask = mr->nslots - 1, i = slot_hash(m, mr->nslots);
	struct name_slot add = {m, mr->names.len, 0};

	for (;; i = (i + 1) & mask) {
		if (mr->slots[i].m == m)
			return &mr->slots[i];
		if (!mr->slots[i].m)
			break;
	}
	if (mr->fn(mr->arg, m, &mr->names))
		return NULL;
	add.len = mr->names.len - add.off;
	if ((mr->used + 1) * 2 > mr->nslots && cache_grow(mr))
		return NULL;
	mr->used++;
	slot_insert(mr->slots, mr->nslots, &add);
	return cache_get(mr, m);
}

/* Append m's name; NULL (never seen from HotSpot) is the cache's empty
 * marker, so it is named here rather than cached. */
static int add_name(struct maprec *mr, struct strbuf *out, jmethodID m)
{
	struct name_slot *s;

	if (!m)
		return strbuf__adds(out, "[unknown]");
	s = cache_get(mr, m);
	if (!s)
		return -ENOMEM;
	return strbuf__add(out, mr->names.buf + s->off, s->len);
}

/* Append "a->b->c" for p, outermost first (methods[] is innermost first). */
static int add_chain(struct maprec *mr, struct strbuf *out,
		     const PCStackInfo *p)
{
	int j;

	for (j = p->numstackframes - 1; j >= 0; j--) {
		if (add_name(mr, out, p->methods[j]))
			return -ENOMEM;
		if (j && strbuf__add(out, "->", 2))
			return -ENOMEM;
	}
	return 0;
}

/* Append one "START SIZE " line head. */
static int add_head(struct strbuf *out, uint64_t start, uint64_t end)
{
	return strbuf__addf(out, "%llx %llx ", (unsigned long long)start,
			    (unsigned long long)(end - start));
}

/* A line naming just the method, for code between two inline ranges.
 * Readers that look up the nearest range start (perf, bcc) would
 * otherwise land on the inline range before it and find no symbol. */
static int add_gap(struct maprec *mr, struct strbuf *out, jmethodID m,
		   uint64_t start, uint64_t end)
{
	if (start >= end)
		return 0;
	if (add_head(out, start, end) || add_name(mr, out, m) ||
	    strbuf__add(out, "\n", 1))
		return -ENOMEM;
	return 1;
}

static int add_ranges(struct maprec *mr, struct strbuf *out, jmethodID m,
		      uint64_t start, uint64_t size,
		      const jvmtiCompiledMethodLoadInlineRecord *inl,
		      int *nranges)
{
	size_t need = inl->numpcs > 0 ? inl->numpcs : 0;
	int i, n, lines = 0, gap;

	if (need > mr->nranges) {
		struct code_range *r = realloc(mr->ranges, need * sizeof(*r));

		if (!r)
			return -ENOMEM;
		mr->ranges = r;
		mr->nranges = need;
	}
	n = inline_ranges__build(inl->pcinfo, inl->numpcs, start, start + size,
				 mr->ranges);
	if (n <= 0)
		return 0; /* nothing inlined, or unsorted: main line only */
	for (i = 0; i < n; i++) {
		const struct code_range *r = &mr->ranges[i];

		/* the code before the first range starts where the method
		 * line does, so that line already names it */
		gap = i ? add_gap(mr, out, m, mr->ranges[i - 1].end, r->start)
			: 0;
		if (gap < 0 || add_head(out, r->start, r->end) ||
		    add_chain(mr, out, r->pc) || strbuf__add(out, "\n", 1))
			return -ENOMEM;
		lines += 1 + gap;
	}
	gap = add_gap(mr, out, m, mr->ranges[n - 1].end, start + size);
	if (gap < 0)
		return -ENOMEM;
	*nranges = lines + gap;
	return 0;
}

int maprec__method(struct maprec *mr, struct strbuf *out, jmethodID m,
		   uint64_t start, uint64_t size,
		   const jvmtiCompiledMethodLoadInlineRecord *inl, int *nranges)
{
	int dummy;

	if (!nranges)
		nranges = &dummy;
	*nranges = 0;
	if (cache_reset(mr))
		return -ENOMEM;
	if (strbuf__addf(out, "%llx %llx ", (unsigned long long)start,
			 (unsigned long long)size) ||
	    add_name(mr, out, m) || strbuf__add(out, "\n", 1))
		return -ENOMEM;
	if (!inl || !inl->pcinfo)
		return 0;
	return add_ranges(mr, out, m, start, size, inl, nranges);
}
