/*
 * stackfold: keys to folded lines (see stackfold.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sampler/alloc.h"
#include "common/cgroup.h"
#include "jvm/locknames.h"
#include "common/safename.h"
#include "stackfold.h"
#include "stacks/unwindcheck.h"

#define MAX_INLINE 64 /* frames one address may expand to */
/* named stack sides kept: a few thousand deep Java stacks */
#define CACHE_BYTES (8u << 20)

struct stackfold {
	struct stackfold_cfg cfg;
	struct stacksrc src; /* ctx NULL: none */
	struct symbolizer *sym;
	const uint64_t *uips, *kips; /* the key's stacks (sampler's copies) */
	struct frame frames[MAX_INLINE];
	struct fold_line line, part; /* the line; one side of it */
	struct namecache *cache;
	struct stackfold_stats st;
	struct jstacks
	    *jstacks; /* the run's; NULL with no_hotspot, no user stacks */
	struct jstack java; /* the user stack's JVM part (depth entries) */
	bool early; /* the stack at hand: walked before its process's rows */
	uint64_t first_end; /* stackfold__first_until's */
	uint64_t vthread; /* its virtual thread's id (VTHREAD_MARK), or 0 */
	uint64_t *adj; /* depth: callers' lookup addresses (still_named) */
	struct stackfold_root *roots; /* per process, open addressing */
	size_t nroots, roots_cap;
	struct stackfold_gone gone; /* the forgotten processes' counts */
	struct locknames *locks; /* --lock's frames, or NULL */
	struct fold_stack out; /* the stack at hand, as the sinks get it */
};

struct stackfold *stackfold__new(const struct stackfold_cfg *cfg,
				 const struct stacksrc *src,
				 struct symbolizer *sym, struct jstacks *js)
{
	struct stackfold *sf = calloc(1, sizeof(*sf));

	if (!sf)
		return NULL;
	sf->cfg = *cfg;
	if (src)
		sf->src = *src;
	sf->sym = sym;
	sf->jstacks = cfg->user && !cfg->no_hotspot ? js : NULL;
	sf->java.first = calloc(cfg->depth, sizeof(*sf->java.first));
	sf->java.njava = calloc(cfg->depth, sizeof(*sf->java.njava));
	sf->java.interp = calloc(cfg->depth, sizeof(*sf->java.interp));
	sf->java.stubs = calloc(cfg->depth, sizeof(*sf->java.stubs));
	sf->adj = calloc(cfg->depth, sizeof(*sf->adj));
	sf->cache = namecache__new(CACHE_BYTES);
	if (!sf->java.first || !sf->java.njava || !sf->java.interp ||
	    !sf->java.stubs || !sf->adj || !sf->cache) {
		stackfold__free(sf);
		errno = ENOMEM;
		return NULL;
	}
	if (sf->jstacks) {
		jstacks__lines(sf->jstacks, cfg->lines);
		jstacks__bci(sf->jstacks, cfg->bci);
	}
	fold_line__init(&sf->line, cfg->annotate);
	fold_line__init(&sf->part, cfg->annotate);
	return sf;
}

void stackfold__free(struct stackfold *sf)
{
	if (!sf)
		return;
	fold_line__release(&sf->line);
	fold_line__release(&sf->part);
	namecache__free(sf->cache);
	free(sf->java.first);
	free(sf->java.njava);
	free(sf->java.interp);
	free(sf->java.stubs);
	free(sf->adj);
	free(sf->roots);
	free(sf);
}

/*
 * The frames of stack key into *ips: their number (>= 0), or -1 when the
 * sample has none of this kind (STACK_NONE: user-mode sample, kernel
 * thread), or -2 when it was lost (map full, gone before it was read).
 */
static int fetch(struct stackfold *sf, uint64_t key, const uint64_t **ips)
{
	int n;

	if (key == STACK_NONE)
		return -1;
	n = sf->src.stack ? sf->src.stack(sf->src.ctx, key, ips) : -ENOENT;
	return n < 0 ? -2 : n;
}

/* The interpreter's own code, named by the agent's map. */
static bool is_interpreter(const struct frame *f)
{
	return f->kind == FRAME_STUB && !strcmp(f->name, "Interpreter");
}

