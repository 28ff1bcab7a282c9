/*
 * sampler_abi.h: the types the BPF sampler (sampler.bpf.c) and user space
 * (sampler.c) share. Fixed-width types only, explicit padding, no
 * includes: both sides get __u32/__u64 from <linux/types.h> (through
 * <linux/bpf.h> on the BPF side); user space _Static_asserts the sizes.
 */
#ifndef MIXPROF_SAMPLER_H
#define MIXPROF_SAMPLER_H

#define SAMPLER_COMM_LEN 16

/*
 * One counted stack: the counts map is key -> struct sample_count, and
 * so is user space's count of the timed samples' records (below).
 * Samples of one bucket (a bucket_ns slice of time since start_ns) share
 * keys, so each holds one entry per distinct stack per bucket, and user
 * space takes whole buckets once no sample can hit them any more.
 */
struct sample_key {
	__u32 pid; /* tgid */
	__u32 tid; /* 0 unless per-thread */
	__u64 user_stack; /* stack key (below), or STACK_NONE / STACK_LOST */
	__u64 kern_stack; /* the same for the kernel stack */
	__u64 bucket; /* (ktime - start_ns) / bucket_ns */
	__u64 interp_id; /* id of the list of interpreted frames, or 0 */
	char comm[SAMPLER_COMM_LEN];
};

/*
 * read: the value of the BPF global next_read when the key was added,
 * which user space sets to a drain's number as that drain begins. Each
 * key added is also sent to user space through the new_keys ring; the
 * stamp tells, when user space reads the whole counts map, which keys
 * the ring may not have shown yet (stamped with this drain or the one
 * before) or, after the ring dropped records, since when.
 */
struct sample_count {
	__u64 n; /* samples (or probe hits), or a weight (us, bytes) */
	__u64 read;
	__u64 events; /* a weighted key's events (waits, allocation hook
		       * hits) that n sums; 0 for plain samples */
};

/*
 * Stacks are sent by content: the key is a 64-bit hash of the frames,
 * so a key names the same frames for the whole run, and user space keeps
 * each stack it was sent (sampler/stackcache.c) under its key. The BPF
 * program sends a stack through the new_keys ring (below) unless its CPU
 * sent it since user space last bumped the stack epoch (the BPF global
 * stack_epoch: user space may forget stacks no key uses from then on).
 * No kernel map holds stacks: a hash map's insert of a new stack (an
 * allocation in interrupt context, a value of the run's depth) was most
 * of a sample's store cost. Two ids are reserved, never a stored stack's
 * key (a hash that falls on one is moved off it).
 */
#define STACK_NONE 0 /* id: no stack of this kind (kernel thread, user mode) */
#define STACK_LOST 1 /* id: there was one, but the ring took no record */
#define STACK_SHORT 128 /* frames the stack buffer holds at least */
/*
 * --stack-depth's bound: a 16-bit count, far past any real stack (a
 * thread's default 8 MB stack holds some tens of thousands of frames),
 * and a bound the verifier can keep on every frame index and on
 * bpf_get_stack's size.
 */
#define STACK_MAX_DEPTH 65535

/*
 * The new_keys ring carries four kinds of record (the fourth, a
 * sample's, below). A struct sample_key:
 * a key just added to the counts map (its pid, the first word's low
 * half, is never 0). A stack, as the program sends it: STACK_REC_HEAD
 * words, 0 then the stack's key, then its frames (the record's length
 * says how many). A list of interpreted and compiled frames (struct
 * interp_stack, below): LIST_REC_HEAD words, LIST_REC_TAG then the
 * list's id (sample_key.interp_id), then the list's nr, prev and its nr
 * frames, no more. Lists, like stacks, are sent once per CPU and stack
 * epoch; user space keeps them.
 */
#define STACK_REC_HEAD 2
#define LIST_REC_HEAD 2
#define LIST_REC_TAG (1ULL << 32) /* no key's first word: its pid is 0 */

