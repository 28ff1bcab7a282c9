/*
 * hsprobes: where mixprof hooks into HotSpot's own code (libjvm.so), by
 * name, and what each hook's arguments mean: the functions the uprobes
 * of --alloc, --lock and --events sit on (their .symtab names) and the
 * USDT probes --events reads (providers hotspot and hs_private). The BPF
 * programs read those arguments, and the memory they point to, through
 * jalloc.bpf.h, jlocks.bpf.h and jevents.bpf.h; the attaching is done by
 * the sampler (sampler/sampler.c) and by events/jvmevents.c, which know
 * no HotSpot name of their own. Pure: names only.
 */
#ifndef MIXPROF_HSPROBES_H
#define MIXPROF_HSPROBES_H

#include <stddef.h>

/*
 * The allocation tracing hooks (AllocTracer, JDK 11 to 25): HotSpot calls
 * the first when an allocation takes a new TLAB (Klass*, obj, tlab bytes,
 * object bytes, thread) and the second for an allocation outside any TLAB
 * (Klass*, obj, bytes, thread), whether or not JFR records them.
 */
#define HS_SYM_ALLOC_NEW_TLAB                                                  \
	"_ZN11AllocTracer27send_allocation_in_new_"                            \
	"tlabEP5KlassPP12HeapWordImplmmP10JavaThread"
#define HS_SYM_ALLOC_OUTSIDE                                                   \
	"_ZN11AllocTracer28send_allocation_outside_"                           \
	"tlabEP5KlassPP12HeapWordImplmP10JavaThread"

/*
 * A monitor's contended entry: after the fast path and the first spin
 * failed, ObjectMonitor::enter calls EnterI (JDK 17), which later JDKs
 * (25) call enter_internal; it returns once the thread owns the monitor.
 * `this` is the ObjectMonitor. A j.u.c. lock's wait: LockSupport.park's
 * native, Unsafe_Park(JNIEnv*, jobject, jboolean, jlong), with the lock
 * in the thread's parkBlocker.
 */
#define HS_SYM_LOCK_ENTER_17 "_ZN13ObjectMonitor6EnterIEP10JavaThread"
#define HS_SYM_LOCK_ENTER_25 "_ZN13ObjectMonitor14enter_internalEP10JavaThread"
#define HS_SYM_PARK "Unsafe_Park"

/*
 * Deoptimization::uncommon_trap(JavaThread *current, int trap_request,
 * int exec_mode), the entry the uncommon trap blob calls (JDK 8 to 25:
 * one mangling), and CompileBroker::invoke_compiler_on_method(CompileTask
 * *task), where a compiler thread takes its task (the same).
 */
#define HS_SYM_UNCOMMON_TRAP                                                   \
	"_ZN14Deoptimization13uncommon_trapEP10JavaThreadii"
#define HS_SYM_INVOKE_COMPILER                                                 \
	"_ZN13CompileBroker25invoke_compiler_on_methodEP11CompileTask"

/* HotSpot's names of an uncommon trap's reasons and actions (arrays of
 * char *, local symbols: .symtab; they differ between JDKs) */
#define HS_SYM_TRAP_REASON_NAME "_ZN14Deoptimization17_trap_reason_nameE"
#define HS_SYM_TRAP_ACTION_NAME "_ZN14Deoptimization17_trap_action_nameE"

/* One USDT probe --events reads, and its program (jevents.bpf.h). */
struct hsprobe_usdt {
	const char *provider, *name;
	const char *prog;
};

/* --events' USDT probes (*n of them), in the order they are attached. */
const struct hsprobe_usdt *hsprobes__usdt(size_t *n);

#endif
