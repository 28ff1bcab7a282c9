/*
 * jvmnames: what evlog needs to name an uncommon trap, read from the live
 * JVM: HotSpot's own names of the reasons and actions
 * (Deoptimization::_trap_reason_name, _trap_action_name in libjvm's
 * .symtab: they differ between JDKs) and the compiled method holding a
 * pc, with its tier. Every read of the JVM is bounded and checked.
 */
#ifndef MIXPROF_JVMNAMES_H
#define MIXPROF_JVMNAMES_H

#include <stdint.h>
#include "events/evlog.h"

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
/* evlog's namer on n (n outlives the evlog). */
void jvmnames__namer(struct jvmnames *n, struct evlog_namer *out);
void jvmnames__free(struct jvmnames *n);

#endif
