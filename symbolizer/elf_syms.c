// SPDX-License-Identifier: GPL-2.0
/* ELF function symbols through libelf; load segments for address math. */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "common/stop.h"
#include "elf_syms.h"
#include "symtab.h"

/* Zero-sized symbols (assembly) reach at most this far. */
#define ELF_MAX_GAP 4096
/* Symbols added between two drop_pages(): bounds the file pages held */
#define DROP_EVERY 8192

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
	/*
	 * Lazy symbols: the file (and its debug file) stay mapped, read
	 * only when an address in them is first named. A whole-host run
	 * maps hundreds of libraries and samples few of them.
	 */
	Elf *own, *dbg;
	bool loaded; /* their symbols were read; names stay in them */
	bool failed; /* the lazy read ran out of memory */
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

/*
 * The file's pages read so far leave our resident set (they stay in the
 * page cache): a big .symtab and .strtab (libjvm.so: 4 MB) would
 * otherwise count in full, on top of the names copied out of them.
 */
static void drop_pages(Elf *elf, bool mapped)
{
	size_t size;
	char *base = elf_rawfile(elf, &size);
	uintptr_t page = (uintptr_t)getpagesize();
	uintptr_t lo = ((uintptr_t)base + page - 1) & ~(page - 1);

	if (mapped && base && size > page)
		madvise((void *)lo, (uintptr_t)base + size - lo, MADV_DONTNEED);
}

/* The order symbols of one address are preferred in, or -1: not wanted. */
static int bind_rank(int bind)
{
	return bind == STB_GLOBAL  ? 0
	       : bind == STB_WEAK  ? 1
	       : bind == STB_LOCAL ? 2
				   : -1;
}

/*
 * One symbol. which (1..3): its name stays in the mapped string table
 * (symtab__set_names), read only if it is ever looked up; 0: copied.
 */
static int add_one(struct symtab *t, Elf *elf, Elf_Data *d, size_t link,
		   size_t i, int which)
{
	const char *name;
	GElf_Sym s;
	int err;

	/* already named by .symtab: .dynsym mostly repeats it (node: 75,000
	 * names, 5 MB), and the first name of an address wins anyway */
	if (!gelf_getsym(d, i, &s) || symtab__has(t, s.st_value))
		return 0;
	if (which) {
		err = symtab__add_ref(t, s.st_value, s.st_value + s.st_size,
				      which, s.st_name, true);
		if (err != -EINVAL)
			return err;
	}
	name = elf_strptr(elf, link, s.st_name);
	if (!name || !*name)
		return 0;
	return symtab__add(t, s.st_value, s.st_value + s.st_size, name,
			   strlen(name), !strncmp(name, "_Z", 2));
}

/*
 * elf's own file mapping when [p, p + len) lies in it (libelf did not
 * convert a copy), else NULL.
 */
static const char *file_map(Elf *elf, const void *p, size_t len, size_t *size)
{
	const char *base = elf_rawfile(elf, size);

	if (base && (const char *)p >= base &&
	    (const char *)p + len <= base + *size)
		return base;
	return NULL;
}

/* Serve the names of section sh from its string table where it lies. */
static int use_names(struct symtab *t, Elf *elf, const GElf_Shdr *sh,
		     int *next_base)
{
	const char *map;
	Elf_Data *sd;
	size_t size;

	if (!next_base || *next_base > 3)
		return 0;
	sd = elf_getdata(elf_getscn(elf, sh->sh_link), NULL);
	if (!sd || !sd->d_buf)
		return 0;
	/* in the mapping itself (not a converted copy): pages may go */
	map = file_map(elf, sd->d_buf, sd->d_size, &size);
	if (symtab__set_names(t, *next_base, sd->d_buf, sd->d_size, map,
			      map ? size : 0))
		return 0;
	return (*next_base)++;
}

