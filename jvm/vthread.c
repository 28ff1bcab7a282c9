// SPDX-License-Identifier: GPL-2.0
/*
 * vthread: the continuation return barrier and the stack chunk layout of
 * a JVM (vthread.h). Facts from HotSpot's stubRoutines.hpp (the barrier's
 * statics), stubGenerator_x86_64.cpp (generate_cont_returnBarrier, then
 * generate_cont_returnBarrier_exception right after it in the same blob),
 * continuationFreezeThaw.cpp (thaw patches the lowest thawed frame's
 * return address to the barrier), continuationEntry.hpp (the entry's
 * fields: an empty ContinuationEntryPD first on x86-64 from JDK 24, so
 * _cont moved from 8 to 16; _pin_count, the one field JVMCI lists, is
 * last), javaClasses.hpp (jdk_internal_vm_StackChunk's offsets, set when
 * the class is initialised) and instanceStackChunkKlass.hpp.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "common/procfs.h"
#include "vthread.h"
#include "vmstructs.h"

const char *const vthread_sym_names[VT_NR_SYMS] = {
    [VT_BARRIER] = "_ZN12StubRoutines19_cont_returnBarrierE",
    [VT_BARRIER_EXC] = "_ZN12StubRoutines22_cont_returnBarrierExcE",
};

const char *const vthread_chunk_names[VC_NR_SYMS] = {
    [VC_TAIL] = "_ZN28jdk_internal_vm_Continuation12_tail_offsetE",
    [VC_PARENT] = "_ZN26jdk_internal_vm_StackChunk14_parent_offsetE",
    [VC_SP] = "_ZN26jdk_internal_vm_StackChunk10_sp_offsetE",
    [VC_BOTTOM] = "_ZN26jdk_internal_vm_StackChunk14_bottom_offsetE",
    [VC_PC] = "_ZN26jdk_internal_vm_StackChunk10_pc_offsetE",
    [VC_STACK] = "_ZN23InstanceStackChunkKlass16_offset_of_stackE",
    [VC_OOPS] = "UseCompressedOops",
    [VC_BASE] = "_ZN14CompressedOops5_baseE",
    [VC_SHIFT] = "_ZN14CompressedOops6_shiftE",
    [VC_ENTRY_PC] = "_ZN17ContinuationEntry10_return_pcE",
    [VC_JVMCI] = "_ZN14JVMCIVMStructs21localHotSpotVMStructsE",
    [VC_TID] = "_ZN16java_lang_Thread11_tid_offsetE",
};

/*
 * The plain barrier's code ends where the exception variant's begins;
 * more than this between them is not the stub pair we know (x86-64's is
 * under 200 bytes).
 */
#define BARRIER_MAX 4096
/* a field offset no object of these classes has */
#define FIELD_MAX 4096

static int rd(const struct hotspot_mem *m, uint64_t addr, void *v, size_t n)
{
	return m->read(m->ctx, addr, v, n) ? -EFAULT : 0;
}

int vthread__barrier_read(const struct hotspot_mem *m,
			  const uint64_t syms[VT_NR_SYMS],
			  struct vthread_layout *out)
{
	uint64_t rb, rbx;

	if (rd(m, syms[VT_BARRIER], &rb, 8) ||
	    rd(m, syms[VT_BARRIER_EXC], &rbx, 8))
		return -EFAULT;
	if (!rb || !rbx)
		return -EAGAIN;
	if (rbx <= rb || rbx - rb > BARRIER_MAX)
		return -EINVAL;
	/* the plain stub's code, and the exception variant's entry (what
	 * an exception's unwinding returns to instead of the plain one) */
	out->barrier_lo = rb;
	out->barrier_hi = rbx + 1;
	return 0;
}

/* The int statics at syms[from..to] into v[]; -EAGAIN while one is 0. */
static int rd_ints(const struct hotspot_mem *m, const uint64_t *syms, int from,
		   int to, int32_t *v)
{
	for (int i = from; i <= to; i++) {
		if (rd(m, syms[i], &v[i], 4))
			return -EFAULT;
		if (!v[i])
			return -EAGAIN; /* the class's offsets not computed */
		if (v[i] < 0 || v[i] > FIELD_MAX)
			return -EINVAL;
	}
	return 0;
}

/*
 * JavaThread::_cont_entry and ContinuationEntry::_cont (see the top);
 * JavaThread::_vthread and _threadObj.
 */
static int entry_offsets(const struct vmstructs *jvmci,
			 struct vthread_layout *out)
{
	uint64_t ce, pin, vt, obj;

	if (!jvmci ||
	    vmstructs__field(jvmci, "JavaThread", "_cont_entry", &ce) ||
	    vmstructs__field(jvmci, "ContinuationEntry", "_pin_count", &pin) ||
	    vmstructs__field(jvmci, "JavaThread", "_vthread", &vt) ||
	    vmstructs__field(jvmci, "JavaThread", "_threadObj", &obj))
		return -ENOENT;
	if (ce > 65536 || vt > 65536 || obj > 65536 || pin < 44 || pin > 56)
		return -EINVAL;
	out->off_cont_entry = ce;
	out->off_ce_cont = pin >= 52 ? 16 : 8;
	out->off_jt_vthread = vt;
	out->off_jt_threadobj = obj;
	return 0;
}

int vthread__chunks_read(const struct hotspot_mem *m,
			 const uint64_t syms[VC_NR_SYMS],
			 const struct vmstructs *jvmci,
			 struct vthread_layout *out)
{
	int32_t v[VC_NR_SYMS] = {0};
	uint8_t coops;
	int ret = rd_ints(m, syms, VC_TAIL, VC_STACK, v);

