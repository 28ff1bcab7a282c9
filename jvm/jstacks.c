// SPDX-License-Identifier: GPL-2.0
/*
 * jstacks: the Java frames of sampled stacks, named (see jstacks.h for
 * the contract, profiler/README.md for the design).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "common/array.h"
#include "common/hash.h"
#include "common/strpool.h"
#include "common/u64map.h"
#include "codeblob.h"
#include "hotspot.h"
#include "jframe.h"
#include "jnamer.h"
#include "jstacks.h"

/* A tick: a name without identity hashes is read again once per tick. */
#define TICK_NS (90 * 1000 * 1000ULL)
#define RESOLVE_NS (1000 * 1000 * 1000ULL) /* re-resolve a list this often */
#define NAME_CAP 1024
/* jstack.version of keys without a list: not a JVM (yet), or a JVM */
#define V_NONE 1
#define V_JVM 2
#define JN_MAX 64 /* frames of one inline chain */

/*
 * (pid, class Symbol*, method Symbol*, their identity hashes as the
 * sample read them) -> name. The hashes are part of the key: Symbols
 * freed with their class come back at the same addresses as other
 * Symbols (under class churn, a lambda form's hidden class name became
 * the next worker class's name), and one slot per address let a list
 * resolved again name an old frame by the new Symbol, or by nothing.
 */
struct name_ent {
	uint32_t pid; /* first: keep_other_pid */
	uint64_t ksym, nsym;
	int64_t khashes; /* the sample's, or -1: none */
	const char *name; /* NULL: unreadable */
	uint64_t checked_ns; /* tick of the last read */
	int64_t hashes; /* the Symbols' identity hashes then, or -1 */
};

struct list_frame {
	uint32_t idx;
	uint64_t ip;
	const char *name; /* by the Method*'s Symbols read at sample time */
	int line; /* an interpreted frame's, with lines asked; or 0 */
	int32_t bci; /* an interpreted frame's, with bcis asked; or -1 */
	uint64_t nm; /* a compiled frame's nmethod, or 0 */
	int32_t cid; /* its compile id */
	int level; /* its tier at sample time, 0 unknown */
};

/*
 * name_of's answers of this tick, one a slot by (pid, Symbols): name_of
 * gives the same answer to the same question within a tick, and a javac
 * run at 999 Hz asks it ~350,000 times (lists of ~36 frames, most of
 * them the last list's), each a lookup in a big table (three cache
 * misses) where a slot here is one.
 */
#define TICK_NAMES 4096
struct tick_name {
	uint64_t ks, ns, tick;
	int64_t hashes;
	const char *name;
	uint32_t pid;
};

/* (pid, interp_id) -> its frames, named */
struct list_ent {
	uint32_t pid;
	uint64_t id;
	uint64_t resolved_ns, seen_ns;
	uint64_t serial; /* new whenever its names change (jstack.version) */
	uint64_t sum; /* of the names as resolved */
	uint32_t nr;
	uint32_t ncompiled; /* of them compiled frames */
	uint32_t epoch; /* the JVM's when the walk sent it (jnamer.h) */
	struct list_frame *f;
};

/* A thread's whole name, asked once per comm it was seen with. */
struct tname {
	char comm[SAMPLER_COMM_LEN];
	const char *name; /* pooled, or NULL: no Java thread */
	uint64_t asked_ns; /* when name was asked */
};

/* A stub's name at a pc of a JVM: stubs live as long as the JVM. */
struct stub {
	uint32_t pid; /* first: keep_other_pid */
	uint64_t pc;
	const char *name; /* pooled, or NULL: none */
};

struct jstacks {
	struct stacksrc src;
	struct jvms *jv;
	struct strpool *pool;
	/*
	 * The caches are keyed by a hash of their identity, which each
	 * entry keeps whole: an entry found under another identity (two
	 * identities, one hash) is taken over by the new one.
	 */
	struct u64map names; /* name_key() -> struct name_ent */
	struct u64map lists; /* list_key() -> struct list_ent */
	struct u64map tnames; /* pid << 32 | tid -> struct tname */
	struct u64map stubs; /* stub_key() -> struct stub */
	uint64_t now_ns, last_sweep_ns;
	uint64_t serial; /* the last list serial handed out */
	struct interp_stack scratch;
	struct tick_name *tick_names; /* TICK_NAMES of them */
	struct jstacks_stats st;
	bool lines; /* Java frames get their lines */
	bool bci; /* and their bytecode indexes */
	struct jnamer_frame jf[JN_MAX];
	/* the stack at hand's Java frames (jstack.java) */
	struct jstack_frame *java;
	size_t njava, java_cap;
};

