// SPDX-License-Identifier: GPL-2.0
/*
 * interp: interpreted frames named through HotSpot's VMStructs
 * (see interp.h for the contract, profiler/README.md for the design).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "jvm/hotspot.h"
#include "interp.h"
#include "jthreadsync.h"
#include "jvm/codeblob.h"
#include "jvm/jnamer.h"
#include "jvm/vthread.h"
#include "common/u64map.h"
#include "targets.h"
#include "common/safename.h"
#include "common/stop.h"
#include "common/strpool.h"
#include "common/hash.h"

#define RETRY_NS (1000 * 1000 * 1000ULL) /* not (yet) a JVM: look again */
#define QUICK_TRIES 20 /* first looks every tick: a JVM being launched */
/*
 * A tick's length: the drain runs more often (run.h: DRAIN_MS), but a
 * JVM's thread list and a try at a process not a JVM yet (its maps, its
 * tables) are not read more often than this.
 */
#define TICK_NS (90 * 1000 * 1000ULL)
#define MAX_TRIES 80 /* then give up on the process */
#define RANGE_NS (10 * 1000 * 1000 * 1000ULL) /* refresh_range's while */
/* older, and no libjvm.so: not a JVM (a launched one maps it at once) */
#define YOUNG_NS (10 * 1000 * 1000 * 1000ULL)
/* a launched command looked at for libjvm.so this long (interp__launched) */
#define LAUNCH_LOOK_NS (2 * 1000 * 1000 * 1000ULL)
/* a JVM whose interpreter is not there after this is not starting */
#define STARTING_NS (120 * 1000 * 1000 * 1000ULL)
#define RESOLVE_NS (1000 * 1000 * 1000ULL) /* re-resolve a list this often */
#define NAME_CAP 1024
/* interp__version of keys without a list: not a JVM (yet), or a JVM */
#define V_NONE 1
#define V_JVM 2
/* one more than a JVM may hold (sampler_abi.h): a list past it is told */
#define LIST_THREADS (JAVA_THREADS_PER_JVM + 1)

/*
 * What jvm/ reads and what the BPF walk (sampler_abi.h) takes are the
 * same things, limited alike: p is filled field by field from jvm/'s.
 */
_Static_assert(HOTSPOT_MAX_HEAPS == UNWIND_HEAPS, "code heaps: one limit");
_Static_assert(CODEBLOB_HOPS == UNWIND_SEGMAP_HOPS,
	       "a blob the walk finds, user space names");
_Static_assert(HOTSPOT_NO_OFF == INTERP_NO_OFF, "no field: one value");
/* a sane thread list (jvm/) holds every thread BPF may know of a JVM */
_Static_assert(HOTSPOT_MAX_THREADS >= JAVA_THREADS_PER_JVM,
	       "a list read whole for the threads BPF keeps");

enum jvm_state { J_TRY, J_JVM, J_NOT };

struct jvm {
	uint32_t pid; /* 0: free slot */
	enum jvm_state state;
	int tries;
	uint64_t next_try_ns;
	uint64_t start, end; /* the interpreter, once known */
	uint64_t found_ns; /* when it was known: its range checked a while */
	struct hotspot *h;
	struct jnamer *jn; /* its compiled frames' namer, or NULL */
	int jn_err; /* why not: jnamer__open's errno */
	bool over_said; /* its jnamer's read budget ran out: counted */
	uint64_t jn_next_ns; /* EAGAIN: when to try again */
	struct interp_proc proc; /* what the sampler was given */
	bool anchors; /* its threads go to the sampler's java_threads */
	struct jthreads given; /* what java_threads holds of it */
	bool over; /* it listed more threads than it may hold (told) */
	int vt_err; /* vthread__read's: -EAGAIN asks again */
	int vt_chunk_err; /* why frozen frames are not walked, or 0 */
	struct vthread_syms *vt_syms; /* its libjvm.so's statics */
	uint64_t vt_next_ns; /* -EAGAIN: when to read them again */
};

/*
 * (pid, class Symbol*, method Symbol*, their identity hashes as the
 * sample read them) -> name. The hashes are part of the key: Symbols
 * freed with their class come back at the same addresses as other
 * Symbols (under class churn, a lambda form's hidden class name became
 * the next worker class's name), and one slot per address let a list
 * resolved again name an old frame by the new Symbol, or by nothing.
 */
struct name_ent {
	uint32_t pid;
	uint64_t ksym, nsym;
	int64_t khashes; /* the sample's, or -1: none */
	const char *name; /* NULL: unreadable */
	uint64_t checked_ns; /* tick of the last read */
	int64_t hashes; /* the Symbols' identity hashes then, or -1 */
	bool used;
};

struct list_frame {
	uint32_t idx;
	uint64_t ip;
	const char *name; /* by the Method*'s Symbols read at sample time */
	uint64_t nm; /* a compiled frame's nmethod, or 0 */
	int32_t cid; /* its compile id */
	int level; /* its tier at sample time, 0 unknown */
};

#define JN_MAX 64 /* frames of one inline chain */

/* (pid, interp_id) -> its frames, named */
struct list_ent {
	uint32_t pid;
	uint64_t id;
	uint64_t resolved_ns, seen_ns;
	uint64_t serial; /* new whenever its names change (interp__version) */
	uint64_t sum; /* of the names as resolved */
	uint32_t nr;
	uint32_t ncompiled; /* of them compiled frames */
	struct list_frame *f;
};

struct interp {
	struct stacksrc src;
	struct hotspot *(*open_jvm)(uint32_t pid);
	struct strpool *pool;
	struct jvm *jvms;
	size_t njvms, jvms_cap;
	struct name_ent *names;
	size_t nnames, names_cap;
	struct list_ent *lists;
	size_t nlists, lists_cap;
	uint64_t now_ns, last_sweep_ns, threads_ns;
	uint64_t serial; /* the last list serial handed out */
	uint32_t self; /* our pid */
	struct interp_stack scratch;
	struct interp_stats st;
	struct hotspot_thread *threads; /* LIST_THREADS: a JVM's thread list */
	struct jthreadsync_ops jt; /* src's thread functions, /proc's owner */
	bool annotate, lines; /* how compiled frames are written */
	struct u64map tnames; /* pid << 32 | tid -> struct tname */
	struct u64map stubs; /* hash of (pid, pc) -> struct stub */
	struct jnamer_frame jf[JN_MAX];
	char text[JN_MAX * (NAME_CAP / 4)];
};

