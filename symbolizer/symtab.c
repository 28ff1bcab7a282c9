// SPDX-License-Identifier: GPL-2.0
/* Sorted address ranges with names: build, finish, binary search. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "demangle.h"
#include "symtab.h"
#include "common/array.h"

/*
 * 16 bytes a symbol: the kernel alone has over 100,000, and a big C++
 * binary as many, so the entry size is most of the table's memory.
 */
struct sym {
	uint64_t start;
	uint32_t size; /* end - start, clamped */
	/* MANGLED | name base (0: our arena, 1..3: set_names) | offset */
	uint32_t off;
};

#define MANGLED 0x80000000u
#define BASE_SHIFT 29
#define OFF_MAX ((1u << BASE_SHIFT) - 1)
#define NBASES 4

struct symtab {
	struct sym *syms;
	size_t n, cap;
	size_t nsorted; /* syms[0..nsorted) sorted by symtab__sort */
	char *names;
	size_t names_len, names_cap;
	/* names made on lookup (demangled, or copied out of a file), by
	 * index: a hash, sized by the names sampled, not the table */
	struct made *made;
	size_t nmade, made_cap;
	/* names the caller keeps (a mapped .strtab), by base 1..3 */
	const char *base[NBASES];
	size_t base_len[NBASES];
	/* the read-only file mapping each lies in, whose pages may go */
	uintptr_t map_lo[NBASES], map_hi[NBASES];
	unsigned int undropped[NBASES];
	struct hot *hot; /* recent lookups, once HOT finds were made */
	size_t finds;
};

struct made {
	char *name; /* NULL: empty slot */
	size_t idx;
};

struct hot {
	uint64_t addr;
	size_t idx; /* entry + 1; 0: none */
};

/* Names copied out of a file mapping between two drops of its pages. */
#define DROP_NAMES 16
/* Recent lookups kept (power of two); kernel stacks repeat addresses. */
#define HOT 256

/* Radix scratch from this size is mmap'ed (see radix_sort). */
#define RADIX_MMAP (256 * 1024)

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
	for (size_t i = 0; i < t->made_cap; i++)
		free(t->made[i].name);
	free(t->made);
	free(t->hot);
	free(t->syms);
	free(t->names);
	free(t);
}

int symtab__reserve(struct symtab *t, size_t nsyms, size_t name_bytes)
{
	if (array__grow((void **)&t->syms, &t->cap, t->n + nsyms,
			sizeof(*t->syms)) ||
	    array__grow((void **)&t->names, &t->names_cap,
			t->names_len + name_bytes, 1))
		return -ENOMEM;
	return 0;
}

int symtab__set_names(struct symtab *t, int which, const char *base, size_t len,
		      const void *map, size_t map_len)
{
	uintptr_t page = (uintptr_t)getpagesize();

	if (which < 1 || which >= NBASES)
		return -EINVAL;
	t->base[which] = base;
	t->base_len[which] = len;
	/* whole pages inside the mapping only */
	t->map_lo[which] = map ? ((uintptr_t)map + page - 1) & ~(page - 1) : 0;
	t->map_hi[which] = map ? ((uintptr_t)map + map_len) & ~(page - 1) : 0;
	return 0;
}

static struct sym *new_sym(struct symtab *t, uint64_t start, uint64_t end)
{
	struct sym *s;

	if (array__grow((void **)&t->syms, &t->cap, t->n + 1, sizeof(*t->syms)))
		return NULL;
	s = &t->syms[t->n++];
	s->start = start;
	s->size = end <= start		     ? 0
		  : end - start > UINT32_MAX ? UINT32_MAX
					     : end - start;
	return s;
}

int symtab__add_ref(struct symtab *t, uint64_t start, uint64_t end, int which,
		    size_t off, bool mangled)
{
	struct sym *s;

	if (which < 1 || which >= NBASES || off > OFF_MAX)
		return -EINVAL;
	s = new_sym(t, start, end);
	if (!s)
		return -ENOMEM;
	s->off = (uint32_t)which << BASE_SHIFT | off | (mangled ? MANGLED : 0);
	return 0;
}

int symtab__add(struct symtab *t, uint64_t start, uint64_t end,
		const char *name, size_t name_len, bool mangled)
{
	struct sym *s;

	if (t->names_len + name_len + 1 > OFF_MAX)
		return -ENOMEM;
	if (array__grow((void **)&t->names, &t->names_cap,
			t->names_len + name_len + 1, 1) ||
	    !(s = new_sym(t, start, end)))
		return -ENOMEM;
	s->off = t->names_len | (mangled ? MANGLED : 0);
	memcpy(t->names + t->names_len, name, name_len);
	t->names[t->names_len + name_len] = '\0';
	t->names_len += name_len + 1;
	return 0;
}