	if (ret)
		return ret;
	if (rd(m, syms[VC_TID], &v[VC_TID], 4))
		return -EFAULT;
	if (v[VC_TID] <= 0 || v[VC_TID] > FIELD_MAX)
		return v[VC_TID] ? -EINVAL : -EAGAIN;
	if (rd(m, syms[VC_OOPS], &coops, 1) ||
	    rd(m, syms[VC_BASE], &out->base, 8) ||
	    rd(m, syms[VC_SHIFT], &v[VC_SHIFT], 4) ||
	    rd(m, syms[VC_ENTRY_PC], &out->entry_pc, 8))
		return -EFAULT;
	if (!out->entry_pc)
		return -EAGAIN;
	if (v[VC_SHIFT] < 0 || v[VC_SHIFT] > 8)
		return -EINVAL;
	ret = entry_offsets(jvmci, out);
	if (ret)
		return ret;
	out->coops = coops != 0;
	out->shift = v[VC_SHIFT];
	out->off_tail = v[VC_TAIL];
	out->off_parent = v[VC_PARENT];
	out->off_sp = v[VC_SP];
	out->off_bottom = v[VC_BOTTOM];
	out->off_pc = v[VC_PC];
	out->off_stack = v[VC_STACK];
	out->off_tid = v[VC_TID];
	out->chunks = true;
	return 0;
}

void vthread__syms(uint32_t pid, struct vthread_syms *syms)
{
	struct hotspot_syms sets[] = {
	    {vthread_sym_names, VT_NR_SYMS, syms->vt, 0},
	    {vthread_chunk_names, VC_NR_SYMS, syms->vc, 0},
	    {hotspot_sym_names, HS_NR_SYMS, syms->hs, 0},
	};
	int ret = hotspot__jvm_sym_sets(pid, sets, 3);

	/* libjvm.so opened once for all three */
	syms->vt_err = ret ? ret : sets[0].err;
	syms->vc_err = ret ? ret : sets[1].err ? sets[1].err : sets[2].err;
}

/* The chunk walk's part of vthread__read. */
static int chunks(const struct hotspot_mem *m, const struct vthread_syms *syms,
		  struct vthread_layout *out)
{
	struct vmstructs *jvmci;
	int ret;

	if (syms->vc_err)
		return syms->vc_err;
	jvmci = vmstructs__read_table(m, syms->hs, syms->vc[VC_JVMCI]);
	if (!jvmci)
		return -errno;
	ret = vthread__chunks_read(m, syms->vc, jvmci, out);
	vmstructs__free(jvmci);
	return ret;
}

int vthread__read(const struct hotspot_mem *m, const struct vthread_syms *syms,
		  struct vthread_layout *out, int *chunk_err)
{
	int ret = syms->vt_err ?: vthread__barrier_read(m, syms->vt, out);

	*chunk_err = ret ? ret : chunks(m, syms, out);
	return ret;
}

const char *const vthread_wait_names[VW_NR_SYMS] = {
    [VW_FREEZE] = "_ZL12freeze_entry",
    [VW_THAW] = "_ZL10thaw_entry",
};
const char *const vthread_preempt_name = "_ZL20freeze_preempt_entry";

/*
 * The offsets in libjvm.so's file of the code at addr[0..n) of pid, by
 * its executable mapping in /proc/PID/maps: 0, -EINVAL (one is not in
 * it), -ESRCH.
 */
static int file_offsets(uint32_t pid, const uint64_t *addr, uint64_t *off,
			int n)
{
	const char *p, *end;
	struct procfs_map m;
	int left = n, r;
	size_t len;
	char *buf;

	if (procfs__read_pid(pid, "maps", PROCFS_MAPS_MAX, &buf, &len))
		return -ESRCH;
	for (p = buf, end = buf + len;
	     left && (r = procfs__maps_next(&p, end, &m));) {
		if (r < 0 || m.perms[2] != 'x' || m.path_len < 10 ||
		    memcmp(m.path + m.path_len - 10, "/libjvm.so", 10))
			continue;
		for (int i = 0; i < n; i++)
			if (addr[i] >= m.start && addr[i] < m.end) {
				off[i] = addr[i] - m.start + m.offset;
				left--;
			}
	}
	free(buf);
	return left ? -EINVAL : 0;
}

int vthread__wait_probes(const struct hotspot_mem *m, uint32_t pid,
			 struct vthread_probes *out)
{
	uint64_t syms[VW_NR_SYMS], pre, fn[3] = {0}, off[3] = {0};
	int ret = hotspot__jvm_syms(pid, vthread_wait_names, VW_NR_SYMS, syms);
	int n = 2;

	if (ret)
		return ret;
	if (rd(m, syms[VW_FREEZE], &fn[0], 8) ||
	    rd(m, syms[VW_THAW], &fn[1], 8))
		return -EFAULT;
	if (!fn[0] || !fn[1])
		return -EAGAIN;
	/* JDK 24+ only; set with the others (Continuation::init) */
	if (!hotspot__jvm_syms(pid, &vthread_preempt_name, 1, &pre) &&
	    !rd(m, pre, &fn[2], 8) && fn[2])
		n = 3;
	ret = file_offsets(pid, fn, off, n);
	if (ret)
		return ret;
	out->freeze[0] = off[0];
	out->thaw = off[1];
	out->freeze[1] = off[2];
	out->nfreeze = n - 1;
	return 0;
}