struct interp *interp__new(const struct stacksrc *src,
			   struct hotspot *(*open_jvm)(uint32_t pid))
{
	struct interp *in = calloc(1, sizeof(*in));

	if (!in)
		return NULL;
	in->src = *src;
	in->jt = (struct jthreadsync_ops){src->set_thread, src->clear_thread,
					  jthreadsync__owns_proc, src->ctx};
	in->open_jvm = open_jvm ? open_jvm : hotspot__open;
	in->serial = V_JVM; /* serials come after the fixed versions */
	in->self = getpid();
	in->pool = strpool__new();
	if (!in->pool) {
		free(in);
		errno = ENOMEM;
		return NULL;
	}
	return in;
}

static void free_lists(struct list_ent *l, size_t cap)
{
	for (size_t i = 0; i < cap; i++)
		free(l[i].f);
	free(l);
}

void interp__free(struct interp *in)
{
	if (!in)
		return;
	for (size_t i = 0; i < in->jvms_cap; i++) {
		hotspot__free(in->jvms[i].h);
		jnamer__free(in->jvms[i].jn);
		free(in->jvms[i].given.t);
		free(in->jvms[i].vt_syms);
	}
	free(in->threads);
	free(in->jvms);
	free(in->names);
	free_lists(in->lists, in->lists_cap);
	u64map__clear(&in->tnames, free);
	u64map__release(&in->tnames);
	u64map__clear(&in->stubs, free);
	u64map__release(&in->stubs);
	strpool__free(in->pool);
	free(in);
}

/* ---- processes ---------------------------------------------------------- */

static struct jvm *jvm_slot(struct jvm *t, size_t cap, uint32_t pid)
{
	size_t i = hash__mix(pid) & (cap - 1);

	while (t[i].pid && t[i].pid != pid)
		i = (i + 1) & (cap - 1);
	return &t[i];
}

static struct jvm *jvm_get(struct interp *in, uint32_t pid)
{
	struct jvm *j, *n;
	size_t cap;

	if ((in->njvms + 1) * 2 > in->jvms_cap) {
		cap = in->jvms_cap ? in->jvms_cap * 2 : 64;
		n = calloc(cap, sizeof(*n));
		if (!n)
			return NULL;
		for (size_t i = 0; i < in->jvms_cap; i++)
			if (in->jvms[i].pid)
				*jvm_slot(n, cap, in->jvms[i].pid) =
				    in->jvms[i];
		free(in->jvms);
		in->jvms = n;
		in->jvms_cap = cap;
	}
	j = jvm_slot(in->jvms, in->jvms_cap, pid);
	if (!j->pid) {
		j->pid = pid;
		j->state = J_TRY;
		in->njvms++;
	}
	return j;
}

static struct jvm *jvm_find(const struct interp *in, uint32_t pid)
{
	struct jvm *j;

	if (!in->jvms_cap)
		return NULL;
	j = jvm_slot(in->jvms, in->jvms_cap, pid);
	return j->pid ? j : NULL;
}

/* ---- threads ------------------------------------------------------------ */

/*
 * Give the sampler j's Java threads now ((tgid, tid) -> JavaThread*), and
 * take back those gone: once per tick, so a new thread's first tick or so
 * of samples has no anchor (STAT_NO_THREAD counts its broken walks). The
 * list is the JVM's to write: jthreadsync gives only its own threads.
 */
static void refresh_threads(struct interp *in, struct jvm *j)
{
	struct hotspot_thread *t = in->threads;
	struct jthreadsync_stats st = {};
	int n;

	if (!t && !(t = in->threads = calloc(LIST_THREADS, sizeof(*t))))
		return;
	n = hotspot__threads(j->h, t, LIST_THREADS);
	if (n < 0)
		return; /* keep what we gave: the JVM may be exiting */
	if (jthreadsync__apply(&in->jt, j->pid, &j->given, t, n, &st))
		return;
	in->st.threads_full += st.full;
	in->st.threads_foreign += st.foreign;
	if (st.foreign)
		in->st.threads_foreign_pid = j->pid;
	if (st.over && !j->over) { /* told once per JVM */
		j->over = true;
		in->st.jvms_over++;
		in->st.jvms_over_pid = j->pid;
	}
}

/*
 * A virtual thread's frozen frames into p (jvm/vthread.h): the return
 * barrier where the BPF walk stops, and the chunk layout that lets it go
 * on (JDK 21+ with a .symtab); the error kept, -EAGAIN asked again while
 * the JVM is young.
 */
static void vthread_fields(struct interp *in, struct jvm *j,
			   struct interp_proc *p)
{
	struct vthread_layout vl = {};

	if (!p->nheaps)
		return;
	if (!j->vt_syms && !(j->vt_syms = calloc(1, sizeof(*j->vt_syms))))
		return;
	if (!j->vt_next_ns) /* the first time: the symbols */
		vthread__syms(j->pid, j->vt_syms);
	j->vt_next_ns = in->now_ns + RETRY_NS;
	j->vt_err = vthread__read(hotspot__mem(j->h), j->vt_syms, &vl,
				  &j->vt_chunk_err);
	if (j->vt_err)
		return;
	p->barrier_lo = vl.barrier_lo;
	p->barrier_hi = vl.barrier_hi;
	if (!vl.chunks || getenv("MIXPROF_NO_VTHREAD_CHUNKS"))
		return;
	p->oop_base = vl.coops ? vl.base : 0;
	p->oop_shift = vl.coops ? vl.shift : INTERP_NO_OFF;
	p->entry_pc = vl.entry_pc;
	p->off_cont_entry = vl.off_cont_entry;
	p->off_ce_cont = vl.off_ce_cont;
	p->off_tail = vl.off_tail;
	p->off_sc_parent = vl.off_parent;
	p->off_sc_sp = vl.off_sp;
	p->off_sc_bottom = vl.off_bottom;
	p->off_sc_pc = vl.off_pc;
	p->off_sc_stack = vl.off_stack;
	p->off_jt_vthread = vl.off_jt_vthread;
	p->off_jt_threadobj = vl.off_jt_threadobj;
	p->off_thread_tid = vl.off_tid;
}

/*
 * The interpreter's method entries (jvm/icodelets.h), when they are in
 * its range: a leaf there may not have pushed its frame yet.
 */