/* The frame that ends a broken walk (sampler_abi.h), as printed. */
static const char *mark_name(uint64_t ip)
{
	static const char *const names[UNWIND_NR] = {
	    [UNWIND_NO_BLOB] = "[unwind: no codeblob]",
	    [UNWIND_BAD_PC] = "[unwind: bad pc]",
	    [UNWIND_BAD_FP] = "[unwind: bad fp]",
	    [UNWIND_BAD_SP] = "[unwind: bad sp]",
	    [UNWIND_READ] = "[unwind: unreadable]",
	    [UNWIND_EARLY] = "[unwind: not identified yet]",
	    [UNWIND_NO_ROW] = "[unwind: no row]",
	    [UNWIND_FROZEN] = "[frozen frames]",
	    [UNWIND_CHUNK] = "[unwind: bad chunk]",
	};
	uint32_t r = ip & 0xff;

	return r < UNWIND_NR && names[r] ? names[r] : "[unwind: ?]";
}

/*
 * Check mode: the perf map's names for ip (the agent's inline ranges)
 * against the chain named from the JVM (n frames from x, outermost
 * first): counted when the map names every frame as Java code.
 */
static void check_names(struct stackfold *sf, const struct sample_key *k,
			uint64_t ip, uint64_t when_ns,
			const struct jstack_frame *x, uint32_t n)
{
	int nf = symbolizer__user(sf->sym, k->pid, ip, when_ns, sf->frames,
				  MAX_INLINE);
	bool same = nf > 0 && (uint32_t)nf == n;
	char jvm[SAFENAME_SIZE(256)], map[SAFENAME_SIZE(256)];

	for (int j = 0; j < nf; j++)
		if (sf->frames[j].kind != FRAME_JAVA &&
		    sf->frames[j].kind != FRAME_INLINED)
			return;
	for (int j = 0; j < nf && same; j++)
		same = !strcmp(x[j].name, sf->frames[j].name);
	if (same) {
		sf->st.check_same++;
		return;
	}
	if (sf->st.check_diff++ >= 5)
		return;
	fprintf(stderr, "mixprof: names check: %s%s (map:%s%s)\n",
		safename__show(jvm, sizeof(jvm), x[0].name),
		n > 1 ? ";..." : "",
		safename__show(map, sizeof(map), sf->frames[0].name),
		nf > 1 ? ";..." : "");
}

/* A Java frame of the JVM's as fold.h types it. */
static uint32_t java_kind(const struct jstack_frame *x)
{
	switch (x->kind) {
	case JF_INTERPRETED:
		return FOLD_INTERP;
	case JF_INLINED:
		return FOLD_INLINED;
	default:
		return x->c1 ? FOLD_C1 : FOLD_JIT;
	}
}

/* Frame i's Java frames as the JVM named them, onto l. */
static int push_java(struct stackfold *sf, int i, struct fold_line *l)
{
	const struct jstack_frame *x = sf->java.java + sf->java.first[i];
	int ret = 0;

	for (uint32_t j = 0; j < sf->java.njava[i] && !ret; j++)
		ret = fold_line__push_java(l, x[j].name, java_kind(&x[j]),
					   x[j].line, x[j].bci);
	return ret;
}

/*
 * Name user frames hi-1 down to lo (root first) onto l; non-leaf
 * addresses are return addresses. Interpreted frames get their Java
 * method's name (sf->java, from jstacks.h); the rest of the
 * interpreter's frames stay "Interpreter" (or "[unknown]" without the
 * agent's map) and are counted in *c.
 */
static int name_user(struct stackfold *sf, const struct sample_key *k, int lo,
		     int hi, uint64_t when_ns, struct fold_line *l,
		     struct part_counts *c)
{
	int i, j, nf, ret = 0;

