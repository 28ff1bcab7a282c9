/*
 * elf_syms: the function symbols of one ELF file, by file virtual address.
 *
 * Parse the file (from memory or an fd, which is not kept), optionally add
 * the .symtab of its separate debug file, then elfsyms__finish(). Symbols
 * come from .symtab and .dynsym: STT_FUNC, STT_GNU_IFUNC, and global
 * STT_NOTYPE in executable sections (assembly without .type). At one
 * address the first name wins in this order: .symtab before .dynsym,
 * global before weak before local (so the vdso says __vdso_clock_gettime,
 * not its weak alias clock_gettime). C++ names are demangled on first
 * lookup (see demangle.h).
 *
 * Lazy: from an fd, only the headers are read (load segments, build-id,
 * debuglink, whether there is a .symtab); the file stays mapped, and its
 * symbols (and those of a debug file added by fd) are read on the first
 * elfsyms__find() or elfsyms__count(), then the mappings are dropped. A
 * whole-host profile maps hundreds of files and names addresses in few.
 * From memory, everything is read at once (the buffer is not kept).
 *
 * Addresses: a process maps file offset `offset` at `start`; the PT_LOAD
 * segment holding that offset says which vaddr that is. elfsyms__delta()
 * gives d with vaddr = ip + d, which works the same for PIE, non-PIE
 * (d == 0) and shared libraries.
 */
#ifndef MIXPROF_ELF_SYMS_H
#define MIXPROF_ELF_SYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct elfsyms;

/*
 * NULL and errno (ENOEXEC: not ELF, ENOMEM). Neither input is kept: the
 * fd may be closed at once (the file stays mapped until its symbols are
 * read).
 */
struct elfsyms *elfsyms__from_mem(const void *buf, size_t len);
struct elfsyms *elfsyms__from_fd(int fd);
void elfsyms__free(struct elfsyms *e);

/* True when the file had its own .symtab (no debug file needed). */
bool elfsyms__has_symtab(const struct elfsyms *e);
/* The GNU build-id, or NULL; *len gets its length. */
const uint8_t *elfsyms__build_id(const struct elfsyms *e, size_t *len);
/* The .gnu_debuglink file name, or NULL. */
const char *elfsyms__debuglink(const struct elfsyms *e);

/*
 * Add the .symtab of a separate debug file (one; later ones are checked
 * and ignored). When both files carry a build-id they must match. 0, -ENOEXEC (not ELF), -ENOENT (no .symtab),
 * -ESTALE (build-id mismatch), -ENOMEM.
 */
int elfsyms__add_debug_fd(struct elfsyms *e, int fd);

/*
 * The same facts of any open ELF (the unwind loader's mapped files):
 * its GNU build-id into out (64 bytes), *len its length (0: none); its
 * .gnu_debuglink name, malloc'd (the caller frees it), or NULL.
 */
struct Elf;
void elfsyms__read_build_id(struct Elf *elf, uint8_t *out, size_t *len);
char *elfsyms__read_debuglink(struct Elf *elf);

/* Settle the table; call once, after any debug file. 0 or -ENOMEM. */
int elfsyms__finish(struct elfsyms *e);

/* vaddr = ip + *delta for a mapping of file offset at start. */
void elfsyms__delta(const struct elfsyms *e, uint64_t start, uint64_t offset,
		    uint64_t *delta);
/*
 * Name at file vaddr, or NULL (also when reading the symbols ran out of
 * memory). Valid until elfsyms__free(). The first call reads the symbols.
 */
const char *elfsyms__find(struct elfsyms *e, uint64_t vaddr);
size_t elfsyms__count(struct elfsyms *e);

#endif
