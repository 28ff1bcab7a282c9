// SPDX-License-Identifier: GPL-2.0
/*
 * jvms: the run's JVMs, found and given to the BPF walk (see jvms.h for
 * the contract, profiler/README.md for the design).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common/procfs.h"
#include "common/stop.h"
#include "common/u64map.h"
#include "codeblob.h"
#include "hotspot.h"
#include "itails.h"
#include "jnamer.h"
#include "jvms.h"
#include "vthread.h"

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
/* ... and its returns' (an interpreter is made within ~100 ms) */
#define TAILS_NS (3 * 1000 * 1000 * 1000ULL)
/* older, and no libjvm.so: not a JVM (a launched one maps it at once) */
#define YOUNG_NS (10 * 1000 * 1000 * 1000ULL)
/* a launched command looked at for libjvm.so this long (jvms__launched) */
#define LAUNCH_LOOK_NS (2 * 1000 * 1000 * 1000ULL)
/* a JVM whose interpreter is not there after this is not starting */
#define STARTING_NS (120 * 1000 * 1000 * 1000ULL)
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

struct jvms {
	struct stacksrc src;
	struct hotspot *(*open_jvm)(uint32_t pid);
	int flags;
	struct u64map jvms; /* pid -> struct jvm */
	uint64_t now_ns, threads_ns;
	uint32_t self; /* our pid */
	struct jvms_stats st;
	struct hotspot_thread *threads; /* LIST_THREADS: a JVM's thread list */
	struct jthreadsync_ops jt; /* src's thread functions, /proc's owner */
};

struct jvms *jvms__new(const struct stacksrc *src,
		       struct hotspot *(*open_jvm)(uint32_t pid), int flags)
{
	struct jvms *v = calloc(1, sizeof(*v));

	if (!v) {
		errno = ENOMEM;
		return NULL;
	}
	v->src = *src;
	v->jt = (struct jthreadsync_ops){src->set_thread, src->clear_thread,
					 jthreadsync__owns_proc, src->ctx};
	v->open_jvm = open_jvm ? open_jvm : hotspot__open;
	v->flags = flags;
	v->self = getpid();
	return v;
}

/* Everything held for one JVM: its jnamer reads through its hotspot. */
static void jvm_free(void *p)
{
	struct jvm *j = p;

	jnamer__free(j->jn);
	hotspot__free(j->h);
	free(j->given.t);
	free(j->vt_syms);
	free(j);
}

void jvms__free(struct jvms *v)
{
	if (!v)
		return;
	u64map__clear(&v->jvms, jvm_free);
	u64map__release(&v->jvms);
	free(v->threads);
	free(v);
}

struct jvm *jvms__find(const struct jvms *v, uint32_t pid)
{
	void **slot = pid ? u64map__find(&v->jvms, pid) : NULL;

	return slot ? *slot : NULL;
}

/* pid's state, added (to be tried) when new; NULL on ENOMEM. */
static struct jvm *jvm_get(struct jvms *v, uint32_t pid)
{
	struct jvm *j = jvms__find(v, pid);
	void **slot;
	bool added;

	if (j || !pid)
		return j;
	if (!(j = calloc(1, sizeof(*j))))
		return NULL;
	slot = u64map__add(&v->jvms, pid, &added);
	if (!slot) {
		free(j);
		return NULL;
	}
	j->pid = pid;
	j->state = JVM_TRY;
	*slot = j;
	return j;
}

/* ---- threads ------------------------------------------------------------ */

/*
 * Give the sampler j's Java threads now ((tgid, tid) -> JavaThread*), and
 * take back those gone: once per tick, so a new thread's first tick or so
 * of samples has no anchor (STAT_NO_THREAD counts its broken walks). The
 * list is the JVM's to write: jthreadsync gives only its own threads.
 */
static void refresh_threads(struct jvms *v, struct jvm *j)
{
	struct hotspot_thread *t = v->threads;
	struct jthreadsync_stats st = {};
	int n;

	if (!t && !(t = v->threads = calloc(LIST_THREADS, sizeof(*t))))
		return;
	n = hotspot__threads_read(hotspot__mem(j->h), &hotspot__layout(j->h)->u,
				  t, LIST_THREADS);
	if (n < 0)
		return; /* keep what we gave: the JVM may be exiting */
	if (jthreadsync__apply(&v->jt, j->pid, &j->given, t, n, &st))
		return;
	v->st.threads_full += st.full;
	v->st.threads_foreign += st.foreign;
	if (st.foreign)
		v->st.threads_foreign_pid = j->pid;
	if (st.over && !j->over) { /* told once per JVM */
		j->over = true;
		v->st.jvms_over++;
		v->st.jvms_over_pid = j->pid;
	}
}

