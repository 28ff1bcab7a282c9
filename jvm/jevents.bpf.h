/*
 * jevents.bpf.h: the HotSpot half of --events' BPF programs
 * (events/events.bpf.c, which includes it at its end, after the ring,
 * ev_emit and the JEV_USDT macro): one program per USDT probe of libjvm
 * (hsprobes.h lists them with their programs' names) and what its
 * arguments are, and the two uprobes, which read the JVM's memory by the
 * offsets user space set (struct jev_cfg, jevcfg.h; jvmnames.h reads
 * them).
 */
#ifndef MIXPROF_JEVENTS_BPF_H
#define MIXPROF_JEVENTS_BPF_H

#include "jvm/jevcfg.h"

struct jev_cfg cfg; /* set by user space once the JVM is readable */

JEV_USDT(jev_gc_begin, JEV_GC_BEGIN, 0, 0) /* gc__begin(full) */
JEV_USDT(jev_gc_end, JEV_GC_END, 0, -1)
JEV_USDT(jev_sp_begin, JEV_SP_BEGIN, 0, -1)
JEV_USDT(jev_sp_end, JEV_SP_END, 0, -1)
/* vmops__begin/end(name, len, mode) */
JEV_USDT(jev_vmop_begin, JEV_VMOP_BEGIN, 1, -1)
JEV_USDT(jev_vmop_end, JEV_VMOP_END, 1, -1)
/* method__compile__begin/end(compiler, len, class, len, method, len,
 * signature, len[, success]) */
JEV_USDT(jev_compile_begin, JEV_COMPILE_BEGIN, 3, -1)
JEV_USDT(jev_compile_end, JEV_COMPILE_END, 3, 8)
/* class__loaded(name, len, loader id, shared) */
JEV_USDT(jev_class_loaded, JEV_CLASS_LOADED, 1, -1)

/*
 * Deoptimization::uncommon_trap(JavaThread *current, int trap_request,
 * int exec_mode): the request encodes the reason and the action. The
 * uncommon trap blob that calls it left its own sp as the frame anchor's
 * (SharedRuntime::generate_uncommon_trap_blob: a frame of two words, the
 * saved rbp then the return address into the compiled code that trapped),
 * so that code's pc is the word above the anchor's sp.
 */
SEC("uprobe")
int jev_deopt(struct pt_regs *ctx)
{
	struct jvm_event *e = EV_RESERVE();
	__u64 thread = PT_REGS_PARM1(ctx), sp = 0, pc = 0;

	if (!e) {
		__sync_fetch_and_add(&lost, 1);
		return 0;
	}
	ev_init(e, JEV_DEOPT);
	e->arg0 = (__u32)PT_REGS_PARM2(ctx);
	if (cfg.off_anchor_sp &&
	    !bpf_copy_from_user(&sp, sizeof(sp),
				(void *)(thread + cfg.off_anchor_sp)) &&
	    sp && !bpf_copy_from_user(&pc, sizeof(pc), (void *)(sp + 8)))
		e->arg1 = pc;
	bpf_ringbuf_submit(e, 0);
	return 0;
}

/*
 * CompileBroker::invoke_compiler_on_method(CompileTask *task), entered by
 * a compiler thread right before method__compile__begin: its tier and
 * whether it is OSR (_osr_bci is InvocationEntryBci, -1, when not).
 */
SEC("uprobe")
int jev_task(struct pt_regs *ctx)
{
	__u64 task = PT_REGS_PARM1(ctx), v;
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u8 level = 0;
	__s32 bci = -1;

	if (!cfg.off_task_level ||
	    bpf_copy_from_user(&level, 1, (void *)(task + cfg.off_task_level)))
		return 0;
	if (cfg.off_task_osr_bci)
		bpf_copy_from_user(&bci, 4,
				   (void *)(task + cfg.off_task_osr_bci));
	v = level | (bci != -1 ? 0x100 : 0);
	bpf_map_update_elem(&jev_tasks, &tid, &v, BPF_ANY);
	return 0;
}

#endif
