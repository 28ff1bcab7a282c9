// SPDX-License-Identifier: GPL-2.0
/*
 * sampler.bpf.c: on every timer tick of every CPU, count the running
 * thread's (user stack, kernel stack) pair in a hash map keyed by time
 * bucket. Stacks are stored once each, by content (sampler_abi.h); user space
 * drains finished buckets and never sees a per-sample copy of a stack.
 */
/*
 * UAPI headers, not vmlinux.h: nothing here reads a kernel struct whose
 * layout varies (pt_regs is the ptrace ABI), so there are no CO-RE
 * relocations and libbpf need not load and parse the kernel's BTF (5 MB,
 * about a tenth of a whole profile's CPU). The fork hook, which does read
 * task_struct, lives in fork.bpf.c.
 */
#include <stdbool.h>
#include <linux/errno.h>
#include <linux/bpf.h>
#include <linux/bpf_perf_event.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/usdt.bpf.h>
#include "sampler_abi.h"
#include "targets.bpf.h"
#include "jvm/blobkinds.h"
/* the native step by unwind rows (.eh_frame), and its maps */
#include "unwind/unwind.bpf.h"

/* set by user space after load, right before attach: bucket 0 starts here */
__u64 start_ns = 0;
/* set by user space as each drain begins (struct sample_count) */
__u64 next_read = 0;
/* new_keys records dropped (ring full or busy): user space reads all */
__u64 new_keys_lost = 0;
const volatile __u64 bucket_ns = 1000000000ULL;
const volatile bool filter_pids = false; /* only tgids in targets */
const volatile bool per_thread = false;
const volatile bool user_stacks = true;
const volatile bool kernel_stacks = true;
const volatile bool hotspot_walk = true; /* the HotSpot walk: Java frames */
const volatile __u32 max_frames = STACK_SHORT; /* the run's depth */
const volatile __u32 unwind_mode = UNWIND_MODE_HOTSPOT; /* sampler_abi.h */
/* the one key of per-CPU scratch maps, where a frame has no word to spare */
const volatile __u32 percpu_key = 0;

/* stack key -> frames, leaf first, zero-padded (sampler_abi.h) */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u64);
	__type(value, __u64[STACK_SHORT]);
	__uint(max_entries, 16384); /* set by user space before load */
} stacks_short SEC(".maps");

/*
 * Sizes, not BTF types, where user space sets the value size: a type
 * that no longer matches makes the kernel refuse the map (after
 * allocating it), and libbpf create it a second time without BTF.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(key_size, 8);
	/* value_size (the run's depth) and max_entries set before load */
	__uint(value_size, STACK_SHORT * 8);
	__uint(max_entries, 16384);
} stacks_long SEC(".maps");

/*
 * One stack being taken per CPU, slot = CPU: too big for the BPF stack.
 * value_size = (STACK_REC_HEAD + depth) * 8 and max_entries = possible
 * CPUs, set before load: a stack record's head, then the frames. A
 * sampling run and a probe run never share a loaded object, so one
 * program at a time fills a CPU's slot (perf_event programs do not nest).
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(key_size, 4);
	__uint(value_size, STACK_SHORT * 8);
	__uint(max_entries, 1);
} stack_scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct sample_key);
	__type(value, struct sample_count);
	__uint(max_entries, 65536);
} counts SEC(".maps");

/*
 * Each key as it is added to counts, so user space learns new keys
 * without reading the whole map every tick. Size set before load.
 */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} new_keys SEC(".maps");

/* JVMs whose interpreted frames to walk: tgid -> where and how */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, struct interp_proc);
	__uint(max_entries, 1024);
} interp_procs SEC(".maps");

/*
 * interp_id -> interpreted frames; drained with the counts. Not
 * preallocated (10 MiB at every start): a list's id no longer changes
 * with the pc, so a JVM adds lists only as its call paths change.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u64);
	__type(value, struct interp_stack);
	__uint(max_entries, 4096); /* set by user space before load */
} interp SEC(".maps");

/* full chunks of deep interpreted lists (sampler_abi.h): evicted when old */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, __u64);
	__type(value, struct interp_stack);
	__uint(max_entries, 1024);
} interp_chunks SEC(".maps");

/*
 * How many leading slots of each CPU's stack_scratch may be non-zero: a
 * stored value must end at its first zero, and clearing only what the
 * last stack wrote is far cheaper than clearing the whole buffer.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 1);
} scratch_used SEC(".maps");

/* (tgid, tid) -> JavaThread* of the JVMs being unwound (user space fills
 * it: each JVM's threads under its own tgid, at most JAVA_THREADS_PER_JVM
 * of them) */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct java_thread_key);
	__type(value, __u64);
	__uint(max_entries, JAVA_THREADS_MAX);
} java_threads SEC(".maps");

/*
 * What the walk read of a CodeBlob, kept for the next frames that
 * meet it: a frame's reads of the target's memory (each about as dear
 * as a whole frame-pointer step) were most of a sample's cost on real
 * stacks (javac: compiled frames of a few thousand nmethods, met again
 * and again). An entry is used only where a word the walk reads anyway
 * shows its object is still the one read then; an LRU, so nothing has
 * to remove what a JVM freed. Keyed by process too: two JVMs map their
 * code caches at the same addresses.
 *
 * (An interpreted frame's names are still read at each sample: a class
 * unloaded and loaded again by a new loader, as class churn does, got
 * its Method*, ConstMethod, constant pool and cache at the very
 * addresses of the old ones, and only the holder's name Symbol*, four
 * reads away, told them apart: a cache keyed by the Method* and checked
 * by the frame's ConstantPoolCache* named UnloadWorker03's frames
 * UnloadWorker01's, tests/integration/names_churn.sh.)
 */
#define WALK_FACTS 16384 /* a large JVM's nmethods */

/*
 * blob_facts: a CodeBlob (the segment map's answer) and the 4 bytes at
 * nmethod::_compile_id in it -> its head (read_blob) and, once a frame
 * of it was named, its nmethod's Method*, tier and names (read_nm). A
 * compile id is never reused, so a new nmethod at the same address has
 * a new key; other blobs (stubs, adapters) stay for the JVM's life.
 * Only where the compile id's offset is known (UNWIND_NAMES).
 */
struct blob_key {
	/* cid: the 4 bytes at blob + off_nm_cid (not the 8 read there:
	 * the ones after the id may be state that changes) */
	__u64 blob, cid;
	__u32 tgid, pad;
};
struct blob_fact {
	__u64 code_begin;
	__s32 size, frame_size, frame_complete;
	__u32 named; /* the rest is read */
	__u64 method, klass_name, name;
	__s32 cid;
	__u32 level, hashes, pad;
};
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, struct blob_key);
	__type(value, struct blob_fact);
	__uint(max_entries, WALK_FACTS);
} blob_facts SEC(".maps");

