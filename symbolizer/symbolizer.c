// SPDX-License-Identifier: GPL-2.0
/*
 * The symbolizer object: options, caches, and the lookups the sampler
 * calls per frame. Lookups touch no files on their fast path: a pid hash
 * (with a one-entry cache), then binary searches over mappings, JIT
 * entries and symbols.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common/procfs.h"
#include "common/stop.h"
#include "procmaps.h"
#include "sym_internal.h"

#define DEFAULT_MAP_DIR PROCFS_PERF_MAP_DIR
#define DEFAULT_DEBUG_ROOT "/usr/lib/debug"
#define DEFAULT_SLACK_NS (10 * 1000 * 1000ULL)

struct symbolizer *symbolizer__new(const struct symbolizer_opts *opts)
{
	struct symbolizer *s;
	const char *md =
	    opts && opts->map_dir ? opts->map_dir : DEFAULT_MAP_DIR;
	const char *dr =
	    opts && opts->debug_root ? opts->debug_root : DEFAULT_DEBUG_ROOT;

	if (md[0] != '/') {
		errno = EINVAL; /* it is looked up under /proc/PID/root */
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->no_inline = opts && opts->no_inline;
	s->slack_ns =
	    opts && opts->jit_slack_ns ? opts->jit_slack_ns : DEFAULT_SLACK_NS;
	s->map_dir = strdup(md);
	s->debug_root = strdup(dr);
	s->pool = strpool__new();
	s->memo = calloc(ELF_MEMO, sizeof(*s->memo));
	if (!s->map_dir || !s->debug_root || !s->pool || !s->memo)
		goto fail;
	/* "/" as map_dir would give "//perf-N.map"; harmless, but trim */
	while (strlen(s->map_dir) > 1 &&
	       s->map_dir[strlen(s->map_dir) - 1] == '/')
		s->map_dir[strlen(s->map_dir) - 1] = '\0';
	s->unknown = strpool__intern(s->pool, "[unknown]", 9);
	if (!s->unknown)
		goto fail;
	return s;
fail:
	symbolizer__free(s);
	errno = ENOMEM;
	return NULL;
}

static void proc_free_val(void *p)
{
	process__free(p);
}

void symbolizer__free(struct symbolizer *s)
{
	if (!s)
		return;
	u64map__clear(&s->procs, proc_free_val);
	u64map__release(&s->procs);
	elf_cache__free(s);
	elfsyms__free(s->vdso);
	kernel__free(s);
	strpool__free(s->pool);
	free(s->map_dir);
	free(s->debug_root);
	free(s->memo);
	free(s);
}

int symbolizer__refresh(struct symbolizer *s, uint32_t pid, uint64_t now_ns)
{
	struct proc *p;

	/* told to stop, past the grace: names come from what is known */
	if (stop__hurry())
		return -EINTR;
	p = process__get(s, pid);
	if (!p)
		return -ENOMEM;
	return process__refresh(s, p, now_ns);
}

static const struct pvma *find_vma(const struct proc *p, uint64_t ip)
{
	size_t lo = 0, hi = p->nv;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->v[mid].start <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && ip < p->v[lo - 1].end)
		return &p->v[lo - 1];
	return NULL;
}

int sym__one(struct symbolizer *s, struct frame *out, const char *name,
	     enum frame_kind kind)
{
	out->name = name;
	out->kind = kind;
	s->st.frames++;
	if (kind == FRAME_UNKNOWN)
		s->st.frames_unknown++;
	return 1;
}

/*
 * ELF files are named by their symbols; JIT maps name everything else
 * (anonymous memory, and memfd or other non-ELF file mappings some JITs
 * use), so a stray map line can never shadow a library.
 */
static struct elf_memo *memo_slot(struct symbolizer *s, uint64_t version,
				  uint64_t ip)
{
	uint64_t h =
	    (ip ^ version * 0x9e3779b97f4a7c15ull) * 0xff51afd7ed558ccdull;

	return &s->memo[h >> 51 & (ELF_MEMO - 1)];
}

static int resolve(struct symbolizer *s, struct proc *p, uint64_t ip,
		   uint64_t when_ns, struct frame *out, int max)
{
	const struct pvma *v = find_vma(p, ip);
	int n;

	if (v && v->elf) {
		const char *name = elfsyms__find(v->elf, ip + v->delta);
		struct elf_memo *m = memo_slot(s, p->version, ip);

		*m = (struct elf_memo){p->version, ip, name ? name : v->unknown,
				       name ? FRAME_NATIVE : FRAME_UNKNOWN};
		return sym__one(s, out, m->name, m->kind);
	}
	n = jitmap__find(p->jit, ip, when_ns, s->slack_ns, out, max);
	if (n > 0) {
		s->st.frames += n;
		return n;
	}
	return v ? sym__one(s, out, v->unknown, FRAME_UNKNOWN) : 0;
}

