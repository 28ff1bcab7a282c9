/*
 * interp: names for the interpreted Java frames of sampled stacks.
 *
 * For every process seen in samples it finds out once whether it is a
 * HotSpot JVM (hotspot.h: libjvm.so's VMStructs), and if so tells the BPF
 * sampler where the interpreter lies and the offsets its frame walk needs
 * (stacksrc.h: set_interp). Samples then carry an interp_id: the list of
 * (stack position, pc, Method*, class name Symbol*, method name Symbol*)
 * the BPF program read at sample time. This module turns the Symbol*s
 * into "pkg/Class.method", as soon as a key is seen (the JVM may exit
 * before its keys are taken), and caches names per (pid, Symbol*,
 * Symbol*), re-reading a cached pair's Symbols once per drain tick so a
 * Symbol freed and reused cannot keep an old name.
 *
 * Two callers: the run learns processes (interp__seen, __learn,
 * __prepare, __forget: the only calls that write the sampler's maps),
 * naming asks (interp__names, __version, __stub_name, __thread_name,
 * __klass_name: reads only).
 *
 * Names returned live until interp__free(). Nothing here prints.
 */
#ifndef MIXPROF_INTERP_H
#define MIXPROF_INTERP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "stacks/stacksrc.h"

struct interp;

struct hotspot;

/*
 * NULL and errno (ENOMEM). src (copied) reads stacks and lists and takes
 * what discovery learns; open_jvm opens a process's JVM tables (NULL:
 * hotspot__open; the tests open fake ones).
 */
struct interp *interp__new(const struct stacksrc *src,
			   struct hotspot *(*open_jvm)(uint32_t pid));
void interp__free(struct interp *in);

/*
 * Key k was in the counts map at now_ns (every key, every tick): learn
 * its process (retrying while a JVM starts) and name its interpreted
 * frames while the process still lives.
 */
void interp__seen(struct interp *in, const struct sample_key *k,
		  uint64_t now_ns);

/* interp__seen for a process, without a key (a probed JVM, known first). */
void interp__learn(struct interp *in, uint32_t pid, uint64_t now_ns);

/*
 * Learn process pid now, before sampling starts (-p): a running JVM's
 * first samples are then unwound by its own tables, and another
 * process's by the frame-pointer rules, neither walked "pending".
 */
void interp__prepare(struct interp *in, uint32_t pid);

/*
 * The launched command pid, at a short interval in its first seconds
 * (run_child.c): read as a JVM as soon as its libjvm.so's tables say
 * its interpreter is there, not on the drain tick that first sees its
 * samples (up to 200 ms later; seconds under load), so its first Java
 * frames are walked as a JVM's. A look before libjvm.so is mapped is no
 * try. True while it is worth asking again (still starting, young).
 */
bool interp__launched(struct interp *in, uint32_t pid, uint64_t now_ns);

/* What the unwinder knows of JVM pid, one line: its length, or -ENOENT. */
int interp__describe(const struct interp *in, uint32_t pid, char *buf,
		     size_t cap);

/*
 * Names for the Java frames of k, whose user stack is ips[0..n) (leaf
 * first, as the stack map holds it): names[i] gets the name of frame i,
 * or NULL when it is not a Java frame we could name. For a compiled
 * frame (named from the JVM's memory by jnamer, no agent) folded[i] is
 * set and names[i] is folded text: its inline chain, outermost first,
 * suffixed as interp__style() says, its names made safe
 * (common/safename.h); interpreted frames are one name, as the JVM has
 * it (fold.c makes it safe).
 * Returns the number of interpreted frames named.
 * A listed frame is used only where ips[] holds the same pc at the same
 * position (the BPF walk and the kernel's saw the same frame). Returns
 * the number named.
 */
int interp__names(struct interp *in, const struct sample_key *k,
		  const uint64_t *ips, int n, const char **names, bool *folded);

/*
 * How compiled frames are written: with their frame kind suffixes
 * (jframe.h), with ":LINE". Before the first key is seen.
 */
void interp__style(struct interp *in, bool annotate, bool lines);

/*
 * The state interp__names() and interp__in_interpreter() answer k from:
 * while it returns the same nonzero value they answer k the same. 0 when
 * k's list is not known.
 */
uint64_t interp__version(const struct interp *in, const struct sample_key *k);

/*
 * The whole java.lang.Thread name of thread tid of JVM pid (the kernel's
 * comm keeps 15 characters), read when interp__seen first saw a key of
 * that thread (--per-thread keys carry the tid) and kept, as the JVM has
 * it (not yet made safe: fold.c does): NULL when it is no Java thread,
 * or not known.
 */
const char *interp__thread_name(struct interp *in, uint32_t pid, uint32_t tid);

/*
 * JVM pid's tables (--lock reads its locks through them), owned by in:
 * NULL when pid is no JVM whose tables are read (yet).
 */
struct hotspot *interp__hotspot(struct interp *in, uint32_t pid);

/*
 * The whole java.lang.Thread name of thread tid of JVM pid, read now (as
 * the JVM has it): its length, or -ENOENT (no such Java thread, or its
 * names cannot be read), -EFAULT.
 */
int interp__thread_read(struct interp *in, uint32_t pid, uint32_t tid,
			char *buf, size_t cap);

/*
 * The name of the CodeBlob holding pc in JVM pid ("StubRoutines (1)"):
 * for stub frames no map names (a JVM without our agent); read once per
 * (pid, pc) and kept. NULL: not in its code cache, or unreadable.
 */
const char *interp__stub_name(struct interp *in, uint32_t pid, uint64_t pc);

/* Does ip lie in pid's interpreter (as far as we know yet)? */
bool interp__in_interpreter(const struct interp *in, uint32_t pid, uint64_t ip);

/*
 * pid's keys are all taken (it exited, or left no key for long): drop its
 * state, its slot in the BPF interp map included. Its names stay valid;
 * learnt again if it comes back. NULL in is a no-op.
 */
void interp__forget(struct interp *in, uint32_t pid);

/*
 * The Java name of the class at Klass* klass in JVM pid, read now
 * ("byte[]", "java.lang.String[]", "java.util.HashMap$Node"), or NULL
 * when pid is not a JVM we know or the memory does not hold a class.
 * Lives until interp__free().
 */
const char *interp__klass_name(struct interp *in, uint32_t pid, uint64_t klass);

struct interp_stats {
	uint64_t jvms; /* processes whose interpreter is walked */
	uint64_t misaligned; /* listed frames whose pc did not match */
	uint64_t unreadable; /* listed frames without readable names */
	uint64_t unwound; /* of the JVMs: compiled frames unwound */
	/* the launched JVM read by interp__launched: its pid and age then
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
	/* compiled frames (each time one is named, not per sample) */
	uint64_t compiled_named; /* from their nmethod's debug data */
	uint64_t compiled_stale; /* code gone: by the Method* (no inlines) */
	uint64_t compiled_failed; /* not an nmethod, or unreadable */
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
void interp__stats(const struct interp *in, struct interp_stats *st);

/* A JVM and the entries it holds in the sampler's java_threads now. */
struct interp_anchored {
	uint32_t pid;
	uint32_t threads;
};

/*
 * The JVMs whose threads have anchors, at most cap of them into out, by
 * pid: how many there are (more than cap: the rest left out).
 */
size_t interp__anchored(const struct interp *in, struct interp_anchored *out,
			size_t cap);

#endif