/*
 * A virtual thread's frozen frames into p (jvm/vthread.h): the return
 * barrier where the BPF walk stops, and the chunk layout that lets it go
 * on (JDK 21+ with a .symtab); the error kept, -EAGAIN asked again while
 * the JVM is young.
 */
static void vthread_fields(struct jvms *v, struct jvm *j, struct interp_proc *p)
{
	struct vthread_layout vl = {};

	if (!p->nheaps)
		return;
	if (!j->vt_syms && !(j->vt_syms = calloc(1, sizeof(*j->vt_syms))))
		return;
	if (!j->vt_next_ns) /* the first time: the symbols */
		vthread__syms(j->pid, j->vt_syms);
	j->vt_next_ns = v->now_ns + RETRY_NS;
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

/* The interpreter's returns past their frames (itails.h): a leaf there
 * has no frame any more. */
static void tails_fields(struct jvm *j, struct interp_proc *p)
{
	int n = itails__read(hotspot__mem(j->h), p->code_start, p->code_end,
			     p->tails, INTERP_TAILS);

	p->ntails = n > 0 ? n : 0;
}

/*
 * The interpreter's method entries (icodelets.h), when they are in its
 * range: a leaf there may not have pushed its frame yet; and its returns.
 */
static void entries_fields(struct jvm *j, struct interp_proc *p)
{
	uint64_t lo, hi;

	tails_fields(j, p);
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
 * method under each entry barrier). Also while the entries are not made
 * yet, and for its first TAILS_NS the returns (itails.h) every tick: the
 * return templates are made after the method entries, so a JVM read
 * while its interpreter was being made would lack some.
 */
static void refresh_range(struct jvms *v, struct jvm *j)
{
	struct interp_proc p = j->proc;
	uint64_t start, end;

	if (v->now_ns - j->found_ns > RANGE_NS)
		return;
	if (hotspot__interp_range(j->h, &start, &end))
		return;
	if (start != j->start || end != j->end || !p.ientry_hi) {
		p.code_start = start;
		p.code_end = end;
		entries_fields(j, &p);
	} else if (v->now_ns - j->found_ns <= TAILS_NS) {
		tails_fields(j, &p);
	} else {
		return;
	}
	if (!memcmp(&p, &j->proc, sizeof(p)) ||
	    v->src.set_interp(v->src.ctx, j->pid, &p))
		return;
	j->proc = p;
	j->start = start;
	j->end = end;
}

/*
 * A JVM whose chunk layout was not there yet (enterSpecial is made when
 * the first virtual thread starts): read again once a second.
 */
static void vthread_again(struct jvms *v, struct jvm *j)
{
	struct interp_proc p = j->proc;

	if ((j->vt_err != -EAGAIN && j->vt_chunk_err != -EAGAIN) ||
	    v->now_ns < j->vt_next_ns)
		return;
	vthread_fields(v, j, &p);
	if (!j->vt_err && !v->src.set_interp(v->src.ctx, j->pid, &p))
		j->proc = p;
}

/*
 * The JVM's count of unloaded classes, for BPF to keep interpreted
 * frames' names from sample to sample (sampler_abi.h): once its jnamer
 * is open, then (again) each tick for its first RANGE_NS (the counter is
 * made as the JVM starts up).
 */
static void unload_count(struct jvms *v, struct jvm *j, bool again)
{
	struct interp_proc p = j->proc;
	uint64_t addr;

	if (!j->jn || p.unload_count ||
	    (again && v->now_ns - j->found_ns > RANGE_NS) ||
	    jnamer__unload_count(j->jn, &addr))
		return;
	p.unload_count = addr;
	if (jnamer__redefined_at(j->jn, &addr))
		addr = 0; /* unknown: every memo hit checked */
	p.redefined = addr;
	if (!v->src.set_interp(v->src.ctx, j->pid, &p))
		j->proc = p;
}

/* A new tick, for one JVM: its threads again, a young one's range. */
static void refresh_one(uint64_t pid, void *val, void *ctx)
{
	struct jvm *j = val;
	struct jvms *v = ctx;

	(void)pid;
	if (j->state != JVM_YES || !j->h || stop__asked())
		return;
	refresh_range(v, j);
	vthread_again(v, j);
	unload_count(v, j, true);
	if (j->anchors)
		refresh_threads(v, j);
}

/* ---- what BPF is given -------------------------------------------------- */

/*
 * The HotSpot unwinder's part of p (sampler_abi.h), when the layout has it;
 * whether the frame anchors are usable too.
 */
static bool unwind_fields(const struct hotspot_unwind *u, struct interp_proc *p)
{
	p->off_saved_pc = INTERP_NO_OFF; /* with the anchors only */
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
	p->off_saved_pc = u->off_jt_saved_pc == HOTSPOT_NO_OFF
			      ? INTERP_NO_OFF
			      : u->off_jt_saved_pc;
	p->flags |= UNWIND_ANCHORS;
	return true;
}

/* Compiled frames listed for jnamer (sampler_abi.h): when it can name them. */
static void names_fields(const struct hotspot_unwind *u, struct interp_proc *p)
{
	if (!p->nheaps || getenv("MIXPROF_NO_JNAMES") ||
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

/* The interpreted frames' part of p: the layout field by field. */
static void interp_fields(const struct hotspot_layout *l, bool lines,
			  struct interp_proc *p)
{
	p->code_start = l->interp_start;
	p->code_end = l->interp_end;
	p->method_slot = INTERP_METHOD_SLOT;
	p->off_const_method = l->off_const_method;
	p->off_constants = l->off_constants;
	p->off_name_index = l->off_name_index;
	p->off_pool_holder = l->off_pool_holder;
	p->cp_base = l->cp_size;
	p->off_klass_name = l->off_klass_name;
	p->off_sym_hash = l->off_sym_hash; /* HOTSPOT_NO_OFF: INTERP_NO_OFF */
	/* --lines: interpreted frames record their bci from the first
	 * sample on, named with a line once the jnamer is open */
	p->cm_size = lines ? l->cm_size : 0;
}

/*
 * Open j's compiled-frame namer on its tables (the whole VMStructs,
 * read now by its struct hotspot, once for every namer of the JVM:
 * hotspot__vmstructs), once the walk already runs by the layout and lists
 * its compiled frames (reading the rest of the VMStructs takes a while on
 * a busy machine: the JVM's first samples must not wait for it; their
 * frames are named when their keys are taken, a second or more later). A JVM still starting is asked again a
 * second later; one whose layout jnamer does not know keeps the perf-map
 * path, and its walk stops listing compiled frames.
 */
static void jn_try(struct jvms *v, struct jvm *j, uint64_t now)
{
	struct interp_proc p = j->proc;

	if (!(p.flags & UNWIND_NAMES))
		return;
	j->jn =
	    jnamer__open(j->h, j->pid, v->flags & JVMS_LINES ? JN_LINES : 0);
	j->jn_err = j->jn ? 0 : errno;
	j->jn_next_ns = now + RETRY_NS;
	if (j->jn) {
		unload_count(v, j, false);
		return;
	}
	if (j->jn_err == EAGAIN || j->jn_err == ESRCH)
		return;
	v->st.no_names++;
	v->st.no_names_pid = j->pid;
	v->st.no_names_err = j->jn_err;
	p.flags &= ~UNWIND_NAMES;
	p.cm_size = 0; /* no lines without a jnamer: nor bcis */
	if (!v->src.set_interp(v->src.ctx, j->pid, &p))
		j->proc = p;
}

/* A failed look at j (errno err): when to look again, or give up. */
static void try_failed(struct jvms *v, struct jvm *j, int err, uint64_t now)
{
	/* EAGAIN: a JVM still starting (its interpreter not generated
	 * yet): asked every tick however long its start takes (seconds on
	 * a loaded host or an emulated one), not counted as a try, until
	 * it is plainly not starting */
	if (err == EAGAIN
		? procfs__age_ns(j->pid) > STARTING_NS
		: err == ESRCH || ++j->tries >= MAX_TRIES ||
		      (err == ENOENT && procfs__age_ns(j->pid) > YOUNG_NS))
		j->state = JVM_NOT;
	/* no JVM so far: stop the pending walk of a target */
	if (j->state == JVM_NOT || (err != EAGAIN && j->tries == QUICK_TRIES))
		v->src.clear_interp(v->src.ctx, j->pid);
	j->next_try_ns =
	    now +
	    (err == EAGAIN || j->tries < QUICK_TRIES ? TICK_NS : RETRY_NS);
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
static int jvm_try(struct jvms *v, struct jvm *j, uint64_t now)
{
	const struct hotspot_layout *l;
	struct interp_proc p = {};
	int err;

	j->h = v->open_jvm(j->pid);
	if (!j->h) {
		err = errno;
		try_failed(v, j, err, now);
		return err;
	}
	l = hotspot__layout(j->h);
	interp_fields(l, v->flags & JVMS_LINES, &p);
	entries_fields(j, &p);
	j->anchors = unwind_fields(&l->u, &p);
	names_fields(&l->u, &p);
	/* the walk gets the JVM first: its virtual threads' layout below
	 * takes a pass over libjvm.so's symbols (milliseconds of CPU, tens
	 * of ms on a loaded host), while its first Java frames run now */
	if (v->src.set_interp(v->src.ctx, j->pid, &p)) {
		hotspot__free(j->h);
		j->h = NULL;
		free(j->vt_syms);
		j->vt_syms = NULL;
		j->state = JVM_NOT; /* 1024 JVMs at once: the rest unnamed */
		return 0;
	}
	j->proc = p;
	vthread_fields(v, j, &p);
	if (memcmp(&p, &j->proc, sizeof(p)) &&
	    !v->src.set_interp(v->src.ctx, j->pid, &p))
		j->proc = p;
	j->start = l->interp_start;
	j->end = l->interp_end;
	j->found_ns = now;
	j->state = JVM_YES;
	v->st.jvms++;
	if (p.nheaps)
		v->st.unwound++;
	if (j->anchors)
		refresh_threads(v, j);
	jn_try(v, j, now);
	return 0;
}

/* ---- the run's calls ---------------------------------------------------- */

/* A new tick (now_ns): every JVM's threads again. */
static void tick(struct jvms *v, uint64_t now_ns)
{
	if (now_ns == v->now_ns)
		return;
	v->now_ns = now_ns;
	if (now_ns - v->threads_ns >= TICK_NS) {
		v->threads_ns = now_ns;
		u64map__each(&v->jvms, refresh_one, v);
	}
}

struct jvm *jvms__seen(struct jvms *v, uint32_t pid, uint64_t now_ns)
{
	struct jvm *j;

	tick(v, now_ns);
	/* ourselves: we map libjvm.so files to read their symbols */
	if (pid == v->self)
		return NULL;
	j = jvm_get(v, pid);
	/* told to stop, past the grace: no new JVM is opened (its tables
	 * take thousands of reads), its frames named as unknown */
	if (!j || stop__hurry())
		return j;
	if (j->state == JVM_TRY && now_ns >= j->next_try_ns)
		jvm_try(v, j, now_ns);
	else if (j->state == JVM_YES && !j->jn && j->jn_err == EAGAIN &&
		 now_ns >= j->jn_next_ns)
		jn_try(v, j, now_ns);
	return j;
}

void jvms__prepare(struct jvms *v, uint32_t pid)
{
	struct jvm *j = pid != v->self ? jvm_get(v, pid) : NULL;

	if (!j || j->state != JVM_TRY)
		return;
	/* running already and no libjvm.so: not a JVM (a JVM maps it
	 * within milliseconds of its start); walk it by the fp rules now,
	 * not "pending" for its first seconds */
	if (jvm_try(v, j, 0) == ENOENT && j->state == JVM_TRY) {
		j->state = JVM_NOT;
		v->src.clear_interp(v->src.ctx, pid);
	}
}

bool jvms__launched(struct jvms *v, uint32_t pid, uint64_t now_ns)
{
	struct jvm *j = pid != v->self ? jvm_get(v, pid) : NULL;
	struct procfs_stat st = {};
	char path[PATH_MAX];
	unsigned int tries;
	uint64_t age;

	if (!j || j->state != JVM_TRY || stop__hurry())
		return false;
	age = procfs__read_stat(pid, &st) ? 0 : procfs__stat_age_ns(&st);
	/* no mmap, munmap or exec since its maps showed no libjvm.so (its
	 * address space the same size): not read again. A command that is
	 * no JVM is asked about every EARLY_MS for its first seconds, and
	 * its maps were most of what that cost */
	if (st.vsize && st.vsize == j->nojvm_vsize)
		return age < LAUNCH_LOOK_NS;
	/* libjvm.so not mapped yet (the launcher, its libraries): no look,
	 * so no try counted against a JVM being born; a command that has
	 * not mapped it in its first seconds is left to the drain. Its stat
	 * read before its maps: a mapping after it changes the size. */
	if (hotspot__libjvm(pid, path, sizeof(path))) {
		j->nojvm_vsize = st.vsize;
		return age < LAUNCH_LOOK_NS;
	}
	j->nojvm_vsize = 0;
	/* a look before libjvm's own tables are set up (the mapping comes
	 * before its relocations) is not a try either, unless the drain's
	 * tries have gone past the quick ones */
	tries = j->tries;
	if (tries + 1 < QUICK_TRIES && jvm_try(v, j, now_ns) &&
	    j->state == JVM_TRY)
		j->tries = tries;
	if (j->state == JVM_YES) {
		v->st.early_pid = pid;
		v->st.early_age_ns = procfs__age_ns(pid);
	}
	return j->state == JVM_TRY && procfs__age_ns(pid) < YOUNG_NS;
}

int jvms__describe(const struct jvms *v, uint32_t pid, char *buf, size_t cap)
{
	const struct jvm *j = jvms__find(v, pid);
	int n;

	if (!j || j->state != JVM_YES || !j->h)
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

struct hotspot *jvms__hotspot(const struct jvms *v, uint32_t pid)
{
	struct jvm *j = jvms__find(v, pid);

	return j && j->state == JVM_YES ? j->h : NULL;
}

void jvms__over_budget(struct jvms *v, struct jvm *j)
{
	if (j->over_said || !j->jn || !jnamer__over(j->jn))
		return;
	j->over_said = true;
	v->st.over++;
	v->st.over_pid = j->pid;
	v->st.over_why = jnamer__over(j->jn);
}

int jvms__thread_read(struct jvms *v, uint32_t pid, uint32_t tid, char *buf,
		      size_t cap)
{
	struct jvm *j = jvms__find(v, pid);
	int n;

	if (!j || !j->jn)
		return -ENOENT;
	n = jnamer__thread(j->jn, (int32_t)tid, buf, cap);
	if (n == -EDQUOT)
		jvms__over_budget(v, j);
	return n;
}

/*
 * Everything held for the JVM: its jnamer (a copy of its VMStructs and
 * its debug-data cache, ~100 KB: a host's `java -version`s once leaked
 * one each), its thread list.
 */
void jvms__forget(struct jvms *v, uint32_t pid)
{
	struct jvm *j = v ? jvms__find(v, pid) : NULL;

	if (!j)
		return;
	/* its slot in the BPF map: room for the next JVM */
	if (j->state == JVM_YES)
		v->src.clear_interp(v->src.ctx, pid);
	jthreadsync__clear(&v->jt, pid, &j->given);
	u64map__del(&v->jvms, pid);
	jvm_free(j);
}

void jvms__stats(const struct jvms *v, struct jvms_stats *st)
{
	*st = v->st;
}

struct anchored {
	struct jvms_anchored *out;
	size_t n, cap;
};

static void add_anchored(uint64_t pid, void *val, void *ctx)
{
	const struct jvm *j = val;
	struct anchored *a = ctx;

	(void)pid;
	if (!j->given.given)
		return;
	if (a->n < a->cap)
		a->out[a->n] = (struct jvms_anchored){j->pid, j->given.given};
	a->n++;
}

static int cmp_anchored(const void *a, const void *b)
{
	uint32_t x = ((const struct jvms_anchored *)a)->pid,
		 y = ((const struct jvms_anchored *)b)->pid;

	return x < y ? -1 : x > y;
}

size_t jvms__anchored(const struct jvms *v, struct jvms_anchored *out,
		      size_t cap)
{
	struct anchored a = {out, 0, cap};

	u64map__each(&v->jvms, add_anchored, &a);
	qsort(out, a.n < cap ? a.n : cap, sizeof(*out), cmp_anchored);
	return a.n;
}
