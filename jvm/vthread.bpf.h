/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vthread.bpf.h: the BPF half of jvm/vthread.h, included by the sampler's
 * walk (sampler.bpf.c, right before unwind_step: it uses the walk's maps
 * and frame listing). A virtual thread's lowest thawed frame returns into
 * the continuation return barrier (interp_proc.barrier_lo/hi); its
 * callers are frozen in heap stack chunks, not on the carrier's stack.
 * unwind_step stops there (UNWIND_FROZEN); walk_step then asks
 * vthread__enter to go on in the chunks, and while the walk is in one,
 * takes each step with vthread__chunk_step instead of unwind_step:
 *
 *   JavaThread::_cont_entry -> ContinuationEntry (on the carrier's stack)
 *     ->_cont -> Continuation.tail -> StackChunk: frames from .sp to
 *     .bottom (words after its header), each one's pc in the word below
 *     its sp (the top one's in .pc too);
 *   a frame in the interpreter: its fp relativized in the chunk (the word
 *     at sp - 2 words: fp = that address + value words), Method* at
 *     fp - 3 words, the caller's pc at fp + 1, its unextended sp
 *     relativized at fp - 1, its sp fp + 2; the chunk's bottom frame is
 *     the one whose locals (relativized at fp - 7) reach .bottom;
 *   a compiled frame (or a stub with a frame size): the caller's sp is
 *     this frame's unextended sp + the blob's frame size, its pc the word
 *     below (stackChunkFrameStream.inline.hpp);
 *   then StackChunk.parent's frames; then back on the carrier at the
 *     entry frame: pc ContinuationEntry::_return_pc, sp the entry.
 *
 * Bounded by the walk's frames and VT_MAX_CHUNKS; a chunk or frame that
 * does not read as HotSpot lays them out ends the walk with
 * UNWIND_CHUNK, one that cannot be entered with UNWIND_FROZEN: never a
 * wrong caller. One continuation per walk (a nested one stops there).
 */
#ifndef MIXPROF_VTHREAD_BPF_H
#define MIXPROF_VTHREAD_BPF_H

#define VT_MAX_CHUNKS 64 /* chunks of one walk: more is a loop */
#define VT_EMPTY_HOPS 4 /* empty chunks passed over in a row */
#define VT_CHUNK_WORDS (1U << 24) /* a chunk's stack: 128 MB is none */

/* The frozen frames' walk of this CPU's stack being taken. */
struct vthread_walk {
	__u64 chunk; /* the chunk being walked, or 0: not in one */
	__u64 end; /* its stack's end: .bottom */
	__u64 usp; /* the current frame's unextended sp */
	__u64 ce; /* the ContinuationEntry: the entry frame's sp */
	__u32 chunks; /* chunks entered: the walk went into frozen frames */
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct vthread_walk);
	__uint(max_entries, 1);
} vthread_walk SEC(".maps");

/* Is ip the barrier's code (a frame returning there, or a leaf in it)? */
static __always_inline bool vthread__frozen(const struct interp_proc *p,
					    __u64 ip)
{
	return p && ip >= p->barrier_lo && ip < p->barrier_hi;
}

static __always_inline struct vthread_walk *vt_state(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&vthread_walk, &zero);
}

/* A new walk: not in a chunk. */
static __always_inline void vthread__reset(void)
{
	struct vthread_walk *v = vt_state();

	if (v) {
		v->chunk = 0;
		v->chunks = 0;
	}
}

/* Is the walk in a chunk's frames (its steps vthread__chunk_step's)? */
static __always_inline bool vthread__walking(void)
{
	struct vthread_walk *v = vt_state();

	return v && v->chunk;
}

/*
 * Can a frozen frame return to pc? Not 0, and not the barrier: a chunk
 * being frozen holds the copies of the thawed frames before
 * FreezeBase::patch sets the bottom one's return pc from the barrier to
 * the chunk's own top frame; a walk that met it there listed the
 * barrier's stub as the Java frame's caller (JDK 25, a monitorenter
 * preempting the virtual thread).
 */
static __always_inline bool vt_pc_ok(const struct interp_proc *p, __u64 pc)
{
	return pc && !vthread__frozen(p, pc);
}

