/*
 * replaced: threads left running a method version that a retransform
 * replaced. HotSpot never compiles such a version again (CompileBroker
 * returns early for "old" methods), so a frame that was inside a method
 * of a class when probes retransformed it runs that call interpreted
 * until it returns: nothing shows for a short call, but a loop that never
 * returns stays slow for good. The probe client is told, so the user
 * knows where the slowness comes from.
 *
 * replaced__note snapshots, right after a retransform, the frames in the
 * retransformed classes (thread, method, depth from the stack's bottom);
 * replaced__report lists those still at the same depth in the same
 * method (the call has not returned, or the same method was entered
 * again at that depth: the report says "still or again"); a frame
 * missing from a few reports in a row, or whose thread ended, is
 * forgotten (one report can fall in a moment the stack is rebuilt). Control thread only; at most REPLACED_MAX frames are kept, and
 * report lines are cut to 233 bytes (the client reads 8 KiB replies).
 */
#ifndef MIXPROF_JMAP_REPLACED_H
#define MIXPROF_JMAP_REPLACED_H

#include <stdbool.h>
#include <jvmti.h>
#include "strbuf.h"

#define REPLACED_MAX 32

/* After RetransformClasses of classes[0..n): note the frames in them,
 * but those of methods skip says yes to (the probed ones: a frame seen
 * there is mostly a call of the new version, entered just now). */
typedef bool (*replaced_skip)(jmethodID m, const void *arg);
void replaced__note(jvmtiEnv *jvmti, JNIEnv *env, const jclass *classes, jint n,
		    replaced_skip skip, const void *arg);

/* Lines "CLASS.METHOD THREAD_NAME" (slashed class, the thread's name with
 * control characters as '?') of noted frames there now; how many, or
 * -ENOMEM. */
int replaced__report(jvmtiEnv *jvmti, JNIEnv *env, struct strbuf *out);

/* Forget every noted frame (the client left). */
void replaced__reset(JNIEnv *env);

#endif
