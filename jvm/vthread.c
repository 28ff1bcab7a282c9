// SPDX-License-Identifier: GPL-2.0
/*
 * vthread: the continuation return barrier's code range (vthread.h).
 * Facts from HotSpot's stubRoutines.hpp (the two statics),
 * stubGenerator_x86_64.cpp (generate_cont_returnBarrier, then
 * generate_cont_returnBarrier_exception: the exception variant follows
 * the plain one in the same blob) and continuationFreezeThaw.cpp (thaw
 * patches the return address of the lowest thawed frame to the barrier).
 */
#include <errno.h>
#include "vthread.h"

const char *const vthread_sym_names[VT_NR_SYMS] = {
    [VT_BARRIER] = "_ZN12StubRoutines19_cont_returnBarrierE",
    [VT_BARRIER_EXC] = "_ZN12StubRoutines22_cont_returnBarrierExcE",
};

/*
 * The plain barrier's code ends where the exception variant's begins;
 * more than this between them is not the stub pair we know (x86-64's is
 * under 200 bytes).
 */
#define BARRIER_MAX 4096

static int read_u64(const struct hotspot_mem *m, uint64_t addr, uint64_t *v)
{
	return m->read(m->ctx, addr, v, sizeof(*v)) ? -EFAULT : 0;
}

int vthread__barrier_read(const struct hotspot_mem *m,
			  const uint64_t syms[VT_NR_SYMS],
			  struct vthread_barrier *out)
{
	uint64_t rb, rbx;

	if (read_u64(m, syms[VT_BARRIER], &rb) ||
	    read_u64(m, syms[VT_BARRIER_EXC], &rbx))
		return -EFAULT;
	if (!rb || !rbx)
		return -EAGAIN;
	if (rbx <= rb || rbx - rb > BARRIER_MAX)
		return -EINVAL;
	/* the plain stub's code, and the exception variant's entry (what
	 * an exception's unwinding returns to instead of the plain one) */
	out->lo = rb;
	out->hi = rbx + 1;
	return 0;
}

int vthread__barrier(uint32_t pid, const struct hotspot_mem *m,
		     struct vthread_barrier *out)
{
	uint64_t syms[VT_NR_SYMS];
	int ret = hotspot__jvm_syms(pid, vthread_sym_names, VT_NR_SYMS, syms);

	return ret ? ret : vthread__barrier_read(m, syms, out);
}
