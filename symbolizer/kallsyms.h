/*
 * kallsyms: the kernel's symbol table (/proc/kallsyms text) as a symtab.
 *
 * Pure: takes the text, not the path, so tests and fuzzers feed it. Keeps
 * text symbols (types t, T, w, W) of the kernel and its modules; a module
 * symbol "name [module]" keeps just its name. Symbols at address 0 (what
 * kptr_restrict shows unprivileged readers) are skipped. Lines that do not
 * parse are skipped and counted in *bad (may be NULL).
 *
 * Returns a finished symtab the caller frees, or NULL with errno.
 */
#ifndef MIXPROF_KALLSYMS_H
#define MIXPROF_KALLSYMS_H

#include <stddef.h>
#include <stdint.h>
#include "symtab.h"

struct symtab *kallsyms__parse(const char *text, size_t len, uint64_t *bad);
/*
 * The same, reading the text from fd (at its current offset) to its end
 * in chunks, so a 10 MB /proc/kallsyms is never held whole. NULL and
 * errno (ENOMEM, or read()'s). The fd is not closed.
 */
struct symtab *kallsyms__read_fd(int fd, uint64_t *bad);

#endif