/*
 * A timed sample (mixprof_sample, --wall's mixprof_wall) goes to user
 * space as one record of its own, and user space counts it: a struct
 * sample_rec, then the frames of its user stack (user_nr), of its kernel
 * stack (kern_nr) and its list (list_bytes: the list's nr, prev and nr
 * frames), each only when this CPU did not send it in this stack epoch
 * (else 0: user space has it, under the key's stack key or interp_id).
 * Real stacks are new at nearly every sample (javac: 97%), and a counts
 * map insert with its own key record, beside a record for each new
 * stack and list, cost about three records' time; where keys repeat, a
 * record of the key alone costs less than a counts map add. A sample
 * whose record the ring refused is counted in the counts map, which
 * user space reads when its bucket is done, its unsent stacks
 * STACK_LOST.
 */
#define SAMPLE_REC_TAG (2ULL << 32) /* no key's first word: its pid is 0 */
struct sample_rec {
	__u64 tag; /* SAMPLE_REC_TAG */
	__u64 n, events; /* what the sample adds (struct sample_count's) */
	__u32 user_nr, kern_nr; /* frames of each stack that follow */
	__u32 list_bytes; /* bytes of the list that follows */
	__u32 pad;
	struct sample_key key;
};

/*
 * Interpreted frames. User space tells BPF, per JVM, where the template
 * interpreter's code lies and the VMStructs offsets below (interp_procs:
 * tgid -> struct interp_proc). The user stack of such a process is not
 * taken by the kernel: the BPF program walks it itself, with the HotSpot
 * unwinder (below: interpreted frames by their fp, compiled ones by
 * their CodeBlob's frame size, native code by its .eh_frame rows, unwind/,
 * else by fp) and, in the same walk, for each frame whose pc lies in
 * the interpreter, reads the Method* HotSpot keeps at rbp + method_slot
 * and from it the Symbol* of the holder class name and of the method
 * name, at sample time (so a Method* freed and reused later cannot rename
 * the sample). The list is sent to user space (new_keys, above) under a
 * hash of its contents: sample_key.interp_id. One walk for both, so a listed frame's
 * idx is its position in the stored user stack.
 */
#define INTERP_MAX_FRAMES 64 /* interpreted frames kept per sample */
/* x86-64 frame::interpreter_frame_method_offset (JDK 8 to 25): rbp - 3 words */
#define INTERP_METHOD_SLOT (-3 * 8)
/* ... and interpreter_frame_bcp_offset (JDK 9 to 25): rbp - 8 words. The
 * slot is written when the frame calls out (a call, the VM); a frame
 * running bytecodes keeps its bcp in r13, read for the sampled frame */
#define INTERP_BCP_SLOT (-8 * 8)
/* JVMS 4.7.3: a method's code_length is below 65536 bytes */
#define INTERP_MAX_CODE 65535

/*
 * A process not known yet (a target, before user space has read its
 * VMStructs) is "pending": code [0, ~0) and no offsets, so every frame's
 * Method* slot is kept and user space picks the interpreted ones later.
 * That covers a JVM's first interpreted code, which runs before the first
 * drain tick could read its tables.
 */
/* code heaps (3 with a segmented code cache): jvm/hotspot.h's
 * HOTSPOT_MAX_HEAPS, asserted equal where both are seen (jvm/jvms.c) */
#define UNWIND_HEAPS 4

struct unwind_heap {
	__u64 lo, hi; /* reserved range: [lo, hi) */
	__u64 segmap; /* one byte per segment (heap.cpp) */
	__u32 log2_seg; /* segment size */
	__u32 pad;
};

/*
 * The interpreter's return past a frame it removed (jvm/itails.h): from
 * code_start + at, len bytes of code where the frame is gone but the
 * caller is not back yet. Before pop_end (bytes from at) the return
 * address is at sp, after it in the register regs >> 4; before mov_end
 * the caller's sp is in the register regs & 15, after it at sp (x86-64
 * register numbers). Sorted by at.
 */
struct interp_tail {
	__u32 at;
	__u8 len, pop_end, mov_end, regs;
};
/* tails kept: JDK 17 and JDK 25 have 16 each (7 return templates, 6
 * early returns, the exception path, 2 native entries); a power of 2 */
#define INTERP_TAILS 32

/* interp_proc.flags */
#define UNWIND_CODE_OFFSET 1 /* code begin: blob + (int)offset (JDK 23+) */
#define UNWIND_FC16 2 /* frame_complete_offset is an int16_t (JDK 23+) */
#define UNWIND_ANCHORS 4 /* java_threads holds this JVM's threads */
#define UNWIND_NAMES 8 /* list compiled frames: off_nm_* are known */