static void entries_fields(struct jvm *j, struct interp_proc *p)
{
	uint64_t lo, hi;

	if (hotspot__interp_entries(j->h, &lo, &hi) || lo < p->code_start ||
	    hi > p->code_end)
		return;
	p->ientry_lo = lo;
	p->ientry_hi = hi;
}

/*
 * j's interpreter range again, for its first RANGE_NS: JDK 22+ frees the
 * unused tail of the interpreter's buffer right after generating it, and
 * stubs made later land there (the final stubs, the nmethod entry
 * barrier's among them). A launched JVM is read as early as it can be,
 * sometimes before that: its stubs' frames were then walked as
 * interpreted ones (3 of 10 class churn runs on JDK 25 lost the compiled
 * method under each entry barrier).
 */
static void refresh_range(struct interp *in, struct jvm *j)
{
	struct interp_proc p = j->proc;
	uint64_t start, end;

	if (in->now_ns - j->found_ns > RANGE_NS)
		return;
	if (hotspot__interp_range(j->h, &start, &end) ||
	    (start == j->start && end == j->end && p.ientry_hi))
		return;
	p.code_start = start;
	p.code_end = end;
	entries_fields(j, &p);
	if (in->src.set_interp(in->src.ctx, j->pid, &p))
		return;
	j->proc = p;
	j->start = start;
	j->end = end;
}

/*
 * A JVM whose chunk layout was not there yet (enterSpecial is made when
 * the first virtual thread starts): read again once a second.
 */
static void vthread_again(struct interp *in, struct jvm *j)
{
	struct interp_proc p = j->proc;

	if ((j->vt_err != -EAGAIN && j->vt_chunk_err != -EAGAIN) ||
	    in->now_ns < j->vt_next_ns)
		return;
	vthread_fields(in, j, &p);
	if (!j->vt_err && !in->src.set_interp(in->src.ctx, j->pid, &p))
		j->proc = p;
}

/* A new tick: every JVM's threads again, a young one's range. */
static void refresh_all_threads(struct interp *in)
{
	for (size_t i = 0; i < in->jvms_cap && !stop__asked(); i++) {
		struct jvm *j = &in->jvms[i];

		if (!j->pid || j->state != J_JVM || !j->h)
			continue;
		refresh_range(in, j);
		vthread_again(in, j);
		if (j->anchors)
			refresh_threads(in, j);
	}
}

/*
 * The HotSpot unwinder's part of p (sampler_abi.h), when the layout has it;
 * whether the frame anchors are usable too.
 */
static bool unwind_fields(const struct hotspot_unwind *u, struct interp_proc *p)
{
	if (!u->ok || !u->nheaps || u->nheaps > UNWIND_HEAPS)
		return false;
	p->nheaps = u->nheaps;
	for (uint32_t i = 0; i < u->nheaps; i++) {
		p->heap[i].lo = u->heap[i].lo;
		p->heap[i].hi = u->heap[i].hi;
		p->heap[i].segmap = u->heap[i].segmap;
		p->heap[i].log2_seg = u->heap[i].log2_seg;
	}
	p->flags = (u->code_is_offset ? UNWIND_CODE_OFFSET : 0) |
		   (u->fc16 ? UNWIND_FC16 : 0);
	p->hb_size = u->hb_size;
	p->off_cb_size = u->off_cb_size;
	p->off_cb_frame_complete = u->off_cb_frame_complete;
	p->off_cb_frame_size = u->off_cb_frame_size;
	p->off_cb_code = u->off_cb_code;
	p->off_cb_name = u->off_cb_name;
	/* the BPF walk reads the anchor's three words at once */
	if (!u->threads_ok || u->off_fa_pc != u->off_fa_sp + 8 ||
	    u->off_fa_fp != u->off_fa_sp + 16)
		return false;
	p->off_anchor = u->off_jt_anchor + u->off_fa_sp;
	p->flags |= UNWIND_ANCHORS;
	return true;
}

/* Compiled frames listed for jnamer (sampler_abi.h): when it can name them. */
static void names_fields(const struct hotspot_unwind *u, bool jn,
			 struct interp_proc *p)
{
	if (!jn || !p->nheaps || getenv("MIXPROF_NO_JNAMES") ||
	    u->off_nm_method == HOTSPOT_NO_OFF ||
	    u->off_nm_compile_id == HOTSPOT_NO_OFF)
		return;
	p->off_nm_method = u->off_nm_method;
	p->off_nm_cid = u->off_nm_compile_id;
	/* x86-64 is little-endian: the level's low byte is its first */
	p->off_nm_level =
	    u->off_nm_comp_level != HOTSPOT_NO_OFF &&
		    u->off_nm_comp_level >= u->off_nm_compile_id &&
		    u->off_nm_comp_level - u->off_nm_compile_id < 8
		? u->off_nm_comp_level - u->off_nm_compile_id
		: INTERP_NO_OFF;
	p->flags |= UNWIND_NAMES;
}

/*
 * Open j's compiled-frame namer, once the walk already runs by j's
 * tables and lists its compiled frames (reading the tables again takes
 * a while on a busy machine: the JVM's first samples must not wait for
 * it; their frames are named when their keys are taken, a second or
 * more later). A JVM still starting is asked again a second later; one
 * whose layout jnamer does not know keeps the perf-map path, and its
 * walk stops listing compiled frames.
 */
static void jn_try(struct interp *in, struct jvm *j, uint64_t now)
{
	struct interp_proc p = j->proc;

	if (!(p.flags & UNWIND_NAMES))
		return;
	j->jn = jnamer__open(j->pid, in->lines ? JN_LINES : 0);
	j->jn_err = j->jn ? 0 : errno;
	j->jn_next_ns = now + RETRY_NS;
	if (j->jn || j->jn_err == EAGAIN || j->jn_err == ESRCH)
		return;
	in->st.no_names++;
	in->st.no_names_pid = j->pid;
	in->st.no_names_err = j->jn_err;
	p.flags &= ~UNWIND_NAMES;
	p.cm_size = 0; /* no lines without a jnamer: nor bcis */
	if (!in->src.set_interp(in->src.ctx, j->pid, &p))
		j->proc = p;
}

/*
 * Open addressing without tombstones: after emptying slot i, move back
 * each entry of the run after it whose home slot the gap cuts it from.
 */