/* How many leading entries are already in order. */
static size_t sorted_prefix(const struct sym *s, size_t n)
{
	size_t i = 1;

	while (i < n && s[i].start >= s[i - 1].start)
		i++;
	return n ? i : 0;
}

/*
 * Stable LSD radix sort by start, a byte at a time, skipping the bytes
 * all starts share (kernel addresses differ in 3 or 4 of 8). Stable, so
 * among equal starts the first added stays first, as finish needs.
 * Linear, unlike qsort, which was most of the cost of naming a host.
 */
static int radix_sort(struct sym *s, size_t n)
{
	/* mmap, not malloc: given back whole when done, whatever malloc's
	 * threshold has become, so the scratch never stays resident */
	size_t bytes = n * sizeof(struct sym);
	bool big = bytes >= RADIX_MMAP;
	struct sym *tmp = big ? mmap(NULL, bytes, PROT_READ | PROT_WRITE,
				     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
			      : malloc(bytes ? bytes : 1);
	struct sym *from = s, *to = tmp;
	uint64_t diff = 0;
	size_t count[256];

	if (!tmp || tmp == MAP_FAILED)
		return -ENOMEM;
	for (size_t i = 1; i < n; i++)
		diff |= s[i].start ^ s[0].start;
	for (int shift = 0; shift < 64; shift += 8) {
		size_t sum = 0;

		if (!((diff >> shift) & 0xff))
			continue;
		memset(count, 0, sizeof(count));
		for (size_t i = 0; i < n; i++)
			count[(from[i].start >> shift) & 0xff]++;
		for (int b = 0; b < 256; b++) {
			size_t c = count[b];

			count[b] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			to[count[(from[i].start >> shift) & 0xff]++] = from[i];
		to = from;
		from = from == s ? tmp : s;
	}
	if (from != s)
		memcpy(s, from, bytes);
	if (big)
		munmap(tmp, bytes);
	else
		free(tmp);
	return 0;
}

/*
 * Sort, stable. Common inputs are sorted but for a short tail: the kernel
 * lists BPF programs (ours among them) after its modules, and .dynsym
 * names added after a sorted .symtab are few. Then only the tail is
 * sorted and merged in from the back, with a tail-sized scratch.
 */
static int sort_syms(struct sym *s, size_t n)
{
	size_t p = sorted_prefix(s, n), tail = n - p, i = p, j = tail, k = n;
	struct sym *t;

	if (p == n)
		return 0;
	if (tail > n / 4)
		return radix_sort(s, n);
	if (radix_sort(s + p, tail))
		return -ENOMEM;
	t = malloc(tail * sizeof(*t));
	if (!t)
		return -ENOMEM;
	memcpy(t, s + p, tail * sizeof(*t));
	/* on equal starts the tail goes last: it was added later */
	while (j > 0) {
		if (i > 0 && s[i - 1].start > t[j - 1].start)
			s[--k] = s[--i];
		else
			s[--k] = t[--j];
	}
	free(t);
	return 0;
}

/* Give back the growth slack: the table is final now. */
static void shrink(struct symtab *t)
{
	void *p;

	if (t->n < t->cap && (p = realloc(t->syms, t->n * sizeof(*t->syms)))) {
		t->syms = p;
		t->cap = t->n;
	}
	if (t->names_len < t->names_cap &&
	    (p = realloc(t->names, t->names_len))) {
		t->names = p;
		t->names_cap = t->names_len;
	}
}

int symtab__sort(struct symtab *t)
{
	if (sort_syms(t->syms, t->n))
		return -ENOMEM;
	t->nsorted = t->n;
	return 0;
}

bool symtab__has(const struct symtab *t, uint64_t start)
{
	size_t lo = 0, hi = t->nsorted;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].start < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->nsorted && t->syms[lo].start == start;
}

int symtab__finish(struct symtab *t, uint64_t max_gap)
{
	size_t i, j;

	if (!t->n)
		return 0;
	if (sort_syms(t->syms, t->n))
		return -ENOMEM;
	t->nsorted = 0;
	free(t->hot); /* indexes change */
	t->hot = NULL;
	t->finds = 0;
	for (i = 1, j = 0; i < t->n; i++) {
		if (t->syms[i].start == t->syms[j].start) {
			/* an alias; keep the bigger extent under the first name */
			if (t->syms[i].size > t->syms[j].size)
				t->syms[j].size = t->syms[i].size;
			continue;
		}
		t->syms[++j] = t->syms[i];
	}
	t->n = j + 1;
	for (i = 0; i < t->n; i++) {
		struct sym *s = &t->syms[i];
		uint64_t gap = max_gap;

		if (s->size)
			continue;
		if (i + 1 < t->n && t->syms[i + 1].start - s->start < gap)
			gap = t->syms[i + 1].start - s->start;
		if (gap > UINT64_MAX - s->start) /* near the top */
			gap = UINT64_MAX - s->start;
		s->size = gap > UINT32_MAX ? UINT32_MAX : gap;
	}
	shrink(t);
	return 0;
}

/* The name as stored, or NULL when a caller's name is not a string. */
static const char *raw_name(const struct symtab *t, const struct sym *s)
{
	unsigned int which = (s->off & ~MANGLED) >> BASE_SHIFT;
	size_t off = s->off & OFF_MAX, len;
	const char *b;

	if (!which)
		return t->names + off;
	b = t->base[which];
	len = t->base_len[which];
	if (!b || off >= len || !memchr(b + off, '\0', len - off) || !b[off])
		return NULL;
	return b + off;
}

static size_t made_slot(size_t idx, size_t cap)
{
	return (idx * 0x9e3779b97f4a7c15ULL >> 20) & (cap - 1);
}

static const char *made_get(const struct symtab *t, size_t idx)
{
	if (!t->nmade)
		return NULL;
	for (size_t j = made_slot(idx, t->made_cap); t->made[j].name;
	     j = (j + 1) & (t->made_cap - 1))
		if (t->made[j].idx == idx)
			return t->made[j].name;
	return NULL;
}

/* Keep name (ours now) for idx; on failure the caller frees it. */
static int made_put(struct symtab *t, size_t idx, char *name)
{
	size_t j;

	if ((t->nmade + 1) * 2 > t->made_cap) {
		size_t cap = t->made_cap ? t->made_cap * 2 : 64;
		struct made *m = calloc(cap, sizeof(*m));

		if (!m)
			return -ENOMEM;
		for (size_t i = 0; i < t->made_cap; i++) {
			if (!t->made[i].name)
				continue;
			for (j = made_slot(t->made[i].idx, cap); m[j].name;)
				j = (j + 1) & (cap - 1);
			m[j] = t->made[i];
		}
		free(t->made);
		t->made = m;
		t->made_cap = cap;
	}
	for (j = made_slot(idx, t->made_cap); t->made[j].name;)
		j = (j + 1) & (t->made_cap - 1);
	t->made[j] = (struct made){.name = name, .idx = idx};
	t->nmade++;
	return 0;
}

/*
 * The pages under names copied out of a file mapping leave our resident
 * set (they stay in the page cache): sampled names are spread over a big
 * .strtab, and each read maps not one page but the kernel's fault-around
 * window (64 KiB), which would otherwise stay counted: 2 MB of libjvm.so
 * for a thousand names. Once every DROP_NAMES names, so at most that
 * many windows are held, at a 16th of the syscalls.
 */
static void drop_name_pages(struct symtab *t, int which)
{
	if (++t->undropped[which] < DROP_NAMES)
		return;
	t->undropped[which] = 0;
	madvise((void *)t->map_lo[which], t->map_hi[which] - t->map_lo[which],
		MADV_DONTNEED);
}

/*
 * A name from the arena is returned as is, unless it is to be
 * demangled; one in a caller's file mapping is copied (or demangled)
 * once, so the mapping's page need not stay.
 */
static const char *sym_name(struct symtab *t, size_t i)
{
	struct sym *s = &t->syms[i];
	unsigned int which = (s->off & ~MANGLED) >> BASE_SHIFT;
	const char *raw, *got = made_get(t, i);
	bool mangled = s->off & MANGLED;
	char *d = NULL;

	if (got)
		return got;
	raw = raw_name(t, s);
	if (!raw || (!which && !mangled))
		return raw;
	if (mangled && !strncmp(raw, "_Z", 2))
		d = demangle__name(raw);
	if (!d && which)
		d = strdup(raw);
	s->off &= ~MANGLED; /* try once; keep the raw name on failure */
	if (!d)
		return raw;
	if (made_put(t, i, d)) {
		free(d);
		return raw;
	}
	if (which && t->map_lo[which] < t->map_hi[which])
		drop_name_pages(t, which);
	return d;
}

static struct hot *hot_slot(struct symtab *t, uint64_t addr)
{
	if (!t->hot && ++t->finds >= HOT)
		t->hot = calloc(HOT, sizeof(*t->hot));
	if (!t->hot)
		return NULL;
	return &t->hot[(addr * 0x9e3779b97f4a7c15ULL) >> 56 & (HOT - 1)];
}

const char *symtab__find(struct symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t ? t->n : 0;
	struct hot *h = t ? hot_slot(t, addr) : NULL;

	if (h && h->idx && h->addr == addr)
		return sym_name(t, h->idx - 1);
	/* first entry with start > addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t k = 0; k < NEST_LOOKBACK && lo > k; k++) {
		const struct sym *s = &t->syms[lo - 1 - k];

		if (addr - s->start < s->size) {
			if (h)
				*h = (struct hot){addr, lo - k};
			return sym_name(t, lo - 1 - k);
		}
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
