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
 * task_struct (at an offset user space finds: kbtf.h), lives in
 * fork.bpf.c.
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
#include "phases.bpf.h"
#include "memo.bpf.h"
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

/*
 * Stack epoch: user space bumps it whenever it may forget stacks
 * (drain.c's free_stacks), so every CPU's stack_sent memo below is stale
 * at once and a stack met again is sent again.
 */
__u64 stack_epoch = 0;

/*
 * Stacks this CPU sent through new_keys in the current stack_epoch, by
 * slot of their key: one that is there is not sent again, since user
 * space keeps every stack it was sent until it bumps the epoch (and one
 * read longer: sampler/README.md, "Stacks by content"). Direct-mapped: a
 * slot another stack took means one more record, never a wrong stack.
 * A per-CPU array, so a check is one access, where a hash map of stacks
 * (a lookup, then an insert of a 1 KiB value allocated in interrupt
 * context) cost ~5 us of a javac sample whose stacks are new.
 */
#define STACK_SENT 4096 /* a CPU's distinct stacks of the last second */
struct stack_sent {
	__u64 key, epoch;
};
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY); /* x possible CPUs: memo.bpf.h */
	__type(key, __u32);
	__type(value, struct stack_sent);
	__uint(max_entries, STACK_SENT);
} stack_sent SEC(".maps");

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
/* the same for the kernel stack: a sample's record carries both */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(key_size, 4);
	__uint(value_size, STACK_SHORT * 8);
	__uint(max_entries, 1);
} kstack_scratch SEC(".maps");

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
 * Lists of interpreted and compiled frames this CPU sent through
 * new_keys in the current stack_epoch, by slot of their id (as
 * stack_sent: user space keeps a list it was sent until it bumps the
 * epoch and one read longer). A list went into a hash map before, its
 * whole 3.6 KB value copied however few frames it held.
 */
#define LIST_SENT 1024 /* a CPU's distinct lists of the last second */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY); /* x possible CPUs: memo.bpf.h */
	__type(key, __u32);
	__type(value, struct stack_sent);
	__uint(max_entries, LIST_SENT);
} list_sent SEC(".maps");

/* full chunks of deep interpreted lists (sampler_abi.h): evicted when old */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, __u64);
	__type(value, struct interp_stack);
	__uint(max_entries, 1024);
} interp_chunks SEC(".maps");

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
 * blob_facts' entries as this CPU last used them, by slot: a direct-mapped
 * memo in front of the LRU, whose lookup (a shared hash, its buckets and
 * entries cold) took about 700 ns of a javac sample's compiled frame
 * (BPF_PHASES=1), where a per-CPU array's slot is one access. The same
 * key means the same facts (blob_facts above); an entry is copied here
 * whenever blob_facts gets it. One program at a time runs on a CPU.
 */
#define BLOB_MEMO 1024 /* slots a CPU: a JVM's hot nmethods and stubs */
#define BLOB_MEMO_SLOT(b) ((__u32)((b) >> 5 ^ (b) >> 15) & (BLOB_MEMO - 1))
struct blob_memo {
	struct blob_key key;
	struct blob_fact fact;
};
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY); /* x possible CPUs: memo.bpf.h */
	__type(key, __u32);
	__type(value, struct blob_memo);
	__uint(max_entries, BLOB_MEMO);
} blob_memo SEC(".maps");

/* blob_facts' entry key -> fact, and this CPU's memo of it (NULL: none) */
static __always_inline void blob_keep(const struct blob_key *key,
				      const struct blob_fact *fact,
				      struct blob_memo *m)
{
	bpf_map_update_elem(&blob_facts, key, fact, BPF_ANY);
	if (m) {
		m->key = *key;
		m->fact = *fact;
	}
}

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
 * A method's names as a walk read them (read_names), for its next frames:
 * a recursion, a visitor's calls back into itself, javac's tree walks
 * name one Method* many times a sample, and each naming is seven reads of
 * the target's memory (1.7 us of a javac frame's 1.9, BPF_PHASES=1). In
 * the walk that read it (walk): a method with a frame on the stack is
 * live while the walk runs. In later samples only while the JVM has
 * unloaded no class since (epoch1: its count of unloaded classes, + 1,
 * as the walk read it; interp_proc.unload_count) and the Method* still
 * holds the same ConstMethod: a class unloaded and loaded again can put
 * another method at the same address (see blob_facts), and HotSpot
 * counts an unloaded class before it frees its methods; a redefined
 * method's old Method* freed and reused gets a new ConstMethod (read
 * only once the JVM says a class was redefined: interp_proc.redefined,
 * a cold read of ~500 ns a frame spared). A
 * direct-mapped per-CPU array of slots by Method*, keyed by process too.
 */
