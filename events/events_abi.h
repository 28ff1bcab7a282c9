/*
 * events_abi: what events.bpf.c hands user space (jvmevents.c) through its
 * ring buffer, one struct jvm_event per hit of a HotSpot probe. Fixed-width
 * types only, no includes: the BPF side and user space both include it.
 */
#ifndef MIXPROF_EVENTS_ABI_H
#define MIXPROF_EVENTS_ABI_H

/* Which probe fired. A begin and its end come from the same thread. */
enum jvm_event_kind {
	JEV_GC_BEGIN = 1, /* hotspot:gc__begin (arg0: full) */
	JEV_GC_END, /* hotspot:gc__end */
	JEV_SP_BEGIN, /* hs_private:safepoint__begin (synchronizing starts) */
	JEV_SP_END, /* hs_private:safepoint__end */
	JEV_VMOP_BEGIN, /* hotspot:vmops__begin (str0: the operation) */
	JEV_VMOP_END, /* hotspot:vmops__end */
	JEV_COMPILE_BEGIN, /* hotspot:method__compile__begin (str0: the
			    * compiler, str1: the class, str2: the method;
			    * arg0: the tier, 0 unknown; arg1: 1 for OSR) */
	JEV_COMPILE_END, /* ...__end; arg0: success */
	JEV_CLASS_LOADED, /* hotspot:class__loaded (str0: the class) */
	JEV_DEOPT, /* uprobe Deoptimization::uncommon_trap; arg0: the
		    * trap request, arg1: the trapping frame's return pc */
	JEV_TASK, /* uprobe CompileBroker::invoke_compiler_on_method: kept
		   * in BPF for the compile__begin that follows, not sent */
	JEV_NR,
};

/* Bytes kept of each name; a longer one is cut (len says how long). */
#define JEV_STR 112
#define JEV_NSTR 3

struct jvm_event {
	__u64 ts; /* bpf_ktime_get_ns: CLOCK_MONOTONIC */
	__u64 arg0, arg1;
	__u32 kind; /* enum jvm_event_kind */
	__u32 tid;
	__u32 tgid;
	__u16 len[JEV_NSTR]; /* the name's whole length in the JVM */
	__u16 pad;
	char str[JEV_NSTR][JEV_STR]; /* not NUL-terminated: len says */
	__u32 pad2;
};

/* The offsets the uprobes read the JVM by: jvm/jevcfg.h's struct jev_cfg
 * (HotSpot's, not this folder's). */

#endif