/* The oop in the field at addr (compressed or not), or 0. */
static __always_inline __u64 vt_oop(const struct interp_proc *p, __u64 addr)
{
	__u32 n = 0;

	if (p->oop_shift == INTERP_NO_OFF)
		return read_u64(addr);
	if (bpf_probe_read_user(&n, sizeof(n), (const void *)addr) || !n)
		return 0;
	return p->oop_base + ((__u64)n << (p->oop_shift & 31));
}

/*
 * Go on with chunk c (0: none left) into w: its top frame, passing over
 * empty chunks; with none left, back on the carrier's stack at the entry
 * frame. STEP_ON or -UNWIND_CHUNK.
 */
static __always_inline int vt_chunk_from(const struct interp_proc *p,
					 struct vthread_walk *v, struct walk *w,
					 __u64 c)
{
	__s32 sp = 0, bottom = 0;
	__u64 start;

	for (int i = 0; i < VT_EMPTY_HOPS; i++) {
		if (!c) {
			w->r.ip = p->entry_pc;
			w->r.sp = v->ce;
			w->r.fp = 0;
			v->chunk = 0;
			return STEP_ON;
		}
		if (++v->chunks > VT_MAX_CHUNKS ||
		    bpf_probe_read_user(&sp, 4,
					(const void *)(c + p->off_sc_sp)) ||
		    bpf_probe_read_user(&bottom, 4,
					(const void *)(c + p->off_sc_bottom)) ||
		    sp < 0 || bottom < sp || bottom > VT_CHUNK_WORDS)
			return -UNWIND_CHUNK;
		if (sp < bottom) {
			start = c + p->off_sc_stack;
			v->chunk = c;
			v->end = start + (__u64)bottom * 8;
			w->r.sp = v->usp = start + (__u64)sp * 8;
			/* below its sp, as for every frame of a chunk; the
			 * chunk's own copy if that word is not there */
			w->r.ip =
			    read_u64(w->r.sp - 8) ?: read_u64(c + p->off_sc_pc);
			w->r.fp = 0;
			return vt_pc_ok(p, w->r.ip) ? STEP_ON : -UNWIND_CHUNK;
		}
		c = vt_oop(p, c + p->off_sc_parent);
	}
	return -UNWIND_CHUNK;
}

/*
 * An interpreted frame in a chunk (see the top): listed, then its
 * caller's pc and sp into w (w->sp = v->end: it was the chunk's last).
 */
static __always_inline int vt_interp(struct walk *w,
				     const struct interp_proc *p,
				     struct vthread_walk *v, __u32 idx)
{
	__u64 *fr = w->word + 5, fpa = w->r.sp - 16, fp;
	__s64 rel = (__s64)read_u64(fpa), locals;

	fp = fpa + rel * 8;
	if (rel <= 0 || fp < w->r.sp || fp + 16 > v->end)
		return -UNWIND_CHUNK;
	w->r.fp = fp;
	if (interp_frame(w, p, idx, fr, false))
		return -UNWIND_CHUNK;
	locals = (__s64)read_u64(fp - 7 * 8);
	if (fp + locals * 8 + 8 >= v->end) {
		w->r.sp = v->end;
		return STEP_ON;
	}
	w->r.sp = fp + 16;
	v->usp = fp + (__s64)fr[2] * 8;
	w->r.ip = fr[1];
	return STEP_ON;
}

/* A compiled frame in a chunk, by its blob's frame size (see the top). */
static __always_inline int vt_compiled(struct walk *w,
				       const struct interp_proc *p,
				       struct vthread_walk *v, __u32 idx)
{
	struct blob_info bi;
	__u64 blob = find_blob(p, w->r.ip), sp;

	if (!blob || read_blob(p, blob, &bi) || bi.frame_size <= 0 ||
	    (__u64)bi.frame_size * 8 > UNWIND_MAX_FRAME)
		return -UNWIND_CHUNK;
	compiled_frame(w, p, idx, blob);
	sp = v->usp + (__u64)bi.frame_size * 8;
	if (sp + 16 >= v->end) {
		w->r.sp = v->end;
		return STEP_ON;
	}
	w->r.sp = v->usp = sp;
	w->r.ip = read_u64(sp - 8);
	return STEP_ON;
}

/*
 * One step of the walk in a chunk (walk_step, while vthread__walking):
 * frame idx listed, the walk record (struct walk) on at its caller.
 * STEP_ON or -enum unwind_reason. A global function, verified once; at
 * unwind_step's depth of the walk's call chain, not below it.
 */