static void jvm_remove(struct interp *in, struct jvm *gone)
{
	size_t mask = in->jvms_cap - 1, i = gone - in->jvms, j, h;

	memset(gone, 0, sizeof(*gone));
	in->njvms--;
	for (j = (i + 1) & mask; in->jvms[j].pid; j = (j + 1) & mask) {
		h = hash__mix(in->jvms[j].pid) & mask;
		if (i <= j ? (h > i && h <= j) : (h > i || h <= j))
			continue;
		in->jvms[i] = in->jvms[j];
		memset(&in->jvms[j], 0, sizeof(in->jvms[j]));
		i = j;
	}
}

/* A stub's name at a pc of a JVM: stubs live as long as the JVM. */
struct stub {
	uint32_t pid;
	uint64_t pc;
	const char *name; /* pooled, or NULL: none */
};

/* Thread names and stub names of the pid being forgotten (ctx). */
static bool keep_tname(uint64_t key, void *val, void *ctx)
{
	if (key >> 32 != *(uint32_t *)ctx)
		return true;
	free(val);
	return false;
}

static bool keep_stub(uint64_t key, void *val, void *ctx)
{
	struct stub *s = val;

	(void)key;
	if (s->pid != *(uint32_t *)ctx)
		return true;
	free(s);
	return false;
}

/*
 * Everything held for the JVM: its jnamer (a copy of its VMStructs and
 * its debug-data cache, ~100 KB: a host's `java -version`s once leaked
 * one each), its thread list, its names of threads and stubs.
 */
void interp__forget(struct interp *in, uint32_t pid)
{
	struct jvm *j = in ? jvm_find(in, pid) : NULL;

	if (!j)
		return;
	/* its slot in the BPF map: room for the next JVM */
	if (j->state == J_JVM)
		in->src.clear_interp(in->src.ctx, pid);
	jthreadsync__clear(&in->jt, pid, &j->given);
	hotspot__free(j->h);
	jnamer__free(j->jn);
	free(j->vt_syms);
	jvm_remove(in, j);
	if (in->tnames.n)
		u64map__filter(&in->tnames, keep_tname, &pid);
	if (in->stubs.n)
		u64map__filter(&in->stubs, keep_stub, &pid);
}

/*
 * Is pid a JVM whose interpreter we can walk? A JVM being launched maps
 * libjvm.so and generates its interpreter within its first few hundred
 * milliseconds, and each tick of delay leaves its interpreted frames
 * unnamed: so ask every tick at first (and while it says -EAGAIN), then
 * once a second, and give up after about a minute. A process older than
 * YOUNG_NS without libjvm.so is given up at once: each try reads its
 * /proc/PID/maps, and a host has hundreds of processes. Returns the
 * errno of a failed look, or 0.
 */
static int jvm_try(struct interp *in, struct jvm *j, uint64_t now)
{
	const struct hotspot_layout *l;
	struct interp_proc p = {};
	int err;

	j->h = in->open_jvm(j->pid);
	if (!j->h) {
		err = errno;
		/* EAGAIN: a JVM still starting (its interpreter not
		 * generated yet): asked every tick however long its start
		 * takes (seconds on a loaded host or an emulated one), not
		 * counted as a try, until it is plainly not starting */
		if (err == EAGAIN ? targets__age_ns(j->pid) > STARTING_NS
				  : err == ESRCH || ++j->tries >= MAX_TRIES ||
					(err == ENOENT &&
					 targets__age_ns(j->pid) > YOUNG_NS))
			j->state = J_NOT;
		/* no JVM so far: stop the pending walk of a target */
		if (j->state == J_NOT ||
		    (err != EAGAIN && j->tries == QUICK_TRIES))
			in->src.clear_interp(in->src.ctx, j->pid);
		j->next_try_ns =
		    now + (err == EAGAIN || j->tries < QUICK_TRIES ? TICK_NS
								   : RETRY_NS);
		return err;
	}
	l = hotspot__layout(j->h);
	p.code_start = l->interp_start;
	p.code_end = l->interp_end;
	p.method_slot = INTERP_METHOD_SLOT;
	p.off_const_method = l->off_const_method;
	p.off_constants = l->off_constants;
	p.off_name_index = l->off_name_index;
	p.off_pool_holder = l->off_pool_holder;
	p.cp_base = l->cp_size;
	p.off_klass_name = l->off_klass_name;
	p.off_sym_hash = l->off_sym_hash; /* HOTSPOT_NO_OFF: INTERP_NO_OFF */
	/* --lines: interpreted frames record their bci from the first
	 * sample on, named with a line once the jnamer is open */
	p.cm_size = in->lines ? l->cm_size : 0;
	entries_fields(j, &p);
	j->anchors = unwind_fields(&l->u, &p);
	names_fields(&l->u, true, &p);
	vthread_fields(in, j, &p);
	if (in->src.set_interp(in->src.ctx, j->pid, &p)) {
		hotspot__free(j->h);
		j->h = NULL;
		free(j->vt_syms);
		j->vt_syms = NULL;
		j->state = J_NOT; /* 1024 JVMs at once: the rest stay unnamed */
		return 0;
	}
	j->start = l->interp_start;
	j->end = l->interp_end;
	j->found_ns = now;
	j->state = J_JVM;
	in->st.jvms++;
	if (p.nheaps)
		in->st.unwound++;
	if (j->anchors)
		refresh_threads(in, j);
	j->proc = p;
	jn_try(in, j, now);
	return 0;
}

/* ---- names -------------------------------------------------------------- */

static size_t name_idx(size_t cap, uint32_t pid, uint64_t k, uint64_t n,
		       int64_t h)
{
	return hash__mix(pid ^
			 hash__mix(k ^ hash__mix(n ^ hash__mix((uint64_t)h)))) &
	       (cap - 1);
}

static struct name_ent *name_slot(struct name_ent *t, size_t cap, uint32_t pid,
				  uint64_t k, uint64_t n, int64_t h)
{
	size_t i = name_idx(cap, pid, k, n, h);

	while (t[i].used && !(t[i].pid == pid && t[i].ksym == k &&
			      t[i].nsym == n && t[i].khashes == h))
		i = (i + 1) & (cap - 1);
	return &t[i];
}

