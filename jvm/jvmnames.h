/*
 * jvmnames: what --events needs of the live JVM (events/: its timeline
 * knows no HotSpot layout): the offsets its probes read by (struct
 * jev_cfg: the frame anchor, a CompileTask's tier and OSR bci), and what
 * events/evlog needs to name an uncommon trap: HotSpot's own names of the
 * reasons and actions (the namer events/evlog.h asks, given by
 * profiler/run_events.c)
 * (Deoptimization::_trap_reason_name, _trap_action_name in libjvm's
 * .symtab: they differ between JDKs) and the compiled method holding a
 * pc, with its tier. Every read of the JVM is bounded and checked.
 */
#ifndef MIXPROF_JVMNAMES_H
#define MIXPROF_JVMNAMES_H

#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>
#include "jvm/jevcfg.h"

struct jvmnames;

/*
 * For JVM pid (not read yet: a launched JVM may not be up). jv (NULL:
 * none; else it outlives n) is the run's JVMs: pid's is borrowed from it,
 * its VMStructs read once for the run (jvm/hotspot.h:
 * hotspot__vmstructs); without it n opens the JVM itself. NULL+errno.
 */
struct jvms;
struct jvmnames *jvmnames__new(uint32_t pid, struct jvms *jv);
/*
 * Read the JVM's layout if not done yet: 0 once it is (then *c holds the
 * offsets the BPF programs read by, 0 for those unknown), -EAGAIN while
 * it is starting (or jv does not know it yet: the caller tells jv of pid,
 * jvms__seen), another -errno when it cannot be read.
 */
int jvmnames__ready(struct jvmnames *n, struct jev_cfg *c);
/* HotSpot's name of an uncommon trap's reason / action number i (read
 * once), or NULL. */
const char *jvmnames__reason(struct jvmnames *n, int i);
const char *jvmnames__action(struct jvmnames *n, int i);
/*
 * The compiled method holding pc ("pkg.Class.method") into buf, its
 * tier in *tier when known: the name's length, or a negative errno
 * (-EAGAIN: the JVM not read yet; -ENOENT: no nmethod layout).
 */
int jvmnames__method_at(struct jvmnames *n, uint64_t pc, char *buf, size_t cap,
			int *tier);
void jvmnames__free(struct jvmnames *n);

#endif