static uint64_t name_key(uint32_t pid, uint64_t k, uint64_t n, int64_t h)
{
	return hash__mix(pid ^
			 hash__mix(k ^ hash__mix(n ^ hash__mix((uint64_t)h)))) |
	       1;
}

static uint64_t list_key(uint32_t pid, uint64_t id)
{
	return hash__mix(id ^ hash__mix(pid)) | 1;
}

static uint64_t stub_key(uint32_t pid, uint64_t pc)
{
	return hash__mix(pc ^ hash__mix(pid)) | 1;
}

struct jstacks *jstacks__new(const struct stacksrc *src, struct jvms *jv)
{
	struct jstacks *js = calloc(1, sizeof(*js));

	if (!js)
		goto nomem;
	js->src = *src;
	js->jv = jv;
	js->serial = V_JVM; /* serials come after the fixed versions */
	js->pool = strpool__new();
	js->tick_names = calloc(TICK_NAMES, sizeof(*js->tick_names));
	if (js->pool && js->tick_names)
		return js;
	strpool__free(js->pool);
	free(js->tick_names);
	free(js);
nomem:
	errno = ENOMEM;
	return NULL;
}

static void list_free(void *p)
{
	struct list_ent *e = p;

	free(e->f);
	free(e);
}

void jstacks__free(struct jstacks *js)
{
	if (!js)
		return;
	u64map__clear(&js->names, free);
	u64map__release(&js->names);
	u64map__clear(&js->lists, list_free);
	u64map__release(&js->lists);
	u64map__clear(&js->tnames, free);
	u64map__release(&js->tnames);
	u64map__clear(&js->stubs, free);
	u64map__release(&js->stubs);
	free(js->tick_names);
	strpool__free(js->pool);
	free(js->java);
	free(js);
}

/* pid's JVM, when its tables are read and given to BPF. */
static struct jvm *jvm_of(const struct jstacks *js, uint32_t pid)
{
	struct jvm *j = jvms__find(js->jv, pid);

	return j && j->state == JVM_YES ? j : NULL;
}

static bool in_interp(const struct jvm *j, uint64_t ip)
{
	return ip >= j->start && ip < j->end;
}

/* Does pc lie in one of j's code heaps (where CodeBlobs are)? */
static bool in_code_cache(const struct jvm *j, uint64_t pc)
{
	const struct hotspot_unwind *u = &hotspot__layout(j->h)->u;

	for (uint32_t i = 0; u->ok && i < u->nheaps && i < HOTSPOT_MAX_HEAPS;
	     i++)
		if (pc >= u->heap[i].lo && pc < u->heap[i].hi)
			return true;
	return false;
}

/* ---- names -------------------------------------------------------------- */

const char *jstacks__klass_name(struct jstacks *js, uint32_t pid,
				uint64_t klass)
{
	struct jvm *j = jvms__find(js->jv, pid);
	char sym[NAME_CAP], name[NAME_CAP + 32];
	int n;

	if (!j || !j->h ||
	    hotspot__klass_name(j->h, klass, sym, sizeof(sym)) < 0)
		return NULL;
	n = hotspot__java_class_name(name, sizeof(name), sym);
	return n < 0 ? NULL : strpool__intern(js->pool, name, n);
}

/*
 * What frames of j are named through: its namer's reader (budgeted, and
 * a line at a time kept for a moment: jnamer.h) once it has one.
 */
static const struct hotspot_mem *naming_mem(const struct jvm *j)
{
	return j->jn ? jnamer__mem(j->jn) : hotspot__mem(j->h);
}

/*
 * Read the two Symbols now: the pooled name, or NULL; *hashes gets their
 * identity hashes as the BPF walk packs them (sampler_abi.h), or -1.
 */
