// SPDX-License-Identifier: GPL-2.0
/* Sorted address ranges with names: build, finish, binary search. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "demangle.h"
#include "symtab.h"

struct sym {
	uint64_t start, end;
	uint32_t off; /* name offset in the arena; also add order */
	uint32_t mangled;
	char *demangled; /* cached on first lookup, owned */
};

struct symtab {
	uint64_t *starts; /* syms[i].start, dense for the binary search */
	struct sym *syms;
	size_t n, cap;
	char *names;
	size_t names_len, names_cap;
};

/* How far back a lookup looks for an enclosing range (nested symbols). */
#define NEST_LOOKBACK 4

struct symtab *symtab__new(void)
{
	return calloc(1, sizeof(struct symtab));
}

void symtab__free(struct symtab *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		free(t->syms[i].demangled);
	free(t->starts);
	free(t->syms);
	free(t->names);
	free(t);
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t ncap = *cap ? *cap : 64;
	void *np;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	np = realloc(*p, ncap * size);
	if (!np)
		return -ENOMEM;
	*p = np;
	*cap = ncap;
	return 0;
}

int symtab__add(struct symtab *t, uint64_t start, uint64_t end,
		const char *name, size_t name_len, bool mangled)
{
	struct sym *s;

	if (t->names_len + name_len + 1 > UINT32_MAX)
		return -ENOMEM;
	if (grow((void **)&t->syms, &t->cap, t->n + 1, sizeof(*t->syms)) ||
	    grow((void **)&t->names, &t->names_cap, t->names_len + name_len + 1,
		 1))
		return -ENOMEM;
	s = &t->syms[t->n++];
	s->start = start;
	s->end = end > start ? end : start;
	s->off = t->names_len;
	s->mangled = mangled;
	s->demangled = NULL;
	memcpy(t->names + t->names_len, name, name_len);
	t->names[t->names_len + name_len] = '\0';
	t->names_len += name_len + 1;
	return 0;
}

/* By start; among equal starts the first added wins (lower offset). */
static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

int symtab__finish(struct symtab *t, uint64_t max_gap)
{
	size_t i, j;

	if (!t->n)
		return 0;
	qsort(t->syms, t->n, sizeof(*t->syms), sym_cmp);
	for (i = 1, j = 0; i < t->n; i++) {
		if (t->syms[i].start == t->syms[j].start) {
			/* an alias; keep the bigger extent under the first name */
			if (t->syms[i].end > t->syms[j].end)
				t->syms[j].end = t->syms[i].end;
			continue;
		}
		t->syms[++j] = t->syms[i];
	}
	t->n = j + 1;
	for (i = 0; i < t->n; i++) {
		struct sym *s = &t->syms[i];
		uint64_t lim = s->start + max_gap;

		if (s->end > s->start)
			continue;
		if (lim < s->start) /* overflow near the top */
			lim = UINT64_MAX;
		if (i + 1 < t->n && t->syms[i + 1].start < lim)
			lim = t->syms[i + 1].start;
		s->end = lim;
	}
	free(t->starts);
	t->starts = malloc(t->n * sizeof(*t->starts));
	if (!t->starts)
		return -ENOMEM;
	for (i = 0; i < t->n; i++)
		t->starts[i] = t->syms[i].start;
	return 0;
}

static const char *sym_name(struct symtab *t, struct sym *s)
{
	if (s->demangled)
		return s->demangled;
	if (s->mangled) {
		s->mangled = 0; /* try once; keep the raw name on failure */
		s->demangled = demangle(t->names + s->off);
		if (s->demangled)
			return s->demangled;
	}
	return t->names + s->off;
}

const char *symtab__find(struct symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t && t->starts ? t->n : 0;

	/* first entry with start > addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->starts[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t k = 0; k < NEST_LOOKBACK && lo > k; k++) {
		struct sym *s = &t->syms[lo - 1 - k];

		if (addr < s->end)
			return sym_name(t, s);
	}
	return NULL;
}

size_t symtab__count(const struct symtab *t)
{
	return t ? t->n : 0;
}

uint64_t symtab__min(const struct symtab *t)
{
	return t && t->n ? t->syms[0].start : UINT64_MAX;
}