#define NAME_MEMO 2048 /* methods remembered a CPU: a power of 2 */
#define NAME_MEMO_SLOT(m) ((__u32)((m) >> 3 ^ (m) >> 14) & (NAME_MEMO - 1))
struct name_memo {
	__u64 method, cm, klass_name, name;
	__u64 epoch1; /* the JVM's unloaded classes + 1 then; 0: unknown */
	__u32 hashes, walk;
	__u32 tgid, pad;
};
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY); /* x possible CPUs: memo.bpf.h */
	__type(key, __u32);
	__type(value, struct name_memo);
	__uint(max_entries, NAME_MEMO);
} names_memo SEC(".maps");

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
	/* the sampled frame's rdx, or 0: a C2 runtime stub leaf's caller pc
	 * once its tail jump popped it there (hotspot.bpf.h, EDGE_GONE) */
	__u64 rdx0;
	__u64 h; /* hash of the listed frames: their list's id */
	__u64 a_sp, a_pc, a_fp; /* the anchor, once read */
	__u64 check_pc; /* check mode: the oracle's pc where it differs */
	/* an adapter leaf's caller's other sp (adapter_step), or 0 */
	__u64 alt_sp;
	__u32 tgid, tid; /* the process and thread */
	/* this CPU (its part of the memos: memo.bpf.h); a memo's index */
	__u32 cpu, memo_i;
	__u32 idx; /* the frame being stepped (0: the leaf) */
	__u32 hotspot; /* the HotSpot rules (not UNWIND_MODE_FP) */
	__u32 a_state; /* the frame anchor: enum anchor_state */
	__u32 a_idx; /* the frame whose step resumed at the anchor */
	__u32 chunks; /* interpreted frames' chunks stored (sampler_abi.h) */
	__u32 wanted; /* met code of a file whose rows are not built yet */
	__u64 word[WALK_WORDS]; /* words read from the target's stack */
	__u8 block[BLOCK_BYTES]; /* a block read: names, a CodeBlob, code */
	struct stack_win win; /* the stack's page in use (unwind.bpf.h) */
	struct rows_seen rows_seen; /* the rows step's last mapping (same) */
	__u32 walks; /* this walk's number: name_memo's walk (never 0) */
	__u32 epoch_walk; /* the walk that read epoch1 */
	__u64 epoch1; /* the JVM's unloaded classes + 1; 0: unknown */
	/* read with epoch1: a class was ever redefined, or unknown
	 * (interp_proc.redefined); 0: none */
	__u32 redefined;
	/* the leaf was in the interpreter's return, its frame gone
	 * (interp_tail) */
	__u32 tail_leaf;
	struct blob_seen blob; /* the frame's CodeBlob (read_blob) */
	/* a sample's record (sampler_abi.h): what it carries besides its
	 * head, set when the stacks and list are stored; 0: not there */
	__u32 send_user, send_kern; /* frames of each stack */
	__u32 send_list, send_pad; /* bytes of the list */
	struct sample_rec rec; /* its head */
	/* a list record's head (sampler_abi.h), right before the list it
	 * sends: one copy into the ring */
	__u64 list_head[LIST_REC_HEAD];
	struct interp_stack st; /* the frames listed (sampler_abi.h) */
#ifdef MIXPROF_PHASES
	__u32 ph_kind, ph_pad; /* the step's kind (phases.h) */
#endif
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

/* CPU cpu's stack buffer (kern: the kernel stack's): its frames, past the
 * record head (sampler_abi.h). */
