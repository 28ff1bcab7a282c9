/*
 * vthread: what the BPF walk needs of a JVM's virtual threads (JDK 21+).
 * A virtual thread's frames are frozen into heap stack chunks when it
 * unmounts; on remount HotSpot thaws only the top frames onto the
 * carrier's stack and sets the lowest thawed frame's return address to
 * the StubRoutines::cont_returnBarrier stub, which thaws more when that
 * frame returns. A walk that left that frame by its return address would
 * join it to the carrier's Continuation.run, a caller it never had.
 *
 * So the walk needs (1) the barrier's code, where it stops
 * (UNWIND_FROZEN) unless it can go on with (2) the frozen frames: the
 * carrier's JavaThread::_cont_entry (a ContinuationEntry on its stack) ->
 * its Continuation oop -> Continuation.tail (the youngest StackChunk) ->
 * the chunk's frames from StackChunk.sp to .bottom, then .parent's, then
 * back on the carrier's stack at the entry frame (enterSpecial).
 *
 * Where the facts come from: the barrier and the field offsets are
 * libjvm.so statics (StubRoutines::_cont_returnBarrier,
 * jdk_internal_vm_StackChunk::_sp_offset and kin,
 * InstanceStackChunkKlass::_offset_of_stack, CompressedOops::_base),
 * named by its .symtab; JavaThread::_cont_entry from JVMCI's own
 * VMStructs table (gHotSpotVMStructs lists it only from JDK 27). A build
 * whose .symtab was stripped (into a debug package) has neither: -ENOENT,
 * and the walk goes on past the barrier as before (README).
 * A JVM's memory is untrusted: every read is checked. Nothing prints.
 */
#ifndef MIXPROF_VTHREAD_H
#define MIXPROF_VTHREAD_H

#include <stdbool.h>
#include <stdint.h>
#include "hotspot.h"

/* libjvm.so's statics the stop needs, in vthread_sym_names order */
enum vthread_sym {
	VT_BARRIER, /* address StubRoutines::_cont_returnBarrier */
	VT_BARRIER_EXC, /* address StubRoutines::_cont_returnBarrierExc */
	VT_NR_SYMS,
};
extern const char *const vthread_sym_names[VT_NR_SYMS];

/* ... and those the frozen frames' walk needs (vthread_chunk_names) */
enum vthread_chunk_sym {
	VC_TAIL, /* int jdk_internal_vm_Continuation::_tail_offset */
	VC_PARENT, /* int jdk_internal_vm_StackChunk::_parent_offset */
	VC_SP, /* ... _sp_offset (int field: words from the stack's start) */
	VC_BOTTOM, /* ... _bottom_offset (int field: words, the end) */
	VC_PC, /* ... _pc_offset (the top frame's pc) */
	VC_STACK, /* int InstanceStackChunkKlass::_offset_of_stack (bytes) */
	VC_OOPS, /* bool UseCompressedOops */
	VC_BASE, /* address CompressedOops::_base */
	VC_SHIFT, /* int CompressedOops::_shift */
	VC_ENTRY_PC, /* address ContinuationEntry::_return_pc */
	VC_JVMCI, /* JVMCIVMStructs::localHotSpotVMStructs (the array) */
	VC_TID, /* int java_lang_Thread::_tid_offset (--per-thread) */
	VC_NR_SYMS,
};
extern const char *const vthread_chunk_names[VC_NR_SYMS];

/* the offsets of one JVM's chunk walk (interp_proc's, sampler_abi.h) */
struct vthread_layout {
	uint64_t barrier_lo, barrier_hi; /* the barrier's code: [lo, hi) */
	bool chunks; /* the rest is known: frozen frames are walked */
	bool coops; /* oop fields are 32-bit: base + (v << shift) */
	uint32_t shift;
	uint64_t base;
	uint64_t entry_pc; /* where a continuation returns into enterSpecial */
	uint32_t off_cont_entry; /* JavaThread::_cont_entry */
	uint32_t off_ce_cont; /* ContinuationEntry::_cont (an oopDesc*) */
	uint32_t off_tail; /* Continuation.tail */
	uint32_t off_parent, off_sp, off_bottom, off_pc; /* StackChunk's */
	uint32_t off_stack; /* the chunk's stack words from its start */
	/* the mounted virtual thread (--per-thread): JavaThread::_vthread
	 * and _threadObj (OopHandles), java.lang.Thread.tid */
	uint32_t off_jt_vthread, off_jt_threadobj, off_tid;
};