	for (i = hi - 1; i >= lo && !ret; i--) {
		uint64_t ip = sf->uips[i] - (i ? 1 : 0);

		if (sf->uips[i] == UNWIND_MARK_ROOT)
			continue; /* the end, not a frame: user_root counts it */
		if (UNWIND_IS_MARK(sf->uips[i])) {
			/* broken because the rows were not there yet */
			ret = fold_line__push_name(
			    l, sf->early ? "[unwind: no rows yet]"
					 : mark_name(sf->uips[i]));
			continue;
		}
		/* the interpreter returning past the leaf's frame: no
		 * method, not an unnamed one (jvm/itails.h) */
		if (!i && sf->jstacks && sf->java.ret_leaf) {
			ret = fold_line__push(
			    l,
			    &(struct frame){JSTACKS_RETURN_NAME, FRAME_STUB});
			continue;
		}
		if (sf->jstacks && sf->java.njava[i]) {
			const struct jstack_frame *x =
			    sf->java.java + sf->java.first[i];

			ret = push_java(sf, i, l);
			if (x->kind == JF_INTERPRETED)
				c->interp_named++;
			else if (sf->cfg.check_names)
				check_names(sf, k, ip, when_ns, x,
					    sf->java.njava[i]);
			continue;
		}
		nf = symbolizer__user(sf->sym, k->pid, ip, when_ns, sf->frames,
				      MAX_INLINE);
		if (nf == 1 && sf->frames[0].kind == FRAME_UNKNOWN &&
		    sf->jstacks) {
			/* no map names it: a JVM stub, by its CodeBlob */
			const char *s = sf->java.stubs[i];

			if (s) {
				sf->frames[0] = (struct frame){s, FRAME_STUB};
				c->stubs++;
			}
		}
		if (nf > 0 && (is_interpreter(&sf->frames[0]) ||
			       (sf->jstacks && sf->java.interp[i])))
			c->interp_unnamed++;
		for (j = 0; j < nf && !ret; j++)
			ret = fold_line__push(l, &sf->frames[j]);
	}
	return ret;
}

static int name_kernel(struct stackfold *sf, int lo, int hi,
		       struct fold_line *l)
{
	int i, ret = 0;

	for (i = hi - 1; i >= lo && !ret; i--) {
		symbolizer__kernel(sf->sym, sf->kips[i] - (i ? 1 : 0),
				   sf->frames);
		ret = fold_line__push(l, &sf->frames[0]);
	}
	return ret;
}

/* The symbolizer's frame counts, to see what a naming adds. */
static void counters(struct stackfold *sf, struct part_counts *c)
{
	struct symbolizer_stats ss;

	symbolizer__stats(sf->sym, &ss);
	c->frames = ss.frames;
	c->unknown = ss.frames_unknown;
}

/*
 * What names k's callers at when_ns (namecache.h): the symbolizer's
 * version (gen, JIT lines eligible) and jstacks'; v[0] is 0 when nothing
 * can be promised. Kernel names never change.
 */
static void versions(struct stackfold *sf, const struct sample_key *k,
		     bool user, uint64_t when_ns, uint64_t v[PART_VERSIONS])
{
	struct symbolizer_version sv = {1, 0};

	if (user)
		symbolizer__version(sf->sym, k->pid, when_ns, &sv);
	v[0] = sv.gen;
	v[1] = sv.jit;
	v[2] = user && sf->jstacks ? sf->java.version : 1;
	if (!v[2])
		v[0] = 0;
}

/*
 * Name the callers of a stack (frames n-1 down to 1) into sf->part, and
 * keep them when their names cannot change: the naming state was v before
 * and is still after, and (user frames) none is unknown, which a later
 * lookup may still name. *c gets what the naming counted.
 */
static int name_callers(struct stackfold *sf, const struct sample_key *k, int n,
			uint64_t when_ns, const struct part_id *id,
			const uint64_t v[PART_VERSIONS], struct part_counts *c)
{
	bool user = id->pid != 0;
	uint64_t after[PART_VERSIONS];
	struct part_counts before;
	int ret;

	fold_line__reset(&sf->part);
	memset(c, 0, sizeof(*c));
	counters(sf, &before);
	ret = user ? name_user(sf, k, 1, n, when_ns, &sf->part, c)
		   : name_kernel(sf, 1, n, &sf->part);
	if (ret)
		return ret;
	counters(sf, c);
	c->frames -= before.frames;
	c->unknown -= before.unknown;
	/* the symbolizer's unknown, which a CodeBlob named */
	c->unknown = stackfold__less_stubs(c->unknown, c->stubs);
	sf->st.stubs_fresh += c->stubs;
	versions(sf, k, user, when_ns, after);
	if (v[0] && !memcmp(v, after, sizeof(after)) && !(user && c->unknown))
		namecache__put(sf->cache, id, v, c, sf->part.buf, sf->part.len,
			       sf->part.ends, sf->part.types, sf->part.n);
	return 0;
}

