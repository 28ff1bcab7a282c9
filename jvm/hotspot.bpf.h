/*
 * hotspot.bpf.h: what the BPF walk knows of HotSpot (x86-64), its half of
 * sampler/sampler.bpf.c's user stack walk, included there once, after the
 * walk's record (struct walk, walk_rec), its maps and the frame-pointer and
 * rows steps it falls back to: an interpreted frame named and left through
 * its frame record (interp_step), a code cache pc's CodeBlob through the
 * heap's segment map (find_blob, read_blob) and left by its frame size, a
 * leaf at its frame's edge (leaf_edge), the stubs and adapters without a
 * frame size (stub_step, adapter_step), compiled frames listed for user
 * space (compiled_frame, read_nm), and the thread's frame anchor (anchor).
 * What user space reads of HotSpot is in jvm/'s C files; the layout both
 * share is sampler_abi.h's struct interp_proc (jvm/jvms.c fills it).
 */
#ifndef MIXPROF_HOTSPOT_BPF_H
#define MIXPROF_HOTSPOT_BPF_H

#include "jvm/blobkinds.h"

static __always_inline int native_step(struct walk *w,
				       const struct interp_proc *p,
				       const struct unwind_proc *pr);

/*
 * ConstMethod::_constants and _name_index: one read when they lie within
 * 64 bytes of each other (they do, in every HotSpot we know), each read
 * costing as much as a frame's whole walk step. 0 or -1.
 */
static __always_inline int read_cp_ni(const struct interp_proc *p, __u64 cm,
				      __u64 *cp, __u16 *ni)
{
	__u32 lo = p->off_constants < p->off_name_index ? p->off_constants
							: p->off_name_index;
	__u64 dc = p->off_constants - lo, dn = p->off_name_index - lo;
	struct walk *w = walk_rec();
	__u8 *blk;

	if (!w)
		return -1;
	blk = w->block;

	if (dc > 56 || dn > 62) {
		*cp = read_u64(cm + p->off_constants);
		return bpf_probe_read_user(
			   ni, sizeof(*ni),
			   (const void *)(cm + p->off_name_index))
			   ? -1
			   : 0;
	}
	if (bpf_probe_read_user(blk, BLOCK_BYTES, (const void *)(cm + lo)))
		return -1;
	asm volatile("" : "+r"(dc), "+r"(dn)); /* checked, then used */
	if (dc > 56 || dn > 62)
		return -1;
	__builtin_memcpy(cp, blk + dc, sizeof(*cp));
	__builtin_memcpy(ni, blk + dn, sizeof(*ni));
	return 0;
}

/*
 * An interpreted frame's 1 + bci (sampler_abi.h) from the first of its bcp
 * candidates that lies in the bytecodes after ConstMethod cm (a method
 * has fewer than 64 KB of them: INTERP_MAX_CODE), or 0.
 */
static __always_inline __s32 bci_of(const struct interp_proc *p, __u64 cm,
				    __u64 bcp_reg, __u64 bcp_slot)
{
	__u64 code = cm + p->cm_size;

	if (bcp_reg >= code && bcp_reg - code < INTERP_MAX_CODE)
		return (__s32)(bcp_reg - code) + 1;
	if (bcp_slot >= code && bcp_slot - code < INTERP_MAX_CODE)
		return (__s32)(bcp_slot - code) + 1;
	return 0;
}

/* A frame's names from the memo */
static __always_inline void names_from(struct interp_frame *f,
				       const struct name_memo *m)
{
	f->klass_name = m->klass_name;
	f->name = m->name;
	f->hashes = m->hashes;
}

/*
 * The JVM's epoch, read once a walk into w->epoch1 (and w->redefined):
 * its count of unloaded classes + 1, plus its count of redefinitions
 * once there was one; 0: unknown.
 */
static __always_inline void walk_epoch(struct walk *w,
				       const struct interp_proc *p)
{
	if (w->epoch_walk == w->walks)
		return;
	w->epoch_walk = w->walks;
	w->epoch1 = p->unload_count ? read_u64(p->unload_count) + 1 : 0;
	/* read_u64's 0 for a failed read: unknown */
	if (w->epoch1 == 1 &&
	    bpf_probe_read_user(&w->word[0], 8, (const void *)p->unload_count))
		w->epoch1 = 0;
	/*
	 * The count of redefinitions goes into the epoch: a redefined
	 * class's old methods are freed later, and their memory, ConstMethod
	 * and all, goes to the next class's methods of that size (measured:
	 * tests/integration/names_redefine.sh); unknown or unreadable, each
	 * memo hit is checked (a failed read fills with zeros)
	 */
	if (!p->redefined ||
	    bpf_probe_read_user(&w->word[0], 8, (const void *)p->redefined))
		w->redefined = 1;
	else if ((w->redefined = w->word[0] != 0) && w->epoch1)
		w->epoch1 += w->word[0];
	stat_inc(w->redefined ? STAT_NAMES_REDEF : STAT_NAMES_NOREDEF);
}

/*
 * Method* -> the Symbol*s of its holder's name and its own name:
 * Method::_constMethod, ConstMethod::{_constants, _name_index},
 * ConstantPool::_pool_holder and slot _name_index, Klass::_name. An
 * interpreted frame's bcp candidates (0: none) give its bci (cm_size).
 */
__noinline int read_names(const struct interp_proc *p, struct interp_frame *f,
			  __u64 bcp_reg, __u64 bcp_slot)
{
	struct walk *w = walk_rec();
	struct name_memo *m;
	__u64 cm, cp, holder;
	__u16 ni = 0;
	__u32 slot;

	if (!p || !f || !w) /* a global function: checked on its own */
		return 0;
	PHASE_START(t);
	slot = NAME_MEMO_SLOT(f->method);
	m = memo__at(&names_memo, NAME_MEMO, w->cpu, slot, &w->memo_i);
	if (!m)
		return 0;
	if (m->method == f->method && m->tgid == w->tgid &&
	    m->walk == w->walks) {
		if (p->cm_size && !f->nm)
			f->cid = bci_of(p, m->cm, bcp_reg, bcp_slot);
		names_from(f, m);
		PHASE_END(PH_NAMES_MEMO, t);
		return 0;
	}
	walk_epoch(w, p);
	/* no class ever redefined: the memo's Method* is its method while
	 * no class unloaded, its ConstMethod* not read again (a method
	 * running across a redefinition is still checked below) */
	if (!w->redefined && w->epoch1 && m->method == f->method &&
	    m->tgid == w->tgid && m->epoch1 == w->epoch1) {
		if (p->cm_size && !f->nm)
			f->cid = bci_of(p, m->cm, bcp_reg, bcp_slot);
		names_from(f, m);
		m->walk = w->walks;
		PHASE_END(PH_NAMES_KNOWN, t);
		return 0;
	}
	cm = read_u64(f->method + p->off_const_method);
	if (cm && p->cm_size && !f->nm)
		f->cid = bci_of(p, cm, bcp_reg, bcp_slot);
	if (cm && m->method == f->method && m->tgid == w->tgid && m->cm == cm &&
	    w->epoch1 && m->epoch1 == w->epoch1) {
		names_from(f, m);
		m->walk = w->walks;
		PHASE_END(PH_NAMES_KNOWN, t);
		return 0;
	}
	if (!cm || read_cp_ni(p, cm, &cp, &ni) || !cp)
		return 0;
	holder = read_u64(cp + p->off_pool_holder);
	if (holder)
		f->klass_name = read_u64(holder + p->off_klass_name);
	f->name = read_u64(cp + p->cp_base + (__u64)ni * 8);
	if (!f->klass_name || !f->name)
		return 0;
	/* both hash words, or neither Symbol: user space must not trust
	 * an old name for a pair it cannot check. Read into the record's
	 * words (free while names are read): on this frame they would grow
	 * the walk's call chain, 512 bytes on 6.1 */
	if (p->off_sym_hash != INTERP_NO_OFF) {
		if (bpf_probe_read_user(
			&w->word[0], 4,
			(const void *)(f->klass_name + p->off_sym_hash)) ||
		    bpf_probe_read_user(
			&w->word[1], 4,
			(const void *)(f->name + p->off_sym_hash))) {
			f->klass_name = f->name = 0;
			return 0;
		}
		f->hashes = ((__u32)w->word[0] & 0xffff0000) |
			    ((__u32)w->word[1] >> 16);
	}
	m->method = f->method;
	m->cm = cm;
	m->klass_name = f->klass_name;
	m->name = f->name;
	m->hashes = f->hashes;
	m->walk = w->walks;
	m->tgid = w->tgid;
	m->epoch1 = w->epoch1;
	PHASE_END(PH_NAMES_READ, t);
	return 0;
}