struct interp_proc {
	__u64 code_start, code_end; /* the interpreter: [start, end) */
	__s32 method_slot; /* Method* at rbp + this (-24 on x86-64) */
	__u32 off_const_method; /* Method::_constMethod; 0: pending */
	__u32 off_constants; /* ConstMethod::_constants */
	__u32 off_name_index; /* ConstMethod::_name_index (u2) */
	__u32 off_pool_holder; /* ConstantPool::_pool_holder */
	__u32 cp_base; /* sizeof(ConstantPool): slot 0 of the pool */
	__u32 off_klass_name; /* Klass::_name */
	__u32 off_sym_hash; /* Symbol::_hash_and_refcount, or INTERP_NO_OFF */
	/* The HotSpot unwinder (below); nheaps 0: frame pointers only */
	__u32 nheaps;
	__u32 flags; /* UNWIND_* */
	__u32 hb_size; /* sizeof(HeapBlock): the CodeBlob follows it */
	__u32 off_cb_size; /* CodeBlob::_size (int) */
	__u32 off_cb_frame_complete; /* _frame_complete_offset */
	__u32 off_cb_frame_size; /* _frame_size (int, words) */
	__u32 off_cb_code; /* _code_begin (pointer) or _code_offset (int) */
	/* CodeBlob::_name (const char *): a frameless vtable or itable
	 * stub is told by its name, "vtable chunks"; INTERP_NO_OFF: none */
	__u32 off_cb_name;
	/* JavaThread* + this: _saved_exception_pc (UNWIND_ANCHORS only;
	 * INTERP_NO_OFF: none): where a poll in a loop stopped, the
	 * safepoint handler's caller (jvm/blobkinds.h) */
	__u32 off_saved_pc;
	/* JavaThread* + this: JavaFrameAnchor::_last_Java_sp, then _pc and
	 * _fp in the next two words (UNWIND_ANCHORS only) */
	__u32 off_anchor;
	/* nmethod::_method, _compile_id and _comp_level (UNWIND_NAMES
	 * only; the level's low byte, read with the id when it lies in the
	 * 8 bytes from it, else INTERP_NO_OFF) */
	__u32 off_nm_method, off_nm_cid, off_nm_level;
	/* sizeof(ConstMethod): a method's bytecodes follow it. Not 0 (for
	 * --lines only): interpreted frames record their bci (below) */
	__u32 cm_size;
	struct unwind_heap heap[UNWIND_HEAPS];
	/* the continuation return barrier's code, [lo, hi) (JDK 21+,
	 * jvm/vthread.h; 0, 0: none known): a virtual thread's frozen
	 * frames lie beyond a frame returning there (UNWIND_FROZEN) */
	__u64 barrier_lo, barrier_hi;
	/* walking those frames in heap stack chunks (jvm/vthread.bpf.h);
	 * off_cont_entry 0: not walked, the walk stops at the barrier */
	__u64 oop_base; /* an oop field: base + (value << oop_shift) */
	__u64 entry_pc; /* ContinuationEntry::_return_pc (enterSpecial) */
	__u32 oop_shift; /* INTERP_NO_OFF: oop fields are 64-bit */
	__u32 off_cont_entry; /* JavaThread::_cont_entry */
	__u32 off_ce_cont; /* ContinuationEntry::_cont */
	__u32 off_tail; /* jdk.internal.vm.Continuation.tail */
	/* jdk.internal.vm.StackChunk's parent, sp, bottom and pc fields,
	 * and where its stack words start */
	__u32 off_sc_parent, off_sc_sp, off_sc_bottom, off_sc_pc;
	__u32 off_sc_stack;
	/* --per-thread: the mounted virtual thread's id (VTHREAD_MARK):
	 * JavaThread::_vthread and _threadObj (OopHandles: the oop at the
	 * address they hold), java.lang.Thread.tid; 0: not told */
	__u32 off_jt_vthread, off_jt_threadobj, off_thread_tid;
	__u32 pad_vt;
	/* the interpreter's method entries, [lo, hi) (jvm/icodelets.h; 0,
	 * 0: unknown): a leaf there whose r13 is still its caller's sp has
	 * not pushed its frame yet, its Method* is in rbx */
	__u64 ientry_lo, ientry_hi;
	/* the interpreter's returns past their frames (above), ntails of
	 * them (0: unknown): a leaf there has no frame any more */
	__u32 ntails, pad_tails;
	struct interp_tail tails[INTERP_TAILS];
	/* the JVM's count of unloaded classes (a jlong: its PerfData
	 * counter java.cls.unloadedClasses, jvm/perfcount.h), or 0: an
	 * interpreted frame's names are kept from sample to sample while
	 * it does not change (sampler.bpf.c, names_memo) */
	__u64 unload_count;
	/* JvmtiExport::_redefinition_count (a uint64_t, from libjvm.so's
	 * symbol table), or 0: unknown. While it reads 0 no class was ever
	 * redefined, so a Method* the names memo holds is still its method
	 * while no class unloaded: its ConstMethod* is not read again (a
	 * redefined method's old Method* is freed and reused) */
	__u64 redefined;
};
/* no such field: jvm/hotspot.h's HOTSPOT_NO_OFF (asserted equal) */
#define INTERP_NO_OFF 0xffffffffu