static const char *read_name(struct jstacks *js, struct jvm *j, uint64_t ksym,
			     uint64_t nsym, int64_t *hashes)
{
	const struct hotspot_mem *mem = naming_mem(j);
	const struct hotspot_layout *l = hotspot__layout(j->h);
	char k[NAME_CAP], m[NAME_CAP], full[2 * NAME_CAP];
	int32_t kh, nh;
	int n;

	*hashes = -1;
	if (hotspot__symbol(mem, l, ksym, k, sizeof(k), &kh) < 0 ||
	    hotspot__symbol(mem, l, nsym, m, sizeof(m), &nh) < 0)
		return NULL;
	if (kh >= 0 && nh >= 0)
		*hashes = (int64_t)((uint32_t)kh << 16 | (uint32_t)nh);
	n = hotspot__frame_name(full, sizeof(full), k, m);
	return n < 0 ? NULL : strpool__intern(js->pool, full, n);
}

/* The cache entry of (pid, ksym, nsym, hashes), new (zeroed) or kept. */
static struct name_ent *name_slot(struct jstacks *js, uint32_t pid,
				  uint64_t ksym, uint64_t nsym, int64_t hashes)
{
	uint64_t key = name_key(pid, ksym, nsym, hashes);
	struct name_ent *e;
	bool added;
	void **slot = u64map__add(&js->names, key, &added);

	if (!slot)
		return NULL;
	e = *slot;
	if (e && e->pid == pid && e->ksym == ksym && e->nsym == nsym &&
	    e->khashes == hashes)
		return e;
	if (!e && !(e = *slot = malloc(sizeof(*e)))) {
		u64map__del(&js->names, key);
		return NULL;
	}
	*e = (struct name_ent){pid, ksym, nsym, hashes, NULL, 0, -1};
	return e;
}

/*
 * The name of (ksym, nsym) in j, as the sample saw them. With the
 * Symbols' identity hashes from the sample (hashes >= 0), a name read
 * before under the same hashes is the right one: a Symbol freed and
 * reused would have a new hash. Without them the name is read again once
 * per tick while the JVM lives. A name read now under other hashes than
 * the sample's belongs to a Symbol created since: none, and it is not
 * kept (another sample's entry holds it). A JVM that is gone keeps the
 * names it had.
 */
static const char *name_read(struct jstacks *js, struct jvm *j, uint64_t ksym,
			     uint64_t nsym, int64_t hashes)
{
	struct name_ent *e;
	const char *name;
	int64_t now_hashes;

	if (!ksym || !nsym || !j->h)
		return NULL;
	if (hashes < 0)
		hashes = -1;
	if (!(e = name_slot(js, j->pid, ksym, nsym, hashes)))
		return NULL;
	if (e->name && hashes >= 0 && e->hashes == hashes)
		return e->name;
	if (e->checked_ns == js->now_ns)
		return e->name; /* read this tick already */
	name = read_name(js, j, ksym, nsym, &now_hashes);
	if (hashes >= 0 && name && now_hashes != hashes)
		name = NULL; /* reused since the sample */
	/* unreadable now but named before: the process may be exiting */
	if (name || !e->name) {
		e->name = name;
		e->hashes = now_hashes;
	}
	e->checked_ns = js->now_ns;
	return e->name;
}

/* name_read, through this tick's answers (struct tick_name). */
static const char *name_of(struct jstacks *js, struct jvm *j, uint64_t ksym,
			   uint64_t nsym, int64_t hashes)
{
	struct tick_name *t;

	if (hashes < 0)
		hashes = -1;
	t = &js->tick_names[name_key(j->pid, ksym, nsym, hashes) >> 1 &
			    (TICK_NAMES - 1)];
	if (t->tick == js->now_ns && t->pid == j->pid && t->ks == ksym &&
	    t->ns == nsym && t->hashes == hashes)
		return t->name;
	*t = (struct tick_name){ksym, nsym, js->now_ns, hashes, NULL, j->pid};
	t->name = name_read(js, j, ksym, nsym, hashes);
	return t->name;
}

/* ---- lists -------------------------------------------------------------- */

/* A new serial for e if its frames or their names changed. */
static void renamed(struct jstacks *js, struct list_ent *e)
{
	uint64_t sum = e->nr;

	for (uint32_t i = 0; i < e->nr; i++)
		sum = hash__mix(sum ^ e->f[i].idx ^ e->f[i].ip ^
				(uint64_t)(uintptr_t)e->f[i].name ^
				(uint64_t)e->f[i].line << 48 ^
				(uint64_t)(uint32_t)e->f[i].bci << 24);
	if (!e->serial || sum != e->sum) {
		e->sum = sum;
		e->serial = ++js->serial;
	}
}