/* FNV-1a, a word at a time: the same frames give the same list id. */
static __always_inline __u64 mix(__u64 h, __u64 word)
{
	return (h ^ word) * 0x100000001b3ULL;
}

/*
 * An interpreted frame at fp: its Method* (at fp + method_slot) and what
 * leads to its caller in fr: the saved fp, the return address, the
 * sender sp (fp - 8). One read where the slot is the usual one, rbp - 3
 * words: every read costs about a whole walk step.
 */
static __always_inline int read_interp_frame(struct walk *w,
					     const struct interp_proc *p,
					     __u64 *method, __u64 *fr)
{
	__u64 *v = w->word; /* 5 words; fr: the next 3 */

	if (p->method_slot == INTERP_METHOD_SLOT) {
		if (stack_win__read(&w->win, v, 5 * 8, w->r.fp - 24, w->r.sp0))
			return -1;
		*method = v[0];
		fr[0] = v[3];
		fr[1] = v[4];
		fr[2] = v[2];
		return 0;
	}
	*method = read_u64(w->r.fp + (__s64)p->method_slot);
	fr[2] = read_u64(w->r.fp - 8);
	return bpf_probe_read_user(fr, 16, (const void *)w->r.fp);
}

/*
 * The next free slot of the walk's list, storing the full chunk first
 * (sampler_abi.h), or NULL: no room left.
 */
static __always_inline struct interp_frame *list_slot(struct walk *w)
{
	struct interp_stack *st = &w->st;
	__u32 n = st->nr;

	if (n >= INTERP_MAX_FRAMES) {
		/* full: store it as a chunk, the next one links to it */
		__u64 key = mix(w->h, INTERP_CHUNK_TAG);

		PHASE_START(t);

		if (w->chunks + 1 >= INTERP_MAX_CHUNKS)
			return NULL;
		if (bpf_map_update_elem(&interp_chunks, &key, st, BPF_ANY))
			return NULL;
		PHASE_END(PH_LIST_CHUNK, t);
		w->chunks++;
		st->prev = key;
		n = 0;
	}
	st->nr = n + 1;
	return &st->f[n & (INTERP_MAX_FRAMES - 1)];
}

/*
 * The next slot of the walk's list (list_slot) as frame idx: an
 * interpreted one (its pc for a pending JVM's list, its Method*) or a
 * compiled one (its nmethod nm), names and the rest to be read. NULL: no
 * room left.
 */
static __always_inline struct interp_frame *
list_frame(struct walk *w, __u32 idx, __u64 ip, __u64 method, __u64 nm)
{
	struct interp_frame *f = list_slot(w);

	if (!f)
		return NULL;
	f->idx = idx;
	f->hashes = 0;
	f->ip = ip;
	f->method = method;
	f->klass_name = 0;
	f->name = 0;
	f->nm = nm;
	f->cid = 0;
	f->level = 0;
	return f;
}

/* Fold a listed frame into the list's id. */
static __always_inline void list_mix(struct walk *w,
				     const struct interp_frame *f)
{
	w->h = mix(w->h, (__u64)f->hashes << 32 | f->idx);
	w->h = mix(w->h, f->ip);
	w->h = mix(w->h, f->method);
	w->h = mix(w->h, f->klass_name);
	w->h = mix(w->h, f->name);
	w->h = mix(w->h, f->nm ^ (__u64)(__u32)f->cid << 32);
}

/*
 * Keep the frame at w->r.ip/fp as interpreted; its caller's in fr.
 * entry: a leaf in its method's entry (entry_caller), its Method* in
 * w->word[4] and its caller's fp, pc and sp in fr already.
 */
static __always_inline int interp_frame(struct walk *w,
					const struct interp_proc *p, __u32 idx,
					__u64 *fr, bool entry)
{
	struct interp_frame *f;
	__u64 method = 0;

	if (entry)
		method = w->word[4];
	else if (!w->r.fp)
		return -1;
	else if (read_interp_frame(w, p, &method, fr)) {
		/* the slot unreadable: still the frame record, as the
		 * kernel would read it */
		method = 0;
		fr[2] = 0;
		if (bpf_probe_read_user(fr, 16, (const void *)w->r.fp))
			return -1;
	}
	/* a known JVM's list holds interpreted frames only: no pc, so the
	 * list's id does not change with the bytecode being run (but for
	 * --lines' bci, below) */
	f = list_frame(w, idx, p->off_const_method ? 0 : w->r.ip, method, 0);
	if (!f)
		return 0;
	/* an entry's bcp is not set yet (r13 is the caller's sp) */
	if (method && p->off_const_method)
		read_names(p, f, idx || entry ? 0 : w->bcp0,
			   p->cm_size && !entry
			       ? read_u64(w->r.fp + INTERP_BCP_SLOT)
			       : 0);
	list_mix(w, f);
	return 0;
}

/*
 * A compiled frame's identity, read now (sampler_abi.h): nmethod::_method
 * and _compile_id of the blob in f->nm, and the Method*'s Symbols. A
 * global function: verified once.
 */
__noinline int read_nm(const struct interp_proc *p, struct interp_frame *f)
{
	struct walk *w = walk_rec();
	struct blob_seen *bs;
	__u64 o;

	if (!p || !f || !w)
		return 0;
	bs = &w->blob;
	PHASE_START(t);
	/*
	 * read_blob read the compile id's word of the blob just before,
	 * and looked it up (blob_facts): a compile id is never reused, and
	 * an nmethod's _method stays while it has frames
	 */
	if (bs->keyed && bs->key.blob == f->nm && bs->hit && bs->fact.named) {
		f->method = bs->fact.method;
		f->cid = bs->fact.cid;
		f->level = bs->fact.level;
		f->klass_name = bs->fact.klass_name;
		f->name = bs->fact.name;
		f->hashes = bs->fact.hashes;
		PHASE_END(PH_NM_HIT, t);
		return 0;
	}
	/* read in place: read_u64's word would grow this frame */
	if (bpf_probe_read_user(&f->method, sizeof(f->method),
				(const void *)(f->nm + p->off_nm_method)))
		f->method = 0;
	if (!bs->keyed || bs->key.blob != f->nm)
		return 0; /* its compile id unreadable */
	__builtin_memcpy(&f->cid, &bs->word, sizeof(f->cid));
	o = p->off_nm_level;
	asm volatile("" : "+r"(o)); /* checked, then used */
	if (o < 8)
		f->level = ((const __u8 *)&bs->word)[o];
	if (f->method)
		read_names(p, f, 0, 0);
	if (!f->method || !f->name || !f->klass_name)
		return 0;
	bs->fact.method = f->method;
	bs->fact.cid = f->cid;
	bs->fact.level = f->level;
	bs->fact.klass_name = f->klass_name;
	bs->fact.name = f->name;
	bs->fact.hashes = f->hashes;
	bs->fact.named = 1;
	blob_keep(&bs->key, &bs->fact, blob_memo_of(w, bs->key.blob));
	PHASE_END(PH_NM_MISS, t);
	return 0;
}

/* List the compiled frame idx of blob, for user space to name. */
static __always_inline void compiled_frame(struct walk *w,
					   const struct interp_proc *p,
					   __u32 idx, __u64 blob)
{
	struct interp_frame *f;

	if (!(p->flags & UNWIND_NAMES) || !(f = list_frame(w, idx, 0, 0, blob)))
		return;
	read_nm(p, f);
	list_mix(w, f);
}

/* Is ip in one of the JVM's code heaps? */
static __always_inline bool in_code(const struct interp_proc *p, __u64 ip)
{
	for (int i = 0; i < UNWIND_HEAPS; i++)
		if (i < p->nheaps && ip >= p->heap[i].lo && ip < p->heap[i].hi)
			return true;
	return false;
}

static __always_inline bool in_interp(const struct interp_proc *p, __u64 ip)
{
	return ip >= p->code_start && ip < p->code_end;
}

/* Is ip code a Java frame returns to: the interpreter, a code heap? */
static __always_inline bool java_ret(const struct interp_proc *p, __u64 ip)
{
	return in_interp(p, ip) || in_code(p, ip);
}