/*
 * The java_threads map's key. A thread is looked up under its own
 * process: user space reads a JVM's thread list from that JVM's memory,
 * which it controls, so a key by tid alone let one process's list
 * replace or delete another's entries.
 */
struct java_thread_key {
	__u32 tgid; /* the JVM whose ThreadsList named the thread */
	__u32 tid; /* and the kernel's tid, in the JVM's own tgid */
};
/*
 * Entries a JVM may hold: more Java threads than any real JVM we know of
 * runs (thread-per-request servers peak at a few thousand; past that the
 * kernel's per-user thread limit and stack memory bite first), and an
 * eighth of the map, so one process, however many threads it makes or
 * its list claims, cannot fill the map for the others. A JVM's threads
 * past it have no anchor (their native frames walk by fp alone).
 */
#define JAVA_THREADS_PER_JVM 8192
#define JAVA_THREADS_MAX (8 * JAVA_THREADS_PER_JVM) /* the map's size */

/*
 * The HotSpot unwinder. For a JVM whose code cache user space described
 * (interp_proc.nheaps), the BPF walk keeps (pc, sp, fp) per frame:
 * - a pc in the interpreter: an interpreted frame, walked by its fp
 *   (caller's pc at fp + 8, fp at fp, sp at fp - 8: the sender sp);
 * - a pc in a code heap: its CodeBlob, found through the heap's segment
 *   map (at most UNWIND_SEGMAP_HOPS hops back to the block start); with
 *   a frame size, the caller's sp is sp + frame_size words, its pc and
 *   fp the two words below (a leaf caught before its frame is complete,
 *   or in its epilogue, has its return address at sp or sp + 8); the
 *   caller's pc must lie in the code cache. Blobs without a frame size
 *   (the call stub, other stub routines) are walked by fp, but for a
 *   leaf in the frameless vtable/itable stubs (off_cb_name), whose
 *   return address is at sp;
 * - anything else by fp, as the kernel walks: the fp must lie above sp
 *   (so it grows), within UNWIND_MAX_SPAN of the sample's sp. When such
 *   native frames lose their way (or would pass over Java frames), the
 *   walk resumes at the thread's last Java frame, which HotSpot keeps in
 *   the JavaThread's frame anchor while Java code calls out; user space
 *   puts each Java thread's JavaThread* in java_threads ((tgid, tid) ->
 *   it: struct java_thread_key).
 * A walk that breaks ends with one marked frame, UNWIND_MARK(reason),
 * counted in stats at STAT_UNWIND + reason. Processes that are not JVMs
 * (interp_proc absent) get the fp rules alone.
 */
/* 32 * 254 segments: blobs up to ~1 MB; jvm/codeblob.h's CODEBLOB_HOPS,
 * user space's reading of the same map (asserted equal) */
