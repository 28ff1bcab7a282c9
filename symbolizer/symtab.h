/*
 * symtab: one sorted table of {start, end, name} ranges, the structure that
 * serves ELF symbols, the vdso and the kernel alike (the code-cache habit).
 *
 * Build it with symtab__add() in any order, then symtab__finish() once:
 * it sorts, drops duplicates of one address (keeping the first added, so
 * callers add preferred names first) and gives zero-sized entries the next
 * entry's start as their end, never more than max_gap past their start.
 * After that, symtab__find() is a binary search. Already sorted input (the
 * kernel's) is not sorted again; other input takes a linear radix sort.
 * Finishing also gives back the growth slack of both arrays.
 *
 * Names are copied into the table, which owns them. A name may be marked
 * mangled: symtab__find() then demangles it on first use and keeps the
 * result, so big C++ libraries cost nothing for names never sampled.
 */
#ifndef MIXPROF_SYMTAB_H
#define MIXPROF_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct symtab;

struct symtab *symtab__new(void); /* NULL and errno on failure */
void symtab__free(struct symtab *t);

/*
 * Room for nsyms more symbols and name_bytes more name bytes (NULs
 * included), so a caller that knows an upper bound avoids regrowth; the
 * unused part costs address space only and is given back by __finish.
 * 0 or -ENOMEM.
 */
int symtab__reserve(struct symtab *t, size_t nsyms, size_t name_bytes);
/*
 * end == start means "size unknown"; sizes are kept up to 4 GiB. 0 or
 * -ENOMEM (also when the names pass 512 MB).
 */
int symtab__add(struct symtab *t, uint64_t start, uint64_t end,
		const char *name, size_t name_len, bool mangled);
/*
 * Mid-build: sort what was added so far (add order kept among equal
 * starts), so symtab__has() can tell whether a start is already named;
 * a later add must not shadow an earlier one anyway, and its name need
 * not be copied. Adding after this is fine. 0 or -ENOMEM.
 */
int symtab__sort(struct symtab *t);
bool symtab__has(const struct symtab *t, uint64_t start);
/*
 * Names the caller keeps: base[0..len) (a mapped string table) holds the
 * names of later symtab__add_ref() calls with the same which (1..3), and
 * must stay readable until symtab__free(). Nothing is copied up front: a
 * name is read (and copied) when first looked up, so a big .strtab costs
 * memory for the names actually sampled. map, map_len: NULL, or the
 * read-only private file mapping holding base, whose pages around a name
 * just copied are dropped from our resident set (MADV_DONTNEED, so never
 * give memory whose contents could not be read again from the file).
 * 0 or -EINVAL.
 */
int symtab__set_names(struct symtab *t, int which, const char *base, size_t len,
		      const void *map, size_t map_len);
/*
 * Add a symbol named at offset off of base which. mangled: the name may be
 * a C++ one ("_Z" is checked on lookup). A name that is not a NUL-
 * terminated, non-empty string inside the base names nothing. 0, -ENOMEM,
 * -EINVAL (which out of range, off past 512 MB).
 */
int symtab__add_ref(struct symtab *t, uint64_t start, uint64_t end, int which,
		    size_t off, bool mangled);
/* Sort and settle ends; max_gap bounds zero-sized entries. 0 or -ENOMEM. */
int symtab__finish(struct symtab *t, uint64_t max_gap);

/* The name of the range holding addr, or NULL. Valid until symtab__free(). */
const char *symtab__find(struct symtab *t, uint64_t addr);
size_t symtab__count(const struct symtab *t);
/* Start of the lowest range, or UINT64_MAX when empty. */
uint64_t symtab__min(const struct symtab *t);

#endif