__noinline int vthread__chunk_step(__u32 idx, const struct interp_proc *p)
{
	struct walk *w = walk_rec();
	struct vthread_walk *v = vt_state();
	int r;

	if (!p || !w || !v)
		return -UNWIND_READ;
	w->idx = idx;
	w->r.fp = 0; /* a chunk's frames keep none: each finds its own */
	if (w->r.ip >= p->code_start && w->r.ip < p->code_end)
		r = vt_interp(w, p, v, idx);
	else
		r = vt_compiled(w, p, v, idx);
	if (r == STEP_ON && w->r.sp >= v->end)
		r = vt_chunk_from(p, v, w,
				  vt_oop(p, v->chunk + p->off_sc_parent));
	if (r == STEP_ON && !vt_pc_ok(p, w->r.ip))
		r = -UNWIND_CHUNK;
	return r;
}

/*
 * The walk stopped at the barrier (UNWIND_FROZEN): go on into the
 * carrier's current continuation's chunks, from the walk record. STEP_ON,
 * or -UNWIND_FROZEN: not walked (no layout, not a known Java thread, a
 * second continuation) or -UNWIND_CHUNK. A global function, as above.
 */
__noinline int vthread__enter(const struct interp_proc *p)
{
	struct walk *w = walk_rec();
	struct vthread_walk *v = vt_state();
	struct java_thread_key k = {};
	__u64 *jt, ce, cont;
	int r;

	if (!p || !w || !v || !p->off_cont_entry || v->chunks)
		return -UNWIND_FROZEN;
	k.tgid = w->tgid;
	k.tid = w->tid;
	jt = bpf_map_lookup_elem(&java_threads, &k);
	if (!jt)
		return -UNWIND_FROZEN;
	ce = read_u64(*jt + p->off_cont_entry);
	if (!ce || ce < w->r.sp || ce - w->r.sp0 > UNWIND_MAX_SPAN)
		return -UNWIND_FROZEN;
	cont = read_u64(ce + p->off_ce_cont);
	if (!cont)
		return -UNWIND_FROZEN;
	v->ce = ce;
	v->chunks = 0;
	/* moves the walk's frame only when it enters */
	r = vt_chunk_from(p, v, w, vt_oop(p, cont + p->off_tail));
	if (r != STEP_ON)
		return r;
	stat_inc(STAT_VT_CHUNKS);
	return STEP_ON;
}

/*
 * The java.lang.Thread.tid of the virtual thread mounted on thread tid of
 * JVM p (tgid), or 0 (none mounted: its JavaThread's _vthread is its own
 * _threadObj; or not told). Both are OopHandles: the address of a
 * full-width oop. For --per-thread and the waits (sampler/vtwait.bpf.h).
 */
static __always_inline __u64 vthread__mounted(const struct interp_proc *p,
					      __u32 tgid, __u32 tid)
{
	struct java_thread_key k = {.tgid = tgid, .tid = tid};
	__u64 *jt, vt, self;

	if (!p || !p->off_jt_vthread)
		return 0;
	jt = bpf_map_lookup_elem(&java_threads, &k);
	if (!jt)
		return 0;
	vt = read_u64(read_u64(*jt + p->off_jt_vthread));
	self = read_u64(read_u64(*jt + p->off_jt_threadobj));
	if (!vt || vt == self)
		return 0;
	return read_u64(vt + p->off_thread_tid);
}

/* --per-thread: the same for the sampled carrier (the walk record's
 * thread) */
static __always_inline __u64 vthread__id(const struct interp_proc *p)
{
	struct walk *w = walk_rec();

	return w ? vthread__mounted(p, w->tgid, w->tid) : 0;
}

/*
 * The stack of nr frames just walked, ending with VTHREAD_MARK when a
 * virtual thread is mounted (sampler_abi.h): its new frame count. A
 * global function (it finds the stack buffer itself), so the programs'
 * own stack frames, at the 512 bytes 6.1 gives their whole call chain,
 * do not grow.
 */
__noinline __u32 vthread__tag(const struct interp_proc *p, __u32 nr)
{
	__u64 *ips = stack_buf(), j = nr, id = ips ? vthread__id(p) : 0;

	/* checked right where it indexes: nothing spills it in between */
	asm volatile("" : "+r"(j));
	if (!ips || !id || !j || j >= max_frames || j >= STACK_MAX_DEPTH)
		return nr;
	ips[j] = VTHREAD_MARK(id);
	return nr + 1;
}

#endif
