/*
 * probes: Java method entry probes, the JVMTI side. A probe is a pattern
 * (pattern.h); every method it matches becomes a site with its own id and
 * counter. Loaded classes that declare a matching method are
 * retransformed (no other: a retransform leaves a call running in any
 * method of the class interpreted until it returns, see replaced.h),
 * classes loaded later are rewritten by the ClassFileLoadHook, both by
 * inject.c.
 * Removing the probes retransforms those classes again with the hook
 * returning nothing: the JVM goes back to the original bytes.
 *
 * Uses its own JVMTI environment so its optional capability
 * (can_retransform_classes, asked for at the first probe, not at load)
 * and its hook never touch the map writer. The hook is enabled only while
 * a probe exists. Classes never probed: the helper and Unsafe (what the
 * helper calls), hidden classes and arrays (not modifiable), abstract
 * and native methods (no code). A method belongs to the first probe that
 * matched it.
 *
 * All functions except probes__init run on the control thread with its
 * JNIEnv; they serialise with the hook through one lock.
 */
#ifndef MIXPROF_JMAP_PROBES_H
#define MIXPROF_JMAP_PROBES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jni.h>
#include "strbuf.h"

/* Get the environment and capability, install the callbacks, start the
 * control server (control.h) now on attach, at VMInit at launch. 0 or -1
 * (logged: the rest of the agent runs on without probes). */
int probes__init(JavaVM *vm, const char *dir, bool attach);

/* Attached again: bind the control socket if it is not up (a file
 * another user put at its path made it fail and may be gone). Logs. */
void probes__rebind(void);

/*
 * Add a probe. With stacks its sites fire the USDT probe; with wait a
 * pattern matching no loaded method is kept for classes loaded later,
 * otherwise it is an error. 0 with *id and *nsites (sites so far), or
 * -errno with a one-line message in err.
 */
int probes__add(JNIEnv *env, const char *pattern, bool stacks, bool wait,
		unsigned *id, unsigned *nsites, char *err, size_t errlen);

/* Remove every probe and restore the classes. Never fails (logs). */
void probes__clear(JNIEnv *env);

/* Lines "SITE PROBE COUNT CLASS.METHOD(DESC)" for every live site;
 * returns how many, -ENOMEM, or -EIO when the counters could not be
 * read (logged once). */
int probes__counts(JNIEnv *env, struct strbuf *out);
/* Lines "CLASS.METHOD THREAD" of frames left running a method version
 * that adding a probe replaced (replaced.h); how many, or -ENOMEM. */
int probes__replaced(JNIEnv *env, struct strbuf *out);
/* Lines "PROBE SITES stacks|count PATTERN"; how many, or -ENOMEM. */
int probes__list(struct strbuf *out);
/* Active probes, live sites, calls to sites no longer live. */
void probes__status(JNIEnv *env, unsigned *nprobes, unsigned *nsites,
		    uint64_t *strays);

#endif
