// SPDX-License-Identifier: GPL-2.0
/*
 * debugfile.c: a mapped file's separate debug file, for its .debug_frame
 * (debugfile.h). The candidates are what the target's owner names (its
 * .gnu_debuglink): symbolizer/debuginfo.c opens them as untrusted files
 * and each is checked here before it is kept.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "symbolizer/debuginfo.h"
#include "symbolizer/elf_syms.h"
#include "debugfile.h"

#define DEBUG_ROOT "/usr/lib/debug"

struct want {
	const uint8_t *id;
	size_t id_len;
	Elf *elf; /* the one taken */
	int fd;
};

bool debugfile__has_frame(Elf *elf)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;
	const char *name;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS ||
		    !sh.sh_size)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".debug_frame"))
			return true;
	}
	return false;
}

/* A candidate: kept when it is ELF, the binary's (by build-id when both
 * have one) and has a .debug_frame. */
static int take(int fd, void *arg)
{
	struct want *w = arg;
	uint8_t id[64];
	size_t len;
	int mine = dup(fd);
	Elf *elf = mine < 0 ? NULL : elf_begin(mine, ELF_C_READ_MMAP, NULL);

	if (!elf || elf_kind(elf) != ELF_K_ELF)
		goto no;
	elfsyms__read_build_id(elf, id, &len);
	if (len && w->id_len && (len != w->id_len || memcmp(id, w->id, len)))
		goto no;
	if (!debugfile__has_frame(elf))
		goto no;
	w->elf = elf;
	w->fd = mine;
	return 0;
no:
	elf_end(elf);
	if (mine >= 0)
		close(mine);
	return -ENOENT;
}

Elf *debugfile__open(Elf *elf, int pid, const char *path, int *fd)
{
	uint8_t id[64];
	char root[48];
	struct want w = {.id = id, .fd = -1};
	struct debuginfo_want dw = {.take = take, .arg = &w};

	if (debugfile__has_frame(elf))
		return NULL;
	elfsyms__read_build_id(elf, id, &w.id_len);
	dw.id = w.id_len ? id : NULL;
	dw.id_len = w.id_len;
	dw.link = elfsyms__read_debuglink(elf);
	if (!dw.id && !dw.link)
		return NULL;
	snprintf(root, sizeof(root), "/proc/%d/root", pid);
	debuginfo__find(&dw, root, path, DEBUG_ROOT);
	free((char *)dw.link);
	*fd = w.fd;
	return w.elf;
}