/* Is a leaf in the interpreter's method entries with its caller's sp in
 * r13 (jvm/icodelets.h)? Its frame is not pushed yet. */
static __always_inline bool entry_leaf(const struct interp_proc *p, __u64 ip,
				       __u64 sp, __u64 r13)
{
	return ip >= p->ientry_lo && ip < p->ientry_hi && r13 > sp &&
	       r13 - sp <= UNWIND_MAX_FRAME && !(r13 & 7);
}

/*
 * The sampled thread's user registers, as the kernel saved them, when its
 * pc and sp there are the leaf's ip and sp (the walk's registers came
 * from the same place, or the perf event's copy of it); else NULL. t[0]
 * and t[1] used.
 */
static __always_inline const struct pt_regs *sample_regs(__u64 *t, __u64 ip,
							 __u64 sp)
{
	struct pt_regs *regs =
	    (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());

	return !bpf_probe_read_kernel(&t[0], 8, &regs->rip) && t[0] == ip &&
		       !bpf_probe_read_kernel(&t[1], 8, &regs->rsp) &&
		       t[1] == sp
		   ? regs
		   : NULL;
}

/*
 * The sampled thread's user rax and rbx (sample_regs) in t[3] and t[4]
 * (t[0] and t[1] used): true, else false.
 */
static __always_inline bool user_regs(__u64 *t, __u64 ip, __u64 sp)
{
	const struct pt_regs *regs = sample_regs(t, ip, sp);

	return regs && !bpf_probe_read_kernel(&t[3], 8, &regs->rax) &&
	       !bpf_probe_read_kernel(&t[4], 8, &regs->rbx);
}

/*
 * A leaf at ip, sp, fp in the interpreter's method entries, r13 the
 * sampled frame's (templateInterpreterGenerator_x86.cpp): until
 * generate_fixed_frame pushes the Method*, rbx holds it. Until the frame
 * record is pushed r13 is the caller's sp ("push rax; enter; push r13"):
 * the return address is at sp until the entry pops it into rax to push
 * the locals, then in rax, then under the record (rbp lies between sp
 * and r13 once "enter" ran). Then r13 becomes the bcp, with the record
 * and the sender sp pushed but not yet the Method* (rbp less than 3
 * words above sp). rbx and rax are the user registers the kernel saved,
 * taken only when their pc and sp are the sample's. 0: the Method* (its
 * names' chain read) in the walk record's word 4, the caller's fp, pc
 * and sp in words 5 to 7; -1: not such a leaf. A global function:
 * verified once.
 */
__noinline int entry_caller(const struct interp_proc *p, __u64 ip, __u64 sp,
			    __u64 fp, __u64 r13)
{
	struct walk *w = walk_rec();
	__u64 *t;
	bool early;

	if (!p || !w || ip < p->ientry_lo || ip >= p->ientry_hi)
		return -1;
	t = w->word;
	early = entry_leaf(p, ip, sp, r13);
	if (!early && (fp < sp + 8 || fp >= sp + 24))
		return -1;
	if (!user_regs(t, ip, sp))
		return -1;
	/* the Method*: the chain read_names follows readable to a name */
	t[0] = read_u64(t[4] + p->off_const_method);
	t[1] = t[0] ? read_u64(t[0] + p->off_constants) : 0;
	t[2] = t[1] ? read_u64(t[1] + p->off_pool_holder) : 0;
	if (!t[2] || !read_u64(t[2] + p->off_klass_name))
		return -1;
	if (!early || (fp >= sp && fp < r13)) { /* "enter" ran: its record */
		if (bpf_probe_read_user(&t[5], 16, (const void *)fp))
			return -1;
		t[7] = early ? r13 : read_u64(fp - 8);
		return java_ret(p, t[6]) && t[7] > fp ? 0 : -1;
	}
	t[7] = r13;
	t[5] = fp;
	t[6] = read_u64(sp);
	if (!java_ret(p, t[6]))
		t[6] = t[3];
	return java_ret(p, t[6]) ? 0 : -1;
}

/*
 * pt_regs' word for each x86-64 register number (rax, rcx, rdx, rbx, rsp,
 * rbp, rsi, rdi, r8 to r15), 4 bits each from the lowest; rsp, never
 * read here (the walk has sp), is f.
 */
#define PT_REGS_WORD 0x01236789ed4f5cbaULL

/* Register r (x86-64's number) of regs (sample_regs) in *v: 0 or -1. */
static __always_inline int reg_of(const struct pt_regs *regs, __u32 r, __u64 *v)
{
	__u64 word = PT_REGS_WORD >> (4 * (r & 15)) & 15;

	return word == 15 ||
		       bpf_probe_read_kernel(v, 8, (const __u64 *)regs + word)
		   ? -1
		   : 0;
}

/* Steps of tail_find's search: log2(INTERP_TAILS) + 1 */
#define TAIL_STEPS 6

/*
 * The index in p->tails of the interpreter's return past its frame
 * holding ip (jvm/itails.h), by a binary search, or -1. A global
 * function returning an index, not an inlined one returning a pointer:
 * each way out of the search was a verifier state of its own through the
 * rest of interp_tail (6,127 of the sample program's 46,943 instructions
 * processed at load; 2,469 with the search apart).
 */
__noinline int tail_find(const struct interp_proc *p, __u64 ip)
{
	__u32 lo = 0, hi;
	__u64 off;

	if (!p)
		return -1;
	hi = p->ntails < INTERP_TAILS ? p->ntails : INTERP_TAILS;
	off = ip - p->code_start;
	for (int i = 0; i < TAIL_STEPS && lo < hi; i++) {
		__u32 mid = (lo + hi) / 2;
		const struct interp_tail *t =
		    &p->tails[mid & (INTERP_TAILS - 1)];

		if (off < t->at)
			hi = mid;
		else if (off >= (__u64)t->at + t->len)
			lo = mid + 1;
		else
			return (int)(mid & (INTERP_TAILS - 1));
	}
	return -1;
}

/*
 * A leaf at ip, sp in the interpreter's return past its frame
 * (jvm/itails.h): "leave" ran, rbp is the caller's. Before "pop REG" the
 * return address is at sp, after it in REG; before "mov rsp, SP" the
 * caller's sp is in SP, after it at sp. The registers are those the
 * kernel saved, taken only when their pc and sp are the sample's. 0: the
 * caller's pc and sp in the walk record's words 6 and 7; -1: not such a
 * leaf. A global function: verified once.
 */
__noinline int interp_tail(const struct interp_proc *p, __u64 ip, __u64 sp)
{
	struct walk *w = walk_rec();
	const struct interp_tail *t;
	const struct pt_regs *regs;
	int k = tail_find(p, ip);
	__u64 *r, d;

	if (!p || !w || k < 0)
		return -1;
	t = &p->tails[k & (INTERP_TAILS - 1)];
	r = w->word;
	if (!(regs = sample_regs(r, ip, sp)))
		return -1;
	d = ip - p->code_start - t->at;
	if (d < t->pop_end)
		r[6] = read_u64(sp);
	else if (reg_of(regs, t->regs >> 4, &r[6]))
		return -1;
	r[7] = sp;
	if (d < t->mov_end && reg_of(regs, t->regs & 15, &r[7]))
		return -1;
	return java_ret(p, r[6]) && r[7] >= sp &&
		       r[7] - sp <= UNWIND_MAX_FRAME && !(r[7] & 7)
		   ? 0
		   : -1;
}

/*
 * An interpreted frame: named, then left through its frame record. Its
 * caller's sp is the sender sp HotSpot saved (a compiled caller's frame
 * is found from it), or just above the record. The caller's fp is not
 * checked here: a compiled caller keeps any value in rbp (frame::sender
 * ignores it), and the step that uses it as a frame pointer checks it
 * (below for an interpreted caller, fp_step for a native one).
 */