/*
 * The frame's blob, as read_blob found it, for read_nm (a global
 * function each: verified once) and for the insert; hit: from
 * blob_facts, whose entry fact is a copy of. In the walk's record.
 */
struct blob_seen {
	struct blob_key key;
	struct blob_fact fact;
	__u64 word; /* the 8 bytes read at off_nm_cid: the id, the tier */
	__u32 keyed, hit; /* word read; fact from the map */
};
/*
 * Words the walk reads from the target's stack land in the record below,
 * not on the BPF stack: the verifier's precision tracking of stack slots
 * written in a bpf_loop callback fails on 6.18 ("callback leftover stack
 * slots"), and it does not follow values loaded from a map.
 */
#define WALK_WORDS 8
/*
 * Blocks the name and CodeBlob readers copy from the target: in the
 * record too, not on their stack frames, which count towards the 512
 * bytes a program's whole call chain may use before Linux 6.13 (the
 * verifier refuses the program on 6.1 and 6.12 otherwise).
 */
#define BLOCK_BYTES 64

enum anchor_state { A_UNREAD, A_READ, A_NONE, A_NO_THREAD, A_USED };

/*
 * A method's names as one walk read them (read_names), for its other
 * frames in the same stack: a recursion, a visitor's calls back into
 * itself, javac's tree walks name one Method* many times a sample, and
 * each naming is six reads of the target's memory. Only within the walk
 * (walk: the walk that read it): a method with a frame on the stack is
 * live while the walk runs, but across samples a class unloaded and
 * loaded again can put another method at the same address (see
 * blob_facts).
 */
#define NAME_MEMO 8 /* methods remembered: a power of 2 */
#define NAME_MEMO_SLOT(m) (((m) >> 3 ^ (m) >> 11) & (NAME_MEMO - 1))
struct name_memo {
	__u64 method, cm, klass_name, name;
	__u32 hashes, walk;
};

/*
 * The walk of one user stack: this CPU's record (the walk map), from the
 * sample's registers to its last frame. Each step, and each global
 * function it calls, works on it in place (they find it themselves: a
 * global function gets scalars and pointers to memory, and one lookup of
 * a one-slot per-CPU array is cheap), so no state is copied in and out
 * per frame, and the walk's stack frames stay small. One program at a
 * time fills a CPU's record: perf_event programs do not nest (the
 * kernel's bpf_prog_active), and a probe run never shares a loaded
 * object with a sampling one.
 */
struct walk {
	struct unwind_regs r; /* the frame being stepped (sampler_abi.h) */
	__u64 bcp0; /* the sampled frame's r13 (a bcp if interpreted), or 0 */
	__u64 h; /* hash of the listed frames: their list's id */
	__u64 a_sp, a_pc, a_fp; /* the anchor, once read */
	__u64 check_pc; /* check mode: the oracle's pc where it differs */
	__u32 tgid, tid; /* the process and thread */
	__u32 idx; /* the frame being stepped (0: the leaf) */
	__u32 hotspot; /* the HotSpot rules (not UNWIND_MODE_FP) */
	__u32 a_state; /* the frame anchor: enum anchor_state */
	__u32 a_idx; /* the frame whose step resumed at the anchor */
	__u32 chunks; /* interpreted frames' chunks stored (sampler_abi.h) */
	__u32 wanted; /* met code of a file whose rows are not built yet */
	__u64 word[WALK_WORDS]; /* words read from the target's stack */
	__u8 block[BLOCK_BYTES]; /* a block read: names, a CodeBlob, code */
	struct stack_win win; /* the stack's page in use (unwind.bpf.h) */
	__u32 walks; /* this walk's number: name_memo's walk (never 0) */
	__u32 pad_memo;
	struct name_memo memo[NAME_MEMO]; /* by Method* */
	struct blob_seen blob; /* the frame's CodeBlob (read_blob) */
	struct interp_stack st; /* the frames listed (sampler_abi.h) */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct walk);
	__uint(max_entries, 1);
} walk SEC(".maps");

/*
 * The key of a perf_event program's sample, off its stack: the walk's
 * call chain below it must fit the 512 bytes of stack that kernels
 * before 6.13 give a program's whole chain. Two perf_event programs do
 * not run nested on one CPU (the kernel's bpf_prog_active), so one key a
 * CPU serves mixprof_sample and mixprof_wall.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct sample_key);
	__uint(max_entries, 1);
} perf_key SEC(".maps");

/* Hash state of one stack, shared with the bpf_loop callback. */
struct stack_hash {
	const __u64 *ips;
	__u32 nr;
	__u64 h;
};

static long hash_step(__u32 i, void *arg)
{
	struct stack_hash *c = arg;
	__u64 j = i;

	/* one register for the check and the access, or the verifier
	 * sees an unchecked copy */
	asm volatile("" : "+r"(j));
	if (j >= c->nr || j >= max_frames)
		return 1;
	c->h = (c->h ^ c->ips[j]) * 0x100000001b3ULL;
	c->h ^= c->h >> 29;
	return 0;
}

struct zero_range {
	__u64 *ips;
	__u32 from, to;
};

static long zero_step(__u32 i, void *arg)
{
	struct zero_range *z = arg;
	__u64 j = (__u64)z->from + i;

	asm volatile("" : "+r"(j)); /* checked, then used */
	if (j >= z->to || j >= max_frames)
		return 1;
	z->ips[j] = 0;
	return 0;
}

/* The CPU's stack buffer: its frames, past the record head (sampler_abi.h). */
static __always_inline __u64 *stack_buf(void)
{
	__u32 cpu = bpf_get_smp_processor_id();
	__u64 *b = bpf_map_lookup_elem(&stack_scratch, &cpu);

	return b ? b + STACK_REC_HEAD : NULL;
}

/*
 * Store the nr frames in the CPU's stack buffer by content; its key
 * (sampler_abi.h), STACK_NONE for no frames, or STACK_LOST when the map is
 * full. Unless the caller's walk cleared the rest of the buffer
 * (cleared), slots past nr that an earlier, longer stack left are
 * cleared first. A global function: verified once, not at each of its
 * three callers (the verifier's work, most of our start-up, fell by 60%).
 */
