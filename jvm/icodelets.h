/*
 * icodelets: where the template interpreter's method entries lie, read
 * from its StubQueue of codelets (HotSpot's interpreter.hpp,
 * templateInterpreterGenerator.cpp). Every method kind's entry (zero
 * locals, synchronized, native, the math intrinsics...) is one
 * InterpreterCodelet described "method entry point (kind = ...)", and
 * generate_all makes them one after the other: [lo, hi) is their run.
 *
 * Why the BPF walk wants it (sampler.bpf.c, interp_entry_step): a leaf
 * caught there, before generate_fixed_frame pushed its frame, has no
 * frame of its own yet; its Method* is in rbx and its caller's sp in r13.
 * Anywhere else in the interpreter rbx is a scratch register (an invoke
 * loads the callee's Method* there before it jumps), so the range is
 * what makes rbx safe to read.
 */
#ifndef MIXPROF_ICODELETS_H
#define MIXPROF_ICODELETS_H

#include <stdint.h>
#include "hotspot.h"

/*
 * The method entries of the StubQueue at queue (AbstractInterpreter::
 * _code), through l's offsets: 0 and [*lo, *hi); -ENOENT when the layout
 * lacks the codelet fields or no codelet is a method entry, -EAGAIN when
 * the queue is not there yet, -EFAULT (unreadable), -EINVAL (a codelet
 * out of its queue).
 */
int icodelets__entries(const struct hotspot_mem *m,
		       const struct hotspot_layout *l, uint64_t queue,
		       uint64_t *lo, uint64_t *hi);

#endif