static __always_inline int interp_step(struct walk *w,
				       const struct interp_proc *p, __u32 idx)
{
	__u64 *fr = w->word + 5;
	/* a JVM not read yet: every frame is walked as if interpreted */
	int fail = p->off_const_method ? 0 : -UNWIND_EARLY;
	bool entry = !idx && w->r.ip >= p->ientry_lo &&
		     w->r.ip < p->ientry_hi &&
		     !entry_caller(p, w->r.ip, w->r.sp, w->r.fp, w->bcp0);

	if (entry) {
		if (interp_frame(w, p, idx, fr, true))
			return -UNWIND_READ;
		w->r.sp = fr[2];
		w->r.ip = fr[1];
		w->r.fp = fr[0];
		return STEP_ON;
	}
	/* its frame already gone (its Method* with it): listed as the
	 * interpreter returning; rbp is the caller's */
	if (!idx && !interp_tail(p, w->r.ip, w->r.sp)) {
		struct interp_frame *f = list_frame(w, idx, 0, 0, 0);

		if (f) {
			f->cid = INTERP_CID_RETURN;
			list_mix(w, f);
		}
		w->tail_leaf = 1;
		w->r.ip = fr[1];
		w->r.sp = fr[2];
		return STEP_ON;
	}
	if (w->r.fp < w->r.sp)
		return fail ?: -UNWIND_BAD_FP;
	if (interp_frame(w, p, idx, fr, false))
		return fail ?: -UNWIND_READ;
	w->r.sp = fr[2] > w->r.fp ? fr[2] : w->r.fp + 16;
	w->r.ip = fr[1];
	w->r.fp = fr[0];
	return STEP_ON;
}

/* Hops followed within find_blob's first window: one for a block of
 * fewer than 255 segments, one more for each 254 more */
#define SEGMAP_WINDOW_HOPS 4

#define SEGMAP_NONE (~0ULL)

/*
 * The segment map's hops a byte at a time from segment idx (the map at
 * segmap) to its block's first segment: its index, or SEGMAP_NONE (free,
 * unreadable, more than UNWIND_SEGMAP_HOPS hops). A global function: each
 * way out of find_blob's window (below) took the verifier through every
 * hop (find_blob: 3,804 of the sample program's instructions processed
 * at load; 1,451 with the hops apart).
 */
__noinline __u64 segmap_hops(__u64 segmap, __u64 idx)
{
	__u8 b;

	for (int i = 0; i < UNWIND_SEGMAP_HOPS; i++) {
		if (bpf_probe_read_user(&b, 1, (const void *)(segmap + idx)) ||
		    b == 0xff || b > idx)
			return SEGMAP_NONE;
		if (!b)
			return idx;
		idx -= b;
	}
	return SEGMAP_NONE;
}

/*
 * The CodeBlob holding ip, from its code heap's segment map (heap.cpp:
 * a byte per segment, 0 at a block's first, n: the block starts at
 * least n segments back, 0xff: free), or 0: not in a heap, free, or
 * more than UNWIND_SEGMAP_HOPS hops. The map is read first as a window
 * of BLOCK_BYTES bytes ending at the pc's segment: a block starting
 * within it (8 KB of code at HotSpot's 128-byte segments: most pcs of
 * most nmethods) is found in that one read, where a read a hop took two;
 * further hops a byte at a time. Not a window a hop: the verifier would
 * follow every mix of the two. A global function: verified once.
 */
static __always_inline __u64 find_blob_in(const struct interp_proc *p, __u64 ip)
{
	const struct unwind_heap *h = NULL;
	struct walk *w = walk_rec();
	__u64 idx, base, j;
	__u8 *win, b;
	int i;

	if (!p || !w)
		return 0;
	win = w->block;
	for (i = 0; i < UNWIND_HEAPS; i++) {
		if (i < p->nheaps && ip >= p->heap[i].lo &&
		    ip < p->heap[i].hi) {
			h = &p->heap[i];
			break;
		}
	}
	if (!h || !h->lo || h->log2_seg > 30)
		return 0;
	idx = (ip - h->lo) >> h->log2_seg;
	/* the window [base, base + BLOCK_BYTES), idx at its end unless
	 * near the heap's start */
	base = idx >= BLOCK_BYTES - 1 ? idx - (BLOCK_BYTES - 1) : 0;
	if (!bpf_probe_read_user(win, BLOCK_BYTES,
				 (const void *)(h->segmap + base))) {
		j = idx - base;
		for (i = 0; i < SEGMAP_WINDOW_HOPS; i++) {
			asm volatile("" : "+r"(j)); /* checked, then used */
			if (j >= BLOCK_BYTES)
				return 0;
			b = win[j];
			if (b == 0xff || b > base + j)
				return 0;
			if (!b)
				return h->lo + ((base + j) << h->log2_seg) +
				       p->hb_size;
			if (b > j)
				break; /* before the window */
			j -= b;
		}
		idx = base + j - (i < SEGMAP_WINDOW_HOPS ? b : 0);
	}
	idx = segmap_hops(h->segmap, idx);
	return idx == SEGMAP_NONE ? 0
				  : h->lo + (idx << h->log2_seg) + p->hb_size;
}

__noinline __u64 find_blob(const struct interp_proc *p, __u64 ip)
{
	PHASE_START(t);
	__u64 blob = find_blob_in(p, ip);

	PHASE_END(PH_FIND_BLOB, t);
	return blob;
}

/* What a compiled frame's unwinding needs of its CodeBlob. */
struct blob_info {
	__u64 code_begin;
	__s32 size, frame_size, frame_complete;
	__u32 pad;
};

/* CodeBlob's head: every field we read lies in it */
#define BLOB_READ BLOCK_BYTES

static __always_inline __s32 get_s32(const __u8 *b, __u32 off)
{
	__u64 o = off;
	__s32 v = 0;

	asm volatile("" : "+r"(o)); /* checked, then used */
	if (o <= BLOB_READ - 4)
		__builtin_memcpy(&v, b + o, sizeof(v));
	return v;
}

/*
 * The CodeBlob at blob into *bi: 0 or -1 (unreadable). From blob_facts
 * when its compile id's word is the one kept (the record's blob says
 * which).
 */
__noinline int read_blob(const struct interp_proc *p, __u64 blob,
			 struct blob_info *bi)
{
	struct walk *w = walk_rec();
	struct blob_seen *bs;
	struct blob_fact *bf = NULL;
	struct blob_memo *m;
	__u8 *cb;
	__u64 o;

	if (!p || !bi || !w)
		return -1;
	bs = &w->blob;
	PHASE_START(t);
	/* blob is in bs from here on: fewer registers to spill */
	bs->key.blob = blob;
	bs->key.tgid = bpf_get_current_pid_tgid() >> 32;
	bs->key.pad = 0;
	bs->hit = 0;
	bs->keyed = 0;
	if ((p->flags & UNWIND_NAMES) &&
	    !bpf_probe_read_user(&bs->word, 8,
				 (const void *)(blob + p->off_nm_cid)))
		bs->keyed = 1;
	bs->key.cid = (__u32)bs->word;
	m = bs->keyed ? blob_memo_of(w, blob) : NULL;
	if (m && m->key.blob == bs->key.blob && m->key.cid == bs->key.cid &&
	    m->key.tgid == bs->key.tgid) {
		bf = &m->fact;
		PHASE_END(PH_BLOB_MEMO, t);
	} else if (bs->keyed &&
		   (bf = bpf_map_lookup_elem(&blob_facts, &bs->key))) {
		if (m) {
			m->key = bs->key;
			m->fact = *bf;
		}
		PHASE_END(PH_BLOB_HIT, t);
	}
	if (bs->keyed && bf) {
		bs->fact = *bf;
		bs->hit = 1;
		bi->code_begin = bf->code_begin;
		bi->size = bf->size;
		bi->frame_size = bf->frame_size;
		bi->frame_complete = bf->frame_complete;
		return 0;
	}
	cb = w->block;
	if (bpf_probe_read_user(cb, BLOB_READ, (const void *)bs->key.blob))
		return -1;
	bi->size = get_s32(cb, p->off_cb_size);
	bi->frame_size = get_s32(cb, p->off_cb_frame_size);
	bi->frame_complete = get_s32(cb, p->off_cb_frame_complete);
	if (p->flags & UNWIND_FC16)
		bi->frame_complete = (__s16)bi->frame_complete;
	if (p->flags & UNWIND_CODE_OFFSET) {
		bi->code_begin = bs->key.blob + get_s32(cb, p->off_cb_code);
	} else {
		o = p->off_cb_code;
		asm volatile("" : "+r"(o));
		bi->code_begin = 0;
		if (o <= BLOB_READ - 8)
			__builtin_memcpy(&bi->code_begin, cb + o, 8);
	}
	if (!bs->keyed)
		return 0;
	/* kept unnamed: read_nm names it when a frame of it is listed */
	__builtin_memset(&bs->fact, 0, sizeof(bs->fact));
	bs->fact.code_begin = bi->code_begin;
	bs->fact.size = bi->size;
	bs->fact.frame_size = bi->frame_size;
	bs->fact.frame_complete = bi->frame_complete;
	blob_keep(&bs->key, &bs->fact, blob_memo_of(w, bs->key.blob));
	PHASE_END(PH_BLOB_MISS, t);
	return 0;
}