/* Rehash the names into cap slots, without those of forgotten JVMs. */
static int names_rehash(struct interp *in, size_t cap)
{
	struct name_ent *n = calloc(cap, sizeof(*n)), *o;

	if (!n)
		return -ENOMEM;
	in->nnames = 0;
	for (size_t i = 0; i < in->names_cap; i++) {
		o = &in->names[i];
		if (!o->used || !jvm_find(in, o->pid))
			continue;
		*name_slot(n, cap, o->pid, o->ksym, o->nsym, o->khashes) = *o;
		in->nnames++;
	}
	free(in->names);
	in->names = n;
	in->names_cap = cap;
	return 0;
}

static int names_grow(struct interp *in)
{
	return names_rehash(in, in->names_cap ? in->names_cap * 2 : 1024);
}

const char *interp__klass_name(struct interp *in, uint32_t pid, uint64_t klass)
{
	struct jvm *j = jvm_find(in, pid);
	char sym[NAME_CAP], name[NAME_CAP + 32];
	int n;

	if (!j || !j->h ||
	    hotspot__klass_name(j->h, klass, sym, sizeof(sym)) < 0)
		return NULL;
	n = hotspot__java_class_name(name, sizeof(name), sym);
	return n < 0 ? NULL : strpool__intern(in->pool, name, n);
}

/*
 * Read the two Symbols now: the pooled name, or NULL; *hashes gets their
 * identity hashes as the BPF walk packs them (sampler_abi.h), or -1.
 */
static const char *read_name(struct interp *in, struct hotspot *h,
			     uint64_t ksym, uint64_t nsym, int64_t *hashes)
{
	char k[NAME_CAP], m[NAME_CAP], full[2 * NAME_CAP];
	int32_t kh, nh;
	int n;

	*hashes = -1;
	if (hotspot__read_symbol(h, ksym, k, sizeof(k), &kh) < 0 ||
	    hotspot__read_symbol(h, nsym, m, sizeof(m), &nh) < 0)
		return NULL;
	if (kh >= 0 && nh >= 0)
		*hashes = (int64_t)((uint32_t)kh << 16 | (uint32_t)nh);
	n = hotspot__frame_name(full, sizeof(full), k, m);
	return n < 0 ? NULL : strpool__intern(in->pool, full, n);
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
static const char *name_of(struct interp *in, struct jvm *j, uint64_t ksym,
			   uint64_t nsym, int64_t hashes)
{
	struct name_ent *e;
	const char *name;
	int64_t now_hashes;

	if (!ksym || !nsym || !j->h)
		return NULL;
	if ((in->nnames + 1) * 2 > in->names_cap && names_grow(in))
		return NULL;
	if (hashes < 0)
		hashes = -1;
	e = name_slot(in->names, in->names_cap, j->pid, ksym, nsym, hashes);
	if (e->used && e->name && hashes >= 0 && e->hashes == hashes)
		return e->name;
	if (e->used && e->checked_ns == in->now_ns)
		return e->name; /* read this tick already */
	name = read_name(in, j->h, ksym, nsym, &now_hashes);
	if (hashes >= 0 && name && now_hashes != hashes)
		name = NULL; /* reused since the sample */
	if (!e->used) {
		e->used = true;
		e->pid = j->pid;
		e->ksym = ksym;
		e->nsym = nsym;
		e->khashes = hashes;
		in->nnames++;
	}
	/* unreadable now but named before: the process may be exiting */
	if (name || !e->name) {
		e->name = name;
		e->hashes = now_hashes;
	}
	e->checked_ns = in->now_ns;
	return e->name;
}

/* ---- lists -------------------------------------------------------------- */

static struct list_ent *list_slot(struct list_ent *t, size_t cap, uint32_t pid,
				  uint64_t id)
{
	size_t i = hash__mix(id ^ pid) & (cap - 1);

	while (t[i].id && !(t[i].id == id && t[i].pid == pid))
		i = (i + 1) & (cap - 1);
	return &t[i];
}

static int lists_rehash(struct interp *in, size_t cap, uint64_t older_than)
{
	struct list_ent *n = calloc(cap, sizeof(*n)), *o;

	if (!n)
		return -ENOMEM;
	in->nlists = 0;
	for (size_t i = 0; i < in->lists_cap; i++) {
		o = &in->lists[i];
		if (!o->id)
			continue;
		if (o->seen_ns < older_than) {
			free(o->f);
			continue;
		}
		*list_slot(n, cap, o->pid, o->id) = *o;
		in->nlists++;
	}
	free(in->lists);
	in->lists = n;
	in->lists_cap = cap;
	return 0;
}

static bool in_interp(const struct jvm *j, uint64_t ip)
{
	return ip >= j->start && ip < j->end;
}

/* A new serial for e if its frames or their names changed. */
static void renamed(struct interp *in, struct list_ent *e)
{
	uint64_t sum = e->nr;

	for (uint32_t i = 0; i < e->nr; i++)
		sum = hash__mix(sum ^ e->f[i].idx ^ e->f[i].ip ^
				(uint64_t)(uintptr_t)e->f[i].name);
	if (!e->serial || sum != e->sum) {
		e->sum = sum;
		e->serial = ++in->serial;
	}
}

/*
 * name with the source line of bytecode index bci of Method* method
 * (the frame s, interpreted, whose name its Symbols gave: so the Method*
 * was not freed and reused since), or name alone when it has no line.
 */
static const char *with_line(struct interp *in, struct jvm *j, const char *name,
			     uint64_t method, int bci)
{
	int line, n;

	if (!j->jn || (line = jnamer__line(j->jn, method, bci)) <= 0)
		return name;
	n = jframe__with_line(in->text, sizeof(in->text), name, line);
	if (n < 0)
		return name;
	return strpool__intern(in->pool, in->text, n) ?: name;
}

/* Name one listed frame s of j into f. */
static void name_frame(struct interp *in, struct jvm *j,
		       const struct interp_frame *s, struct list_frame *f)
{
	uint64_t ks = s->klass_name, ns = s->name;

	f->idx = s->idx;
	f->ip = s->ip;
	f->name = NULL;
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
		f->name = name_of(in, j, ks, ns, -1);
		return;
	}
	f->name = name_of(in, j, ks, ns,
			  hotspot__layout(j->h)->off_sym_hash == HOTSPOT_NO_OFF
			      ? -1
			      : (int64_t)s->hashes);
	/* an interpreted frame's cid: 1 + its bci (sampler_abi.h) */
	if (in->lines && !s->nm && s->cid > 0 && f->name)
		f->name = with_line(in, j, f->name, s->method, s->cid - 1);
}

