/*
 * probe_class: the helper class the instrumented methods call,
 * mixprof/jmap/Probe (agent/Probe.java, built in as bytes), defined in the
 * bootstrap loader so any class (JDK ones too) resolves it. Its hit(int)
 * counts the call in counters of the calling thread (plain adds; an
 * atomic add on shared ones for threads without a slot) and, for sites
 * armed for stacks, calls its native fire(int), which fires the USDT
 * probe jmap:method_entry(site, probe) in libjmap.so (a nop unless a
 * tracer is attached to it). Reading sums every thread's counters in
 * Java (Probe.collect), so it runs Java code: call it without locks the
 * ClassFileLoadHook takes.
 *
 * Site ids are never reused in a JVM: calls to a site after it was closed
 * count as strays, so a test can see that no instrumented code is left.
 * All functions take the calling thread's JNIEnv.
 */
#ifndef MIXPROF_JMAP_PROBE_CLASS_H
#define MIXPROF_JMAP_PROBE_CLASS_H

#include <stdbool.h>
#include <stdint.h>
#include <jvmti.h>

#define PROBE_CLASS "mixprof/jmap/Probe"
#define PROBE_METHOD "hit"
#define PROBE_DESC "(I)V"
#define PROBE_SITES 0x8000 /* sipush ids: 1..0x7fff */

/*
 * Define and initialise the class (once per JVM; found again if another
 * copy of the agent defined it), bind its native, export
 * jdk.internal.misc to it and let every named module read it. 0 or -1
 * (logged).
 */
int probe_class__define(JNIEnv *env, jvmtiEnv *jvmti);

/* True for classes that must never be probed: the helper and what it
 * calls (a probe there would recurse). */
bool probe_class__excluded(const char *cls, size_t n);

/* A site starts counting; stacks arms its USDT probe. */
void probe_class__open(JNIEnv *env, unsigned site, bool stacks, uint16_t probe);
/* A site stops: calls beyond count (its total now) are strays. */
void probe_class__close(JNIEnv *env, unsigned site, uint64_t count);
/* Every site's count into all[PROBE_SITES]; sites from n on (not used
 * yet) read 0. 0 or -1 (logged). */
int probe_class__read(JNIEnv *env, unsigned n, uint64_t *all);
/* Calls to closed sites since they closed (all: as read above). */
uint64_t probe_class__strays(const uint64_t *all);

#endif