/* How many bytes of code before a prologue's pc are read for its state. */
#define PROLOGUE_BYTES 32

/*
 * A leaf whose frame is not (or no longer) there: its return address is
 * at sp, or at sp + 8 below a pushed rbp. Taken only if it points into
 * the code cache (a compiled frame's caller is compiled code, a stub or
 * the interpreter).
 */
static __always_inline int leaf_slots(struct walk *w,
				      const struct interp_proc *p)
{
	__u64 *s = w->word;

	if (bpf_probe_read_user(s, 16, (const void *)w->r.sp))
		return -UNWIND_READ;
	if (in_code(p, s[0])) {
		w->r.ip = s[0];
		w->r.sp += 8;
		return STEP_ON; /* rbp not pushed, or popped: the caller's */
	}
	if (in_code(p, s[1])) {
		w->r.ip = s[1];
		w->r.fp = s[0];
		w->r.sp += 16;
		return STEP_ON;
	}
	return -UNWIND_BAD_PC;
}

/*
 * The return address at sp (sp + 8 once rbp was pushed), if code; or, for
 * a stub native code may call (native: StubRoutines' call stub, called
 * from JavaCalls::call_helper), any user address, which the native step
 * checks next.
 */
static __always_inline int ret_at(struct walk *w, const struct interp_proc *p,
				  bool pushed, bool native)
{
	__u64 *s = w->word;

	if (bpf_probe_read_user(s, 16, (const void *)w->r.sp))
		return -UNWIND_READ;
	if (!in_code(p, s[pushed]) &&
	    (!native || s[pushed] < 4096 || (__s64)s[pushed] < 0))
		return -UNWIND_BAD_PC;
	w->r.ip = s[pushed];
	if (pushed)
		w->r.fp = s[0];
	w->r.sp += pushed ? 16 : 8;
	return STEP_ON;
}

/* prologue_state's bits: what a prologue did before pc */
#define PRO_SUB 1 /* "sub rsp, N": the frame is allocated */
#define PRO_MOV 2 /* "mov rbp, rsp" right before pc */
#define PRO_PUSH 4 /* "push rbp", then at most "mov rbp, rsp", before pc */
/* "push rbp" (then at most "mov rbp, rsp") right before the "sub rsp":
 * the banged form, the caller's rbp in its slot from the start */
#define PRO_BANG 8
#define PRO_SUB_LAST 16 /* "sub rsp, N" right before pc */

/* The scan of a prologue's bytes for "sub rsp, N" (prologue_state). */
struct sub_scan {
	const __u8 *b; /* the PROLOGUE_BYTES before the pc */
	__u32 from; /* the first of them in the blob's code */
	__u32 found; /* 1 + where it starts in b, or 0 */
	__u32 end; /* where it ends in b */
};

static long sub_scan_step(__u32 i, void *arg)
{
	struct sub_scan *c = arg;
	__u64 j = i;
	int n;

	asm volatile("" : "+r"(j)); /* checked, then used */
	if (j > PROLOGUE_BYTES - 4)
		return 1;
	n = X86_SUB_RSP_LEN(c->b + j);
	/* an instruction wholly before the pc, in the code */
	if (n && j >= c->from && j + n <= PROLOGUE_BYTES) {
		c->found = j + 1;
		c->end = j + n;
		return 1;
	}
	return 0;
}

/*
 * What the prologue of code starting at begin did before ip (PRO_*
 * bits), from the PROLOGUE_BYTES of code before ip (jvm/blobkinds.h);
 * -1: unreadable. A global function: verified once.
 */
__noinline int prologue_state(__u64 ip, __u64 begin)
{
	struct walk *w = walk_rec();
	struct sub_scan c = {};
	int st = 0;
	__u8 *b;

	if (!w)
		return -1;
	b = w->block;
	if (bpf_probe_read_user(b, PROLOGUE_BYTES,
				(const void *)(ip - PROLOGUE_BYTES)))
		return -1;
	c.b = b;
	if (ip - begin < PROLOGUE_BYTES)
		c.from = PROLOGUE_BYTES - (ip - begin);
	bpf_loop(PROLOGUE_BYTES - 3, sub_scan_step, &c, 0);
	if (c.found) {
		__u64 j = c.found - 1;

		st |= PRO_SUB;
		if (c.end == PROLOGUE_BYTES)
			st |= PRO_SUB_LAST;
		asm volatile("" : "+r"(j)); /* checked, then used */
		if (j >= 1 && j < PROLOGUE_BYTES &&
		    (b[j - 1] == X86_PUSH_RBP ||
		     (j >= 4 && b[j - 4] == X86_PUSH_RBP &&
		      X86_IS_MOV_RBP_RSP(b + j - 3))))
			st |= PRO_BANG;
	}
	if (X86_IS_MOV_RBP_RSP(b + PROLOGUE_BYTES - 3))
		st |= PRO_MOV;
	if (b[PROLOGUE_BYTES - 1] == X86_PUSH_RBP ||
	    ((st & PRO_MOV) && b[PROLOGUE_BYTES - 4] == X86_PUSH_RBP))
		st |= PRO_PUSH;
	return st;
}

/*
 * Is the blob one of HotSpot's frameless ones (jvm/blobkinds.h): vtable
 * and itable stubs, inline cache stubs, the I2C/C2I adapters, method
 * handle intrinsics' interpreter entries? A pc there is always the leaf,
 * its return address at sp, rbp still the caller's.
 */
/* leaf_edge's answers: where a leaf's return address is */
#define EDGE_NONE (-1) /* its frame's rule: frame size, or fp for a stub */
#define EDGE_READ (-2) /* its code unreadable */
#define EDGE_SP 0 /* at sp, rbp the caller's */
#define EDGE_SP8 1 /* at sp + 8, the caller's rbp at sp */
#define EDGE_KEEP_FP 2 /* the frame size rule, rbp still the caller's */
/* at sp, the caller's sp in r13 once the adapter moved sp (blobkinds.h) */
#define EDGE_ADAPTER 3
/* by its frame pointer: a stub whose frame size holds only at its calls
 * (C1's Runtime1 stubs, c1_Runtime1_x86.cpp's StubFrame: "enter" first) */
#define EDGE_FP 4
/* its return address popped into rdx, its frame gone: the caller's frame
 * at sp (a runtime stub's tail jump, "pop rdx; jmp REG": blobkinds.h) */
#define EDGE_GONE 5
/* in the safepoint handler for polls in loops: its caller the frame
 * that polled (blobkinds.h, safepoint_step) */
#define EDGE_SAFEPOINT 6

/* The first 8 bytes of a blob's CodeBlob::_name (blobkinds.h), or 0. */
static __always_inline __u64 blob_named(const struct interp_proc *p, __u64 blob)
{
	__u64 name, s;

	/* _name lies past the head read_blob reads on JDK 17 (at 96) */
	if (p->off_cb_name == INTERP_NO_OFF)
		return 0;
	name = read_u64(blob + p->off_cb_name);
	if (!name || bpf_probe_read_user(&s, sizeof(s), (const void *)name))
		return 0;
	return s;
}

/* Is the blob C1's slow_subtype_check (blobkinds.h)? */
static __always_inline bool slow_subtype(const struct interp_proc *p,
					 __u64 blob)
{
	__u64 name, s = 0;

	if (p->off_cb_name == INTERP_NO_OFF)
		return false;
	name = read_u64(blob + p->off_cb_name);
	if (!name || bpf_probe_read_user(&s, sizeof(s), (const void *)name))
		return false;
	if (s == BLOB_C1_RUNTIME &&
	    bpf_probe_read_user(&s, sizeof(s),
				(const void *)(name + BLOB_C1_NAME_AT)))
		return false;
	return s == BLOB_SLOW_SUBTYPE;
}

static __always_inline int frameless_stub(const struct interp_proc *p,
					  __u64 blob)
{
	__u64 s = blob_named(p, blob);

	if (s == BLOB_ADAPTERS)
		return EDGE_ADAPTER;
	return s == BLOB_VTABLE_CHUNKS || s == BLOB_IC_BUFFER ||
		       s == BLOB_MH_ADAPTERS
		   ? EDGE_SP
		   : EDGE_NONE;
}