__noinline __u64 store_stack(__u32 nr, __u32 lost, __u32 cleared)
{
	__u64 *ips = stack_buf();
	struct stack_hash c = {
	    .ips = ips, .nr = nr, .h = 0xcbf29ce484222325ULL};
	__u32 zero = 0, *used = bpf_map_lookup_elem(&scratch_used, &zero);
	long err;

	if (!nr || !ips)
		return STACK_NONE;
	if (used && !cleared && *used > nr) {
		struct zero_range z = {ips, nr, *used};

		bpf_loop(z.to - z.from, zero_step, &z, 0);
	}
	if (used)
		*used = nr;
	bpf_loop(c.nr, hash_step, &c, 0);
	c.h = (c.h & ~STACK_LONG) | (c.nr > STACK_SHORT ? STACK_LONG : 0);
	if (c.h <= STACK_LOST)
		c.h |= 2;
	if (c.nr > STACK_SHORT) {
		if (bpf_map_lookup_elem(&stacks_long, &c.h))
			return c.h;
		err = bpf_map_update_elem(&stacks_long, &c.h, ips, BPF_NOEXIST);
	} else {
		if (bpf_map_lookup_elem(&stacks_short, &c.h))
			return c.h;
		err =
		    bpf_map_update_elem(&stacks_short, &c.h, ips, BPF_NOEXIST);
	}
	if (err && err != -EEXIST) { /* full, or no memory */
		stat_inc(lost);
		if (err == -ENOMEM) /* not preallocated: none at hand now */
			stat_inc(STAT_STACK_NOMEM);
		return STACK_LOST;
	}
	if (!err &&
	    c.nr <= max_frames) { /* new: send it along (sampler_abi.h) */
		__u64 *rec = ips - STACK_REC_HEAD;

		rec[0] = 0;
		rec[1] = c.h;
		/* a dropped record costs user space a map lookup, no more */
		bpf_ringbuf_output(&new_keys, rec, (c.nr + STACK_REC_HEAD) * 8,
				   BPF_RB_NO_WAKEUP);
	}
	return c.h;
}

/*
 * Take the current stack (flags: BPF_F_USER_STACK or 0) with the kernel's
 * walk, the one bpf_get_stackid would do, and store it; its key, or
 * STACK_NONE / STACK_LOST. The kernel zero-fills the rest of the buffer.
 */
static __always_inline __u64 take_stack(void *ctx, __u64 flags, __u32 lost)
{
	__u32 bytes = max_frames * 8;
	__u64 *ips = stack_buf();
	long n;

	if (!ips)
		return STACK_NONE;
	if (bytes > STACK_MAX_DEPTH * 8)
		bytes = STACK_MAX_DEPTH * 8;
	n = bpf_get_stack(ctx, ips, bytes, flags);
	if (n < 0)
		n = 0; /* and the buffer cleared */
	return store_stack((__u64)n / 8, lost, true);
}

/* This CPU's walk record (a key in .rodata: no word on the caller's frame). */
static __always_inline struct walk *walk_rec(void)
{
	return bpf_map_lookup_elem(&walk, (const void *)&percpu_key);
}

static __always_inline __u64 read_u64(__u64 addr)
{
	__u64 v = 0;

	if (bpf_probe_read_user(&v, sizeof(v), (const void *)addr))
		return 0;
	return v;
}

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

	if (!p || !f || !w) /* a global function: checked on its own */
		return 0;
	m = &w->memo[NAME_MEMO_SLOT(f->method)];
	if (m->walk == w->walks && m->method == f->method) {
		if (p->cm_size && !f->nm)
			f->cid = bci_of(p, m->cm, bcp_reg, bcp_slot);
		f->klass_name = m->klass_name;
		f->name = m->name;
		f->hashes = m->hashes;
		return 0;
	}
	cm = read_u64(f->method + p->off_const_method);
	if (cm && p->cm_size && !f->nm)
		f->cid = bci_of(p, cm, bcp_reg, bcp_slot);
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
	m = &w->memo[NAME_MEMO_SLOT(f->method)];
	m->method = f->method;
	m->cm = cm;
	m->klass_name = f->klass_name;
	m->name = f->name;
	m->hashes = f->hashes;
	m->walk = w->walks;
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
		if (stack_win__read(&w->win, v, 5 * 8, w->r.fp - 24,
				    w->r.sp0))
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

		if (w->chunks + 1 >= INTERP_MAX_CHUNKS)
			return NULL;
		if (bpf_map_update_elem(&interp_chunks, &key, st, BPF_ANY))
			return NULL;
		w->chunks++;
		st->prev = key;
		n = 0;
	}
	st->nr = n + 1;
	return &st->f[n & (INTERP_MAX_FRAMES - 1)];
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
	f = list_slot(w);
	if (!f)
		return 0;
	f->idx = idx;
	f->hashes = 0;
	/* a known JVM's list holds interpreted frames only: no pc, so the
	 * list's id does not change with the bytecode being run (but for
	 * --lines' bci, below) */
	f->ip = p->off_const_method ? 0 : w->r.ip;
	f->method = method;
	f->klass_name = 0;
	f->name = 0;
	f->nm = 0;
	f->cid = 0;
	f->level = 0;
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
	bpf_map_update_elem(&blob_facts, &bs->key, &bs->fact, BPF_ANY);
	return 0;
}