static __always_inline __u64 *cpu_stack_buf(__u32 cpu, bool kern)
{
	__u64 *b = bpf_map_lookup_elem(
	    kern ? (void *)&kstack_scratch : (void *)&stack_scratch, &cpu);

	return b ? b + STACK_REC_HEAD : NULL;
}

/* This CPU's stack buffer. */
static __always_inline __u64 *stack_buf(void)
{
	return cpu_stack_buf(bpf_get_smp_processor_id(), false);
}

/* The same for the kernel stack. */
static __always_inline __u64 *kstack_buf(void)
{
	return cpu_stack_buf(bpf_get_smp_processor_id(), true);
}

/* Does a memo slot of stacks or lists sent (or NULL) hold key in this
 * stack epoch? */
static __always_inline bool sent_holds(const struct stack_sent *sent, __u64 key)
{
	return sent && sent->key == key && sent->epoch == stack_epoch;
}

/* ... and now it does */
static __always_inline void sent_now(struct stack_sent *sent, __u64 key)
{
	if (sent) {
		sent->key = key;
		sent->epoch = stack_epoch;
	}
}

/* ... the same, from key alone (a memo of slots slots a CPU) */
static __always_inline void sent_mark(void *memo, __u32 slots, __u64 key)
{
	sent_now(memo__slot(memo, slots, bpf_get_smp_processor_id(), key), key);
}

/* store_stack's how */
#define STORE_KERN 1 /* the kernel stack's buffer */
#define STORE_DEFER 2 /* not sent: a sample's record carries it */

/* This CPU's walk record (a key in .rodata: no word on the caller's frame). */
static __always_inline struct walk *walk_rec(void)
{
	return bpf_map_lookup_elem(&walk, (const void *)&percpu_key);
}

/*
 * Store the nr frames in the CPU's stack buffer (how & STORE_KERN: the
 * kernel stack's) by content: send them to user space (a new_keys record
 * of their length: sampler_abi.h) unless this CPU sent them in this
 * stack epoch; with STORE_DEFER, the walk record's send_user or
 * send_kern says whether a sample's record must carry them instead
 * (send_sample). Their key (sampler_abi.h), STACK_NONE for no frames, or
 * STACK_LOST when the ring took no record (full: user space late, or
 * busy), counted at lost. A global function: verified once, not at each
 * of its callers.
 */
__noinline __u64 store_stack(__u32 nr, __u32 lost, __u32 how)
{
	__u32 cpu = bpf_get_smp_processor_id();
	__u64 *ips = cpu_stack_buf(cpu, how & STORE_KERN);
	struct stack_hash c = {
	    .ips = ips, .nr = nr, .h = 0xcbf29ce484222325ULL};
	struct stack_sent *sent;
	struct walk *w;
	__u64 *rec, bytes;

	if (!nr || !ips || nr > max_frames)
		return STACK_NONE;
	PHASE_START(th);
	bpf_loop(c.nr, hash_step, &c, 0);
	if (c.h <= STACK_LOST)
		c.h |= 2;
	PHASE_END(PH_HASH, th);
	PHASE_START(tm);
	/* the memo's index in the record's head, written later: not in a
	 * slot of this frame (the walk's chain has 512 bytes on 6.1) */
	sent = memo__at(&stack_sent, STACK_SENT, cpu, c.h,
			(__u32 *)(ips - STACK_REC_HEAD));
	if (sent_holds(sent, c.h)) {
		PHASE_END(PH_STACK_KNOWN, tm);
		return c.h;
	}
	if (how & STORE_DEFER) {
		w = walk_rec();
		if (!w)
			return STACK_NONE;
		if (how & STORE_KERN)
			w->send_kern = nr;
		else
			w->send_user = nr;
		PHASE_END(PH_STACK_NEW, tm);
		return c.h;
	}
	rec = ips - STACK_REC_HEAD;
	rec[0] = 0;
	rec[1] = c.h;
	bytes = ((__u64)nr + STACK_REC_HEAD) * 8;
	asm volatile("" : "+r"(bytes)); /* checked, then used */
	if (bytes > ((__u64)max_frames + STACK_REC_HEAD) * 8)
		return STACK_NONE;
	if (bpf_ringbuf_output(&new_keys, rec, bytes, BPF_RB_NO_WAKEUP)) {
		stat_inc(lost);
		return STACK_LOST;
	}
	sent_now(sent, c.h);
	PHASE_END(PH_STACK_RING, tm);
	return c.h;
}

