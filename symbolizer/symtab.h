/*
 * symtab: one sorted table of {start, end, name} ranges, the structure that
 * serves ELF symbols, the vdso and the kernel alike (the code-cache habit).
 *
 * Build it with symtab__add() in any order, then symtab__finish() once:
 * it sorts, drops duplicates of one address (keeping the first added, so
 * callers add preferred names first) and gives zero-sized entries the next
 * entry's start as their end, never more than max_gap past their start.
 * After that, symtab__find() is a binary search.
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

/* end == start means "size unknown". 0 or -ENOMEM. */
int symtab__add(struct symtab *t, uint64_t start, uint64_t end,
		const char *name, size_t name_len, bool mangled);
/* Sort and settle ends; max_gap bounds zero-sized entries. 0 or -ENOMEM. */
int symtab__finish(struct symtab *t, uint64_t max_gap);

/* The name of the range holding addr, or NULL. Valid until __free(). */
const char *symtab__find(struct symtab *t, uint64_t addr);
size_t symtab__count(const struct symtab *t);
/* Start of the lowest range, or UINT64_MAX when empty. */
uint64_t symtab__min(const struct symtab *t);

#endif