#define UNWIND_SEGMAP_HOPS 32
#define UNWIND_MAX_SPAN (64ULL << 20) /* a stack no thread has */
#define UNWIND_MAX_FRAME (1ULL << 20) /* a compiled frame no JIT makes */
enum unwind_reason {
	UNWIND_NO_BLOB = 1, /* pc in the code cache, no CodeBlob holds it */
	UNWIND_BAD_PC, /* a compiled frame's caller pc not in the code cache */
	UNWIND_BAD_FP, /* native frame pointer below sp or unreadable */
	UNWIND_BAD_SP, /* sp leaves the stack (span, frame size) */
	UNWIND_READ, /* stack memory unreadable */
	UNWIND_EARLY, /* a "pending" target (above), not identified yet */
	UNWIND_NO_ROW, /* native code with .eh_frame, no rule we follow */
	/* not a break of the walk's rules: a virtual thread's frame returns
	 * into the continuation return barrier, its callers frozen in heap
	 * stack chunks (jvm/vthread.h); the walk stops rather than join it
	 * to the carrier's Continuation.run */
	UNWIND_FROZEN,
	/* the walk of those frozen frames broke: a chunk or a frame in it
	 * not as HotSpot lays them out */
	UNWIND_CHUNK,
	UNWIND_NR,
};
/*
 * What one step of the walk returns (sampler.bpf.c's unwind_step, and
 * unwind/unwind.bpf.h's rows step): go on, the stack's natural end (a
 * zero fp), the natural end as the CFI says it (UNWIND_MARK_ROOT), or
 * -enum unwind_reason.
 */
#define STEP_ON 0
#define STEP_END 1
#define STEP_ROOT 2

/*
 * A frame's registers as a step takes and leaves them, in the walk's
 * per-CPU record (sampler.bpf.c's struct walk), with the words a step
 * reads from the stack: off the BPF stack, whose 512 bytes the walk's
 * whole call chain shares before Linux 6.13. BPF only.
 */
struct unwind_regs {
	__u64 ip, sp, fp; /* the frame's pc, sp and frame pointer */
	__u64 sp0; /* the sample's sp: the stack's bottom */
	__u64 word[2]; /* the two words a step read */
};

/* a non-canonical address: never a pc */
#define UNWIND_MARK_BASE 0xdead000000000000ULL
#define UNWIND_MARK(r) (UNWIND_MARK_BASE | (r))
#define UNWIND_IS_MARK(ip) (((ip) & ~0xffULL) == UNWIND_MARK_BASE)
/*
 * Not a break: the walk ended at the stack's natural end by the CFI (an
 * outermost row, the return address undefined, as _start and clone's
 * child say; or a return address of 0). The frame before it is the
 * thread's root though it may have no name (a stripped program's
 * _start); user space counts it as a root and shows no frame for it.
 */
#define UNWIND_MARK_ROOT UNWIND_MARK(0)
/*
 * Last of all, after any other mark: the process had no unwind table
 * yet, or the walk met code of a file whose rows were not built yet
 * (unwind/: rows on demand), so the stack (or that part of it) was
 * walked by frame pointer. User space drops
 * it and counts the sample per process (the root share of processes
 * with rows is told with and without such samples).
 */
#define UNWIND_MARK_NOROWS UNWIND_MARK(0xfe)

/* --off-cpu, --wall: virtual threads unmounted at once (vtwait.bpf.h) */
#define VT_WAITS 16384

/* vt_waits: a virtual thread, its process and java.lang.Thread.tid */
struct vt_wait_id {
	__u32 tgid, pad;
	__u64 vtid;
};

/* an unmounted virtual thread: its stack at the freeze, and when */
struct vt_wait {
	struct sample_key key;
	__u64 ts;
};

/*
 * With --per-thread, a stack taken while a virtual thread was mounted on
 * its carrier ends with this (before UNWIND_MARK_NOROWS): the virtual
 * thread's java.lang.Thread.tid, 48 bits. User space names the thread
 * "virtual-ID on CARRIER" and drops the word.
 */
#define VTHREAD_MARK_BASE 0xdeab000000000000ULL
#define VTHREAD_MARK(id) (VTHREAD_MARK_BASE | ((id)&0xffffffffffffULL))
#define VTHREAD_IS_MARK(ip) (((ip) >> 48) == 0xdeab)
#define VTHREAD_ID(ip) ((ip)&0xffffffffffffULL)