/* The rel32 at b (little-endian), sign-extended. */
static __always_inline __u64 rel32_at(const __u8 *b)
{
	__s32 rel;

	__builtin_memcpy(&rel, b, sizeof(rel));
	return (__u64)(__s64)rel;
}

/*
 * The blob a jump from the blob at blob to target leaves for (blobkinds.h:
 * a compiled method's rethrow, its return poll stub), or 0: a branch
 * within it, told without a lookup, or no code.
 */
static __always_inline __u64 jump_out(const struct interp_proc *p,
				      const struct blob_info *bi, __u64 blob,
				      __u64 target)
{
	__u64 to;

	if ((target >= blob && target < blob + bi->size) || !in_code(p, target))
		return 0;
	to = find_blob(p, target);
	return to != blob ? to : 0;
}

/*
 * Is the leaf at ip, its code at c (EXC_TAIL_BYTES), in a compiled
 * method's return poll stub (blobkinds.h), its frame gone? At the jump
 * itself, only when it goes to a safepoint handler.
 */
static __always_inline bool poll_stub(const struct interp_proc *p,
				      const struct blob_info *bi, __u64 blob,
				      __u64 ip, const __u8 *c)
{
	__u64 i = 0, to;

	if (X86_IS_MOV_R10_IMM64(c))
		i = X86_MOV_R10_IMM64_LEN;
	if (X86_IS_STORE_R15_R10(c + i))
		i += X86_STORE_R15_R10_LEN;
	else if (i)
		return false;
	asm volatile("" : "+r"(i)); /* checked, then used */
	if (i > EXC_TAIL_BYTES - 5 || c[i] != X86_JMP_REL32)
		return false;
	to = jump_out(p, bi, blob, ip + i + 5 + rel32_at(c + i + 1));
	return to && (i || blob_named(p, to) == BLOB_SAFEPOINT);
}

/*
 * Is the code at b (EXC_TAIL_BYTES) the exception blob's tail past its
 * "pop rdx", up to its "jmp REG" (blobkinds.h)?
 */
static __always_inline bool exception_tail(const __u8 *b)
{
	__u32 i = 0;

	for (int n = 0; n < EXC_TAIL_INSNS; n++) {
		if (i > EXC_TAIL_BYTES - 3)
			return false;
		if (X86_JMP_REG(b + i) >= 0)
			return true;
		if (X86_IS_MOV_R8_RAX(b + i))
			i += X86_MOV_R8_RAX_LEN;
		else if (X86_IS_LOAD_R15(b + i))
			i += X86_LOAD_R15_LEN;
		else if (X86_IS_MOVQ_R15(b + i))
			i += X86_MOVQ_R15_LEN;
		else
			return false;
	}
	return false;
}

/* Is the blob with 2 words of frame C2's exception blob? */
static __always_inline bool exception_blob(const struct interp_proc *p,
					   const struct blob_info *bi,
					   __u64 blob)
{
	return bi->frame_size == EXC_BLOB_WORDS &&
	       blob_named(p, blob) == BLOB_EXCEPTION;
}

/* Is the blob with a frame of frame_size words the safepoint handler for
 * polls in loops (blobkinds.h)? */
static __always_inline bool safepoint_blob(const struct interp_proc *p,
					   const struct blob_info *bi,
					   __u64 blob)
{
	__u8 b[8] = {};

	return bi->frame_size >= SAFEPOINT_MIN_WORDS &&
	       p->off_saved_pc != INTERP_NO_OFF &&
	       !bpf_probe_read_user(b, sizeof(b),
				    (const void *)bi->code_begin) &&
	       X86_IS_SAFEPOINT_START(b) &&
	       blob_named(p, blob) == BLOB_SAFEPOINT;
}

/*
 * A leaf in the exception blob's first instructions (off: from its code's
 * start, at most EXC_SUB_END): EDGE_GONE before its "push rdx", EDGE_SP
 * after it, EDGE_KEEP_FP after its "sub rsp, 8" (rbp not stored yet);
 * EDGE_NONE elsewhere or in another blob.
 */
static __always_inline int exception_start(const struct interp_proc *p,
					   const struct blob_info *bi,
					   __u64 blob, __u64 off)
{
	__u8 b[8] = {};

	if ((off != 0 && off != 1 && off != EXC_SUB_END) ||
	    bi->frame_size != EXC_BLOB_WORDS ||
	    bpf_probe_read_user(b, sizeof(b), (const void *)bi->code_begin) ||
	    !X86_IS_EXC_START(b) || !exception_blob(p, bi, blob))
		return EDGE_NONE;
	return !off ? EDGE_GONE : off == 1 ? EDGE_SP : EDGE_KEEP_FP;
}

/*
 * A leaf at the edge of its frame (jvm/blobkinds.h), by the blob bi at
 * blob and its code at ip. A stub without a frame size: frameless
 * (frameless_stub), or StubRoutines' "push rbp; mov rbp, rsp" and "ret"
 * (EDGE_SP8 between the two). A compiled leaf in its prologue (before
 * frame_complete): after "sub rsp, N" the frame size rule, but for
 * EDGE_KEEP_FP right after an unbanged "sub" (its rbp slot not stored
 * yet: jvm/blobkinds.h); after "push rbp" (and "mov rbp, rsp") EDGE_SP8;
 * before either EDGE_SP. In its epilogue: at
 * "pop rbp" EDGE_SP8; at the return poll, a conditional jump that falls
 * through to "ret" (a runtime stub's pending exception check after its
 * "leave" too) or "ret" EDGE_SP; a C2 runtime stub's tail jump past its
 * "pop rbp" EDGE_SP, but EDGE_GONE once "pop rdx" took the return
 * address (blobkinds.h); C2's exception blob EDGE_GONE at its first
 * byte and past its "pop rdx", EDGE_SP right after its "push rdx" and at
 * that pop, EDGE_KEEP_FP right after its "sub rsp, 8". A stub
 * blob never safe to walk but at its calls (frame_complete <= 0) that
 * starts with "push rbp; mov rbp, rsp": EDGE_SP and EDGE_SP8 on those,
 * then EDGE_FP. A global
 * function: verified once, not once per state of the walk.
 */