/*
 * May part p, named under p->v, stand for the callers of k's stack (n
 * frames) under v? JIT lines read since only matter where they cover one
 * of the callers; if none does, p now stands for v too.
 */
static bool still_named(struct stackfold *sf, const struct sample_key *k, int n,
			struct part *p, const uint64_t v[PART_VERSIONS],
			bool user)
{
	struct symbolizer_version then = {p->v[0], p->v[1]}, now = {v[0], v[1]};

	if (!v[0] || p->v[0] != v[0] || p->v[2] != v[2])
		return false;
	if (p->v[1] == v[1])
		return true;
	if (!user)
		return false;
	for (int i = 1; i < n; i++) /* as named: return addresses - 1 */
		sf->adj[i - 1] = sf->uips[i] - 1;
	if (!symbolizer__same_names(sf->sym, k->pid, &then, &now, sf->adj,
				    n - 1))
		return false;
	p->v[1] = v[1];
	return true;
}

/*
 * A stack's callers, without its leaf: the leaf pc differs from sample to
 * sample within one function, the return addresses above it repeat.
 */
static uint64_t callers_hash(const uint64_t *ips, int n)
{
	uint64_t h = n;

	for (int i = 1; i < n; i++) {
		h = (h ^ ips[i]) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 29;
	}
	return h;
}

/* Append the callers of a stack of n frames, cached or named now. */
static int push_callers(struct stackfold *sf, const struct sample_key *k, int n,
			uint64_t when_ns, bool user, struct part_counts *c)
{
	struct part_id id = {callers_hash(user ? sf->uips : sf->kips, n) ^
				 (user && sf->early ? 0x5bd1e995ULL : 0),
			     user ? k->interp_id : 0, user ? k->pid : 0};
	uint64_t v[PART_VERSIONS];
	struct part *p = namecache__get(sf->cache, &id);
	int ret;

	versions(sf, k, user, when_ns, v);
	if (p && still_named(sf, k, n, p, v, user)) {
		*c = p->c;
		sf->st.frames += c->frames; /* the symbolizer counts the rest */
		sf->st.frames_unknown += c->unknown;
		return fold_line__append_frames(&sf->line, p->text, p->len,
						p->ends, p->types, p->n);
	}
	ret = name_callers(sf, k, n, when_ns, &id, v, c);
	return ret
		   ?: fold_line__append_frames(&sf->line, sf->part.buf,
					       sf->part.len, sf->part.ends,
					       sf->part.types, sf->part.n);
}

/* --alloc's leaf: the allocated class (alloc.h), named from the JVM. */
static int push_klass(struct stackfold *sf, uint32_t pid, uint64_t klass)
{
	const char *name =
	    sf->jstacks ? jstacks__klass_name(sf->jstacks, pid, klass) : NULL;

	return fold_line__push_name(&sf->line, name ? name : "[unknown class]");
}

void stackfold__locks(struct stackfold *sf, struct locknames *ln)
{
	sf->locks = ln;
}

void stackfold__lock_seen(struct stackfold *sf, const struct sample_key *k)
{
	const uint64_t *ips;
	int n;

	if (!sf->locks)
		return;
	n = fetch(sf, k->kern_stack, &ips);
	for (int i = 0; n > 0 && n <= 2 && i < n; i++)
		if (locknames__is_frame(ips[i]))
			locknames__frame(sf->locks, k->pid, ips[i]);
}

/* --lock's "kernel" side (lock.h): the owner, then the class as the leaf. */
static int push_lock(struct stackfold *sf, uint32_t pid, int n)
{
	int ret = 0;

	for (int i = n - 1; i >= 0 && !ret; i--)
		ret = fold_line__push_name(
		    &sf->line, locknames__frame(sf->locks, pid, sf->kips[i]));
	return ret;
}

/*
 * Append one side of k (n frames; user or kernel) to the line, and count
 * its interpreted frames for count samples.
 */