/*
 * Take the current stack (flags: BPF_F_USER_STACK or 0) with the kernel's
 * walk, the one bpf_get_stackid would do, and store it; its key, or
 * STACK_NONE / STACK_LOST. The kernel zero-fills the rest of the buffer.
 */
static __always_inline __u64 take_stack(void *ctx, __u64 flags, __u32 lost,
					__u32 how)
{
	__u32 bytes = max_frames * 8;
	__u64 *ips = how & STORE_KERN ? kstack_buf() : stack_buf();
	long n;

	if (!ips)
		return STACK_NONE;
	if (bytes > STACK_MAX_DEPTH * 8)
		bytes = STACK_MAX_DEPTH * 8;
	n = bpf_get_stack(ctx, ips, bytes, flags);
	if (n < 0)
		n = 0; /* and the buffer cleared */
	return store_stack((__u64)n / 8, lost, how);
}

static __always_inline __u64 read_u64(__u64 addr)
{
	__u64 v = 0;

	if (bpf_probe_read_user(&v, sizeof(v), (const void *)addr))
		return 0;
	return v;
}

/*
 * The frame-pointer rules (native code, stubs without a frame size), on
 * g: the walk's frame (its stack read through win), or check mode's
 * oracle (win NULL). cookie: HotSpot's rules (the nmethod entry
 * barrier's -1, below).
 */
static __always_inline int fp_step(struct unwind_regs *g, struct stack_win *win,
				   bool cookie)
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
	PHASE_START(t);
	int r = rows_step_regs(&w->r, pr, &w->win, &w->rows_seen, w->idx);

	PHASE_END(PH_ROWS, t);
	if (r == ROWS_WANTED) {
		w->wanted = 1;
		return fp_step(&w->r, &w->win, w->hotspot);
	}
	return r;
}

/*
 * The HotSpot half of the walk (jvm/hotspot.bpf.h): interpreted and
 * compiled frames, CodeBlobs and their edges, stubs and adapters, the
 * frame anchor; native_step, below, is what it falls back to.
 */
/* this CPU's memo slot of blob, for a walk (w): its index in w, not on
 * the caller's stack */
static __always_inline struct blob_memo *blob_memo_of(struct walk *w,
						      __u64 blob)
{
	return memo__at(&blob_memo, BLOB_MEMO, w->cpu, BLOB_MEMO_SLOT(blob),
			&w->memo_i);
}

#include "jvm/hotspot.bpf.h"

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
	else
		PHASE_KIND(w, PH_F_ROWS);

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
	PHASE_KIND(w, PH_F_ANCHOR);
	stat_inc(STAT_ANCHOR);
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
		r = (PHASE_KIND(w, PH_F_INTERP), interp_step(w, p, idx));
	else if (w->hotspot && p && p->nheaps && (blob = find_blob(p, w->r.ip)))
		r = blob_step(w, p, idx, blob, pr);
	else if (w->hotspot && p && p->nheaps && in_code(p, w->r.ip))
		r = -UNWIND_NO_BLOB;
	else
		r = (PHASE_KIND(w, PH_F_FP), native_step(w, p, pr));
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
	PHASE_START(t);
	PHASE_KIND(l->w, PH_F_OTHER);
	if (vthread__walking())
		r = (PHASE_KIND(l->w, PH_F_CHUNK),
		     vthread__chunk_step(i, l->p));
	else
		r = unwind_step(i, l->p, l->pr);
	if (r == -UNWIND_FROZEN) /* on into the frozen frames, if it can */
		r = (PHASE_KIND(l->w, PH_F_CHUNK), vthread__enter(l->p));
	PHASE_END(l->w->ph_kind, t);
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
	/* in its prologue, rbp may not be its own yet even where the frame
	 * size rule holds (leaf_edge's EDGE_NONE) */
	if (!idx &&
	    (leaf_edge(p, &bi, blob, pc) != EDGE_NONE ||
	     (bi.frame_complete > 0 && pc < bi.code_begin + bi.frame_complete)))
		return CHECK_EDGE;
	return blob_named(p, blob) == BLOB_NMETHOD ? CHECK_COMPILED
						   : CHECK_RTSTUB;
}