/*
 * The source line of bytecode index bci of Method* method (the frame s,
 * interpreted, whose name its Symbols gave: so the Method* was not freed
 * and reused since), or 0 when it has none.
 */
static int line_at(struct jvm *j, uint64_t method, int bci)
{
	int line = j->jn ? jnamer__line(j->jn, method, bci) : 0;

	return line > 0 ? line : 0;
}

/* Name one listed frame s of j into f. */
static void name_frame(struct jstacks *js, struct jvm *j,
		       const struct interp_frame *s, struct list_frame *f)
{
	uint64_t ks = s->klass_name, ns = s->name;

	f->idx = s->idx;
	f->ip = s->ip;
	f->name = NULL;
	f->line = 0;
	f->bci = -1;
	f->nm = s->nm;
	f->cid = s->cid;
	f->level = s->level <= 4 ? (int)s->level : 0;
	/* a pending walk kept every frame and its pc: only the interpreted
	 * ones count (a known JVM's list has only those, without their pc) */
	if (s->ip && !in_interp(j, s->ip))
		return;
	if (s->nm && !s->klass_name) /* its Method* gave no names */
		return;
	/* a pending walk kept only the Method*: follow it now (a JVM's
	 * first moments, long before any class unloads) */
	if (!ks && s->method) {
		hotspot__method_symbols(j->h, s->method, &ks, &ns);
		f->name = name_of(js, j, ks, ns, -1);
		return;
	}
	f->name = name_of(js, j, ks, ns,
			  hotspot__layout(j->h)->off_sym_hash == HOTSPOT_NO_OFF
			      ? -1
			      : (int64_t)s->hashes);
	/* an interpreted frame's cid: 1 + its bci (sampler_abi.h) */
	if (js->lines && !s->nm && s->cid > 0 && f->name)
		f->line = line_at(j, s->method, s->cid - 1);
	if (js->bci && !s->nm && s->cid > 0 && f->name)
		f->bci = s->cid - 1;
}

/*
 * Name the frames of e from the BPF list (the interp map entry) and the
 * chunks it links to (deeper stacks: sampler_abi.h). A chunk gone since (the
 * LRU map evicted it) leaves a list named before as it was; a new one
 * gets the frames that could be read.
 */
static int resolve(struct jstacks *js, struct jvm *j, struct list_ent *e)
{
	struct interp_stack *st = &js->scratch;
	struct list_frame *f = NULL, *nf;
	uint64_t key = e->id;
	uint32_t i, n, nr = 0;

	for (int c = 0; c < INTERP_MAX_CHUNKS && key; c++) {
		if (c ? js->src.interp_chunk(js->src.ctx, key, st)
		      : js->src.interp(js->src.ctx, key, st)) {
			if (!c || e->nr) {
				free(f);
				return -ENOENT;
			}
			js->st.chunks_gone++; /* its outer frames go unnamed */
			break;
		}
		if (!c)
			e->epoch = st->epoch;
		n = st->nr < INTERP_MAX_FRAMES ? st->nr : INTERP_MAX_FRAMES;
		nf = realloc(f, (nr + n ? nr + n : 1) * sizeof(*f));
		if (!nf) {
			free(f);
			return -ENOMEM;
		}
		f = nf;
		for (i = 0; i < n; i++)
			name_frame(js, j, &st->f[i], &f[nr + i]);
		nr += n;
		key = st->prev;
	}
	if (!f && !(f = malloc(sizeof(*f))))
		return -ENOMEM;
	free(e->f);
	e->f = f;
	e->nr = nr;
	e->ncompiled = 0;
	for (i = 0; i < nr; i++)
		e->ncompiled += f[i].nm != 0;
	e->resolved_ns = js->now_ns;
	renamed(js, e);
	return 0;
}

/*
 * Read the debug data of e's compiled frames now, while their code is
 * most likely alive (k's key is taken a second or more later): jnamer
 * keeps what it read per (nmethod, compile id, pc), so from the second
 * tick on this is a cache hit per frame (and a listed frame that no
 * nmethod names, its blob's name: jstacks__stub_name keeps it). Each key,
 * each tick: keys of one list differ in their pcs.
 */