/*
 * Add one symbol table section, globals, then weaks, then locals: one
 * pass picks the wanted symbols (index and rank), then they are added
 * rank by rank, so each symbol is decoded at most twice. next_base: the
 * file stays mapped, so names may stay in it (NULL: copy them).
 */
static int add_symsec(struct symtab *t, Elf *elf, Elf_Scn *scn,
		      const GElf_Shdr *sh, int *next_base)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	bool mapped = next_base != NULL;
	uint32_t *pick;
	size_t n, np = 0;
	int err = 0, which;

	if (!d || !sh->sh_entsize)
		return 0;
	n = sh->sh_size / sh->sh_entsize;
	if (n >= (1u << 30))
		return -ENOMEM;
	pick = malloc((n ? n : 1) * sizeof(*pick));
	if (!pick)
		return -ENOMEM;
	for (size_t i = 1; i < n; i++) {
		GElf_Sym s;
		int r;

		if (!gelf_getsym(d, i, &s) || !want_sym(elf, &s))
			continue;
		r = bind_rank(GELF_ST_BIND(s.st_info));
		if (r >= 0)
			pick[np++] = i | (uint32_t)r << 30;
	}
	which = np ? use_names(t, elf, sh, next_base) : 0;
	for (uint32_t r = 0; r < 3 && !err; r++)
		for (size_t k = 0; k < np && !err; k++) {
			if (pick[k] >> 30 != r)
				continue;
			err = add_one(t, elf, d, sh->sh_link,
				      pick[k] & ((1u << 30) - 1), which);
			if (k % DROP_EVERY != DROP_EVERY - 1)
				continue;
			drop_pages(elf, mapped);
			/* told to stop, past the grace: the file fails whole
			 * (unnamed, never named by a wrong neighbour) */
			if (stop__hurry())
				err = -EINTR;
		}
	drop_pages(elf, mapped);
	free(pick);
	return err ? -ENOMEM : 0;
}

/* Is there a section of type want (SHT_SYMTAB or SHT_DYNSYM)? */
static bool has_section(Elf *elf, Elf64_Word want)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == want)
			return true;
	return false;
}

/*
 * Add every section of type want. The table is first given room for all
 * its entries and all their string bytes: an upper bound that costs
 * address space only, and spares regrowing a big table.
 */
static int add_syms(struct symtab *t, Elf *elf, Elf64_Word want, int *next_base)
{
	size_t nsyms = 0, bytes = 0, fsize = 0;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh, str;

	/* sizes a corrupt header claims beyond the file itself are ignored */
	if (!elf_rawfile(elf, &fsize))
		fsize = SIZE_MAX;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != want ||
		    !sh.sh_entsize || sh.sh_size > fsize)
			continue;
		nsyms += sh.sh_size / sh.sh_entsize;
		if (gelf_getshdr(elf_getscn(elf, sh.sh_link), &str) &&
		    str.sh_size <= fsize)
			bytes += str.sh_size;
	}
	if (!nsyms || symtab__reserve(t, nsyms, next_base ? 0 : bytes))
		return nsyms ? -ENOMEM : 0;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != want ||
		    !sh.sh_entsize || sh.sh_size > fsize)
			continue;
		if (add_symsec(t, elf, scn, &sh, next_base))
			return -ENOMEM;
	}
	return 0;
}

void elfsyms__read_build_id(Elf *elf, uint8_t *out, size_t *len)
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

char *elfsyms__read_debuglink(Elf *elf)
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

/* The header part: loads, build-id, debuglink; symbols come later. */
static struct elfsyms *from_elf(Elf *elf)
{
	struct elfsyms *e;

	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		errno = ENOEXEC;
		return NULL;
	}
	e = calloc(1, sizeof(*e));
	if (!e || !(e->syms = symtab__new()) || read_loads(e, elf)) {
		elfsyms__free(e);
		errno = ENOMEM;
		return NULL;
	}
	e->has_symtab = has_section(elf, SHT_SYMTAB);
	elfsyms__read_build_id(elf, e->build_id, &e->build_id_len);
	e->debuglink = elfsyms__read_debuglink(elf);
	return e;
}

