/*
 * jitdump_rec: fill jitdump headers.
 */
#include <elf.h>
#include <errno.h>
#include <string.h>
#include "jitdump_rec.h"
#include "strbuf.h"

#if defined(__x86_64__)
#define JITDUMP_MACH EM_X86_64
#elif defined(__aarch64__)
#define JITDUMP_MACH EM_AARCH64
#else
#error "jitdump: unknown ELF machine for this architecture"
#endif

void jitdump_rec__header(struct jitdump_header *h, uint32_t pid,
			 uint64_t timestamp)
{
	memset(h, 0, sizeof(*h));
	h->magic = JITDUMP_MAGIC;
	h->version = JITDUMP_VERSION;
	h->total_size = sizeof(*h);
	h->elf_mach = JITDUMP_MACH;
	h->pid = pid;
	h->timestamp = timestamp;
}

int jitdump_rec__code_load(struct jitdump_code_load *r, uint32_t pid,
			   uint32_t tid, uint64_t addr, uint64_t size,
			   uint64_t index, uint64_t timestamp, size_t namelen)
{
	uint64_t total = sizeof(*r) + (uint64_t)namelen + 1 + size;

	if (total > UINT32_MAX || namelen > UINT32_MAX)
		return -EOVERFLOW;
	memset(r, 0, sizeof(*r));
	r->h.id = JITDUMP_CODE_LOAD;
	r->h.total_size = total;
	r->h.timestamp = timestamp;
	r->pid = pid;
	r->tid = tid;
	r->vma = addr;
	r->code_addr = addr;
	r->code_size = size;
	r->code_index = index;
	return 0;
}

void jitdump_rec__close(struct jitdump_rec_header *r, uint64_t timestamp)
{
	memset(r, 0, sizeof(*r));
	r->id = JITDUMP_CODE_CLOSE;
	r->total_size = sizeof(*r);
	r->timestamp = timestamp;
}

int jitdump_rec__debug_entry(struct strbuf *sb, uint64_t addr, uint32_t lineno,
			     const char *file)
{
	struct jitdump_debug_entry e = {addr, lineno, 0};

	if (strbuf__add(sb, &e, sizeof(e)) ||
	    strbuf__add(sb, file, strlen(file) + 1))
		return -ENOMEM;
	return 0;
}

int jitdump_rec__debug_info(struct jitdump_debug_info *d, uint64_t code_addr,
			    uint64_t nr, size_t len, uint64_t timestamp)
{
	uint64_t total = sizeof(*d) + (uint64_t)len;

	if (total > UINT32_MAX)
		return -EOVERFLOW;
	memset(d, 0, sizeof(*d));
	d->h.id = JITDUMP_CODE_DEBUG_INFO;
	d->h.total_size = total;
	d->h.timestamp = timestamp;
	d->code_addr = code_addr;
	d->nr_entry = nr;
	return 0;
}
