// SPDX-License-Identifier: GPL-2.0
/* ELF function symbols through libelf; load segments for address math. */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "elf_syms.h"
#include "symtab.h"

/* Zero-sized symbols (assembly) reach at most this far. */
#define ELF_MAX_GAP 4096

struct load {
	uint64_t offset, vaddr, filesz;
	bool exec;
};

struct elfsyms {
	struct symtab *syms;
	struct load *loads;
	size_t nloads;
	uint8_t build_id[64];
	size_t build_id_len;
	char *debuglink;
	bool has_symtab;
};

static int elf_init(void)
{
	static int done;

	if (!done) {
		if (elf_version(EV_CURRENT) == EV_NONE)
			return -ENOEXEC;
		done = 1;
	}
	return 0;
}

static bool sec_exec(Elf *elf, size_t idx)
{
	Elf_Scn *scn = elf_getscn(elf, idx);
	GElf_Shdr sh;

	return scn && gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR);
}

static bool want_sym(Elf *elf, const GElf_Sym *s)
{
	int type = GELF_ST_TYPE(s->st_info);

	if (s->st_shndx == SHN_UNDEF || s->st_shndx >= SHN_LORESERVE ||
	    !s->st_value)
		return false;
	if (type == STT_FUNC || type == STT_GNU_IFUNC)
		return true;
	return type == STT_NOTYPE && GELF_ST_BIND(s->st_info) == STB_GLOBAL &&
	       sec_exec(elf, s->st_shndx);
}

/* Add one symbol table section, globals, then weaks, then locals. */
static int add_symsec(struct symtab *t, Elf *elf, Elf_Scn *scn,
		      const GElf_Shdr *sh)
{
	static const int binds[] = {STB_GLOBAL, STB_WEAK, STB_LOCAL};
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t n;

	if (!d || !sh->sh_entsize)
		return 0;
	n = sh->sh_size / sh->sh_entsize;
	for (int b = 0; b < 3; b++) {
		for (size_t i = 1; i < n; i++) {
			GElf_Sym s;
			const char *name;

			if (!gelf_getsym(d, i, &s) ||
			    GELF_ST_BIND(s.st_info) != binds[b] ||
			    !want_sym(elf, &s))
				continue;
			name = elf_strptr(elf, sh->sh_link, s.st_name);
			if (!name || !*name)
				continue;
			if (symtab__add(t, s.st_value, s.st_value + s.st_size,
					name, strlen(name),
					!strncmp(name, "_Z", 2)))
				return -ENOMEM;
		}
	}
	return 0;
}

/* Add every section of type want (SHT_SYMTAB or SHT_DYNSYM). */
static int add_syms(struct symtab *t, Elf *elf, Elf64_Word want, bool *found)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != want)
			continue;
		if (found)
			*found = true;
		if (add_symsec(t, elf, scn, &sh))
			return -ENOMEM;
	}
	return 0;
}

static void read_build_id(Elf *elf, uint8_t *out, size_t *len)
{
	Elf_Scn *scn = NULL;

	*len = 0;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		GElf_Nhdr nh;
		size_t off = 0, noff, doff;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		d = elf_getdata(scn, NULL);
		while (d && (off = gelf_getnote(d, off, &nh, &noff, &doff))) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((char *)d->d_buf + noff, "GNU", 4) &&
			    nh.n_descsz <= 64) {
				memcpy(out, (char *)d->d_buf + doff,
				       nh.n_descsz);
				*len = nh.n_descsz;
				return;
			}
		}
	}
}

static char *read_debuglink(Elf *elf)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || strcmp(name, ".gnu_debuglink"))
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_size || !memchr(d->d_buf, '\0', d->d_size))
			return NULL;
		return strdup(d->d_buf);
	}
	return NULL;
}

static int read_loads(struct elfsyms *e, Elf *elf)
{
	size_t n;

	if (elf_getphdrnum(elf, &n))
		return 0;
	e->loads = calloc(n ? n : 1, sizeof(*e->loads));
	if (!e->loads)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		e->loads[e->nloads++] = (struct load){
		    .offset = ph.p_offset,
		    .vaddr = ph.p_vaddr,
		    .filesz = ph.p_filesz,
		    .exec = ph.p_flags & PF_X,
		};
	}
	return 0;
}