/*
 * Name the frames of e from the BPF list (the interp map entry) and the
 * chunks it links to (deeper stacks: sampler_abi.h). A chunk gone since (the
 * LRU map evicted it) leaves a list named before as it was; a new one
 * gets the frames that could be read.
 */
static int resolve(struct interp *in, struct jvm *j, struct list_ent *e)
{
	struct interp_stack *st = &in->scratch;
	struct list_frame *f = NULL, *nf;
	uint64_t key = e->id;
	uint32_t i, n, nr = 0;

	for (int c = 0; c < INTERP_MAX_CHUNKS && key; c++) {
		if (c ? in->src.interp_chunk(in->src.ctx, key, st)
		      : in->src.interp(in->src.ctx, key, st)) {
			if (!c || e->nr) {
				free(f);
				return -ENOENT;
			}
			break;
		}
		n = st->nr < INTERP_MAX_FRAMES ? st->nr : INTERP_MAX_FRAMES;
		nf = realloc(f, (nr + n ? nr + n : 1) * sizeof(*f));
		if (!nf) {
			free(f);
			return -ENOMEM;
		}
		f = nf;
		for (i = 0; i < n; i++)
			name_frame(in, j, &st->f[i], &f[nr + i]);
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
	e->resolved_ns = in->now_ns;
	renamed(in, e);
	return 0;
}

/*
 * Read the debug data of e's compiled frames now, while their code is
 * most likely alive (k's key is taken a second or more later): jnamer
 * keeps what it read per (nmethod, compile id, pc), so from the second
 * tick on this is a cache hit per frame. Each key, each tick: keys of
 * one list differ in their pcs.
 */
static void warm(struct interp *in, struct jvm *j, const struct list_ent *e,
		 const struct sample_key *k)
{
	const uint64_t *ips;
	int n;

	if (!j->jn || jnamer__over(j->jn))
		return;
	n = in->src.stack(in->src.ctx, k->user_stack, &ips);
	for (uint32_t i = 0; n > 0 && i < e->nr; i++)
		if (e->f[i].nm && e->f[i].idx < (uint32_t)n)
			jnamer__compiled_at(j->jn, e->f[i].nm, e->f[i].cid,
					    ips[e->f[i].idx], e->f[i].idx > 0,
					    in->jf, JN_MAX);
}

/* The named list of k, resolving it when new or old. */
static struct list_ent *list_of(struct interp *in, const struct sample_key *k)
{
	struct jvm *j = jvm_find(in, k->pid);
	struct list_ent *e;

	if (!j || j->state != J_JVM)
		return NULL;
	if ((in->nlists + 1) * 2 > in->lists_cap &&
	    lists_rehash(in, in->lists_cap ? in->lists_cap * 2 : 1024, 0))
		return NULL;
	e = list_slot(in->lists, in->lists_cap, k->pid, k->interp_id);
	if (!e->id) {
		e->id = k->interp_id;
		e->pid = k->pid;
		in->nlists++;
		if (resolve(in, j, e)) {
			e->nr = 0;
			e->ncompiled = 0;
			e->resolved_ns = 0;
			renamed(in, e);
		}
	} else if (in->now_ns - e->resolved_ns > RESOLVE_NS) {
		resolve(in, j, e); /* on failure the old names stay */
	}
	e->seen_ns = in->now_ns;
	return e;
}

static void over_budget(struct interp *in, struct jvm *j);

/* A thread's whole name, asked once per comm it was seen with. */
struct tname {
	char comm[SAMPLER_COMM_LEN];
	const char *name; /* pooled, or NULL: no Java thread */
	uint64_t asked_ns; /* when name was asked */
};

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
static bool known(const struct interp *in, const struct jvm *j,
		  const struct tname *t, const struct sample_key *k)
{
	if (!t || memcmp(t->comm, k->comm, sizeof(t->comm)))
		return false;
	return t->name || in->now_ns - t->asked_ns < TICK_NS ||
	       !listed(j, k->tid);
}

/*
 * Learn the Java name of k's thread (per-thread keys) when it is new or
 * its comm changed (renamed, or the tid reused by another thread), or it
 * has become a listed Java thread (known): a thread gone by the time its
 * keys are taken still has its name.
 */
static void learn_thread(struct interp *in, struct jvm *j,
			 const struct sample_key *k)
{
	uint64_t key = (uint64_t)k->pid << 32 | k->tid;
	void **slot = u64map__find(&in->tnames, key);
	struct tname *t = slot ? *slot : NULL;
	char buf[256];
	bool added;
	int n;

	if (known(in, j, t, k))
		return;
	if (!t) {
		if (!(t = calloc(1, sizeof(*t))))
			return;
		slot = u64map__add(&in->tnames, key, &added);
		if (!slot) {
			free(t);
			return;
		}
		*slot = t;
	} else {
		jnamer__threads_refresh(j->jn); /* a new thread, or renamed */
	}
	memcpy(t->comm, k->comm, sizeof(t->comm));
	t->asked_ns = in->now_ns;
	/* as the JVM has it: made safe where it is folded (fold.c) */
	n = jnamer__thread(j->jn, (int32_t)k->tid, buf, sizeof(buf));
	if (n == -EDQUOT)
		over_budget(in, j);
	t->name = n > 0 ? strpool__intern(in->pool, buf, n) : NULL;
}

/* A stub's name at a pc of a JVM: stubs live as long as the JVM. */
const char *interp__stub_name(struct interp *in, uint32_t pid, uint64_t pc)
{
	uint64_t key = hash__mix(pc ^ hash__mix(pid)) | 1;
	struct jvm *j = jvm_find(in, pid);
	struct stub *s;
	void **slot;
	char buf[128];
	bool added;
	int n;

	if (!j || j->state != J_JVM || !j->h)
		return NULL;
	slot = u64map__add(&in->stubs, key, &added);
	if (!slot)
		return NULL;
	s = added ? NULL : *slot;
	if (s && s->pid == pid && s->pc == pc)
		return s->name;
	if (!s && !(s = *slot = calloc(1, sizeof(*s)))) {
		u64map__del(&in->stubs, key);
		return NULL;
	}
	n = codeblob__name(hotspot__mem(j->h), &hotspot__layout(j->h)->u, pc,
			   buf, sizeof(buf));
	*s = (struct stub){pid, pc,
			   n > 0 ? strpool__intern(in->pool, buf, n) : NULL};
	return s->name;
}

struct hotspot *interp__hotspot(struct interp *in, uint32_t pid)
{
	struct jvm *j = jvm_find(in, pid);

	return j && j->state == J_JVM ? j->h : NULL;
}

int interp__thread_read(struct interp *in, uint32_t pid, uint32_t tid,
			char *buf, size_t cap)
{
	struct jvm *j = jvm_find(in, pid);
	int n;

	if (!j || !j->jn)
		return -ENOENT;
	n = jnamer__thread(j->jn, (int32_t)tid, buf, cap);
	if (n == -EDQUOT)
		over_budget(in, j);
	return n;
}

const char *interp__thread_name(struct interp *in, uint32_t pid, uint32_t tid)
{
	void **slot = u64map__find(&in->tnames, (uint64_t)pid << 32 | tid);

	return slot ? ((struct tname *)*slot)->name : NULL;
}

/* A new tick (now_ns): every JVM's threads again, old lists dropped. */
static void tick(struct interp *in, uint64_t now_ns)
{
	if (now_ns == in->now_ns)
		return;
	in->now_ns = now_ns;
	if (now_ns - in->threads_ns >= TICK_NS) {
		in->threads_ns = now_ns;
		refresh_all_threads(in);
	}
	/* lists nobody used for 10 s: their keys are long drained */
	if (now_ns - in->last_sweep_ns > 10 * RESOLVE_NS) {
		in->last_sweep_ns = now_ns;
		if (in->lists_cap)
			lists_rehash(in, in->lists_cap,
				     now_ns - 10 * RESOLVE_NS);
		/* and the names of JVMs forgotten since */
		if (in->names_cap)
			names_rehash(in, in->names_cap);
	}
}

/* Learn pid (a JVM?) when a try is due; its slot, or NULL (ourselves). */
static struct jvm *learn(struct interp *in, uint32_t pid, uint64_t now_ns)
{
	struct jvm *j;

	/* ourselves: we map libjvm.so files to read their symbols */
	if (pid == in->self)
		return NULL;
	j = jvm_get(in, pid);
	/* told to stop, past the grace: no new JVM is opened (its tables
	 * take thousands of reads), its frames named as unknown */
	if (stop__hurry())
		return j;
	if (j && j->state == J_TRY && now_ns >= j->next_try_ns)
		jvm_try(in, j, now_ns);
	else if (j && j->state == J_JVM && !j->jn && j->jn_err == EAGAIN &&
		 now_ns >= j->jn_next_ns)
		jn_try(in, j, now_ns);
	return j;
}

void interp__learn(struct interp *in, uint32_t pid, uint64_t now_ns)
{
	tick(in, now_ns);
	learn(in, pid, now_ns);
}

void interp__seen(struct interp *in, const struct sample_key *k,
		  uint64_t now_ns)
{
	struct list_ent *e;
	struct jvm *j;

	tick(in, now_ns);
	j = learn(in, k->pid, now_ns);
	if (!j)
		return;
	if (k->interp_id && (e = list_of(in, k)) && e->ncompiled)
		warm(in, j, e, k);
	if (k->tid && j->jn)
		learn_thread(in, j, k);
}

int interp__describe(const struct interp *in, uint32_t pid, char *buf,
		     size_t cap)
{
	const struct jvm *j = jvm_find(in, pid);

	int n;

	if (!j || j->state != J_JVM || !j->h)
		return -ENOENT;
	n = hotspot__unwind_describe(&hotspot__layout(j->h)->u, buf, cap);
	if (n < 0 || (size_t)n >= cap - 1)
		return n;
	/* virtual threads (jvm/vthread.h): where their walks stop or go */
	if (j->vt_err)
		n += snprintf(buf + n, cap - n, "; virtual threads: no (%s)",
			      strerror(-j->vt_err));
	else if (!j->proc.off_cont_entry)
		n += snprintf(
		    buf + n, cap - n,
		    "; virtual threads: stop at %#" PRIx64
		    ", frozen frames not walked (%s)",
		    (uint64_t)j->proc.barrier_lo,
		    strerror(j->vt_chunk_err ? -j->vt_chunk_err : ENOTSUP));
	else
		n += snprintf(buf + n, cap - n,
			      "; virtual threads: barrier %#" PRIx64
			      ", frozen frames walked (_cont_entry %u, "
			      "_cont %u, tail %u, chunk stack %u)",
			      (uint64_t)j->proc.barrier_lo,
			      j->proc.off_cont_entry, j->proc.off_ce_cont,
			      j->proc.off_tail, j->proc.off_sc_stack);
	return n < (int)cap ? n : (int)cap - 1;
}

void interp__prepare(struct interp *in, uint32_t pid)
{
	struct jvm *j = pid != in->self ? jvm_get(in, pid) : NULL;

	if (!j || j->state != J_TRY)
		return;
	/* running already and no libjvm.so: not a JVM (a JVM maps it
	 * within milliseconds of its start); walk it by the fp rules now,
	 * not "pending" for its first seconds */
	if (jvm_try(in, j, 0) == ENOENT && j->state == J_TRY) {
		j->state = J_NOT;
		in->src.clear_interp(in->src.ctx, pid);
	}
}

bool interp__launched(struct interp *in, uint32_t pid, uint64_t now_ns)
{
	struct jvm *j = pid != in->self ? jvm_get(in, pid) : NULL;
	char path[PATH_MAX];
	unsigned int tries;

	if (!j || j->state != J_TRY || stop__hurry())
		return false;
	/* libjvm.so not mapped yet (the launcher, its libraries): no look,
	 * so no try counted against a JVM being born; a command that has
	 * not mapped it in its first seconds is left to the drain */
	if (hotspot__libjvm(pid, path, sizeof(path)))
		return targets__age_ns(pid) < LAUNCH_LOOK_NS;
	/* a look before libjvm's own tables are set up (the mapping comes
	 * before its relocations) is not a try either, unless the drain's
	 * tries have gone past the quick ones */
	tries = j->tries;
	if (tries + 1 < QUICK_TRIES && jvm_try(in, j, now_ns) &&
	    j->state == J_TRY)
		j->tries = tries;
	if (j->state == J_JVM) {
		in->st.early_pid = pid;
		in->st.early_age_ns = targets__age_ns(pid);
	}
	return j->state == J_TRY && targets__age_ns(pid) < YOUNG_NS;
}

/* Append one frame of an inline chain to in->text at *len: 0 or -1. */
static int chain_push(struct interp *in, size_t *len,
		      const struct jnamer_frame *x)
{
	size_t cap = sizeof(in->text) - *len;
	char *o = in->text + *len, safe[SAFENAME_SIZE(2 * NAME_CAP)];
	int n = 0, m;

	if (*len) {
		if (cap < 2)
			return -1;
		*o++ = ';';
		cap--;
		n = 1;
	}
	/* a name from the JVM, as one folded frame (fold.h): made safe */
	if (safename__copy(safe, sizeof(safe), x->name, strlen(x->name),
			   SAFENAME_FOLD) >= sizeof(safe))
		return -1;
	m = jframe__with_line(o, cap, safe, in->lines ? x->line : 0);
	if (m < 0)
		return -1;
	if (in->annotate) {
		const char *sfx = jframe__suffix(x->kind, x->comp_level);
		size_t sl = strlen(sfx);

		if (m + sl >= cap)
			return -1;
		memcpy(o + m, sfx, sl + 1);
		m += sl;
	}
	*len += n + m;
	return 0;
}

/* j ran out of its read budget: said once in the summary. */
static void over_budget(struct interp *in, struct jvm *j)
{
	if (j->over_said || !j->jn || !jnamer__over(j->jn))
		return;
	j->over_said = true;
	in->st.over++;
	in->st.over_pid = j->pid;
	in->st.over_why = jnamer__over(j->jn);
}

/*
 * The folded text of compiled frame f of j at pc ip: its inline chain
 * from jnamer, outermost first; the outer method's name (read at sample
 * time) when the code is gone (counted); NULL when jnamer cannot name it
 * (a stub with a frame size is no nmethod), for the symbolizer.
 */
static const char *compiled_text(struct interp *in, struct jvm *j,
				 const struct list_frame *f, uint64_t ip)
{
	size_t len = 0;
	int n = -ENOENT;

	if (j->jn)
		n = jnamer__compiled_at(j->jn, f->nm, f->cid, ip, f->idx > 0,
					in->jf, JN_MAX);
	/*
	 * The outer method must be the one the sample saw (its Symbols,
	 * identity hashes checked): an nmethod of an unloaded class lives
	 * on, compile id and all, until it is flushed, while its Method*s
	 * are freed and reused by new classes, so a chain read then names
	 * another class's methods (measured under class churn).
	 */
	if (n > 0 && f->name && strcmp(in->jf[n - 1].name, f->name))
		n = -ESTALE;
	/* a JVM out of its read budget: named by method only */
	if (n == -EDQUOT) {
		over_budget(in, j);
		n = -ESTALE;
	}
	if (n == -ESTALE) {
		/* the tier recorded at sample time; unknown: C2's */
		struct jnamer_frame x = {f->name, -1, 0, JF_COMPILED,
					 f->level ? f->level : 4};

		in->st.compiled_stale++;
		if (!f->name || chain_push(in, &len, &x))
			return NULL;
		return strpool__intern(in->pool, in->text, len);
	}
	if (n <= 0) {
		in->st.compiled_failed++;
		return NULL;
	}
	for (int i = n - 1; i >= 0; i--)
		if (chain_push(in, &len, &in->jf[i]))
			return NULL;
	in->st.compiled_named++;
	return strpool__intern(in->pool, in->text, len);
}

int interp__names(struct interp *in, const struct sample_key *k,
		  const uint64_t *ips, int n, const char **names, bool *folded)
{
	struct list_ent *e;
	struct jvm *j;
	int named = 0;

	memset(names, 0, n * sizeof(*names));
	memset(folded, 0, n * sizeof(*folded));
	if (!k->interp_id || !(e = list_of(in, k)))
		return 0;
	j = jvm_find(in, k->pid);
	for (uint32_t i = 0; i < e->nr; i++) {
		const struct list_frame *f = &e->f[i];

		/* the list and the stack come from one walk: the pc at idx
		 * is the frame's, and was in the interpreter then */
		if (f->idx >= (uint32_t)n || (f->ip && ips[f->idx] != f->ip)) {
			in->st.misaligned++;
			continue;
		}
		if (f->nm) {
			names[f->idx] = compiled_text(in, j, f, ips[f->idx]);
			folded[f->idx] = names[f->idx] != NULL;
			continue;
		}
		if (!in_interp(j, ips[f->idx]))
			continue;
		if (!f->name) {
			in->st.unreadable++;
			continue;
		}
		names[f->idx] = f->name;
		named++;
	}
	return named;
}

uint64_t interp__version(const struct interp *in, const struct sample_key *k)
{
	const struct jvm *j = jvm_find(in, k->pid);
	const struct list_ent *e;

	if (!j || j->state != J_JVM)
		return V_NONE; /* interp__names names nothing */
	if (!k->interp_id)
		return V_JVM;
	if (!in->lists_cap)
		return 0;
	e = list_slot(in->lists, in->lists_cap, k->pid, k->interp_id);
	return e->id ? e->serial : 0;
}

bool interp__in_interpreter(const struct interp *in, uint32_t pid, uint64_t ip)
{
	const struct jvm *j = jvm_find(in, pid);

	return j && j->state == J_JVM && in_interp(j, ip);
}

void interp__stats(const struct interp *in, struct interp_stats *st)
{
	*st = in->st;
}

static int cmp_anchored(const void *a, const void *b)
{
	uint32_t x = ((const struct interp_anchored *)a)->pid,
		 y = ((const struct interp_anchored *)b)->pid;

	return x < y ? -1 : x > y;
}

size_t interp__anchored(const struct interp *in, struct interp_anchored *out,
			size_t cap)
{
	size_t n = 0;

	for (size_t i = 0; i < in->jvms_cap; i++) {
		const struct jvm *j = &in->jvms[i];

		if (!j->pid || !j->given.given)
			continue;
		if (n < cap)
			out[n] =
			    (struct interp_anchored){j->pid, j->given.given};
		n++;
	}
	qsort(out, n < cap ? n : cap, sizeof(*out), cmp_anchored);
	return n;
}

void interp__style(struct interp *in, bool annotate, bool lines)
{
	in->annotate = annotate;
	in->lines = lines;
}
