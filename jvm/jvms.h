/*
 * jvms: the HotSpot JVMs a run meets, found and given to the BPF walk.
 *
 * For every process seen in samples it finds out once whether it is a
 * HotSpot JVM (hotspot.h: libjvm.so's VMStructs), retrying while a JVM
 * starts, and if so opens its tables once (one struct hotspot, shared
 * with its compiled-frame namer, jnamer.h, and with jstacks.h) and tells
 * the BPF sampler what its walk needs (stacksrc.h: set_interp): the
 * interpreter's range, the offsets from a Method* to its names, the code
 * heaps and CodeBlob fields, the frame anchor, the virtual threads'
 * layout (vthread.h); then, every tick, its threads' anchors
 * (jthreadsync.h). These are the only calls that write the sampler's
 * JVM maps; naming (jstacks.h) only reads what is here.
 *
 * Nothing here prints.
 */
#ifndef MIXPROF_JVMS_H
#define MIXPROF_JVMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "jthreadsync.h"
#include "stacks/stacksrc.h"

struct jvms;
struct hotspot;
struct jnamer;
struct vthread_syms;

enum jvm_state {
	JVM_TRY, /* not known yet: looked at again */
	JVM_YES, /* a JVM whose tables are read and given to BPF */
	JVM_NOT, /* not a JVM, or given up */
};

/*
 * One process as discovery knows it. jstacks.h reads it (state, h, jn,
 * the interpreter's range, the threads given); only jvms.c writes it.
 * Lives until jvms__forget() or jvms__free().
 */
struct jvm {
	uint32_t pid;
	enum jvm_state state;
	int tries;
	uint64_t next_try_ns;
	uint64_t start, end; /* the interpreter, once known */
	uint64_t found_ns; /* when it was known: its range checked a while */
	struct hotspot *h; /* its tables, opened once */
	struct jnamer *jn; /* its compiled frames' namer (on h), or NULL */
	int jn_err; /* why not: jnamer__open's errno */
	bool over_said; /* its jnamer's read budget ran out: counted */
	uint64_t jn_next_ns; /* EAGAIN: when to try again */
	struct interp_proc proc; /* what the sampler was given */
	bool anchors; /* its threads go to the sampler's java_threads */
	struct jthreads given; /* what java_threads holds of it */
	bool over; /* it listed more threads than it may hold (told) */
	int vt_err; /* vthread__read's: -EAGAIN asks again */
	int vt_chunk_err; /* why frozen frames are not walked, or 0 */
	struct vthread_syms *vt_syms; /* its libjvm.so's statics */
	uint64_t vt_next_ns; /* -EAGAIN: when to read them again */
	/* launched: its address space's size when its maps last showed no
	 * libjvm.so (jvms__launched), or 0 */
	uint64_t nojvm_vsize;
};

struct jvms_stats {
	uint64_t jvms; /* processes whose interpreter is walked */
	uint64_t unwound; /* of the JVMs: compiled frames unwound */
	/* the launched JVM read by jvms__launched: its pid and age then
	 * (0: none; read by the drain, or not a JVM) */
	uint32_t early_pid;
	uint64_t early_age_ns;
	/* Java threads listed but not given an anchor (jthreadsync.h), each
	 * counted once: the sampler had no room; not a thread of the JVM
	 * whose list named it (the last such JVM). JVMs that listed more
	 * than JAVA_THREADS_PER_JVM (the list is read no further), the last */
	uint64_t threads_full;
	uint64_t threads_foreign;
	uint32_t threads_foreign_pid;
	uint64_t jvms_over;
	uint32_t jvms_over_pid;
	/* JVMs whose compiled frames jnamer cannot name, and the last one */
	uint64_t no_names;
	uint32_t no_names_pid;
	int no_names_err;
	/* JVMs whose metadata ran past its read budget (jvm/readbudget.h):
	 * named by method only from then on; the last one, and why */
	uint64_t over;
	uint32_t over_pid;
	const char *over_why;
};

#define JVMS_LINES 1 /* --lines: interpreted frames record their bci */

/*
 * NULL and errno (ENOMEM). src (copied) takes what discovery learns;
 * open_jvm opens a process's JVM tables (NULL: hotspot__open; the tests
 * open fake ones). flags: JVMS_LINES.
 */
struct jvms *jvms__new(const struct stacksrc *src,
		       struct hotspot *(*open_jvm)(uint32_t pid), int flags);
void jvms__free(struct jvms *v);

/*
 * pid was seen at now_ns (a key of it, or a probed JVM known first):
 * learn it when a try is due (retrying while a JVM starts), and at a new
 * tick give every JVM's threads again. Its state, or NULL (ourselves,
 * ENOMEM).
 */
struct jvm *jvms__seen(struct jvms *v, uint32_t pid, uint64_t now_ns);

/* pid's state if it was ever seen (and not forgotten), else NULL. */
struct jvm *jvms__find(const struct jvms *v, uint32_t pid);

/*
 * Learn process pid now, before sampling starts (-p): a running JVM's
 * first samples are then unwound by its own tables, and another
 * process's by the frame-pointer rules, neither walked "pending".
 */
void jvms__prepare(struct jvms *v, uint32_t pid);

/*
 * The launched command pid, at a short interval in its first seconds
 * (run_child.c): read as a JVM as soon as its libjvm.so's tables say
 * its interpreter is there, not on the drain tick that first sees its
 * samples (up to 200 ms later; seconds under load), so its first Java
 * frames are walked as a JVM's. A look before libjvm.so is mapped is no
 * try. True while it is worth asking again (still starting, young).
 */
bool jvms__launched(struct jvms *v, uint32_t pid, uint64_t now_ns);

/* What the unwinder knows of JVM pid, one line: its length, or -ENOENT. */
int jvms__describe(const struct jvms *v, uint32_t pid, char *buf, size_t cap);

/*
 * JVM pid's tables (--lock reads its locks through them), owned by v:
 * NULL when pid is no JVM whose tables are read (yet).
 */
struct hotspot *jvms__hotspot(const struct jvms *v, uint32_t pid);

/*
 * The whole java.lang.Thread name of thread tid of JVM pid, read now (as
 * the JVM has it): its length, or -ENOENT (no such Java thread, or its
 * names cannot be read), -EFAULT.
 */
int jvms__thread_read(struct jvms *v, uint32_t pid, uint32_t tid, char *buf,
		      size_t cap);

/* j's jnamer ran out of its read budget: counted once (the summary). */
void jvms__over_budget(struct jvms *v, struct jvm *j);

/*
 * pid's keys are all taken (it exited, or left no key for long): drop its
 * state, its slot in the BPF interp map and its threads' anchors
 * included; learnt again if it comes back. NULL v is a no-op.
 */
void jvms__forget(struct jvms *v, uint32_t pid);

void jvms__stats(const struct jvms *v, struct jvms_stats *st);

/* A JVM and the entries it holds in the sampler's java_threads now. */
struct jvms_anchored {
	uint32_t pid;
	uint32_t threads;
};

/*
 * The JVMs whose threads have anchors, at most cap of them into out, by
 * pid: how many there are (more than cap: the rest left out).
 */
size_t jvms__anchored(const struct jvms *v, struct jvms_anchored *out,
		      size_t cap);

#endif