static int push_side(struct stackfold *sf, const struct sample_key *k, int n,
		     uint64_t when_ns, uint64_t count, bool user)
{
	struct part_counts c = {}, leaf = {};
	int ret = 0;

	if (!user && n == 1 && ALLOC_IS_KLASS(sf->kips[0]))
		return push_klass(sf, k->pid, ALLOC_KLASS_OF(sf->kips[0]));
	if (!user && sf->locks && n > 0 && n <= 2 &&
	    locknames__is_frame(sf->kips[0]))
		return push_lock(sf, k->pid, n);
	if (n > 1)
		ret = push_callers(sf, k, n, when_ns, user, &c);
	if (!ret)
		ret = user ? name_user(sf, k, 0, 1, when_ns, &sf->line, &leaf)
			   : name_kernel(sf, 0, 1, &sf->line);
	sf->st.stubs_fresh += leaf.stubs;
	c.interp_named += leaf.interp_named;
	c.interp_unnamed += leaf.interp_unnamed;
	sf->st.interp_named += c.interp_named * count;
	sf->st.interp_unnamed += c.interp_unnamed * count;
	if (c.interp_named || c.interp_unnamed)
		sf->st.interp_samples += count;
	if (c.interp_unnamed)
		sf->st.interp_unnamed_samples += count;
	return ret;
}

bool stackfold__is_root(const char *name, size_t len)
{
	static const char *const roots[] = {"start_thread",
					    "clone",
					    "clone3",
					    "__clone",
					    "__clone3",
					    "_start",
					    "thread_native_entry",
					    "JavaMain",
					    "__libc_start_main",
					    "__libc_start_call_main"};

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++)
		if (strlen(roots[i]) == len && !memcmp(roots[i], name, len))
			return true;
	return false;
}

static size_t root_home(size_t cap, uint32_t pid)
{
	return (pid * 0x9e3779b1u) & (cap - 1);
}

static size_t root_slot(const struct stackfold_root *t, size_t cap,
			uint32_t pid)
{
	size_t i = root_home(cap, pid);

	while (t[i].pid && t[i].pid != pid)
		i = (i + 1) & (cap - 1);
	return i;
}

/* pid's counters, or NULL (no memory: only the run's totals count). */
static struct stackfold_root *root_of(struct stackfold *sf, uint32_t pid)
{
	struct stackfold_root *t;
	size_t cap, i;

	if ((sf->nroots + 1) * 2 > sf->roots_cap) {
		cap = sf->roots_cap ? sf->roots_cap * 2 : 64;
		t = calloc(cap, sizeof(*t));
		if (!t)
			return NULL;
		for (i = 0; i < sf->roots_cap; i++)
			if (sf->roots[i].pid)
				t[root_slot(t, cap, sf->roots[i].pid)] =
				    sf->roots[i];
		free(sf->roots);
		sf->roots = t;
		sf->roots_cap = cap;
	}
	i = root_slot(sf->roots, sf->roots_cap, pid);
	if (!sf->roots[i].pid) {
		sf->roots[i].pid = pid;
		sf->nroots++;
	}
	return &sf->roots[i];
}

/* Keep r among the GONE_TOP forgotten processes with the most samples. */
static void gone_top(struct stackfold_gone *g, const struct stackfold_root *r)
{
	int i = GONE_TOP - 1;

	if (r->samples <= g->top[i].samples)
		return;
	for (; i > 0 && g->top[i - 1].samples < r->samples; i--)
		g->top[i] = g->top[i - 1];
	g->top[i] = *r;
}

/*
 * Open addressing without tombstones: after emptying slot i, move back
 * each entry of the run after it whose home slot the gap cuts it from.
 */