__noinline int leaf_edge(const struct interp_proc *p,
			 const struct blob_info *bi, __u64 blob, __u64 ip)
{
	/* the byte before ip, then the longest form (the exception blob's
	 * tail: EXC_TAIL_BYTES) */
	__u8 b[1 + EXC_TAIL_BYTES] = {};
	int st;

	if (!p || !bi)
		return EDGE_NONE;
	if (bi->frame_size <= 0) {
		if ((st = frameless_stub(p, blob)) != EDGE_NONE)
			return st;
		if (bpf_probe_read_user(b, 17, (const void *)(ip - 1)))
			return EDGE_NONE;
		if (b[1] == X86_RET ||
		    (b[1] == X86_PUSH_RBP && X86_IS_MOV_RBP_RSP(b + 2)))
			return EDGE_SP;
		if (b[0] == X86_PUSH_RBP && X86_IS_MOV_RBP_RSP(b + 1))
			return EDGE_SP8;
		return EDGE_NONE;
	}
	if (ip - bi->code_begin <= EXC_SUB_END &&
	    (st = exception_start(p, bi, blob, ip - bi->code_begin)) !=
		EDGE_NONE)
		return st;
	if (bi->frame_complete > 0 &&
	    ip < bi->code_begin + bi->frame_complete) {
		st = prologue_state(ip, bi->code_begin);
		if (st < 0)
			return EDGE_READ;
		if (!(st & PRO_SUB))
			return st & PRO_PUSH ? EDGE_SP8 : EDGE_SP;
		return (st & (PRO_BANG | PRO_SUB_LAST)) == PRO_SUB_LAST
			   ? EDGE_KEEP_FP
			   : EDGE_NONE;
	}
	/* the byte before ip too (b[0]): what a tail jump's pop left; near
	 * the end of the code's mapping, the 16 bytes the forms but the
	 * exception blob's tail need */
	if (bpf_probe_read_user(b, sizeof(b), (const void *)(ip - 1)) &&
	    bpf_probe_read_user(b, 17, (const void *)(ip - 1)))
		return EDGE_NONE;
	/* (its frame is its own up to its "ret": rbp the caller's there) */
	if (b[1] != X86_RET && safepoint_blob(p, bi, blob))
		return EDGE_SAFEPOINT;
	if (b[1] == X86_POP_RBP)
		return EDGE_SP8;
	if (b[1] == X86_RET || X86_IS_POLL_CMP(b + 1) ||
	    X86_IS_JCC32_RET(b + 1) || X86_IS_JCC8_RET(b + 1) ||
	    (X86_IS_CMP_R15_IMM8(b + 1) && X86_IS_JCC32_RET(b + 6)) ||
	    (b[1] == X86_POP_RDX && X86_JMP_REG(b + 2) >= 0) ||
	    (b[0] == X86_POP_RBP && X86_JMP_REG(b + 1) >= 0))
		return EDGE_SP;
	if (b[0] == X86_POP_RDX && X86_JMP_REG(b + 1) >= 0)
		return EDGE_GONE;
	if (b[0] == X86_POP_RBP && b[1] == X86_JMP_REL32 &&
	    jump_out(p, bi, blob, ip + 5 + rel32_at(b + 2)))
		return EDGE_SP;
	/* the exception blob's "pop rdx", then its tail */
	if (b[1] == X86_POP_RDX && X86_IS_MOV_R8_RAX(b + 2) &&
	    exception_blob(p, bi, blob))
		return EDGE_SP;
	if (exception_tail(b + 1) && exception_blob(p, bi, blob))
		return EDGE_GONE;
	if (poll_stub(p, bi, blob, ip, b + 1))
		return EDGE_SP;
	/* a stub that is never safe to walk but at its calls (C1's
	 * Runtime1 stubs) and builds its frame with "enter" first */
	if (bi->frame_complete > 0 ||
	    bpf_probe_read_user(b, sizeof(b), (const void *)bi->code_begin) ||
	    b[0] != X86_PUSH_RBP || !X86_IS_MOV_RBP_RSP(b + 1))
		return EDGE_NONE;
	if (ip == bi->code_begin)
		return EDGE_SP;
	return ip < bi->code_begin + 4 ? EDGE_SP8 : EDGE_FP;
}

/*
 * A leaf in the I2C/C2I adapters (jvm/blobkinds.h; sharedRuntime_x86_64.cpp,
 * gen_i2c_adapter and gen_c2i_adapter), where the word at sp is not the
 * return address for a few instructions (a stale word there, taken as
 * the caller, was a wrong caller): the I2C adapter pops it, realigns sp
 * and pushes it again, while r13 keeps the interpreted caller's sp with
 * the return address right under it; the C2I adapter pops it into rax,
 * sets r13 to the caller's sp, moves sp down and stores it at sp. 0: the
 * caller's pc and sp in the walk record's words 6 and 7, from r13 (and
 * rax, which must be the word under r13 then); -1: neither, the word at
 * sp is the return address (adapter_step). A global function: verified
 * once.
 */
__noinline int adapter_caller(const struct interp_proc *p, __u64 ip, __u64 sp,
			      __u64 r13)
{
	struct walk *w = walk_rec();
	__u64 *t;

	if (!p || !w)
		return -1;
	t = w->word;
	if (r13 >= sp && r13 - sp <= ADAPTER_MAX_ARGS && !(r13 & 7) &&
	    !bpf_probe_read_user(&t[6], 8, (const void *)(r13 - 8))) {
		t[7] = r13;
		/*
		 * I2C: r13 is the interpreted caller's sp (or the call
		 * stub's), its call's return address right under it,
		 * whatever sp the adapter moved to: at sp too, or in rax
		 * while sp moves (a C2I adapter's r13 before it sets it is
		 * a compiled frame's: any value, an older interpreted
		 * caller's sp among them)
		 */
		if (java_ret(p, t[6]) &&
		    (read_u64(sp) == t[6] ||
		     (user_regs(t, ip, sp) && t[3] == t[6])))
			return 0;
		/* C2I: the return address popped into rax, still the word
		 * under the caller's sp until the arguments are moved */
		if (user_regs(t, ip, sp) && t[3] == t[6] && in_code(p, t[6]))
			return 0;
	}
	/* C2I between popping it and setting r13: sp is the caller's */
	if (!user_regs(t, ip, sp) || !in_code(p, t[3]) ||
	    bpf_probe_read_user(&t[6], 8, (const void *)(sp - 8)) ||
	    t[6] != t[3])
		return -1;
	t[7] = sp;
	return 0;
}

/* Words above a stub leaf's sp searched for its return address (JDK
 * 25's slow_subtype_check saves more registers than 17's) */
#define STUB_SCAN_WORDS 16
#define X86_CALL_REL32 0xe8

/* stub_ret's scan: what it looks for, and the index found (or -1) */
struct stub_scan {
	const struct interp_proc *p;
	struct walk *w;
	__u64 blob, end, sp;
	int found;
};

/*
 * Word k at sp: WALK_WORDS read at a time into the walk record's words.
 * A bpf_loop callback, verified once: as a loop of stub_ret's own it was
 * followed word by word by the verifier (3,099 of the sample program's
 * instructions processed at load; 309 as a callback).
 */
static long stub_scan_step(__u32 k, void *arg)
{
	struct stub_scan *c = arg;
	__u32 j = k % WALK_WORDS;
	__u64 *t = c->w->word, ra;
	__u8 b[8];
	__s32 rel;

	if (!j && bpf_probe_read_user(t, WALK_WORDS * 8,
				      (const void *)(c->sp + (__u64)k * 8)))
		return 1;
	ra = t[j];
	if (!in_code(c->p, ra) ||
	    bpf_probe_read_user(b, sizeof(b), (const void *)(ra - 5)) ||
	    b[0] != X86_CALL_REL32)
		return 0;
	__builtin_memcpy(&rel, b + 1, sizeof(rel));
	if (ra + (__s64)rel < c->blob || ra + (__s64)rel >= c->end)
		return 0;
	c->found = (int)k;
	return 1;
}

/*
 * A leaf in a stub without a frame size that is not one of the known
 * frameless ones: StubRoutines (most build a frame with "enter") and
 * C1's Runtime1 stubs that only push the registers they use
 * (slow_subtype_check: "push rdi; push rsi; push rcx; push rax"). Its
 * return address is the first of the STUB_SCAN_WORDS words at sp that
 * returns from a "call rel32" to this very blob [blob, end) (compiled
 * code calls stubs directly: the code cache lies within 2 GB). The
 * index of that word in the walk record's words (read there), or -1. A
 * global function: verified once.
 */
__noinline int stub_ret(const struct interp_proc *p, __u64 blob, __u64 end,
			__u64 sp)
{
	struct stub_scan c = {p, walk_rec(), blob, end, sp, -1};

	if (!p || !c.w)
		return -1;
	bpf_loop(STUB_SCAN_WORDS, stub_scan_step, &c, 0);
	return c.found;
}

/*
 * The caller of a stub leaf found by stub_ret: the word after its
 * return address is the caller's sp; a frame record right under it
 * ("enter") holds the caller's rbp. STEP_ON, or -1: not found.
 */
static __always_inline int
stub_step(struct walk *w, const struct interp_proc *p, __u64 blob, __s32 size)
{
	int k = stub_ret(p, blob, blob + size, w->r.sp);
	__u64 slot;

	if (k < 0 || k >= STUB_SCAN_WORDS)
		return -1;
	slot = w->r.sp + (__u64)k * 8;
	w->r.ip = w->word[(__u32)k % WALK_WORDS];
	if (k && w->r.fp == slot - 8)
		w->r.fp = read_u64(w->r.fp);
	w->r.sp = slot + 8;
	/* its arguments pushed under the caller's frame (blobkinds.h):
	 * the caller's frame size counts from past them */
	if (slow_subtype(p, blob))
		w->r.sp += BLOB_SLOW_SUBTYPE_ARGS;
	return STEP_ON;
}

/*
 * A leaf in the I2C/C2I adapters (jvm/blobkinds.h): its return address
 * at sp. The C2I adapter moves sp down below the interpreter's arguments
 * and keeps the compiled caller's sp in r13 (the I2C adapter gets the
 * interpreted caller's there), so r13, the sampled frame's, is the
 * caller's sp when it lies a little above sp (at the adapter's entry,
 * before it is set, r13 is a compiled frame's register: any value).
 */
