/*
 * jnamer: one JVM's compiled Java frames and thread names, named from its
 * own memory: the entry point the profiler calls once the BPF unwinder
 * records, per compiled frame, the nmethod it found and that nmethod's
 * compile id (both read at sample time) and the pc.
 *
 * It ties nmethod.c (debug data, identity), hotspot.c (Method* names),
 * jlines.c and jthreads.c together and caches what it read: the frames of
 * each (nmethod, compile id, pc offset) sampled, and up to 512 nmethods'
 * debug data by address (a new pc of a known nmethod reads nothing). Nothing is cached by
 * Method* alone: a Method* freed by class unloading can come back as
 * another method's, while a compile id is never reused.
 *
 * Names and frames it returns live as long as the jnamer. Nothing here
 * prints; errors come back as -errno (or NULL + errno). Not thread-safe.
 */
#ifndef MIXPROF_JNAMER_H
#define MIXPROF_JNAMER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "jframe.h"

struct hotspot;

struct jnamer_frame {
	const char *name; /* "pkg/Class.method", as the agent names it */
	int32_t bci; /* -1: the method's entry */
	int line; /* > 0, or 0: unknown (no table, or lines not asked) */
	enum jframe_kind kind; /* JF_COMPILED (outermost) or JF_INLINED */
	int comp_level; /* the nmethod's tier: 1-3 C1, 4 C2/JVMCI */
};

struct jnamer_stats {
	uint64_t lookups, hits; /* jnamer__compiled calls, cache hits */
	uint64_t loads; /* nmethods whose debug data was read */
	uint64_t gone; /* code freed or reused before it was read */
	uint64_t bad; /* debug data that did not decode */
};

#define JN_LINES 1 /* read source lines too (for --lines) */

/*
 * The namer of JVM pid, whose tables h holds (borrowed: h must outlive
 * the namer; each JVM is opened once, by its owner): NULL and errno
 * ENOENT (not a HotSpot JVM, or a layout we do not know), ENOTSUP (JDK
 * 18-20), EAGAIN (starting), ESRCH, ENOMEM.
 */
struct jnamer *jnamer__open(struct hotspot *h, uint32_t pid, int flags);
/*
 * The frames at pc of nmethod nm (compile id cid), innermost first, into
 * out[0..max): their count; -ESTALE when that code is gone (the caller
 * names the frame by the Method* it recorded and counts it), -ERANGE (pc
 * outside the code), -EINVAL (debug data that does not decode), -EFAULT,
 * -EDQUOT (the JVM used up its read budget: readbudget.h; the caller
 * names the frame by its Method*, as for -ESTALE). Failures are cached
 * as results are: a frame is read once, whatever it gave.
 */
int jnamer__compiled(struct jnamer *j, uint64_t nm, int32_t cid, uint64_t pc,
		     struct jnamer_frame *out, int max);
/*
 * The same for pc a return address (ret_pc: a caller's frame): only a
 * PcDesc at that very address names its inlined methods; a call without
 * one (a leaf runtime call) gives the nmethod's method alone.
 */
int jnamer__compiled_at(struct jnamer *j, uint64_t nm, int32_t cid, uint64_t pc,
			bool ret_pc, struct jnamer_frame *out, int max);
/*
 * The JVM's epoch when the frames the next calls name were sampled (the
 * BPF walk's, sampler_abi.h's interp_stack.epoch; 0: unknown). A name
 * read for a Method* is kept for later chains, and a kept one used, only
 * while the JVM's epoch is still that one: a sample named after a class
 * unloaded since may read a freed Method* whose address a new method
 * takes next (the suspect for tests/integration/interp_unload.sh's one
 * failure under load, a phase's inlined method named as the phase
 * before's; under class churn the frames named by their method only for
 * a stale outer name went from 255-340 to 92-127 a run).
 */
void jnamer__sample_epoch(struct jnamer *j, uint32_t epoch);
/*
 * The whole name of Java thread tid into buf: its length, -ENOENT (not a
 * Java thread, or gone), -ENOSPC (cut), -EDQUOT. Names are cached; a tid not in
 * the cache makes one walk of the thread list, as does
 * jnamer__threads_refresh: call it when a thread is seen to start or
 * change its comm (a renamed thread, a tid reused by a new thread).
 */
int jnamer__thread(struct jnamer *j, int32_t tid, char *buf, size_t cap);
int jnamer__threads_refresh(struct jnamer *j);
/*
 * The source line of bytecode index bci of Method* method, read now (the
 * caller checked that the Method* is still the one sampled; for an
 * interpreted frame, bci = bcp - ConstMethod* - sizeof(ConstMethod)):
 * > 0, or -ENOENT (no table; JN_LINES not asked or its tables
 * unreadable), -EINVAL, -EFAULT.
 */
int jnamer__line(struct jnamer *j, uint64_t method, int bci);
const struct jnamer_stats *jnamer__stats(const struct jnamer *j);
/*
 * The namer's reader of the JVM's memory, for others that name frames of
 * it: budgeted (readbudget.h) and a line at a time, kept for a moment
 * (readcache.h): not for what must be read as it is now.
 */
const struct hotspot_mem *jnamer__mem(const struct jnamer *j);
/*
 * NULL, or why the JVM was degraded for the rest of the run (its memory
 * claimed more than HotSpot makes: readbudget.h): from then on nothing
 * more is read of it (-EDQUOT).
 */
const char *jnamer__over(const struct jnamer *j);
/*
 * The address of the JVM's count of unloaded classes (perfcount.h) in
 * *addr: 0, or -ENOENT (not there, or not yet: the counters are made as
 * the JVM starts).
 */
int jnamer__unload_count(const struct jnamer *j, uint64_t *addr);
/*
 * The address of JvmtiExport::_redefinition_count (a uint64_t: classes
 * redefined or retransformed since the JVM started, by operation) in
 * *addr: 0, or -ENOENT (libjvm.so without its symbol table).
 */
int jnamer__redefined_at(const struct jnamer *j, uint64_t *addr);
void jnamer__free(struct jnamer *j);

#endif