void stackfold__forget(struct stackfold *sf, uint32_t pid, bool rows)
{
	size_t mask = sf->roots_cap - 1, i, j, h;
	struct stackfold_root *r;

	if (!sf->roots_cap)
		return;
	i = root_slot(sf->roots, sf->roots_cap, pid);
	r = &sf->roots[i];
	if (!r->pid)
		return;
	sf->gone.procs++;
	if (rows) {
		sf->gone.with_rows++;
		sf->gone.rows.samples += r->samples;
		sf->gone.rows.root += r->root;
		sf->gone.rows.early += r->early;
		sf->gone.rows.early_root += r->early_root;
		sf->gone.rows.first += r->first;
		sf->gone.rows.first_root += r->first_root;
	}
	gone_top(&sf->gone, r);
	memset(r, 0, sizeof(*r));
	sf->nroots--;
	for (j = (i + 1) & mask; sf->roots[j].pid; j = (j + 1) & mask) {
		h = root_home(sf->roots_cap, sf->roots[j].pid);
		if (i <= j ? (h > i && h <= j) : (h > i || h <= j))
			continue;
		sf->roots[i] = sf->roots[j];
		memset(&sf->roots[j], 0, sizeof(sf->roots[j]));
		i = j;
	}
}

const struct stackfold_gone *stackfold__gone(const struct stackfold *sf)
{
	return &sf->gone;
}

size_t stackfold__roots(const struct stackfold *sf,
			const struct stackfold_root **out)
{
	*out = sf->roots;
	return sf->roots_cap;
}

/*
 * The user frames of the line start at frame at; last is the stack's
 * outermost pc. Count whether the stack reaches a thread's root or broke
 * (and why). A walk that broke just past a root frame (glibc's
 * start_thread or clone keep no frame pointer) lost nothing: its mark
 * is dropped.
 */
static void user_root(struct stackfold *sf, uint32_t at, uint64_t last,
		      uint64_t count)
{
	const char *name;
	size_t len;

	if (last == UNWIND_MARK_ROOT) { /* the CFI's outermost frame */
		sf->st.root_samples += count;
		return;
	}
	name = fold_line__frame(&sf->line, at, &len);
	if (!UNWIND_IS_MARK(last)) {
		if (stackfold__is_root(name, len))
			sf->st.root_samples += count;
		return;
	}
	if (at + 1 < sf->line.n) {
		name = fold_line__frame(&sf->line, at + 1, &len);
		if (stackfold__is_root(name, len)) {
			fold_line__drop(&sf->line, at); /* the mark */
			sf->st.root_samples += count;
			return;
		}
	}
	sf->st.broken[(last & 0xff) < UNWIND_NR ? last & 0xff : 0] += count;
}

void stackfold__first_until(struct stackfold *sf, uint64_t end_ns)
{
	sf->first_end = end_ns;
}

static void user_end(struct stackfold *sf, uint32_t pid, uint32_t at,
		     uint64_t last, uint64_t count, bool early, bool first)
{
	struct stackfold_root *r = root_of(sf, pid);
	uint64_t before = sf->st.root_samples;

	sf->st.user_samples += count;
	if (r)
		r->samples += count;
	if (at < sf->line.n)
		user_root(sf, at, last, count);
	if (r)
		r->root += sf->st.root_samples - before;
	if (r && early) {
		r->early += count;
		r->early_root += sf->st.root_samples - before;
	}
	if (r && first) {
		r->first += count;
		r->first_root += sf->st.root_samples - before;
	}
}

/* "[container ID]" when id (CGROUP_ID_LEN hex digits) is not NULL. */
static int push_container(struct stackfold *sf, const char *id, char *buf)
{
	const struct fold_type t = {.kind = FOLD_CONTAINER};

	if (!id)
		return 0;
	snprintf(buf, CGROUP_FRAME_LEN + 1, CGROUP_FRAME_PREFIX "%s]", id);
	return fold_line__push_role(&sf->line, buf, &t);
}