static void warm(struct jstacks *js, struct jvm *j, const struct list_ent *e,
		 const struct sample_key *k)
{
	const uint64_t *ips;
	int n;

	if (!j->jn || jnamer__over(j->jn))
		return;
	jnamer__sample_epoch(j->jn, e->epoch);
	n = js->src.stack(js->src.ctx, k->user_stack, &ips);
	for (uint32_t i = 0; n > 0 && i < e->nr; i++) {
		const struct list_frame *f = &e->f[i];

		/* a blob with a frame size that is no nmethod (a runtime
		 * stub: new_instance, uncommon_trap) is named as a stub */
		if (f->nm && f->idx < (uint32_t)n &&
		    jnamer__compiled_at(j->jn, f->nm, f->cid, ips[f->idx],
					f->idx > 0, js->jf, JN_MAX) <= 0)
			jstacks__stub_name(js, k->pid,
					   ips[f->idx] - (f->idx ? 1 : 0));
	}
}

/* k's list as kept, or NULL. */
static struct list_ent *list_find(const struct jstacks *js,
				  const struct sample_key *k)
{
	void **slot = u64map__find(&js->lists, list_key(k->pid, k->interp_id));
	struct list_ent *e = slot ? *slot : NULL;

	return e && e->id == k->interp_id && e->pid == k->pid ? e : NULL;
}

/* k's list, new (not resolved yet) when not kept; NULL on ENOMEM. */
static struct list_ent *list_add(struct jstacks *js, const struct sample_key *k)
{
	uint64_t key = list_key(k->pid, k->interp_id);
	struct list_ent *e;
	bool added;
	void **slot = u64map__add(&js->lists, key, &added);

	if (!slot)
		return NULL;
	e = *slot;
	if (e && e->id == k->interp_id && e->pid == k->pid)
		return e;
	if (e)
		free(e->f); /* another list under its hash: taken over */
	else if (!(e = *slot = malloc(sizeof(*e)))) {
		u64map__del(&js->lists, key);
		return NULL;
	}
	*e = (struct list_ent){.pid = k->pid, .id = k->interp_id};
	return e;
}

/* The named list of k, resolving it when new or old. */
static struct list_ent *list_of(struct jstacks *js, struct jvm *j,
				const struct sample_key *k)
{
	struct list_ent *e = list_add(js, k);

	if (!e)
		return NULL;
	if (!e->serial) {
		if (resolve(js, j, e)) {
			e->nr = 0;
			e->ncompiled = 0;
			e->resolved_ns = 0;
			renamed(js, e);
		}
	} else if (js->now_ns - e->resolved_ns > RESOLVE_NS) {
		resolve(js, j, e); /* on failure the old names stay */
	}
	e->seen_ns = js->now_ns;
	return e;
}

/* ---- threads ------------------------------------------------------------ */