/* The walk's rules (the unwind_mode global; MIXPROF_UNWIND). */
enum unwind_mode {
	UNWIND_MODE_HOTSPOT, /* the above */
	UNWIND_MODE_FP, /* frame pointers only, as the kernel walks */
	/* the above, and a frame-pointer walk of the same sample compared
	 * with it (STAT_CHECK_SAME / STAT_CHECK_DIFF) */
	UNWIND_MODE_CHECK,
};

/*
 * Check mode: why the frame-pointer walk (the oracle) and the HotSpot
 * walk of a sample differ, at the first HotSpot frame they differ on,
 * and the kind of the frame before it (the one whose step differed).
 */
enum check_why {
	/* the oracle skipped one frame and agrees on the rest: the frame
	 * before it keeps no frame record (a frameless stub, a compiled
	 * frame in its prologue or epilogue, native code without one);
	 * the oracle is blind there, not the HotSpot walk wrong */
	CHECK_SKIP,
	/* the HotSpot walk left native code at the thread's frame anchor
	 * (HotSpot's own record of its last Java frame), where the oracle
	 * could not follow native code without frame pointers */
	CHECK_ANCHOR,
	CHECK_BROKE, /* the HotSpot walk broke (a mark), the oracle went on */
	CHECK_CALLER, /* the two found different callers */
	CHECK_FP_END, /* the oracle's walk ended first */
	CHECK_HS_END, /* the HotSpot walk ended first, unmarked */
	CHECK_WHYS,
};
enum check_kind {
	CHECK_INTERP, /* in the interpreter */
	CHECK_COMPILED, /* an nmethod (a CodeBlob with a frame size) */
	CHECK_EDGE, /* the same, a leaf in its prologue or epilogue */
	CHECK_RTSTUB, /* a CodeBlob with a frame size that is no nmethod */
	CHECK_STUB, /* a CodeBlob without one (stub routines, adapters) */
	CHECK_NATIVE, /* outside the code cache */
	/* an interpreted leaf in its method's entry, its frame not pushed
	 * yet (the walk named it from rbx: jvm/icodelets.h) */
	CHECK_IENTRY,
	/* an interpreted leaf in its return, its frame gone (the walk
	 * kept it unnamed: jvm/itails.h) */
	CHECK_ITAIL,
	CHECK_KINDS,
};
#define CHECK_CODE(why, kind, leaf) (((why)*CHECK_KINDS + (kind)) * 2 + (leaf))
#define CHECK_CODES (CHECK_WHYS * CHECK_KINDS * 2)
/*
 * A check mode stack that differs ends with two more words: the pc the
 * oracle found where they differ (CHECK_MARK_BASE: none), then this mark (the HotSpot
 * frame's index, the code). Non-canonical, apart from UNWIND_MARK's.
 */
#define CHECK_MARK_BASE 0xdeae000000000000ULL
#define CHECK_MARK(at, code) (CHECK_MARK_BASE | (__u64)(at) << 8 | (code))
#define CHECK_IS_MARK(ip) (((ip) >> 48) == 0xdeae)

/*
 * hashes: the identity hashes (upper halves of _hash_and_refcount) of the
 * two Symbols at sample time, class << 16 | method. A Symbol freed by
 * class unloading and reused for another name gets a new random hash, so
 * user space can trust a name it read before for the same (Symbol*s,
 * hashes) without reading the JVM's memory again.
 */
struct interp_frame {
	__u32 idx; /* position in the user stack (0: the sampled pc) */
	__u32 hashes; /* see above; 0 without off_sym_hash */
	__u64 ip; /* a pending walk's pc (known JVMs: 0, the stack has it) */
	__u64 method; /* Method*, 0 when unreadable */
	__u64 klass_name; /* Symbol* of the holder's name, or 0 */
	__u64 name; /* Symbol* of the method's name, or 0 */
	/* a compiled frame (UNWIND_NAMES): the CodeBlob the segment map
	 * found and its nmethod::_compile_id, read at sample time (a
	 * compile id is never reused: user space names the code only while
	 * that nmethod still holds it); nm 0: an interpreted frame, whose
	 * cid is 1 + the bytecode index it ran (interp_proc.cm_size), or 0 */
	__u64 nm;
	__s32 cid;
	__u32 level; /* its _comp_level (the tier: 1-3 C1, 4 C2), 0 unread */
};
/* interp_frame.cid of a leaf in the interpreter's return past its frame
 * (jvm/itails.h): no method any more, nm 0 */