/* The root frames: process, container, thread, truncation mark. */
static int push_head(struct stackfold *sf, const struct sample_key *k,
		     const char *targets__comm, const char *container,
		     bool truncated)
{
	const struct fold_type process = {.kind = FOLD_PROCESS};
	char ct[CGROUP_FRAME_LEN + 1];
	char comm[SAMPLER_COMM_LEN + 1], thread[300], pid[32];
	struct fold_type th;
	const char *proc;
	int ret;

	memcpy(comm, k->comm, SAMPLER_COMM_LEN);
	comm[SAMPLER_COMM_LEN] = 0;
	/* the key's comm is the main thread's (or, per thread, the
	 * thread's); other threads' keys have none (sampler.bpf.c) */
	snprintf(pid, sizeof(pid), "[pid %u]", k->pid);
	proc = targets__comm && *targets__comm ? targets__comm
	       : *comm			       ? comm
					       : pid;
	if (sf->cfg.per_thread) {
		ret = fold_line__push_role(&sf->line, proc, &process);
		ret = ret ?: push_container(sf, container, ct);
		const char *jname = sf->jstacks ? sf->java.thread : NULL;

		char tid[16];
		int on = 0, tail;

		/* a virtual thread's samples: itself, on its carrier */
		if (sf->vthread)
			on = snprintf(thread, sizeof(thread),
				      "virtual-%" PRIu64 " on ", sf->vthread);
		tail = snprintf(tid, sizeof(tid), " [%u]", k->tid);
		/* a name too long is cut, never its " [TID]" */
		snprintf(thread + on, sizeof(thread) - on, "%.*s%s",
			 (int)(sizeof(thread) - on - tail - 1),
			 jname ? jname : comm, tid);
		sf->out.thread = sf->line.n;
		th = (struct fold_type){.kind = FOLD_THREAD,
					.name = (uint32_t)strlen(thread) - tail,
					.method = on,
					.tid = k->tid};
		ret = ret ?: fold_line__push_role(&sf->line, thread, &th);
	} else {
		ret = fold_line__push_role(&sf->line, *comm ? comm : proc,
					   &process);
		ret = ret ?: push_container(sf, container, ct);
	}
	if (!ret && truncated)
		ret = fold_line__push_name(&sf->line, "[truncated]");
	return ret;
}

/*
 * A method entry stack (USDT in Probe.fire, called by Probe.hit from the
 * probed method's first instruction) ends in the probe's own frames:
 * Probe.hit, Probe.fire's JNI wrapper or the interpreter's native entry,
 * fire in libjmap.so. Cut from the first of them on, so the probed method
 * is the leaf, as if the probe cost nothing. Stacks without them (an
 * unwind that lost the frames) stay whole.
 */
static void cut_probe(struct fold_line *l)
{
	static const char *const marks[] = {"mixprof/jmap/Probe.",
					    "mixprof.jmap.Probe."};
	const char *name;
	size_t len, m;

	for (uint32_t i = 1; i < l->n; i++) {
		name = fold_line__frame(l, i, &len);
		for (size_t j = 0; j < sizeof(marks) / sizeof(marks[0]); j++) {
			m = strlen(marks[j]);
			if (len >= m && !memcmp(name, marks[j], m)) {
				fold_line__truncate(l, i);
				return;
			}
		}
	}
}

/*
 * Check mode's frame for a stack whose walks differ (CHECK_MARK): why,
 * at which HotSpot frame (0: the leaf), and what the oracle found there.
 */
static int push_check(struct stackfold *sf, const struct sample_key *k,
		      uint64_t mark, uint64_t pc, uint64_t when_ns)
{
	const char *what = "nothing";
	char buf[512];
	int nf;

	if (!CHECK_IS_MARK(pc)) {
		nf = symbolizer__user(sf->sym, k->pid, pc - 1, when_ns,
				      sf->frames, MAX_INLINE);
		what = nf > 0 ? sf->frames[nf - 1].name : "?";
		if (nf == 1 && sf->frames[0].kind == FRAME_UNKNOWN &&
		    sf->jstacks)
			what = jstacks__stub_name(sf->jstacks, k->pid, pc - 1)
				   ?: what;
	}
	snprintf(buf, sizeof(buf), "[check: %s at frame %u; oracle: %s]",
		 unwindcheck__why(mark & 0xff), (unsigned)(mark >> 8 & 0xffff),
		 what);
	return fold_line__push_name(&sf->line, buf);
}

const char *stackfold__line(struct stackfold *sf, const struct sample_key *k,
			    uint64_t count, uint64_t when_ns,
			    const char *targets__comm)
{
	const struct fold_stack *s =
	    stackfold__stack(sf, k, count, when_ns, targets__comm, NULL);

	return s ? s->line->buf : NULL;
}

