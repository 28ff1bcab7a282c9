/*
 * jstacks: the Java frames of sampled stacks, named from the JVMs'
 * memory (no agent needed).
 *
 * Samples of a JVM the BPF walk knows (jvms.h) carry an interp_id: the
 * list of (stack position, pc, Method*, class name Symbol*, method name
 * Symbol*, and for compiled frames the nmethod and its compile id) the
 * BPF program read at sample time. This module turns the Symbol*s into
 * "pkg/Class.method" as soon as a key is seen (the JVM may exit before
 * its keys are taken), caching names per (pid, Symbol*, Symbol*, their
 * identity hashes), and names compiled frames by their nmethod's debug
 * data (jnamer.h), read while the code is alive: each Java frame handed
 * out typed (struct jstack_frame: name, kind, tier, line), never as
 * folded text, which stacks/fold.c writes. It also keeps the whole
 * java.lang.Thread names of threads seen (--per-thread) and the names of
 * stub CodeBlobs no map names.
 *
 * It reads the sampler (stacksrc.h: stacks, lists) and writes nothing
 * there: discovery is jvms.h's. Names returned live until
 * jstacks__free(). Nothing here prints.
 */
#ifndef MIXPROF_JSTACKS_H
#define MIXPROF_JSTACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "jframe.h"
#include "jvms.h"
#include "stacks/stacksrc.h"

struct jstacks;

/* NULL and errno (ENOMEM). src is copied; jv (used, not owned) outlives. */
struct jstacks *jstacks__new(const struct stacksrc *src, struct jvms *jv);
void jstacks__free(struct jstacks *js);

/*
 * Key k was in the counts map at now_ns (every key, every tick), after
 * jvms__seen() learnt its process: name its Java frames and the stubs
 * in its stack while the process still lives, and its thread's Java
 * name (--per-thread keys).
 */
void jstacks__seen(struct jstacks *js, const struct sample_key *k,
		   uint64_t now_ns);

/*
 * One Java frame as the JVM names it: what stacks/fold.h writes and
 * types (its suffix, ":LINE", class and method). Its name lives until
 * jstacks__free().
 */
struct jstack_frame {
	/* "pkg/Class.method", as the JVM has it (not yet made safe:
	 * fold.c does) */
	const char *name;
	int line; /* its source line with lines asked (jstacks__lines); 0 */
	/* its bytecode index with bcis asked (jstacks__bci): a compiled
	 * frame's from its scope at the pc (-1: the method's entry), an
	 * interpreted frame's as the walk read it (with lines asked: the
	 * walk records it then); else -1 */
	int32_t bci;
	enum jframe_kind kind; /* JF_INTERPRETED, JF_COMPILED, JF_INLINED */
	bool c1; /* a JF_COMPILED frame of C1 (tiers 1-3: jframe__c1) */
};

/*
 * What the JVM says of one key's user stack, for its folded line: the
 * caller gives the arrays (as many entries as frames), jstacks__stack
 * fills them. Names live until jstacks__free().
 */
struct jstack {
	/*
	 * The state the rest answers from: while it is the same nonzero
	 * value for a key, so are the answers (names of its callers may be
	 * kept). 0 when the key's list is not known.
	 */
	uint64_t version;
	/*
	 * The whole java.lang.Thread name of the key's thread (the
	 * kernel's comm keeps 15 characters), read when jstacks__seen first
	 * saw a key of it (--per-thread keys carry the tid), as the JVM has
	 * it (not yet made safe: fold.c does); NULL: no Java thread, or not
	 * known.
	 */
	const char *thread;
	/*
	 * Per frame i: its njava[i] Java frames, java[first[i]] on,
	 * outermost first; 0 when it is not a Java frame we could name. An
	 * interpreted frame is one; a compiled frame (named from the JVM's
	 * memory by jnamer, no agent) is its inline chain. A listed frame
	 * is used only where ips[] holds the same pc at the same position
	 * (the BPF walk and the kernel's saw the same frame). java is
	 * jstacks's, valid until the next call.
	 */
	uint32_t *first, *njava;
	const struct jstack_frame *java;
	/* the frame's pc (a caller's: its return address - 1) lies in the
	 * JVM's interpreter, as far as we know yet */
	bool *interp;
	/* a frame not named here that lies in the JVM's code cache: its
	 * CodeBlob's name ("StubRoutines (1)"), for when no map names it
	 * (a JVM without our agent); NULL otherwise */
	const char **stubs;
	/* ips[0] is the interpreter returning past the leaf's frame
	 * (itails.h): no method to name, JSTACKS_RETURN_NAME */
	bool ret_leaf;
};

/* the name of a leaf in the interpreter's return past its frame */
#define JSTACKS_RETURN_NAME "Interpreter (return)"

/*
 * Name the JVM's part of k's user stack ips[0..n) (leaf first, as the
 * stack map holds it; n may be 0: the thread's name alone) into *out, in
 * one pass: its Java frames, the interpreter's and the code cache's
 * frames, the thread, the version. Returns the number of interpreted
 * frames named.
 */
int jstacks__stack(struct jstacks *js, const struct sample_key *k,
		   const uint64_t *ips, int n, struct jstack *out);

/* Whether Java frames get their source lines. Before the first key. */
void jstacks__lines(struct jstacks *js, bool lines);
/* Whether they get their bytecode indexes too. Before the first key. */
void jstacks__bci(struct jstacks *js, bool bci);

/*
 * The name of the CodeBlob holding pc in JVM pid, as jstack.stubs has
 * them (check mode's oracle pc, which is no frame of the stack): read
 * once per (pid, pc) and kept. NULL: not in its code cache, unreadable.
 */
const char *jstacks__stub_name(struct jstacks *js, uint32_t pid, uint64_t pc);

/*
 * The Java name of the class at Klass* klass in JVM pid, read now
 * ("byte[]", "java.lang.String[]", "java.util.HashMap$Node"), or NULL
 * when pid is not a JVM we know or the memory does not hold a class.
 */
const char *jstacks__klass_name(struct jstacks *js, uint32_t pid,
				uint64_t klass);

/*
 * pid is being forgotten (jvms__forget, called after this): drop its
 * names of threads, stubs and Symbols. Names handed out stay valid.
 */
void jstacks__forget(struct jstacks *js, uint32_t pid);

struct jstacks_stats {
	struct jvms_stats jvms; /* discovery's (jvms__stats) */
	uint64_t misaligned; /* listed frames whose pc did not match */
	uint64_t unreadable; /* listed frames without readable names */
	/* deep lists whose deeper chunks were gone when read (the BPF
	 * LRU evicted them first): their outer frames stay Interpreter */
	uint64_t chunks_gone;
	/* compiled frames (each time one is named, not per sample) */
	uint64_t compiled_named; /* from their nmethod's debug data */
	uint64_t compiled_stale; /* code gone: by the Method* (no inlines) */
	uint64_t compiled_failed; /* not an nmethod, or unreadable */
};
void jstacks__stats(const struct jstacks *js, struct jstacks_stats *st);

#endif