static __always_inline int adapter_step(struct walk *w,
					const struct interp_proc *p)
{
	__u64 sp = w->r.sp, r13 = w->bcp0;
	int r;

	if (!adapter_caller(p, w->r.ip, sp, r13)) {
		w->r.ip = w->word[6];
		w->r.sp = w->word[7];
		return STEP_ON;
	}
	r = ret_at(w, p, false, false);
	/*
	 * r13 the C2I adapter's caller's sp, unless it is an older
	 * interpreted caller's, left in r13 by compiled code; or any other
	 * value compiled code left there, at the adapter's entry before it
	 * sets r13: then the caller's frame does not end in a return
	 * address from r13, and blob_step tries the sp past the return
	 * address (JDK 25 javac, check mode: 1-2 samples a run broke there,
	 * [unwind: bad pc] under the adapter's caller)
	 */
	if (r == STEP_ON && r13 > sp + 8 && r13 - sp <= ADAPTER_MAX_ARGS &&
	    !(r13 & 7) && !in_interp(p, read_u64(r13 - 8))) {
		w->alt_sp = w->r.sp;
		w->r.sp = r13;
	}
	return r;
}

/*
 * A leaf in the safepoint handler for polls in loops (blobkinds.h), code
 * at cb: the frame that polled, at the pc its thread saved, with the sp
 * the handler was entered with (sp before its "push rbx", + 8 after it,
 * + 16 after its "push rbp", rbp + 16 once rbp is set) and the rbp it
 * pushed (none pushed yet: rbp is still that frame's). The pc is exact,
 * not a return address: HotSpot names the polled frame by that pc too.
 */
static __always_inline int safepoint_step(struct walk *w,
					  const struct interp_proc *p, __u64 cb)
{
	struct java_thread_key k = {.tgid = w->tgid, .tid = w->tid};
	__u64 off = w->r.ip - cb, pc, at, *s = w->word;
	__u64 *jt = bpf_map_lookup_elem(&java_threads, &k);

	if (!jt ||
	    bpf_probe_read_user(&pc, sizeof(pc),
				(const void *)(*jt + p->off_saved_pc)) ||
	    !in_code(p, pc))
		return -UNWIND_BAD_PC;
	if (off < 2) {
		w->r.sp += off * 8;
	} else {
		/* the pushed rbp: at sp before "mov rbp, rsp", then at rbp */
		at = off < SAFEPOINT_RBP_SET ? w->r.sp : w->r.fp;
		if (stack_win__read(&w->win, s, 8, at, w->r.sp0))
			return -UNWIND_READ;
		w->r.fp = s[0];
		w->r.sp = at + 16;
	}
	w->r.ip = pc;
	return STEP_ON;
}

/*
 * The thread's last Java frame, from its JavaThread's frame anchor: 0
 * and w->a_* set, or -1 (not a known Java thread, or no anchor: the
 * thread is in Java code, which clears it). Read once per walk.
 */
static __always_inline int anchor(struct walk *w, const struct interp_proc *p)
{
	struct java_thread_key k = {.tgid = w->tgid, .tid = w->tid};
	__u64 *jt, *a = w->word;

	if (w->a_state)
		return w->a_state == A_READ ? 0 : -1;
	w->a_state = A_NONE;
	if (!w->hotspot || !p || !(p->flags & UNWIND_ANCHORS))
		return -1;
	PHASE_START(t);
	jt = bpf_map_lookup_elem(&java_threads, &k);
	PHASE_END(PH_ANCHOR_READ, t);
	if (!jt) {
		w->a_state = A_NO_THREAD;
		return -1;
	}
	if (bpf_probe_read_user(a, 3 * 8,
				(const void *)(*jt + p->off_anchor)) ||
	    !a[0] || a[0] - w->r.sp0 > UNWIND_MAX_SPAN)
		return -1;
	if (!a[1]) /* pc not saved: the return address below sp */
		a[1] = read_u64(a[0] - 8);
	if (!a[1])
		return -1;
	w->a_sp = a[0];
	w->a_pc = a[1];
	w->a_fp = a[2];
	w->a_state = A_READ;
	return 0;
}

/* Words a compiled leaf may have pushed on its frame in its body */
#define LEAF_PUSHED 2

/* A frame of a CodeBlob: by its frame size, or its fp when it has none. */
static __always_inline int blob_step(struct walk *w,
				     const struct interp_proc *p, __u32 idx,
				     __u64 blob, const struct unwind_proc *pr)
{
	struct blob_info bi;
	__u64 *fr = w->word, ssp;
	int e;

	if (read_blob(p, blob, &bi))
		return -UNWIND_READ;
	if (bi.size <= 0 || w->r.ip >= blob + bi.size)
		return -UNWIND_NO_BLOB;
	if (bi.frame_size > 0 && (__u64)bi.frame_size * 8 > UNWIND_MAX_FRAME)
		return -UNWIND_BAD_SP;
	PHASE_KIND(w, bi.frame_size > 0 ? PH_F_COMPILED : PH_F_STUB);
	if (bi.frame_size > 0)
		compiled_frame(w, p, idx, blob);
	e = EDGE_NONE;
	if (!idx) {
		PHASE_START(t);
		e = leaf_edge(p, &bi, blob, w->r.ip);
		PHASE_END(PH_LEAF_EDGE, t);
	}
	if (e == EDGE_READ)
		return -UNWIND_READ;
	/* the caller's frame at sp already, its pc in rdx: a perf sample's
	 * leaf has it (struct walk's rdx0), others do not */
	if (e == EDGE_GONE) {
		if (!in_code(p, w->rdx0))
			return -UNWIND_BAD_PC;
		w->r.ip = w->rdx0;
		return STEP_ON;
	}
	if (e == EDGE_ADAPTER)
		return adapter_step(w, p);
	if (e == EDGE_SAFEPOINT)
		return safepoint_step(w, p, bi.code_begin);
	/*
	 * rbp == sp in a stub leaf without a frame size: its frame record
	 * is at sp ("enter" just ran, or "mov rsp, rbp" before "pop rbp"),
	 * not one stub_step's scan would find (once an older return address
	 * further up, JDK 25 javac's check mode: a wrong caller)
	 */
	if (e == EDGE_FP || (e == EDGE_NONE && !idx && bi.frame_size <= 0 &&
			     w->r.fp == w->r.sp))
		return fp_step(&w->r, &w->win, w->hotspot);
	if (e == EDGE_SP || e == EDGE_SP8)
		return ret_at(w, p, e == EDGE_SP8, bi.frame_size <= 0);
	/* the call stub and other stub routines: a leaf by its return
	 * address when it is plain, else by its frame pointer */
	if (bi.frame_size <= 0 && !idx && e == EDGE_NONE &&
	    stub_step(w, p, blob, bi.size) == STEP_ON)
		return STEP_ON;
	if (bi.frame_size <= 0)
		return native_step(w, p, pr);
	ssp = w->r.sp + (__u64)bi.frame_size * 8;
	if (stack_win__read(&w->win, fr, 16, ssp - 16, w->r.sp0))
		return -UNWIND_READ;
	if (!in_code(p, fr[1]) && !idx) {
		/*
		 * A leaf in its body with words pushed on its frame (the
		 * String compare intrinsics push a register around their
		 * loop, C2's inlined arraycopy checks two: JDK 25 Tomcat,
		 * CopyOnWriteArrayList.toArray): the record one or two words
		 * further; else the edge slots.
		 */
		for (int i = 0; i < LEAF_PUSHED && !in_code(p, fr[1]); i++) {
			ssp += 8;
			if (stack_win__read(&w->win, fr, 16, ssp - 16,
					    w->r.sp0))
				return -UNWIND_READ;
		}
		if (!in_code(p, fr[1]))
			return leaf_slots(w, p);
	}
	/* an adapter leaf's caller whose sp was not r13 (adapter_step) */
	if (!in_code(p, fr[1]) && idx == 1 && w->alt_sp) {
		ssp = w->alt_sp + (__u64)bi.frame_size * 8;
		if (stack_win__read(&w->win, fr, 16, ssp - 16, w->r.sp0))
			return -UNWIND_READ;
	}
	if (!in_code(p, fr[1]))
		return -UNWIND_BAD_PC;
	w->r.ip = fr[1];
	if (e != EDGE_KEEP_FP) /* else its slot is not written yet */
		w->r.fp = fr[0];
	w->r.sp = ssp;
	return STEP_ON;
}

#endif
