// SPDX-License-Identifier: GPL-2.0
/*
 * ELF files by identity: (device, inode) as /proc/PID/maps shows them, so
 * libjvm.so is parsed once per run however many JVMs map it, and a file
 * is found again without opening it. The vdso is parsed from our own
 * memory: every process on this kernel maps the same image.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <unistd.h>
#include <elf.h>
#include "common/safefile.h"
#include "common/stop.h"
#include "debuginfo.h"
#include "sym_internal.h"

#define ELF_MAX (4ULL << 30) /* no code or debug file is bigger */

/* (dev, ino) hashed for u64map, never 0 (its empty key) */
static uint64_t elf_key(uint64_t dev, uint64_t ino)
{
	uint64_t h =
	    (dev * 0x9e3779b97f4a7c15ULL) ^ (ino * 0xff51afd7ed558ccdULL);

	return (h ^ (h >> 29)) | 1;
}

/*
 * Parse one file and, when it has no .symtab, its debug file. open_path
 * is /proc/PID/map_files/..., a link the kernel resolves to the mapped
 * file itself, so it is followed; alt_path is the file's name under the
 * process's root, which its user may have replaced since: no link, and
 * never a FIFO (safefile.h).
 */
static struct elfsyms *load(struct symbolizer *s, const char *open_path,
			    const char *alt_path, const char *root,
			    const char *path)
{
	static const struct safe_in mapped = {.uid = SAFE_ANY_UID,
					      .max_size = ELF_MAX,
					      .follow = true},
				    named = {.uid = SAFE_ANY_UID,
					     .max_size = ELF_MAX};
	struct elfsyms *e;
	int fd = safefile__open_in(AT_FDCWD, open_path, &mapped);

	if (fd < 0 && alt_path)
		fd = safefile__open_in(AT_FDCWD, alt_path, &named);
	if (fd < 0)
		return NULL;
	e = elfsyms__from_fd(fd);
	close(fd);
	if (!e)
		return NULL;
	if (!elfsyms__has_symtab(e))
		debuginfo__add(e, root, path, s->debug_root);
	if (elfsyms__finish(e)) {
		elfsyms__free(e);
		return NULL;
	}
	return e;
}

struct elfsyms *elf_cache__get(struct symbolizer *s, uint64_t dev, uint64_t ino,
			       const char *open_path, const char *alt_path,
			       const char *root, const char *path)
{
	struct elf_entry *e, **head;
	bool added;

	head = (struct elf_entry **)u64map__add(&s->elfs, elf_key(dev, ino),
						&added);
	if (!head)
		return NULL;
	for (e = *head; e; e = e->next)
		if (e->dev == dev && e->ino == ino)
			return e->elf;
	/* told to stop, past the grace: no new file (one may take a
	 * second), and nothing cached, so not remembered as unreadable */
	if (stop__hurry() || !(e = calloc(1, sizeof(*e)))) {
		if (added)
			u64map__del(&s->elfs, elf_key(dev, ino));
		return NULL;
	}
	e->dev = dev;
	e->ino = ino;
	e->next = *head;
	*head = e;
	e->elf = load(s, open_path, alt_path, root, path);
	return e->elf;
}

static void free_chain(void *val)
{
	struct elf_entry *e = val, *next;

	for (; e; e = next) {
		next = e->next;
		elfsyms__free(e->elf);
		free(e);
	}
}

void elf_cache__free(struct symbolizer *s)
{
	u64map__clear(&s->elfs, free_chain);
	u64map__release(&s->elfs);
}

static int ptr_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t) * (void *const *)a,
		  y = (uintptr_t) * (void *const *)b;

	return x < y ? -1 : x > y;
}

struct live {
	const struct elfsyms **v;
	size_t n, cap;
	int err;
};

/* Every ELF p's mappings use, into l. */
static void collect(struct symbolizer *s, struct proc *p, void *ctx)
{
	struct live *l = ctx;

	for (size_t i = 0; i < p->nv && !l->err; i++) {
		if (!p->v[i].elf || p->v[i].elf == s->vdso)
			continue;
		if (l->n == l->cap) {
			size_t cap = l->cap ? 2 * l->cap : 1024;
			const struct elfsyms **v =
			    realloc(l->v, cap * sizeof(*v));

			if (!v) {
				l->err = -ENOMEM;
				return;
			}
			l->v = v;
			l->cap = cap;
		}
		l->v[l->n++] = p->v[i].elf;
	}
}

struct sweep {
	struct u64map *map;
	const struct elfsyms **live; /* sorted */
	size_t nlive;
	long gone;
};

/* Drop the chain's files no mapping uses (and those that failed); keep
 * the slot while any is left. Asked twice, it finds nothing more. */
static bool keep_live(uint64_t key, void *val, void *ctx)
{
	struct sweep *w = ctx;
	struct elf_entry *head = val, **link = &head, *e;

	while ((e = *link)) {
		if (e->elf && w->nlive &&
		    bsearch(&e->elf, w->live, w->nlive, sizeof(*w->live),
			    ptr_cmp)) {
			link = &e->next;
			continue;
		}
		*link = e->next;
		elfsyms__free(e->elf);
		free(e);
		w->gone++;
	}
	if (head && head != val) /* the first one went: the slot moves on */
		*u64map__find(w->map, key) = head;
	return head != NULL;
}

long elf_cache__sweep(struct symbolizer *s)
{
	struct live l = {};
	struct sweep w = {.map = &s->elfs};

	process__for_each(s, collect, &l);
	if (l.err || !s->elfs.n) {
		free(l.v);
		return l.err;
	}
	if (l.n) /* qsort and bsearch want an array, even of none */
		qsort(l.v, l.n, sizeof(*l.v), ptr_cmp);
	w.live = l.v;
	w.nlive = l.n;
	u64map__filter(&s->elfs, keep_live, &w);
	free(l.v);
	return w.gone;
}

/* The vdso image ends with its section headers (or its last segment). */
static size_t vdso_size(const Elf64_Ehdr *eh)
{
	const Elf64_Phdr *ph = (const void *)((const char *)eh + eh->e_phoff);
	size_t size = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;

	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_offset + ph[i].p_filesz > size)
			size = ph[i].p_offset + ph[i].p_filesz;
	return size;
}

struct elfsyms *vdso__get(struct symbolizer *s)
{
	const Elf64_Ehdr *eh;

	if (s->vdso_tried)
		return s->vdso;
	s->vdso_tried = true;
	eh = (const void *)getauxval(AT_SYSINFO_EHDR);
	if (!eh || eh->e_ident[EI_CLASS] != ELFCLASS64)
		return NULL;
	s->vdso = elfsyms__from_mem(eh, vdso_size(eh));
	if (s->vdso && elfsyms__finish(s->vdso)) {
		elfsyms__free(s->vdso);
		s->vdso = NULL;
	}
	return s->vdso;
}