const struct fold_stack *stackfold__stack(struct stackfold *sf,
					  const struct sample_key *k,
					  uint64_t count, uint64_t when_ns,
					  const char *targets__comm,
					  const char *container)
{
	int nu = -1, nk = -1, ret;
	uint32_t d = sf->cfg.depth;
	uint64_t check = 0, check_pc = 0;
	bool early;

	if (sf->cfg.user)
		nu = fetch(sf, k->user_stack, &sf->uips);
	/* walked before its process's unwind rows: counted, not shown */
	early = nu > 1 && sf->uips[nu - 1] == UNWIND_MARK_NOROWS;
	if (early)
		nu--;
	sf->early = early;
	/* check mode's difference: shown past the leaf, not a frame */
	if (nu > 2 && CHECK_IS_MARK(sf->uips[nu - 1])) {
		check = sf->uips[nu - 1];
		check_pc = sf->uips[nu - 2];
		nu -= 2;
	}
	/* --per-thread: the virtual thread mounted, named in the head */
	sf->vthread = 0;
	if (nu > 1 && VTHREAD_IS_MARK(sf->uips[nu - 1]))
		sf->vthread = VTHREAD_ID(sf->uips[--nu]);
	if (sf->cfg.kernel)
		nk = fetch(sf, k->kern_stack, &sf->kips);
	if (nu == -2)
		sf->st.user_lost += count;
	if (nk == -2)
		sf->st.kern_lost += count;
	if ((nu == (int)d && !UNWIND_IS_MARK(sf->uips[nu - 1])) || nk == (int)d)
		sf->st.truncated += count;

	/* the JVM's part of the stack, named in one pass */
	if (sf->jstacks)
		jstacks__stack(sf->jstacks, k, sf->uips, nu > 0 ? nu : 0,
			       &sf->java);
	fold_line__reset(&sf->line);
	sf->out = (struct fold_stack){
	    .line = &sf->line, .pid = k->pid, .tid = k->tid, .thread = -1};
	ret = push_head(sf, k, targets__comm, container,
			(nu == (int)d && !UNWIND_IS_MARK(sf->uips[nu - 1])) ||
			    nk == (int)d);
	if (!ret && nu == -2)
		ret = fold_line__push_name(&sf->line, "[lost user stack]");
	if (!ret && nu > 0) {
		uint32_t at = sf->line.n;

		ret = push_side(sf, k, nu, when_ns, count, true);
		if (!ret)
			user_end(sf, k->pid, at, sf->uips[nu - 1], count, early,
				 when_ns <= sf->first_end);
		/* after the user frames: the root stays where scripts
		 * look for it */
		if (!ret && check)
			ret = push_check(sf, k, check, check_pc, when_ns);
	}
	if (!ret && sf->cfg.delimit && nu != -1 && nk != -1)
		ret = fold_line__push_name(&sf->line, "-");
	if (!ret && nk == -2)
		ret = fold_line__push_name(&sf->line, "[lost kernel stack]");
	if (!ret && nk > 0)
		ret = push_side(sf, k, nk, when_ns, count, false);
	if (!ret && sf->cfg.probe_leaf)
		cut_probe(&sf->line);
	if (ret) {
		errno = -ret;
		return NULL;
	}
	return &sf->out;
}

const struct stackfold_stats *stackfold__stats(const struct stackfold *sf)
{
	struct stackfold *w = (struct stackfold *)sf; /* counters only */
	struct jstacks_stats is = {};

	if (sf->jstacks)
		jstacks__stats(sf->jstacks, &is);
	w->st.interp_jvms = is.jvms.jvms;
	w->st.interp_misaligned = is.misaligned;
	w->st.interp_unreadable = is.unreadable;
	w->st.interp_chunks_gone = is.chunks_gone;
	w->st.compiled_named = is.compiled_named;
	w->st.compiled_stale = is.compiled_stale;
	w->st.compiled_failed = is.compiled_failed;
	w->st.no_names = is.jvms.no_names;
	w->st.no_names_pid = is.jvms.no_names_pid;
	w->st.no_names_err = is.jvms.no_names_err;
	w->st.over = is.jvms.over;
	w->st.over_pid = is.jvms.over_pid;
	w->st.over_why = is.jvms.over_why;
	return &sf->st;
}

size_t stackfold__cache_bytes(const struct stackfold *sf, size_t *budget)
{
	*budget = CACHE_BYTES;
	return namecache__bytes(sf->cache);
}