/*
 * check_kind of the leaf at ip, sp: an interpreted one whose frame is not
 * pushed yet (the walk named it from rbx) or gone already (the walk left
 * it in its return) told apart.
 */
static __always_inline __u32 check_leaf(const struct walk *w,
					const struct interp_proc *p, __u64 ip,
					__u64 sp)
{
	__u32 kind = check_kind(p, ip, 0);

	if (kind == CHECK_INTERP && entry_leaf(p, ip, sp, w->bcp0))
		return CHECK_IENTRY;
	if (kind == CHECK_INTERP && w->tail_leaf)
		return CHECK_ITAIL;
	return kind;
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
/*
 * The oracle's first rbp: fp, or, for a leaf at -XX:+PreserveFramePointer's
 * "add rbp, N" right after "mov rbp, rsp" (blobkinds.h: C2's runtime stubs
 * run it past their frame_complete), rbp as that "add" leaves it: the
 * frame's record is in place already, only rbp does not point at it yet
 * (otherwise a different caller in check mode, 19-40 of 8,000 samples of
 * a rethrowing workload on JDK 25).
 */
static __always_inline __u64 check_first_fp(__u64 ip, __u64 sp, __u64 fp)
{
	__u8 c[8] = {};
	__s32 imm;

	if (fp != sp || bpf_probe_read_user(c, sizeof(c), (const void *)ip) ||
	    !X86_IS_ADD_RBP(c))
		return fp;
	if (c[1] == 0x83)
		return fp + (__s64)(__s8)c[3];
	__builtin_memcpy(&imm, c + 3, sizeof(imm));
	return fp + (__s64)imm;
}

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
	c.g.fp = check_first_fp(ip, sp, fp);
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
	kind = prev ? check_kind(c.p, c.ips[prev], prev)
		    : check_leaf(w, c.p, c.ips[0], sp);
	/*
	 * A frameless leaf whose callers repeat a pc (a recursion, or
	 * interpreted frames returning to the same entry of the
	 * interpreter): the oracle, one frame behind from the leaf on, met
	 * the same pcs until the frames differed: its skip was the leaf's
	 * caller.
	 */
	if (c.why == CHECK_SKIP + 1 && at > 1 && c.ips[1] == c.ips[2]) {
		leaf = check_leaf(w, c.p, c.ips[0], sp);
		if (leaf == CHECK_STUB || leaf == CHECK_EDGE ||
		    leaf == CHECK_IENTRY || leaf == CHECK_ITAIL) {
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
 * Send the walk's list under id (a new_keys record of its length:
 * sampler_abi.h) unless this CPU sent it in this stack epoch: 1 when
 * known, 0 sent, -1 when the ring took no record. defer: not sent, but
 * the walk record's send_list says how many of its bytes a sample's
 * record must carry.
 */
static __always_inline int
send_list(struct walk *w, const struct interp_proc *p, __u64 id, bool defer)
{
	struct stack_sent *sent;
	__u64 bytes = w->st.nr;

	sent = memo__slot(&list_sent, LIST_SENT, w->cpu, id);
	if (sent_holds(sent, id))
		return 1;
	/* the JVM's epoch now: user space keeps the names of the list's
	 * methods for later ones only while it is still the JVM's */
	w->st.epoch = 0;
	if (p) {
		walk_epoch(w, p);
		w->st.epoch = (__u32)w->epoch1;
	}
	if (defer) {
		/* the list's own head (nr, prev), its nr frames */
		w->send_list = 16 + bytes * sizeof(w->st.f[0]);
		return 0;
	}
	/* the head, the list's own head (nr, prev), its nr frames */
	bytes = sizeof(w->list_head) + 16 + bytes * sizeof(w->st.f[0]);
	asm volatile("" : "+r"(bytes)); /* checked, then used */
	if (bytes > sizeof(w->list_head) + sizeof(w->st))
		return -1;
	w->list_head[0] = LIST_REC_TAG;
	w->list_head[1] = id;
	if (bpf_ringbuf_output(&new_keys, w->list_head, bytes,
			       BPF_RB_NO_WAKEUP))
		return -1;
	sent_now(sent, id);
	return 0;
}

/*
 * The user stack of a sample of tgid/tid, walked here from pc ip, sp and
 * frame pointer fp instead of by the kernel (sampler_abi.h): the stack's key
 * (as take_stack), and in *interp_id the id of the list of interpreted
 * frames, or 0 (none, or the ring full). p: the JVM, or NULL. defer: the
 * stack and list are not sent, a sample's record carries them
 * (send_sample).
 */
static __always_inline __u64 walk_user_bcp(const struct interp_proc *p,
					   __u32 tgid, __u32 tid, __u64 ip,
					   __u64 sp, __u64 fp, __u64 bcp0,
					   __u64 rdx0, __u64 *interp_id,
					   bool defer)
{
	struct loop l = {};
	struct walk *w;
	__u64 id, key, j;
	bool norows = false;
	long err;

	PHASE_START(ts);
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
	w->rdx0 = rdx0;
	/* the list's id (sample_key.interp_id) is its process's own: one
	 * process's lists are never taken for another's (issue 29) */
	w->h = mix(0xcbf29ce484222325ULL, tgid);
	w->a_sp = w->a_pc = w->a_fp = 0;
	w->alt_sp = 0;
	w->tail_leaf = 0;
	w->tgid = tgid;
	w->tid = tid;
	w->cpu = bpf_get_smp_processor_id();
	w->hotspot = unwind_mode != UNWIND_MODE_FP;
	w->a_state = A_UNREAD;
	w->chunks = 0;
	w->wanted = 0;
	w->win.ok = 0;
	rows_seen__reset(&w->rows_seen);
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
	PHASE_END(PH_WALK_SETUP, ts);
	PHASE_START(tw);
	bpf_loop(max_frames, walk_step, &l, 0);
	PHASE_END(PH_WALK, tw);
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
	PHASE_START(tk);
	key = store_stack(l.nr, STAT_USER_LOST, defer ? STORE_DEFER : 0);
	PHASE_END(PH_STORE_USER, tk);
	if (key <= STACK_LOST || !w->st.nr)
		return key;
	id = w->h ? w->h : 1;
	PHASE_START(ti);
	err = send_list(w, p, id, defer);
	PHASE_END(err > 0 ? PH_INTERP_KNOWN : PH_INTERP_NEW, ti);
	if (err < 0) {
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
	return walk_user_bcp(p, tgid, tid, ip, sp, fp, 0, 0, interp_id, false);
}

/* A perf sample's user pc, sp, frame pointer, r13 (the interpreter's
 * bcp) and rdx (struct walk's rdx0); the context only allows 8-byte reads
 * of regs, so the mode comes from the pc's half of the address space. */
static __always_inline void sample_user_regs(struct bpf_perf_event_data *ctx,
					     __u64 *ip, __u64 *sp, __u64 *fp,
					     __u64 *r13, __u64 *rdx)
{
	struct pt_regs *regs = (struct pt_regs *)&ctx->regs;

	*ip = regs->rip;
	*sp = regs->rsp;
	*fp = regs->rbp;
	*r13 = regs->r13;
	*rdx = regs->rdx;
	if ((__s64)*ip < 0) { /* in the kernel: the user registers it saved */
		struct pt_regs *u = (struct pt_regs *)bpf_task_pt_regs(
		    bpf_get_current_task_btf());

		bpf_probe_read_kernel(ip, sizeof(*ip), &u->rip);
		bpf_probe_read_kernel(sp, sizeof(*sp), &u->rsp);
		bpf_probe_read_kernel(fp, sizeof(*fp), &u->rbp);
		bpf_probe_read_kernel(r13, sizeof(*r13), &u->r13);
		bpf_probe_read_kernel(rdx, sizeof(*rdx), &u->rdx);
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

/* n more of key in the count (sample_count: in events more events) */
static __always_inline void count_add(struct sample_count *cnt, __u64 n,
				      __u64 events)
{
	__sync_fetch_and_add(&cnt->n, n);
	if (events)
		__sync_fetch_and_add(&cnt->events, events);
}

/*
 * n more of key, in events more events (0 for plain samples), in the
 * counts map; a full map is counted. A key new to the map goes to user
 * space (a new_keys record) too.
 */
static __always_inline void counts_add(struct sample_key *key, __u64 n,
				       __u64 events)
{
	struct sample_count one = {n, next_read, events}, *cnt;
	PHASE_START(t);

	cnt = bpf_map_lookup_elem(&counts, key);
	if (cnt) {
		count_add(cnt, n, events);
		PHASE_END(PH_COUNT_HIT, t);
		return;
	}
	if (bpf_map_update_elem(&counts, key, &one, BPF_NOEXIST) == 0) {
		if (bpf_ringbuf_output(&new_keys, key, sizeof(*key),
				       BPF_RB_NO_WAKEUP))
			__sync_fetch_and_add(&new_keys_lost, 1);
		PHASE_END(PH_COUNT_NEW, t);
		return;
	}
	/* another CPU inserted it first, or the map is full */
	cnt = bpf_map_lookup_elem(&counts, key);
	if (cnt)
		count_add(cnt, n, events);
	else
		stat_inc(STAT_COUNTS_FULL);
}

/* One more call of key (a probe's). */
static __always_inline void count_key(struct sample_key *key)
{
	counts_add(key, 1, 0);
}

/*
 * Send the sample whose key is in perf_key, weighing n in events, as
 * one record (sampler_abi.h): its head, then the stacks and list the
 * walk record says this CPU has not sent (send_user, send_kern,
 * send_list), each at its used length, written into the ring's own
 * memory (a dynptr: one reservation, no assembled copy). 0, and those
 * stacks and the list are this CPU's sent ones; or -1 when the ring
 * took no record (full: the drain fell behind; or busy). A global
 * function: its frame (the dynptr's) is not in the walk's chain.
 */
__noinline int send_sample(__u64 n, __u64 events)
{
	struct sample_key *key =
	    bpf_map_lookup_elem(&perf_key, (const void *)&percpu_key);
	__u64 *ub = stack_buf(), *kb = kstack_buf();
	__u64 ubytes, kbytes, lbytes, off;
	struct walk *w = walk_rec();
	struct bpf_dynptr d;
	long err;

	if (!w || !key || !ub || !kb)
		return -1;
	ubytes = (__u64)w->send_user * 8;
	kbytes = (__u64)w->send_kern * 8;
	lbytes = w->send_list;
	asm volatile("" : "+r"(ubytes)); /* checked, then used */
	asm volatile("" : "+r"(kbytes));
	asm volatile("" : "+r"(lbytes));
	if (ubytes > (__u64)max_frames * 8 || kbytes > (__u64)max_frames * 8 ||
	    lbytes > sizeof(w->st))
		return -1;
	w->rec.tag = SAMPLE_REC_TAG;
	w->rec.n = n;
	w->rec.events = events;
	w->rec.user_nr = ubytes / 8;
	w->rec.kern_nr = kbytes / 8;
	w->rec.list_bytes = lbytes;
	w->rec.key = *key;
	PHASE_START(t);
	err = bpf_ringbuf_reserve_dynptr(
	    &new_keys, sizeof(w->rec) + ubytes + kbytes + lbytes, 0, &d);
	if (!err)
		err = bpf_dynptr_write(&d, 0, &w->rec, sizeof(w->rec), 0);
	off = sizeof(w->rec);
	if (!err && ubytes)
		err = bpf_dynptr_write(&d, off, ub, ubytes, 0);
	off += ubytes;
	if (!err && kbytes)
		err = bpf_dynptr_write(&d, off, kb, kbytes, 0);
	off += kbytes;
	if (!err && lbytes)
		err = bpf_dynptr_write(&d, off, &w->st, lbytes, 0);
	if (err) {
		bpf_ringbuf_discard_dynptr(&d, BPF_RB_NO_WAKEUP);
		return -1;
	}
	bpf_ringbuf_submit_dynptr(&d, BPF_RB_NO_WAKEUP);
	PHASE_END(PH_REC, t);
	if (ubytes)
		sent_mark(&stack_sent, STACK_SENT, key->user_stack);
	if (kbytes)
		sent_mark(&stack_sent, STACK_SENT, key->kern_stack);
	if (lbytes)
		sent_mark(&list_sent, LIST_SENT, key->interp_id);
	return 0;
}

/*
 * A timed sample of key (perf_key's), weighing n in events: one record
 * with what user space lacks (send_sample), even for a key sent before:
 * a record without stacks (~0.8 us of a repeated Recurse sample, phase
 * timer) cost less than a counts map add (~1.1 us with its lookup in a
 * per-CPU memo of the keys sent). A record the ring refused: the
 * sample is counted in the counts map, its unsent stacks and list lost
 * (counted).
 */
static __always_inline void count_sample(struct sample_key *key, __u64 n,
					 __u64 events)
{
	struct walk *w;

	if (!send_sample(n, events))
		return;
	stat_inc(STAT_REC_FULL);
	w = walk_rec();
	if (w && w->send_user) {
		key->user_stack = STACK_LOST;
		stat_inc(STAT_USER_LOST);
	}
	if (w && w->send_kern) {
		key->kern_stack = STACK_LOST;
		stat_inc(STAT_KERN_LOST);
	}
	if (w && w->send_list) {
		key->interp_id = 0;
		stat_inc(STAT_INTERP_FULL);
	}
	counts_add(key, n, events);
}

/*
 * A timed sample's key: the current task's, with its stacks, stored for
 * its record (count_sample). Returns false for what is not sampled
 * (idle, a task not among the targets). Shared by mixprof_sample (a
 * count of 1) and --wall's mixprof_wall (a weight in microseconds).
 */
static __always_inline bool sample_key_of(struct bpf_perf_event_data *ctx,
					  struct sample_key *key)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = id >> 32, tid = (__u32)id;
	struct walk *w;

	if (tid == 0) /* idle */
		return false;
	if (filter_pids && !bpf_map_lookup_elem(&targets, &tgid))
		return false;
	w = walk_rec();
	if (!w)
		return false;
	stat_inc(STAT_SAMPLES);
	/* what its record carries (count_sample), set as it is stored */
	w->send_user = w->send_kern = w->send_list = 0;

	PHASE_START(tc);
	PHASE_END(PH_CLOCK, tc);
	PHASE_START(th);
	key_head(key, tgid, tid);
	PHASE_END(PH_KEY_HEAD, th);
	if (user_stacks) {
		struct interp_proc *p = interp_proc_of(tgid);
		__u64 ip, sp, fp, r13, rdx;
		PHASE_START(tr);

		sample_user_regs(ctx, &ip, &sp, &fp, &r13, &rdx);
		PHASE_END(PH_REGS, tr);
		key->user_stack = walk_user_bcp(p, tgid, tid, ip, sp, fp, r13,
						rdx, &key->interp_id, true);
		if (key->user_stack == STACK_NONE)
			stat_inc(STAT_USER_EMPTY);
	}
	/*
	 * A tick in user code has no kernel stack: the kernel's walk would
	 * find none, then clear the whole buffer (8 KB at the default
	 * depth) for nothing, on most samples of a busy JVM.
	 */
	if (kernel_stacks && (__s64)ctx->regs.rip < 0) {
		PHASE_START(tk);
		key->kern_stack = take_stack(ctx, 0, STAT_KERN_LOST,
					     STORE_KERN | STORE_DEFER);
		PHASE_END(PH_KSTACK, tk);
	} else if (kernel_stacks) {
		key->kern_stack = STACK_NONE;
	}
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
	PHASE_START(t);
	struct sample_key *key = perf_key_get();

	if (key && sample_key_of(ctx, key)) {
		count_sample(key, 1, 0);
		PHASE_END(PH_SAMPLE, t);
	}
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