/* List the compiled frame idx of blob, for user space to name. */
static __always_inline void compiled_frame(struct walk *w,
					   const struct interp_proc *p,
					   __u32 idx, __u64 blob)
{
	struct interp_frame *f;

	if (!(p->flags & UNWIND_NAMES) || !(f = list_slot(w)))
		return;
	f->idx = idx;
	f->hashes = 0;
	f->ip = 0;
	f->method = 0;
	f->klass_name = 0;
	f->name = 0;
	f->nm = blob;
	f->cid = 0;
	f->level = 0;
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
 * The sampled thread's user rax and rbx, as the kernel saved them, in
 * t[3] and t[4] (t[0] and t[1] used), when its pc and sp there are the
 * leaf's ip and sp (the walk's registers came from the same place, or
 * the perf event's copy of it): true, else false.
 */
static __always_inline bool user_regs(__u64 *t, __u64 ip, __u64 sp)
{
	struct pt_regs *regs =
	    (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());

	return !bpf_probe_read_kernel(&t[0], 8, &regs->rip) && t[0] == ip &&
	       !bpf_probe_read_kernel(&t[1], 8, &regs->rsp) && t[1] == sp &&
	       !bpf_probe_read_kernel(&t[3], 8, &regs->rax) &&
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
__noinline __u64 find_blob(const struct interp_proc *p, __u64 ip)
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
	for (i = 0; i < UNWIND_SEGMAP_HOPS; i++) {
		if (bpf_probe_read_user(win, 1,
					(const void *)(h->segmap + idx)) ||
		    win[0] == 0xff || win[0] > idx)
			return 0;
		if (!win[0])
			return h->lo + (idx << h->log2_seg) + p->hb_size;
		idx -= win[0];
	}
	return 0;
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
	struct blob_fact *bf;
	__u8 *cb;
	__u64 o;

	if (!p || !bi || !w)
		return -1;
	bs = &w->blob;
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
	if (bs->keyed && (bf = bpf_map_lookup_elem(&blob_facts, &bs->key))) {
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
	bpf_map_update_elem(&blob_facts, &bs->key, &bs->fact, BPF_ANY);
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

/* The return address at sp (sp + 8 once rbp was pushed), if code. */
static __always_inline int ret_at(struct walk *w, const struct interp_proc *p,
				  bool pushed)
{
	__u64 *s = w->word;

	if (bpf_probe_read_user(s, 16, (const void *)w->r.sp))
		return -UNWIND_READ;
	if (!in_code(p, s[pushed]))
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

/* The scan of a prologue's bytes for "sub rsp, N" (prologue_state). */
struct sub_scan {
	const __u8 *b; /* the PROLOGUE_BYTES before the pc */
	__u32 from; /* the first of them in the blob's code */
	__u32 found;
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
		c->found = 1;
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
	if (c.found)
		st |= PRO_SUB;
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

/*
 * A leaf at the edge of its frame (jvm/blobkinds.h), by the blob bi at
 * blob and its code at ip. A stub without a frame size: frameless
 * (frameless_stub), or StubRoutines' "push rbp; mov rbp, rsp" and "ret"
 * (EDGE_SP8 between the two). A compiled leaf in its prologue (before
 * frame_complete): after "sub rsp, N" the frame size rule (its rbp saved
 * in the frame once "mov rbp, rsp" ran: before, EDGE_KEEP_FP); after
 * "push rbp" alone EDGE_SP8; before either EDGE_SP. In its epilogue: at
 * "pop rbp" EDGE_SP8; at the return poll or "ret" EDGE_SP. A stub
 * blob never safe to walk but at its calls (frame_complete <= 0) that
 * starts with "push rbp; mov rbp, rsp": EDGE_SP and EDGE_SP8 on those,
 * then EDGE_FP. A global
 * function: verified once, not once per state of the walk.
 */
__noinline int leaf_edge(const struct interp_proc *p,
			 const struct blob_info *bi, __u64 blob, __u64 ip)
{
	__u8 b[8] = {};
	int st;

	if (!p || !bi)
		return EDGE_NONE;
	if (bi->frame_size <= 0) {
		if ((st = frameless_stub(p, blob)) != EDGE_NONE)
			return st;
		if (bpf_probe_read_user(b, sizeof(b), (const void *)(ip - 1)))
			return EDGE_NONE;
		if (b[1] == X86_RET ||
		    (b[1] == X86_PUSH_RBP && X86_IS_MOV_RBP_RSP(b + 2)))
			return EDGE_SP;
		if (b[0] == X86_PUSH_RBP && X86_IS_MOV_RBP_RSP(b + 1))
			return EDGE_SP8;
		return EDGE_NONE;
	}
	if (bi->frame_complete > 0 &&
	    ip < bi->code_begin + bi->frame_complete) {
		st = prologue_state(ip, bi->code_begin);
		if (st < 0)
			return EDGE_READ;
		if (!(st & PRO_SUB))
			return st & PRO_PUSH ? EDGE_SP8 : EDGE_SP;
		return st & PRO_MOV ? EDGE_NONE : EDGE_KEEP_FP;
	}
	if (bpf_probe_read_user(b, sizeof(b), (const void *)ip))
		return EDGE_NONE;
	if (b[0] == X86_POP_RBP)
		return EDGE_SP8;
	if (b[0] == X86_RET || X86_IS_POLL_CMP(b) || X86_IS_POLL_JA(b))
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
	struct walk *w = walk_rec();
	__u8 c[8];
	__u64 *t;
	__s32 rel;
	__u32 k;

	if (!p || !w)
		return -1;
	t = w->word;
	for (k = 0; k < STUB_SCAN_WORDS; k++) {
		/* WALK_WORDS at a time: the record's words */
		if (!(k % WALK_WORDS) &&
		    bpf_probe_read_user(t, WALK_WORDS * 8,
					(const void *)(sp + k * 8)))
			return -1;
		if (!in_code(p, t[k % WALK_WORDS]) ||
		    bpf_probe_read_user(
			c, sizeof(c), (const void *)(t[k % WALK_WORDS] - 5)) ||
		    c[0] != X86_CALL_REL32)
			continue;
		__builtin_memcpy(&rel, c + 1, sizeof(rel));
		if (t[k % WALK_WORDS] + (__s64)rel >= blob &&
		    t[k % WALK_WORDS] + (__s64)rel < end)
			return (int)k;
	}
	return -1;
}

/*
 * The caller of a stub leaf found by stub_ret: the word after its
 * return address is the caller's sp; a frame record right under it
 * ("enter") holds the caller's rbp. STEP_ON, or -1: not found.
 */
static __always_inline int stub_step(struct walk *w,
				     const struct interp_proc *p, __u64 blob,
				     __s32 size)
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
	r = ret_at(w, p, false);
	/* r13 the C2I adapter's caller's sp, unless it is an older
	 * interpreted caller's, left in r13 by compiled code */
	if (r == STEP_ON && r13 > sp + 8 && r13 - sp <= ADAPTER_MAX_ARGS &&
	    !(r13 & 7) && !in_interp(p, read_u64(r13 - 8)))
		w->r.sp = r13;
	return r;
}

/*
 * The frame-pointer rules (native code, stubs without a frame size), on
 * g: the walk's frame (its stack read through win), or check mode's
 * oracle (win NULL). cookie: HotSpot's rules (the nmethod entry
 * barrier's -1, below).
 */
static __always_inline int fp_step(struct unwind_regs *g,
				   struct stack_win *win, bool cookie)
{
	__u64 *fr = g->word;

	if (!g->fp)
		return STEP_END;
	if (g->fp < g->sp)
		return -UNWIND_BAD_FP;
	if (g->fp - g->sp0 > UNWIND_MAX_SPAN)
		return -UNWIND_BAD_SP;
	if (win ? stack_win__read(win, fr, 16, g->fp, g->sp0)
		: bpf_probe_read_user(fr, 16, (const void *)g->fp))
		return -UNWIND_BAD_FP;
	g->sp = g->fp + 16;
	g->ip = fr[1];
	/*
	 * HotSpot's nmethod entry barrier stub (x86-64) pushes a -1 "cookie"
	 * between the return address into the nmethod and its saved rbp
	 * (room for the deopt's new sp): the return address is a word up.
	 * Taken as a pc, -1 was an "[unknown]" frame and the nmethod, whose
	 * prologue called the stub, was lost.
	 */
	if (fr[1] == ~0ULL && cookie) {
		if (bpf_probe_read_user(&g->ip, 8, (const void *)(g->fp + 16)))
			return -UNWIND_BAD_FP;
		g->sp += 8;
	}
	g->fp = fr[0];
	return STEP_ON;
}

/*
 * Rows in the HotSpot mode only: the fp mode is the kernel's walk, and
 * check mode compares the HotSpot rules with frame pointers (rows would
 * walk on where a frame pointer chain ends, past start_thread).
 */
static __always_inline bool rows_on(const struct walk *w)
{
	return w->hotspot && unwind_mode == UNWIND_MODE_HOTSPOT;
}

/*
 * rows_step_regs (unwind/unwind.bpf.h) on the walk's frame. Code of a
 * file whose rows are still to be built is walked by frame pointer here,
 * and the record notes it (the sample is marked: walked before the rows
 * it needed): code in a file is no interpreter's, which a pending
 * target's walk would otherwise guess (unwind_step).
 */
static __always_inline int rows_step(struct walk *w,
				     const struct unwind_proc *pr)
{
	int r = rows_step_regs(&w->r, pr, &w->win, w->idx);

	if (r == ROWS_WANTED) {
		w->wanted = 1;
		return fp_step(&w->r, &w->win, w->hotspot);
	}
	return r;
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
	jt = bpf_map_lookup_elem(&java_threads, &k);
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

/*
 * A native frame (a JNI library, glibc, the JVM itself), by its rows (pr:
 * the process's table, or NULL) or fp. Native
 * frames of a Java thread that do not lead back (the fp chain breaks or
 * ends), or whose next sp would pass over the thread's last Java frame,
 * give way to that frame: the walk resumes at the anchor, once.
 */
static __always_inline int native_step(struct walk *w,
				       const struct interp_proc *p,
				       const struct unwind_proc *pr)
{
	__u64 sp = w->r.sp;
	int r = rows_on(w) ? rows_step(w, pr) : ROWS_NONE;

	if (r == ROWS_NONE)
		r = fp_step(&w->r, &w->win, w->hotspot);

	if (!p || !w->hotspot || w->a_state == A_USED)
		return r;
	if (r == STEP_ON && w->r.sp - w->r.sp0 > UNWIND_MAX_SPAN)
		r = -UNWIND_BAD_SP;
	/* a sound step stays, unless it passes over the last Java frame */
	if (r == STEP_ON && (anchor(w, p) || w->r.sp <= w->a_sp))
		return r;
	if (anchor(w, p)) {
		if (r < 0 && w->a_state == A_NO_THREAD)
			stat_inc(STAT_NO_THREAD);
		return r;
	}
	if (w->a_sp <= sp)
		return r;
	w->r.ip = w->a_pc;
	w->r.sp = w->a_sp;
	w->r.fp = w->a_fp;
	w->a_state = A_USED;
	w->a_idx = w->idx;
	stat_inc(STAT_ANCHOR);
	return STEP_ON;
}

/* A frame of a CodeBlob: by its frame size, or its fp when it has none. */
static __always_inline int
blob_step(struct walk *w, const struct interp_proc *p, __u32 idx, __u64 blob,
	  const struct unwind_proc *pr)
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
	if (bi.frame_size > 0)
		compiled_frame(w, p, idx, blob);
	e = idx ? EDGE_NONE : leaf_edge(p, &bi, blob, w->r.ip);
	if (e == EDGE_READ)
		return -UNWIND_READ;
	if (e == EDGE_ADAPTER)
		return adapter_step(w, p);
	if (e == EDGE_FP)
		return fp_step(&w->r, &w->win, w->hotspot);
	if (e == EDGE_SP || e == EDGE_SP8)
		return ret_at(w, p, e == EDGE_SP8);
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
		 * A leaf in its body with a word pushed on its frame (the
		 * String compare intrinsics push a register around their
		 * loop): the record one word further; else the edge slots.
		 */
		if (stack_win__read(&w->win, fr, 16, ssp - 8, w->r.sp0))
			return -UNWIND_READ;
		if (!in_code(p, fr[1]))
			return leaf_slots(w, p);
		ssp += 8;
	}
	if (!in_code(p, fr[1]))
		return -UNWIND_BAD_PC;
	w->r.ip = fr[1];
	if (e != EDGE_KEEP_FP) /* else its slot is not written yet */
		w->r.fp = fr[0];
	w->r.sp = ssp;
	return STEP_ON;
}

/* a virtual thread's frozen frames: vthread__frozen, __enter, __chunk_step */
#include "jvm/vthread.bpf.h"

/*
 * Go from frame idx (the CPU's walk record) of JVM p (or NULL: not a JVM),
 * a process whose unwind table is pr (or NULL: none yet), to its caller by the rules of its code (sampler_abi.h): STEP_ON, STEP_END
 * (the stack's natural end: a zero fp), STEP_ROOT (the same by CFI rows)
 * or -enum unwind_reason. A global function, verified once
 * whatever the caller's state: inlined into the bpf_loop callback, the
 * walk's branches made the verifier process 32k instructions, and a
 * start-up that slow under CPU contention (a JVM at nice -15) missed
 * whole seconds of a -p run.
 */
__noinline int unwind_step(__u32 idx, const struct interp_proc *p,
			   const struct unwind_proc *pr)
{
	struct walk *w = walk_rec();
	__u64 blob;
	int r;

	if (!w)
		return -UNWIND_READ;
	w->idx = idx;
	/* a pending target's pc in a file with unwind rows is no
	 * interpreter's: its rows (unwind.bpf.h) */
	if (p && !p->off_const_method && rows_on(w) &&
	    (r = rows_step(w, pr)) != ROWS_NONE)
		;
	else if (w->hotspot && vthread__frozen(p, w->r.ip))
		r = -UNWIND_FROZEN; /* a leaf in the barrier */
	else if (p && w->r.ip >= p->code_start && w->r.ip < p->code_end)
		r = interp_step(w, p, idx);
	else if (w->hotspot && p && p->nheaps && (blob = find_blob(p, w->r.ip)))
		r = blob_step(w, p, idx, blob, pr);
	else if (w->hotspot && p && p->nheaps && in_code(p, w->r.ip))
		r = -UNWIND_NO_BLOB;
	else
		r = native_step(w, p, pr);
	if (r == STEP_ON && w->r.sp - w->r.sp0 > UNWIND_MAX_SPAN)
		r = -UNWIND_BAD_SP;
	/*
	 * A pending target's walk is a guess (every frame outside a file
	 * with rows taken as interpreted: the call stub's words read as a
	 * frame record give a wrong sp, which the next frame's rows then
	 * reject as a bad sp): whatever broke it, it broke because the JVM
	 * was not read yet
	 */
	if (r < 0 && p && !p->off_const_method)
		r = -UNWIND_EARLY;
	/* returning into the barrier: the mark right under this frame */
	if (r == STEP_ON && w->hotspot && vthread__frozen(p, w->r.ip))
		r = -UNWIND_FROZEN;
	return r;
}

/* The bpf_loop callback's state: the stack being taken. */
struct loop {
	__u64 *ips; /* stack_scratch */
	struct walk *w;
	const struct interp_proc *p; /* the JVM, or NULL */
	/* its unwind table (or NULL): looked up once a sample, not a frame */
	const struct unwind_proc *pr;
	__u32 nr; /* frames kept */
	__u32 end; /* enum unwind_reason that ended the walk, or 0 */
};

/*
 * Frame k of the stack being taken is mark, the last. k is checked in the
 * register that indexes: with the step's calls in between, a check of
 * the frame index kept across them (spilled, then filled) is lost on
 * 6.1's verifier.
 */
static __always_inline void put_mark(struct loop *l, __u64 k, __u64 mark)
{
	asm volatile("" : "+r"(k)); /* checked, then used */
	if (k < max_frames) {
		l->ips[k] = mark;
		l->nr = k + 1;
	}
}

/*
 * One step of the user stack walk: keep the pc, then go to the caller
 * (unwind_step). A walk that broke ends with its marked frame.
 */
static long walk_step(__u32 i, void *arg)
{
	struct loop *l = arg;
	__u64 j = i;
	int r;

	/* step i keeps frame i: index by i, which the verifier need not
	 * track exactly (an exact l->nr would make every step a new
	 * state) */
	asm volatile("" : "+r"(j)); /* checked, then used */
	if (j >= max_frames || !l->w->r.ip)
		return 1;
	l->ips[j] = l->w->r.ip;
	l->nr = j + 1;
	r = vthread__walking() ? vthread__chunk_step(i, l->p)
			       : unwind_step(i, l->p, l->pr);
	if (r == -UNWIND_FROZEN) /* on into the frozen frames, if it can */
		r = vthread__enter(l->p);
	if (r < 0 && -r < UNWIND_NR) {
		/* broken: one marked frame ends the stack, right here (the
		 * index known to the verifier, unlike l->nr after the loop) */
		l->end = -r;
		stat_inc(STAT_UNWIND - r);
		put_mark(l, j + 1, UNWIND_MARK(-r));
	}
	if (r == STEP_ROOT)
		put_mark(l, j + 1, UNWIND_MARK_ROOT);
	return r != STEP_ON;
}

/* State of check mode's frame-pointer walk over the stack just taken. */
struct check {
	struct unwind_regs g; /* the fp walk's frame */
	const struct interp_proc *p;
	const __u64 *ips; /* the stack the HotSpot walk took */
	__u32 n; /* frames the HotSpot walk kept, its mark excluded */
	__u32 broke; /* the HotSpot walk ended with a mark */
	__u32 off; /* 1 once the oracle skipped a frame (CHECK_SKIP) */
	__u32 at; /* the first HotSpot frame the walks differ on */
	__u32 why; /* enum check_why + 1, or 0: the same */
	__u32 pad;
	__u64 pc; /* the oracle's pc there, or 0 */
};

/* The walks differ at HotSpot frame at: why, and the oracle's pc. */
static __always_inline long check_differ(struct check *c, __u32 at, __u32 why,
					 __u64 pc)
{
	c->at = at;
	c->why = why + 1;
	c->pc = pc;
	return 1;
}

static long check_step(__u32 i, void *arg)
{
	struct check *c = arg;
	__u64 j = i, k;

	asm volatile("" : "+r"(j)); /* checked, then used */
	if (j >= max_frames)
		return 1;
	k = j + c->off; /* the HotSpot frame the oracle's frame j is */
	asm volatile("" : "+r"(k)); /* checked, then used */
	if (!c->g.ip)
		return k == c->n ? 1 : check_differ(c, k, CHECK_FP_END, 0);
	if (k >= c->n || k >= max_frames)
		return check_differ(c, k, c->broke ? CHECK_BROKE : CHECK_HS_END,
				    c->g.ip);
	if (c->ips[k] != c->g.ip) {
		/* one frame skipped, once: a frameless frame's caller */
		if (c->off || k + 1 >= c->n || k + 1 >= max_frames ||
		    c->ips[k + 1] != c->g.ip)
			return check_differ(c, k, CHECK_CALLER, c->g.ip);
		c->off = 1;
		c->pc = c->g.ip;
		c->at = k++;
	}
	if (c->p && c->g.ip >= c->p->code_start && c->g.ip < c->p->code_end) {
		__u64 *fr = c->g.word;

		/* the fp walk of an interpreted frame: its record only */
		if (!c->g.fp ||
		    bpf_probe_read_user(fr, 16, (const void *)c->g.fp) ||
		    (fr[0] && fr[0] <= c->g.fp))
			return k + 1 == c->n
				   ? 1
				   : check_differ(c, k + 1, CHECK_FP_END, 0);
		c->g.sp = c->g.fp + 16;
		c->g.ip = fr[1];
		c->g.fp = fr[0];
		return 0;
	}
	/* check mode walks by the HotSpot rules: the oracle knows the
	 * entry barrier's -1 too */
	if (fp_step(&c->g, NULL, true) != STEP_ON)
		return k + 1 == c->n ? 1
				     : check_differ(c, k + 1, CHECK_FP_END, 0);
	return 0;
}

/* check mode's kind of frame idx at pc (enum check_kind) */
static __always_inline __u32 check_kind(const struct interp_proc *p, __u64 pc,
					__u64 idx)
{
	struct blob_info bi;
	__u64 blob;

	if (pc >= p->code_start && pc < p->code_end)
		return CHECK_INTERP;
	blob = find_blob(p, pc);
	if (!blob)
		return in_code(p, pc) ? CHECK_STUB : CHECK_NATIVE;
	if (read_blob(p, blob, &bi) || bi.frame_size <= 0)
		return CHECK_STUB;
	if (!idx && leaf_edge(p, &bi, blob, pc) != EDGE_NONE)
		return CHECK_EDGE;
	return blob_named(p, blob) == BLOB_NMETHOD ? CHECK_COMPILED
						   : CHECK_RTSTUB;
}

/*
 * Check mode: walk the sample of process tgid by frame pointers alone
 * and count whether it gives the n frames the HotSpot walk stored (its
 * mark excluded; bit 31 of n_broke: there was one), and if not, why
 * (enum check_why, by the kind of the frame before the first that
 * differs). On a JVM run with -XX:+PreserveFramePointer both are right,
 * so they must agree, but where the oracle cannot see a frame. 0, or the
 * stack's CHECK_MARK, the oracle's pc there in the walk record's
 * check_pc. A global function: its own stack frame.
 */
__noinline __u64 check_walk(__u32 tgid, __u64 ip, __u64 sp, __u64 fp,
			    __u32 n_broke)
{
	struct walk *w = walk_rec();
	struct check c = {};
	__u32 code, kind, leaf;
	__u64 at, prev;

	c.p = bpf_map_lookup_elem(&interp_procs, &tgid);
	c.ips = stack_buf();
	if (!c.p || !c.ips || !w)
		return 0;
	c.g.ip = ip;
	c.g.sp = sp;
	c.g.fp = fp;
	c.g.sp0 = sp;
	c.n = n_broke & 0x7fffffff;
	c.broke = n_broke >> 31;
	bpf_loop(max_frames, check_step, &c, 0);
	if (!c.why && !c.off) {
		stat_inc(STAT_CHECK_SAME);
		return 0;
	}
	if (!c.why)
		c.why = CHECK_SKIP + 1;
	/* the frame before: at 0 (the first frames always agree) wraps */
	prev = (__u64)c.at - 1;
	asm volatile("" : "+r"(prev)); /* checked, then used */
	if (prev >= max_frames || prev >= STACK_MAX_DEPTH)
		return 0;
	at = prev + 1;
	if (w->a_state == A_USED && w->a_idx == prev)
		c.why = CHECK_ANCHOR + 1;
	kind = check_kind(c.p, c.ips[prev], prev);
	/* the leaf's frame not pushed yet: the walk named it from rbx */
	if (!prev && kind == CHECK_INTERP && entry_leaf(c.p, ip, sp, w->bcp0))
		kind = CHECK_IENTRY;
	/*
	 * A frameless leaf whose callers repeat a pc (a recursion, or
	 * interpreted frames returning to the same entry of the
	 * interpreter): the oracle, one frame behind from the leaf on, met
	 * the same pcs until the frames differed: its skip was the leaf's
	 * caller.
	 */
	if (c.why == CHECK_SKIP + 1 && at > 1 && c.ips[1] == c.ips[2]) {
		leaf = check_kind(c.p, c.ips[0], 0);
		if (leaf == CHECK_INTERP && entry_leaf(c.p, ip, sp, w->bcp0))
			leaf = CHECK_IENTRY;
		if (leaf == CHECK_STUB || leaf == CHECK_EDGE ||
		    leaf == CHECK_IENTRY) {
			at = 1;
			kind = leaf;
		}
	}
	code = CHECK_CODE(c.why - 1, kind, at == 1);
	stat_inc(STAT_CHECK_DIFF + (code < CHECK_CODES ? code : 0));
	w->check_pc = c.pc;
	return CHECK_MARK(at, code);
}

/*
 * The user stack of a sample of tgid/tid, walked here from pc ip, sp and
 * frame pointer fp instead of by the kernel (sampler_abi.h): the stack's key
 * (as take_stack), and in *interp_id the id of the list of interpreted
 * frames, or 0 (none, or the interp map full). p: the JVM, or NULL.
 */
static __always_inline __u64 walk_user_bcp(const struct interp_proc *p,
					   __u32 tgid, __u32 tid, __u64 ip,
					   __u64 sp, __u64 fp, __u64 bcp0,
					   __u64 *interp_id)
{
	struct loop l = {};
	struct walk *w;
	__u64 id, key, j;
	bool norows = false;

	l.ips = stack_buf();
	l.p = p;
	l.w = w = walk_rec();
	if (!l.ips || !w)
		return STACK_NONE;
	w->st.nr = 0;
	w->st.prev = 0;
	w->r.ip = ip;
	w->r.sp = sp;
	w->r.sp0 = sp;
	w->r.fp = fp;
	w->bcp0 = bcp0;
	/* the list's id (the interp map's key) is its process's own: one
	 * process's lists are never taken for another's (issue 29) */
	w->h = mix(0xcbf29ce484222325ULL, tgid);
	w->a_sp = w->a_pc = w->a_fp = 0;
	w->tgid = tgid;
	w->tid = tid;
	w->hotspot = unwind_mode != UNWIND_MODE_FP;
	w->a_state = A_UNREAD;
	w->chunks = 0;
	w->wanted = 0;
	w->win.ok = 0;
	if (!++w->walks) /* name_memo's 0: never a walk's */
		w->walks = 1;
	vthread__reset();
	if (p)
		stat_inc(STAT_INTERP_WALKS);
	if (unwind_mode == UNWIND_MODE_HOTSPOT)
		l.pr = bpf_map_lookup_elem(&unwind_procs, &tgid);
	if (unwind_mode == UNWIND_MODE_HOTSPOT && ip && (__s64)ip > 0 &&
	    !l.pr) {
		stat_inc(STAT_ROWS_NOT_READY);
		norows = true;
	}
	bpf_loop(max_frames, walk_step, &l, 0);
	/* --per-thread: a mounted virtual thread's id (jvm/vthread.bpf.h) */
	if (per_thread && p)
		l.nr = vthread__tag(p, l.nr);
	/* rows on demand (unwind.bpf.h): marked and counted as a walk
	 * without its process's table */
	if (w->wanted && !norows) {
		stat_inc(STAT_ROWS_NOT_READY);
		norows = true;
	}
	j = l.nr;
	asm volatile("" : "+r"(j)); /* checked, then used */
	if (norows && j && j < max_frames) {
		l.ips[j] = UNWIND_MARK_NOROWS;
		l.nr = j + 1;
	}
	if (unwind_mode == UNWIND_MODE_CHECK && p && p->nheaps) {
		__u32 n = l.end && l.nr ? l.nr - 1 : l.nr;
		__u64 mark =
		    check_walk(tgid, ip, sp, fp, n | (l.end ? 1U << 31 : 0));

		/* the difference kept with the stack: user space shows it */
		j = l.nr;
		asm volatile("" : "+r"(j)); /* checked, then used */
		if (mark && j + 1 < max_frames) {
			/* never 0: a stack ends at its first zero */
			l.ips[j] = w->check_pc ?: CHECK_MARK_BASE;
			l.ips[j + 1] = mark;
			l.nr = j + 2;
		}
	}
	key = store_stack(l.nr, STAT_USER_LOST, false);
	if (key <= STACK_LOST || !w->st.nr)
		return key;
	id = w->h ? w->h : 1;
	if (bpf_map_update_elem(&interp, &id, &w->st, BPF_NOEXIST) &&
	    !bpf_map_lookup_elem(&interp, &id)) {
		stat_inc(STAT_INTERP_FULL);
		return key;
	}
	*interp_id = id;
	return key;
}

/* The same, without the sampled frame's r13 (a probe's leaf is no
 * interpreted frame) */
static __always_inline __u64 walk_user(const struct interp_proc *p, __u32 tgid,
				       __u32 tid, __u64 ip, __u64 sp, __u64 fp,
				       __u64 *interp_id)
{
	return walk_user_bcp(p, tgid, tid, ip, sp, fp, 0, interp_id);
}

/* A perf sample's user pc, sp, frame pointer and r13 (the interpreter's
 * bcp); the context only allows 8-byte reads of regs, so the mode comes
 * from the pc's half of the address space. */
static __always_inline void sample_user_regs(struct bpf_perf_event_data *ctx,
					     __u64 *ip, __u64 *sp, __u64 *fp,
					     __u64 *r13)
{
	struct pt_regs *regs = (struct pt_regs *)&ctx->regs;

	*ip = regs->rip;
	*sp = regs->rsp;
	*fp = regs->rbp;
	*r13 = regs->r13;
	if ((__s64)*ip < 0) { /* in the kernel: the user registers it saved */
		struct pt_regs *u = (struct pt_regs *)bpf_task_pt_regs(
		    bpf_get_current_task_btf());

		bpf_probe_read_kernel(ip, sizeof(*ip), &u->rip);
		bpf_probe_read_kernel(sp, sizeof(*sp), &u->rsp);
		bpf_probe_read_kernel(fp, sizeof(*fp), &u->rbp);
		bpf_probe_read_kernel(r13, sizeof(*r13), &u->r13);
	}
}

/* The JVM whose interpreted frames to name, if tgid is one. */
static __always_inline struct interp_proc *interp_proc_of(__u32 tgid)
{
	return hotspot_walk ? bpf_map_lookup_elem(&interp_procs, &tgid) : NULL;
}

/*
 * The time bucket and process (or thread) naming of a key. The process's
 * comm is its main thread's; another thread's is its own name ("C2
 * CompilerThre"), and reading the main thread's takes task_struct's
 * layout (CO-RE): those keys leave comm empty, and user space names them
 * from /proc/PID/comm, read when the process is first seen.
 */
static __always_inline void key_head(struct sample_key *key, __u32 tgid,
				     __u32 tid)
{
	key->pid = tgid;
	key->bucket = (bpf_ktime_get_ns() - start_ns) / bucket_ns;
	if (per_thread)
		key->tid = tid;
	if (per_thread || tid == tgid)
		bpf_get_current_comm(key->comm, sizeof(key->comm));
}

/* One more sample (or call) of key; a full map is counted. */
static __always_inline void count_key(struct sample_key *key)
{
	struct sample_count one = {1, next_read}, *cnt;

	cnt = bpf_map_lookup_elem(&counts, key);
	if (cnt) {
		__sync_fetch_and_add(&cnt->n, 1);
		return;
	}
	if (bpf_map_update_elem(&counts, key, &one, BPF_NOEXIST) == 0) {
		if (bpf_ringbuf_output(&new_keys, key, sizeof(*key),
				       BPF_RB_NO_WAKEUP))
			__sync_fetch_and_add(&new_keys_lost, 1);
		return;
	}
	/* another CPU inserted it first, or the map is full */
	cnt = bpf_map_lookup_elem(&counts, key);
	if (cnt)
		__sync_fetch_and_add(&cnt->n, 1);
	else
		stat_inc(STAT_COUNTS_FULL);
}

/*
 * A timed sample's key: the current task's, with its stacks. Returns
 * false for what is not sampled (idle, a task not among the targets).
 * Shared by mixprof_sample (a count of 1) and --wall's mixprof_wall (a
 * weight in microseconds).
 */
static __always_inline bool sample_key_of(struct bpf_perf_event_data *ctx,
					  struct sample_key *key)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = id >> 32, tid = (__u32)id;

	if (tid == 0) /* idle */
		return false;
	if (filter_pids && !bpf_map_lookup_elem(&targets, &tgid))
		return false;
	stat_inc(STAT_SAMPLES);

	key_head(key, tgid, tid);
	if (user_stacks) {
		struct interp_proc *p = interp_proc_of(tgid);
		__u64 ip, sp, fp, r13;

		sample_user_regs(ctx, &ip, &sp, &fp, &r13);
		key->user_stack = walk_user_bcp(p, tgid, tid, ip, sp, fp, r13,
						&key->interp_id);
		if (key->user_stack == STACK_NONE)
			stat_inc(STAT_USER_EMPTY);
	}
	/*
	 * A tick in user code has no kernel stack: the kernel's walk would
	 * find none, then clear the whole buffer (8 KB at the default
	 * depth) for nothing, on most samples of a busy JVM.
	 */
	if (kernel_stacks)
		key->kern_stack = (__s64)ctx->regs.rip < 0
				      ? take_stack(ctx, 0, STAT_KERN_LOST)
				      : STACK_NONE;
	return true;
}

static __always_inline struct sample_key *perf_key_get(void)
{
	__u32 zero = 0;
	struct sample_key *key = bpf_map_lookup_elem(&perf_key, &zero);

	if (key)
		__builtin_memset(key, 0, sizeof(*key));
	return key;
}

SEC("perf_event")
int mixprof_sample(struct bpf_perf_event_data *ctx)
{
	struct sample_key *key = perf_key_get();

	if (key && sample_key_of(ctx, key))
		count_key(key);
	return 0;
}

/*
 * A Java method entry (libjmap.so's USDT jmap:method_entry, fired by
 * Probe.fire for sites armed for stacks; attached for one JVM): the same
 * key as a sample, user stack only, from the probe's own registers (a
 * uprobe runs in user context). Every call is counted, a lost stack
 * under STACK_LOST (folded as "[lost user stack]"), so the folded total
 * is the number of calls.
 */
SEC("usdt")
int BPF_USDT(mixprof_entry, int site, int probe)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = id >> 32, tid = (__u32)id;
	struct sample_key key = {};
	struct interp_proc *p;

	stat_inc(STAT_SAMPLES);
	key_head(&key, tgid, tid);
	key.kern_stack = STACK_NONE; /* none taken: not "lost" */
	p = interp_proc_of(tgid);
	key.user_stack =
	    walk_user(p, tgid, tid, PT_REGS_IP(ctx), PT_REGS_SP(ctx),
		      PT_REGS_FP(ctx), &key.interp_id);
	count_key(&key);
	return 0;
}

/* --off-cpu: a sched_switch program on the same maps and walk */
#include "offcpu.bpf.h"
/* --alloc: uprobes on libjvm's allocation hooks, the same way */
#include "alloc.bpf.h"
/* --lock: uprobes on libjvm's contended monitor entry and park */
#include "lock.bpf.h"
/* --off-cpu, --wall: virtual threads' waits, uprobes on freeze and thaw */
#include "vtwait.bpf.h"

char LICENSE[] SEC("license") = "GPL";