static struct elfsyms *from_elf(Elf *elf)
{
	struct elfsyms *e;

	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		errno = ENOEXEC;
		return NULL;
	}
	e = calloc(1, sizeof(*e));
	if (!e || !(e->syms = symtab__new()))
		goto nomem;
	if (read_loads(e, elf) ||
	    add_syms(e->syms, elf, SHT_SYMTAB, &e->has_symtab) ||
	    add_syms(e->syms, elf, SHT_DYNSYM, NULL))
		goto nomem;
	read_build_id(elf, e->build_id, &e->build_id_len);
	e->debuglink = read_debuglink(elf);
	return e;
nomem:
	elfsyms__free(e);
	errno = ENOMEM;
	return NULL;
}

struct elfsyms *elfsyms__from_mem(const void *buf, size_t len)
{
	struct elfsyms *e;
	Elf *elf;

	if (elf_init()) {
		errno = ENOEXEC;
		return NULL;
	}
	/* libelf wants a writable pointer but reads only (ELF_C_READ) */
	elf = elf_memory((char *)buf, len);
	e = from_elf(elf);
	elf_end(elf);
	return e;
}

struct elfsyms *elfsyms__from_fd(int fd)
{
	struct elfsyms *e;
	Elf *elf;

	if (elf_init()) {
		errno = ENOEXEC;
		return NULL;
	}
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	e = from_elf(elf);
	elf_end(elf);
	return e;
}

void elfsyms__free(struct elfsyms *e)
{
	if (!e)
		return;
	symtab__free(e->syms);
	free(e->loads);
	free(e->debuglink);
	free(e);
}

bool elfsyms__has_symtab(const struct elfsyms *e)
{
	return e->has_symtab;
}

const uint8_t *elfsyms__build_id(const struct elfsyms *e, size_t *len)
{
	*len = e->build_id_len;
	return e->build_id_len ? e->build_id : NULL;
}

const char *elfsyms__debuglink(const struct elfsyms *e)
{
	return e->debuglink;
}

static int add_debug(struct elfsyms *e, Elf *elf)
{
	uint8_t id[64];
	size_t len;
	bool found = false;

	if (!elf || elf_kind(elf) != ELF_K_ELF)
		return -ENOEXEC;
	read_build_id(elf, id, &len);
	if (len && e->build_id_len &&
	    (len != e->build_id_len || memcmp(id, e->build_id, len)))
		return -ESTALE;
	if (add_syms(e->syms, elf, SHT_SYMTAB, &found))
		return -ENOMEM;
	return found ? 0 : -ENOENT;
}

int elfsyms__add_debug_fd(struct elfsyms *e, int fd)
{
	Elf *elf;
	int err;

	if (elf_init())
		return -ENOEXEC;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	err = add_debug(e, elf);
	elf_end(elf);
	return err;
}

int elfsyms__add_debug_mem(struct elfsyms *e, const void *buf, size_t len)
{
	Elf *elf;
	int err;

	if (elf_init())
		return -ENOEXEC;
	elf = elf_memory((char *)buf, len);
	err = add_debug(e, elf);
	elf_end(elf);
	return err;
}

int elfsyms__finish(struct elfsyms *e)
{
	return symtab__finish(e->syms, ELF_MAX_GAP);
}

/*
 * Pick the PT_LOAD that maps file offset `offset` (mappings start on a
 * page boundary at or below p_offset), preferring executable segments.
 */
void elfsyms__delta(const struct elfsyms *e, uint64_t start, uint64_t offset,
		    uint64_t *delta)
{
	const struct load *best = NULL;
	uint64_t page = (uint64_t)getpagesize();

	for (size_t i = 0; i < e->nloads; i++) {
		const struct load *l = &e->loads[i];
		uint64_t lo = l->offset & ~(page - 1);

		if (offset < lo || offset >= l->offset + l->filesz)
			continue;
		if (!best || (l->exec && !best->exec))
			best = l;
	}
	/* ip - start + offset is the file offset; the segment maps that */
	*delta = offset - start;
	if (best)
		*delta += best->vaddr - best->offset;
}

const char *elfsyms__find(struct elfsyms *e, uint64_t vaddr)
{
	return symtab__find(e->syms, vaddr);
}

size_t elfsyms__count(const struct elfsyms *e)
{
	return symtab__count(e->syms);
}