/*
 * The barrier's code range from the statics at syms[] (their addresses
 * in the target, as hotspot__jvm_syms gives them) into out: 0; -EAGAIN
 * while the stubs are not generated (a JVM starting); -EFAULT on
 * unreadable memory; -EINVAL when the two do not look like the stubs
 * HotSpot makes.
 */
int vthread__barrier_read(const struct hotspot_mem *m,
			  const uint64_t syms[VT_NR_SYMS],
			  struct vthread_layout *out);

/*
 * The chunk walk's offsets from the statics at syms[], and from jvmci (a
 * dictionary of JVMCI's table, vmstructs.h) into out (out->chunks set):
 * 0; -EAGAIN (classes not initialised yet), -EFAULT, -ENOENT (a field
 * missing), -EINVAL (a value no HotSpot has).
 */
struct vmstructs;
int vthread__chunks_read(const struct hotspot_mem *m,
			 const uint64_t syms[VC_NR_SYMS],
			 const struct vmstructs *jvmci,
			 struct vthread_layout *out);

/* Where a JVM's statics are (its libjvm.so's symbols, found once). */
struct vthread_syms {
	int vt_err, vc_err; /* hotspot__jvm_syms' for each set, or 0 */
	uint64_t vt[VT_NR_SYMS], vc[VC_NR_SYMS], hs[HS_NR_SYMS];
};

/* The symbols of JVM pid into *syms (errors kept there). */
void vthread__syms(uint32_t pid, struct vthread_syms *syms);

/*
 * The layout of the JVM whose symbols syms holds, read now through m:
 * 0 with the barrier at least, -ENOENT (no continuations: JDK < 21, or a
 * libjvm.so without .symtab), or the errors above; *chunk_err why the
 * chunk walk is off (-EAGAIN: enterSpecial not made yet, before the
 * first virtual thread ran: ask again), or 0.
 */
int vthread__read(const struct hotspot_mem *m, const struct vthread_syms *syms,
		  struct vthread_layout *out, int *chunk_err);

/*
 * --off-cpu and --wall: where libjvm.so freezes a virtual thread (its
 * frames into the heap: it unmounts) and thaws it (it mounts again), for
 * uprobes. The functions are templates instantiated per GC and oop kind;
 * HotSpot keeps the ones it chose in statics of continuationFreezeThaw.cpp
 * (.symtab locals): freeze_entry (the yield's), freeze_preempt_entry
 * (JDK 24+: a virtual thread unmounted while blocking on a monitor) and
 * thaw_entry, thaw<ConfigT>(JavaThread *, int kind).
 */
enum vthread_wait_sym {
	VW_FREEZE, /* address freeze_entry */
	VW_THAW, /* address thaw_entry */
	VW_NR_SYMS,
};
extern const char *const vthread_wait_names[VW_NR_SYMS];
extern const char *const vthread_preempt_name; /* freeze_preempt_entry */

/* the functions' offsets in the libjvm.so file, for its uprobes */
struct vthread_probes {
	uint64_t freeze[2]; /* freeze_entry's, freeze_preempt_entry's */
	int nfreeze;
	uint64_t thaw;
};

/*
 * The probes of JVM pid (its memory read through m) into out: 0; -ENOENT
 * (no such statics: JDK < 21, or a libjvm.so without .symtab), -EAGAIN
 * (not set yet: a JVM starting), -EFAULT, -EINVAL (a function outside
 * libjvm.so's code), -ESRCH.
 */
int vthread__wait_probes(const struct hotspot_mem *m, uint32_t pid,
			 struct vthread_probes *out);

#endif
