/*
 * jevcfg: the offsets --events' uprobes (jevents.bpf.h) read the JVM by,
 * set by user space once the JVM is readable (maybe after the attach;
 * jvmnames__ready reads them from its VMStructs). Fixed-width types
 * only, no includes: the BPF side and user space both include it.
 */
#ifndef MIXPROF_JEVCFG_H
#define MIXPROF_JEVCFG_H

/* 0: unknown (not read) */
struct jev_cfg {
	__u32 off_anchor_sp; /* JavaThread::_anchor + _last_Java_sp */
	__u32 off_task_level; /* CompileTask::_comp_level (low byte) */
	__u32 off_task_osr_bci; /* CompileTask::_osr_bci (int) */
	__u32 pad;
};

#endif