/* Symbols still to read from a mapped file (or debug file)? */
static bool pending(const struct elfsyms *e)
{
	return !e->loaded && (e->own || e->dbg);
}

/*
 * Read the symbols: .symtab (the file's or its debug file's) before
 * .dynsym, so the full table names an address first. The files stay
 * mapped, their names read in place when looked up; the pages read now
 * are dropped from our resident set.
 */
static void load_syms(struct elfsyms *e)
{
	int err = 0, base = 1;

	/* told to stop, past the grace: a big file takes a second */
	if (stop__hurry()) {
		e->loaded = e->failed = true;
		return;
	}
	if (e->dbg)
		err = add_syms(e->syms, e->dbg, SHT_SYMTAB, &base);
	if (e->own && !err)
		err = add_syms(e->syms, e->own, SHT_SYMTAB, &base);
	if (!err)
		err = symtab__sort(e->syms);
	if (e->own && !err)
		err = add_syms(e->syms, e->own, SHT_DYNSYM, &base);
	if (!err)
		err = symtab__finish(e->syms, ELF_MAX_GAP);
	e->loaded = true;
	e->failed = err != 0;
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
	/* buf is not ours to keep: read the symbols now */
	if (e && (add_syms(e->syms, elf, SHT_SYMTAB, NULL) ||
		  add_syms(e->syms, elf, SHT_DYNSYM, NULL))) {
		elfsyms__free(e);
		e = NULL;
		errno = ENOMEM;
	}
	elf_end(elf);
	return e;
}

/*
 * libelf maps the whole file (address space, not memory: only the pages
 * read count) and, told the fd is done with, does not need it again; so
 * the file stays readable after its process exits, and no fd is held.
 */
static Elf *map_fd(int fd)
{
	Elf *elf;

	if (elf_init())
		return NULL;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_cntl(elf, ELF_C_FDDONE)) {
		elf_end(elf);
		return NULL;
	}
	return elf;
}

struct elfsyms *elfsyms__from_fd(int fd)
{
	Elf *elf = map_fd(fd);
	struct elfsyms *e = from_elf(elf);

	if (e)
		e->own = elf;
	else
		elf_end(elf);
	return e;
}

void elfsyms__free(struct elfsyms *e)
{
	if (!e)
		return;
	elf_end(e->own);
	elf_end(e->dbg);
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

/* Is elf a debug file for e with a .symtab? 0 or -errno as documented. */
static int check_debug(struct elfsyms *e, Elf *elf)
{
	uint8_t id[64];
	size_t len;

	if (!elf || elf_kind(elf) != ELF_K_ELF)
		return -ENOEXEC;
	elfsyms__read_build_id(elf, id, &len);
	if (len && e->build_id_len &&
	    (len != e->build_id_len || memcmp(id, e->build_id, len)))
		return -ESTALE;
	return has_section(elf, SHT_SYMTAB) ? 0 : -ENOENT;
}

int elfsyms__add_debug_fd(struct elfsyms *e, int fd)
{
	Elf *elf = map_fd(fd);
	int err = check_debug(e, elf);

	/* one debug file, before the symbols are read; others are ignored */
	if (err || e->dbg || e->loaded) {
		elf_end(elf);
		return err;
	}
	e->dbg = elf;
	return 0;
}

/* Tables read eagerly (from memory) are settled now, lazy ones when read. */
int elfsyms__finish(struct elfsyms *e)
{
	if (pending(e))
		return 0;
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
	if (pending(e))
		load_syms(e);
	return e->failed ? NULL : symtab__find(e->syms, vaddr);
}

size_t elfsyms__count(struct elfsyms *e)
{
	if (pending(e))
		load_syms(e);
	return e->failed ? 0 : symtab__count(e->syms);
}
