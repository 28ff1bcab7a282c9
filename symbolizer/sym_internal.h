/*
 * sym_internal: the symbolizer's state, shared by symbolizer.c (the object
 * and its lookups), process.c (reading one process) and elf_cache.c (ELF
 * files by identity). Not part of the public contract.
 */
#ifndef MIXPROF_SYM_INTERNAL_H
#define MIXPROF_SYM_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "elf_syms.h"
#include "jitmap.h"
#include "common/strpool.h"
#include "common/u64map.h"
#include "symbolizer.h"
#include "symtab.h"

/* A mapping of one process, resolved to what names its addresses. */
struct pvma {
	uint64_t start, end;
	uint64_t delta; /* file vaddr = ip + delta */
	struct elfsyms *elf; /* NULL: not an ELF we could read */
	const char *unknown; /* "[libfoo.so]" or "[unknown]" (pooled) */
	bool vdso;
};

struct proc {
	uint32_t pid, nspid;
	uint64_t starttime; /* clock ticks after boot, /proc/PID/stat */
	uint64_t start_real_ns; /* the same as CLOCK_REALTIME ns */
	bool gone; /* its /proc entry vanished */
	bool miss_reread; /* a lookup miss re-read maps since refresh */
	struct pvma *v;
	size_t nv;
	uint64_t maps_hash;
	uint64_t maps_read_ns; /* now_ns of the last read of its maps */
	uint64_t checked_ns; /* now_ns of the last stat/status read */
	uint64_t vm_exec; /* VmExe and VmLib as of that read */
	/* its JIT map, tailed */
	struct jitmap *jit;
	uint64_t jit_dev, jit_ino, jit_off;
	uint64_t jit_head; /* hash of the first bytes read, to tell a
				 * file rewritten in place (jcmd) */
	uint64_t jit_last_look; /* now_ns of the last refresh that read it */
	bool jit_seen, jit_stale;
	int jit_refused; /* the first refusal of its map, said (-errno) */
	uid_t uid; /* effective, /proc/PID/status: who may own its map */
	size_t jit_expire_at; /* entries at which to try expiry again */
	/* symbolizer__version's gen: a fresh serial on any change that can
	 * rename an address, JIT lines added aside; 0 before the first */
	uint64_t version;
};

/* One file met in the maps; the files whose identities hash alike chain. */
struct elf_entry {
	uint64_t dev, ino;
	struct elfsyms *elf; /* NULL: tried and failed */
	struct elf_entry *next;
};

/*
 * An address named by its ELF file's symbols (or its label, none
 * covering it), under a process version: the same address under the
 * same version (versions never repeat) is named alike, so the next
 * lookup is one slot, not a search of the mappings and of the symbols.
 */
struct elf_memo {
	uint64_t version, ip;
	const char *name; /* the ELF's or the pool's: lives as the version */
	enum frame_kind kind;
};

#define ELF_MEMO 8192 /* slots; a javac run names ~150,000 such frames */

struct symbolizer {
	char *map_dir, *debug_root;
	bool no_inline;
	uint64_t slack_ns;
	struct symbolizer_stats st;
	struct strpool *pool;
	const char *unknown; /* "[unknown]" */
	struct u64map procs; /* PROC_KEY(pid) -> struct proc * */
	struct proc *last; /* the last looked-up process */
	struct u64map elfs; /* elf_key(dev, ino) -> struct elf_entry chain */
	/* kernel frames (kernel.c) */
	uint64_t serial; /* the last proc version handed out */
	unsigned int expiries; /* symbolizer__expire calls: ELF sweeps */
	struct symtab *ksyms; /* /proc/kallsyms, read when first needed */
	bool ksyms_tried;
	struct ksym_source ksrc; /* name NULL: none, or it failed */
	struct u64map kcache; /* ip -> interned name, or kernel.c markers */
	uint64_t *kwant; /* ips asked for, not named yet */
	size_t nkwant, kwant_cap;
	struct elfsyms *vdso;
	bool vdso_tried;
	struct elf_memo *memo; /* ELF_MEMO slots */
};

/* symbolizer.c: out = one frame (name, kind), counted in the stats; 1 */
int sym__one(struct symbolizer *s, struct frame *out, const char *name,
	     enum frame_kind kind);

/* kernel.c */
void kernel__free(struct symbolizer *s);

/* process.c */
struct proc *process__get(struct symbolizer *s, uint32_t pid);
int process__refresh(struct symbolizer *s, struct proc *p, uint64_t now_ns);
int process__read_maps(struct symbolizer *s, struct proc *p);
void process__free(struct proc *p);
/* Free pid's record and take it out of the table (if it has one). */
void process__forget(struct symbolizer *s, uint32_t pid);
/* Call fn for every process record. */
void process__for_each(struct symbolizer *s,
		       void (*fn)(struct symbolizer *s, struct proc *p,
				  void *ctx),
		       void *ctx);
/* p's names may have changed: give it a new version. */
void process__changed(struct symbolizer *s, struct proc *p);

/* elf_cache.c: the parsed ELF for (dev, ino), opening it via open_path. */
struct elfsyms *elf_cache__get(struct symbolizer *s, uint64_t dev, uint64_t ino,
			       const char *open_path, const char *alt_path,
			       const char *root, const char *path);
void elf_cache__free(struct symbolizer *s);
/*
 * Free the files no process record maps any more (and forget failed
 * loads, tried again when met again). Returns how many went, or -ENOMEM.
 */
long elf_cache__sweep(struct symbolizer *s);
struct elfsyms *vdso__get(struct symbolizer *s);

#endif