/* Is tid in j's list of Java threads as last read? */
static bool listed(const struct jvm *j, uint32_t tid)
{
	size_t lo = 0, hi = j->given.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (j->given.t[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < j->given.n && j->given.t[lo].tid == tid;
}

/*
 * Asked before, with this comm: yes, unless it had no Java name then but
 * the JVM lists it as a Java thread now, asked at most once a tick. A
 * launched JVM's main thread runs before the JVM can be read (or before
 * its java.lang.Thread is named "main"), with the comm "java" all along.
 */
static bool known(const struct jstacks *js, const struct jvm *j,
		  const struct tname *t, const struct sample_key *k)
{
	if (!t || memcmp(t->comm, k->comm, sizeof(t->comm)))
		return false;
	return t->name || js->now_ns - t->asked_ns < TICK_NS ||
	       !listed(j, k->tid);
}

/*
 * Learn the Java name of k's thread (per-thread keys) when it is new or
 * its comm changed (renamed, or the tid reused by another thread), or it
 * has become a listed Java thread (known): a thread gone by the time its
 * keys are taken still has its name.
 */
static void learn_thread(struct jstacks *js, struct jvm *j,
			 const struct sample_key *k)
{
	uint64_t key = (uint64_t)k->pid << 32 | k->tid;
	void **slot = u64map__find(&js->tnames, key);
	struct tname *t = slot ? *slot : NULL;
	char buf[256];
	bool added;
	int n;

	if (known(js, j, t, k))
		return;
	if (!t) {
		if (!(t = calloc(1, sizeof(*t))))
			return;
		slot = u64map__add(&js->tnames, key, &added);
		if (!slot) {
			free(t);
			return;
		}
		*slot = t;
	} else {
		jnamer__threads_refresh(j->jn); /* a new thread, or renamed */
	}
	memcpy(t->comm, k->comm, sizeof(t->comm));
	t->asked_ns = js->now_ns;
	/* as the JVM has it: made safe where it is folded (fold.c) */
	n = jnamer__thread(j->jn, (int32_t)k->tid, buf, sizeof(buf));
	if (n == -EDQUOT)
		jvms__over_budget(js->jv, j);
	t->name = n > 0 ? strpool__intern(js->pool, buf, n) : NULL;
}

/* The whole Java name of thread tid of pid, as learn_thread read it. */
static const char *thread_name(const struct jstacks *js, uint32_t pid,
			       uint32_t tid)
{
	void **slot = u64map__find(&js->tnames, (uint64_t)pid << 32 | tid);

	return slot ? ((struct tname *)*slot)->name : NULL;
}

/* ---- stubs -------------------------------------------------------------- */

const char *jstacks__stub_name(struct jstacks *js, uint32_t pid, uint64_t pc)
{
	uint64_t key = stub_key(pid, pc);
	struct jvm *j = jvm_of(js, pid);
	struct stub *s;
	void **slot;
	char buf[128];
	bool added;
	int n;

	if (!j || !j->h)
		return NULL;
	slot = u64map__add(&js->stubs, key, &added);
	if (!slot)
		return NULL;
	s = added ? NULL : *slot;
	if (s && s->pid == pid && s->pc == pc)
		return s->name;
	if (!s && !(s = *slot = calloc(1, sizeof(*s)))) {
		u64map__del(&js->stubs, key);
		return NULL;
	}
	n = codeblob__name(naming_mem(j), &hotspot__layout(j->h)->u, pc, buf,
			   sizeof(buf));
	*s = (struct stub){pid, pc,
			   n > 0 ? strpool__intern(js->pool, buf, n) : NULL};
	return s->name;
}

/* ---- the run's calls ---------------------------------------------------- */

/* Lists nobody used for 10 s: their keys are long drained. */
static bool keep_list(uint64_t key, void *val, void *ctx)
{
	struct list_ent *e = val;

	(void)key;
	if (e->seen_ns >= *(uint64_t *)ctx)
		return true;
	list_free(e);
	return false;
}

/* A new tick (now_ns): old lists dropped. */
static void tick(struct jstacks *js, uint64_t now_ns)
{
	uint64_t older;

	if (now_ns == js->now_ns)
		return;
	js->now_ns = now_ns;
	if (now_ns - js->last_sweep_ns > 10 * RESOLVE_NS) {
		js->last_sweep_ns = now_ns;
		older = now_ns - 10 * RESOLVE_NS;
		if (js->lists.n)
			u64map__filter(&js->lists, keep_list, &older);
	}
}

/*
 * The names of the CodeBlobs under k's code cache pcs that its list does
 * not name (stubs, adapters), read now: a stub lives as long as the JVM,
 * but a launched JVM's last second is named after it exited, when its
 * memory is gone (Rhino's itable stubs and adapters first met then were
 * "[unknown]"). Kept per (pid, pc): a pc is read once. The list's frames
 * come in walk order, so one pass over both finds the ones it names (a
 * list out of that order only costs a read).
 */
static void warm_stubs(struct jstacks *js, struct jvm *j,
		       const struct list_ent *e, const struct sample_key *k)
{
	const uint64_t *ips;
	int n = js->src.stack(js->src.ctx, k->user_stack, &ips);
	uint32_t c = 0, nr = e && j->jn ? e->nr : 0;

	for (int i = 0; i < n; i++) {
		uint64_t ip = ips[i] - (i ? 1 : 0);

		while (c < nr && e->f[c].idx < (uint32_t)i)
			c++;
		/* an nmethod the list names: warm() read it */
		if (c < nr && e->f[c].idx == (uint32_t)i && e->f[c].nm)
			continue;
		if (in_code_cache(j, ip) && !in_interp(j, ip))
			jstacks__stub_name(js, k->pid, ip);
	}
}

void jstacks__seen(struct jstacks *js, const struct sample_key *k,
		   uint64_t now_ns)
{
	struct list_ent *e = NULL;
	struct jvm *j;

	tick(js, now_ns);
	j = jvms__find(js->jv, k->pid);
	if (!j)
		return;
	if (k->interp_id && j->state == JVM_YES && (e = list_of(js, j, k)) &&
	    e->ncompiled)
		warm(js, j, e, k);
	if (j->state == JVM_YES && j->h)
		warm_stubs(js, j, e, k);
	if (k->tid && j->jn)
		learn_thread(js, j, k);
}

/* One more Java frame of the stack at hand, its name in our pool: 0 or
 * -1. */
static int java_push_pooled(struct jstacks *js, const char *name, int line,
			    int32_t bci, enum jframe_kind kind, int comp_level)
{
	struct jstack_frame *x;

	if (!name || array__grow((void **)&js->java, &js->java_cap,
				 js->njava + 1, sizeof(*js->java)))
		return -1;
	x = &js->java[js->njava];
	x->name = name;
	x->line = js->lines && line > 0 ? line : 0;
	x->bci = js->bci && bci >= 0 ? bci : -1;
	x->kind = kind;
	x->c1 = jframe__c1(kind, comp_level);
	js->njava++;
	return 0;
}

/*
 * The same for a name of jnamer's: its names live in its cache, which
 * may start again at the next frame's naming, so it goes in our pool.
 * (A list's names, name_of's, are in our pool already: a javac run has
 * ~100,000 such frames, each a hash of its name and a lookup less.)
 */
static int java_push(struct jstacks *js, const char *name, int line,
		     int32_t bci, enum jframe_kind kind, int comp_level)
{
	return java_push_pooled(js,
				strpool__intern(js->pool, name, strlen(name)),
				line, bci, kind, comp_level);
}

/*
 * The frames of compiled frame f of j at pc ip, onto the stack's Java
 * frames: its inline chain from jnamer, outermost first; the outer
 * method's name (read at sample time) when the code is gone (counted).
 * How many; 0 when jnamer cannot name it (a stub with a frame size is no
 * nmethod), for the symbolizer.
 */
static uint32_t compiled_frames(struct jstacks *js, struct jvm *j,
				const struct list_frame *f, uint64_t ip)
{
	size_t at = js->njava;
	int n = -ENOENT;

	if (j->jn)
		n = jnamer__compiled_at(j->jn, f->nm, f->cid, ip, f->idx > 0,
					js->jf, JN_MAX);
	/*
	 * The outer method must be the one the sample saw (its Symbols,
	 * identity hashes checked): an nmethod of an unloaded class lives
	 * on, compile id and all, until it is flushed, while its Method*s
	 * are freed and reused by new classes, so a chain read then names
	 * another class's methods (measured under class churn).
	 */
	if (n > 0 && f->name && strcmp(js->jf[n - 1].name, f->name))
		n = -ESTALE;
	/* a JVM out of its read budget: named by method only */
	if (n == -EDQUOT) {
		jvms__over_budget(js->jv, j);
		n = -ESTALE;
	}
	if (n == -ESTALE) {
		js->st.compiled_stale++;
		/* the tier recorded at sample time; unknown: C2's */
		if (!f->name || java_push_pooled(js, f->name, 0, -1,
						 JF_COMPILED, f->level ?: 4))
			goto fail;
		return 1;
	}
	if (n <= 0) {
		js->st.compiled_failed++;
		return 0;
	}
	for (int i = n - 1; i >= 0; i--)
		if (java_push(js, js->jf[i].name, js->jf[i].line, js->jf[i].bci,
			      js->jf[i].kind, js->jf[i].comp_level))
			goto fail;
	js->st.compiled_named++;
	return n;
fail:
	js->njava = at;
	return 0;
}

/* jstack.first and .njava of k's stack ips[0..n): how many interpreted. */
static int java_names(struct jstacks *js, const struct sample_key *k,
		      const uint64_t *ips, int n, struct jstack *out)
{
	struct jvm *j = jvm_of(js, k->pid);
	struct list_ent *e;
	int named = 0;

	memset(out->njava, 0, n * sizeof(*out->njava));
	if (!k->interp_id || !j || !(e = list_of(js, j, k)))
		return 0;
	jnamer__sample_epoch(j->jn, e->epoch);
	for (uint32_t i = 0; i < e->nr; i++) {
		const struct list_frame *f = &e->f[i];

		/* the list and the stack come from one walk: the pc at idx
		 * is the frame's, and was in the interpreter then */
		if (f->idx >= (uint32_t)n || (f->ip && ips[f->idx] != f->ip)) {
			js->st.misaligned++;
			continue;
		}
		out->first[f->idx] = js->njava;
		if (!f->nm && f->cid == INTERP_CID_RETURN && !f->idx &&
		    in_interp(j, ips[0])) {
			out->ret_leaf = true;
			continue;
		}
		if (f->nm) {
			out->njava[f->idx] =
			    compiled_frames(js, j, f, ips[f->idx]);
			continue;
		}
		if (!in_interp(j, ips[f->idx]))
			continue;
		if (!f->name) {
			js->st.unreadable++;
			continue;
		}
		if (java_push_pooled(js, f->name, f->line, f->bci,
				     JF_INTERPRETED, 0))
			continue;
		out->njava[f->idx] = 1;
		named++;
	}
	return named;
}

/* jstack.version of k (V_NONE: not a JVM; V_JVM: no list). */
static uint64_t version(const struct jstacks *js, const struct sample_key *k)
{
	const struct list_ent *e;

	if (!jvm_of(js, k->pid))
		return V_NONE; /* java_names names nothing */
	if (!k->interp_id)
		return V_JVM;
	e = list_find(js, k);
	return e ? e->serial : 0;
}

int jstacks__stack(struct jstacks *js, const struct sample_key *k,
		   const uint64_t *ips, int n, struct jstack *out)
{
	struct jvm *j = jvm_of(js, k->pid);
	int named;

	js->njava = 0;
	out->ret_leaf = false;
	/* no user stack (lost): its list is not read either */
	named = n > 0 ? java_names(js, k, ips, n, out) : 0;
	out->java = js->java;

	out->thread = thread_name(js, k->pid, k->tid);
	for (int i = 0; i < n; i++) {
		/* a caller is named by its return address - 1 */
		uint64_t ip = ips[i] - (i ? 1 : 0);

		out->interp[i] = j && in_interp(j, ip) && (i || !out->ret_leaf);
		/* only code-cache pcs are asked (and kept): a stub, or a
		 * frame the list left unnamed */
		out->stubs[i] =
		    !out->njava[i] && j && j->h && in_code_cache(j, ip)
			? jstacks__stub_name(js, k->pid, ip)
			: NULL;
	}
	out->version = version(js, k);
	return named;
}

/* Names of threads of the pid being forgotten (ctx). */
static bool keep_tname(uint64_t key, void *val, void *ctx)
{
	if (key >> 32 != *(uint32_t *)ctx)
		return true;
	free(val);
	return false;
}

/*
 * Stubs and Symbols' names of the pid being forgotten (ctx): struct stub
 * and struct name_ent begin with their pid.
 */
static bool keep_other_pid(uint64_t key, void *val, void *ctx)
{
	(void)key;
	if (*(const uint32_t *)val != *(uint32_t *)ctx)
		return true;
	free(val);
	return false;
}

void jstacks__forget(struct jstacks *js, uint32_t pid)
{
	if (!js || !jvms__find(js->jv, pid))
		return;
	if (js->tnames.n)
		u64map__filter(&js->tnames, keep_tname, &pid);
	if (js->stubs.n)
		u64map__filter(&js->stubs, keep_other_pid, &pid);
	if (js->names.n)
		u64map__filter(&js->names, keep_other_pid, &pid);
}

void jstacks__stats(const struct jstacks *js, struct jstacks_stats *st)
{
	*st = js->st;
	jvms__stats(js->jv, &st->jvms);
}

void jstacks__lines(struct jstacks *js, bool lines)
{
	js->lines = lines;
}

void jstacks__bci(struct jstacks *js, bool bci)
{
	js->bci = bci;
}