#define INTERP_CID_RETURN (-1)

/*
 * With UNWIND_NAMES, the list holds the compiled frames too (the blobs
 * with a frame size: nmethods, and the few stubs that have one, which
 * user space tells apart), their Method* and its Symbols as above for
 * when the code is gone before user space reads its debug data.
 *
 * A list, or a chunk of one. A stack with more than INTERP_MAX_FRAMES
 * interpreted frames is kept in chunks of that many: the walk stores each
 * full chunk in the interp_chunks map (an LRU: nothing need free them)
 * under a key from the hash of every frame so far, and links the next
 * chunk to it (prev); the list sent (above) is the last, outermost
 * chunk. Up to INTERP_MAX_CHUNKS chunks: every interpreted frame of a
 * 4,096-frame stack is named.
 */
struct interp_stack {
	__u32 nr; /* frames used */
	/* the list's: the JVM's epoch when the walk sent it (its unloaded
	 * classes + 1, + its redefinitions: hotspot.bpf.h's walk_epoch),
	 * low 32 bits; 0: unknown. A chunk's: any value */
	__u32 epoch;
	__u64 prev; /* the chunk of the frames nearer the leaf, or 0 */
	struct interp_frame f[INTERP_MAX_FRAMES];
};
#define INTERP_MAX_CHUNKS 64
#define INTERP_CHUNK_TAG 0x636875ULL /* chunk keys apart from list ids */

/* Per-CPU counters for the end-of-run summary: index into stats map. */
enum sampler_stat {
	STAT_SAMPLES, /* samples of targeted processes */
	STAT_USER_LOST, /* user stack not sent (the ring full) */
	STAT_KERN_LOST, /* kernel stack not sent */
	STAT_USER_EMPTY, /* no user stack (kernel thread, fault) */
	STAT_COUNTS_FULL, /* counts map full: sample dropped */
	STAT_CHILDREN, /* descendants added to the targets */
	STAT_INTERP_WALKS, /* samples of a JVM walked for interpreted frames */
	STAT_INTERP_FULL, /* list not sent (the ring full): frames unnamed */
	STAT_STACK_NOMEM, /* unused: stacks are no longer kept in a map */
	STAT_UNWIND, /* + enum unwind_reason: walks that broke, by reason */
	STAT_ANCHOR = STAT_UNWIND + UNWIND_NR, /* resumed at a frame anchor */
	STAT_VT_CHUNKS, /* walks that went on into frozen frames' chunks */
	STAT_NO_THREAD, /* JVM walk in native code, thread not known yet */
	STAT_CHECK_SAME, /* check mode: the two walks agree */
	/* ... differ: + CHECK_CODE(why, kind, leaf), below */
	STAT_CHECK_DIFF,
	STAT_CHECK_DIFF_END = STAT_CHECK_DIFF + CHECK_CODES - 1,
	/* a sample of a process whose unwind table was not written yet, or
	 * whose walk met a file whose rows are not built yet (its native
	 * frames walked by fp; the file's demand counted: unwind.bpf.h) */
	STAT_ROWS_NOT_READY,
	/* --off-cpu, --wall: virtual threads' unmounted waits counted
	 * (vtwait.bpf.h) */
	STAT_VT_WAITS,
	/* sample records the ring refused (full or busy): counted in the
	 * counts map, their unsent stacks and list lost (counted above) */
	STAT_REC_FULL,
	/* MIXPROF_ROWS_VERIFY: rows steps whose block a file's bitmap says
	 * is frame-record code, and those whose row said otherwise (each a
	 * wrong caller without the check: unwind/unwind.bpf.h) */
	STAT_ROWS_FP,
	STAT_ROWS_FP_DIFF,
	/* walks that named a method from the names memo: while the JVM
	 * says no class was ever redefined (trusted by the unloaded-class
	 * count alone), and otherwise (each Method*'s ConstMethod* read) */
	STAT_NAMES_NOREDEF,
	STAT_NAMES_REDEF,
	STAT_NR,
};

#endif