/*
 * No mapping can ever hold ip: page zero, or past any user address (56
 * bits: x86-64 with 5-level paging). Frame-pointer walks through code
 * built without them return such junk (often text: "orof-war").
 */
static bool impossible(uint64_t ip)
{
	return ip < 4096 || ip >> 56;
}

int symbolizer__user(struct symbolizer *s, uint32_t pid, uint64_t ip,
		     uint64_t when_ns, struct frame *out, int max)
{
	struct proc *p = process__get(s, pid);
	int n;

	if (!p || max < 1)
		return max < 1 ? -EINVAL
			       : sym__one(s, out, s->unknown, FRAME_UNKNOWN);
	/* never told about it: learn it now, once (it may be gone) */
	if (p->gone && !p->maps_hash && !p->jit_seen && !p->miss_reread &&
	    !stop__hurry()) {
		p->miss_reread = true;
		process__refresh(s, p, when_ns);
	}
	if (p->version) {
		const struct elf_memo *m = memo_slot(s, p->version, ip);

		if (m->version == p->version && m->ip == ip)
			return sym__one(s, out, m->name, m->kind);
	}
	n = resolve(s, p, ip, when_ns, out, max);
	if (n)
		return n;
	/* no mapping holds ip: maps may have changed since the last
	 * refresh; re-read once per refresh while the process lives */
	if (!p->gone && !p->miss_reread && !impossible(ip) && !stop__hurry()) {
		p->miss_reread = true;
		if (!process__read_maps(s, p))
			n = resolve(s, p, ip, when_ns, out, max);
		if (n)
			return n;
	}
	return sym__one(s, out, s->unknown, FRAME_UNKNOWN);
}

void symbolizer__version(struct symbolizer *s, uint32_t pid, uint64_t when_ns,
			 struct symbolizer_version *v)
{
	struct proc *p = process__get(s, pid);
	uint64_t limit = when_ns + s->slack_ns;

	v->gen = p ? p->version : 0;
	v->jit =
	    p ? jitmap__eligible(p->jit, limit < when_ns ? UINT64_MAX : limit)
	      : 0;
	if (v->jit == SIZE_MAX)
		v->gen = 0;
}

bool symbolizer__same_names(struct symbolizer *s, uint32_t pid,
			    const struct symbolizer_version *a,
			    const struct symbolizer_version *b,
			    const uint64_t *ips, size_t n)
{
	struct proc *p = process__get(s, pid);
	size_t from = a->jit < b->jit ? a->jit : b->jit,
	       to = a->jit < b->jit ? b->jit : a->jit;

	if (!p || !a->gen || a->gen != b->gen)
		return false;
	/* the lines eligible under one and not the other: do they cover
	 * any of the addresses? */
	for (size_t i = 0; i < n && from < to; i++)
		if (jitmap__covered(p->jit, ips[i], from, to))
			return false;
	return true;
}

void symbolizer__forget(struct symbolizer *s, uint32_t pid)
{
	size_t before = s->procs.n;

	process__forget(s, pid);
	s->st.procs_forgotten += before - s->procs.n;
}

/* below this many lines a map is not worth a pass */
#define JIT_EXPIRE_MIN 1024

static void expire_one(struct symbolizer *s, struct proc *p, void *ctx)
{
	uint64_t before_ns = *(const uint64_t *)ctx;
	size_t n = jitmap__count(p->jit);
	long dropped;

	if (!p->jit || n < p->jit_expire_at || n < JIT_EXPIRE_MIN)
		return;
	dropped = jitmap__expire(p->jit, before_ns);
	if (dropped > 0)
		s->st.jit_expired += dropped;
	/* what is left is live code: look again once as much came, or at
	 * the cap (room for the lines it skips), unless nothing went */
	n = jitmap__count(p->jit);
	p->jit_expire_at = n >= JITMAP_MAX_LINES      ? SIZE_MAX
			   : 2 * n < JITMAP_MAX_LINES ? 2 * n
						      : JITMAP_MAX_LINES;
}

/* ELF files of forgotten processes: looked for every this many calls */
#define ELF_SWEEP_EVERY 10

void symbolizer__expire(struct symbolizer *s, uint64_t before_ns)
{
	long gone;

	process__for_each(s, expire_one, &before_ns);
	if (++s->expiries % ELF_SWEEP_EVERY)
		return;
	gone = elf_cache__sweep(s);
	if (gone > 0)
		s->st.elfs_freed += gone;
}

void symbolizer__stats(const struct symbolizer *s, struct symbolizer_stats *st)
{
	*st = s->st;
}
