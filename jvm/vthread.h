/*
 * vthread: what the BPF walk needs to stop honestly at a virtual thread's
 * frozen frames (JDK 21+). A virtual thread's frames are frozen into heap
 * stack chunks when it unmounts; on remount HotSpot thaws only the top
 * frames onto the carrier's stack and sets the lowest thawed frame's
 * return address to the StubRoutines::cont_returnBarrier stub, which
 * thaws more when that frame returns. A walk that left that frame by its
 * return address would join it to the carrier's Continuation.run, a
 * caller it never had: the walk stops there instead (UNWIND_FROZEN).
 *
 * The stub's address is StubRoutines::_cont_returnBarrier (and
 * _cont_returnBarrierExc, the exception path generated right after it),
 * static variables that VMStructs lists only from JDK 27 on: read through
 * libjvm.so's .symtab (the mangled names), which a build whose .symtab
 * was stripped (into a debug package) lacks: then -ENOENT and no stop.
 * A JVM's memory is untrusted: every read is checked. Nothing prints.
 */
#ifndef MIXPROF_VTHREAD_H
#define MIXPROF_VTHREAD_H

#include <stdint.h>
#include "hotspot.h"

/* libjvm.so's statics the stop needs, in vthread_sym_names order */
enum vthread_sym {
	VT_BARRIER, /* address StubRoutines::_cont_returnBarrier */
	VT_BARRIER_EXC, /* address StubRoutines::_cont_returnBarrierExc */
	VT_NR_SYMS,
};
extern const char *const vthread_sym_names[VT_NR_SYMS];

/* the return barrier's code: pcs in [lo, hi) are frozen frames' edge */
struct vthread_barrier {
	uint64_t lo, hi;
};

/*
 * The barrier's code range from the statics at syms[] (their addresses
 * in the target, as hotspot__jvm_syms gives them): 0; -EAGAIN while the
 * stubs are not generated (a JVM starting); -EFAULT on unreadable memory;
 * -EINVAL when the two do not look like the stubs HotSpot makes.
 */
int vthread__barrier_read(const struct hotspot_mem *m,
			  const uint64_t syms[VT_NR_SYMS],
			  struct vthread_barrier *out);

/*
 * The same for JVM pid read through m: 0, -ENOENT (no continuations:
 * JDK < 21, or a libjvm.so without .symtab), or the errors above.
 */
int vthread__barrier(uint32_t pid, const struct hotspot_mem *m,
		     struct vthread_barrier *out);

#endif
