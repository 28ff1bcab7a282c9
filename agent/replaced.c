/*
 * replaced: frames left running replaced method versions (replaced.h).
 */
#include <errno.h>
#include <string.h>
#include "replaced.h"

#define SNAP_FRAMES 256 /* a deeper stack's bottom is unknown: skipped */

struct frame {
	jthread thread; /* global reference */
	jmethodID method;
	jint from_bottom; /* 0: the thread's first frame */
	unsigned missed; /* reports in a row it was not there */
};

/* A frame is forgotten when missing from this many reports in a row (or
 * at once when its thread ended): a report can come while the thread's
 * stack is being rebuilt (an OSR migration right after the retransform
 * pops the interpreted frame before the compiled one is pushed), and a
 * frame dropped for such a moment was never reported again. */
#define MISSED_MAX 3

static struct frame frames[REPLACED_MAX];
static unsigned nframes;

static bool in_classes(JNIEnv *env, jclass k, const jclass *classes, jint n)
{
	jint i;

	for (i = 0; i < n; i++)
		if ((*env)->IsSameObject(env, k, classes[i]))
			return true;
	return false;
}

/* Keep one frame unless it is kept already or there is no room. */
static void keep(JNIEnv *env, jthread t, jmethodID m, jint from_bottom)
{
	unsigned i;

	for (i = 0; i < nframes; i++)
		if (frames[i].method == m &&
		    frames[i].from_bottom == from_bottom &&
		    (*env)->IsSameObject(env, frames[i].thread, t))
			return;
	if (nframes == REPLACED_MAX)
		return;
	frames[nframes].thread = (*env)->NewGlobalRef(env, t);
	if (!frames[nframes].thread)
		return;
	frames[nframes].method = m;
	frames[nframes].from_bottom = from_bottom;
	frames[nframes].missed = 0;
	nframes++;
}

struct note {
	const jclass *classes;
	jint n;
	replaced_skip skip;
	const void *arg;
};

/* The frames of thread t's whole stack that are in the classes. */
static void note_stack(jvmtiEnv *jvmti, JNIEnv *env, jthread t,
		       const struct note *w)
{
	static jvmtiFrameInfo fr[SNAP_FRAMES]; /* control thread only */
	jint nf = 0, d;
	jmethodID m;
	jclass k;

	if ((*jvmti)->GetStackTrace(jvmti, t, 0, SNAP_FRAMES, fr, &nf) ||
	    nf >= SNAP_FRAMES)
		return;
	for (d = 0; d < nf; d++) {
		m = fr[d].method;
		if (w->skip(m, w->arg) ||
		    (*jvmti)->GetMethodDeclaringClass(jvmti, m, &k))
			continue;
		if (in_classes(env, k, w->classes, w->n))
			keep(env, t, m, nf - 1 - d);
		(*env)->DeleteLocalRef(env, k);
	}
}

/* Thread by thread (a handshake each), not GetAllStackTraces, which
 * stops every thread at a safepoint for the whole walk. */
void replaced__note(jvmtiEnv *jvmti, JNIEnv *env, const jclass *classes, jint n,
		    replaced_skip skip, const void *arg)
{
	struct note w = {classes, n, skip, arg};
	jthread *ts = NULL;
	jint nt = 0, i;

	if (!n || (*jvmti)->GetAllThreads(jvmti, &nt, &ts))
		return;
	for (i = 0; i < nt; i++) {
		note_stack(jvmti, env, ts[i], &w);
		(*env)->DeleteLocalRef(env, ts[i]);
	}
	(*jvmti)->Deallocate(jvmti, (unsigned char *)ts);
}

/* 1 if frame f is still (or again) where it was noted, 0 if not, -1 if
 * its thread ended. */
static int still_there(jvmtiEnv *jvmti, const struct frame *f)
{
	jmethodID m;
	jlocation loc;
	jint fc, d;

	if ((*jvmti)->GetFrameCount(jvmti, f->thread, &fc))
		return -1;
	d = fc - 1 - f->from_bottom;
	return d >= 0 &&
	       !(*jvmti)->GetFrameLocation(jvmti, f->thread, d, &m, &loc) &&
	       m == f->method;
}

/* "pkg/C.m THREAD\n" for frame f. */
static int describe(jvmtiEnv *jvmti, JNIEnv *env, const struct frame *f,
		    struct strbuf *out)
{
	char *cls = NULL, *name = NULL, *p;
	jvmtiThreadInfo ti = {0};
	jclass k = NULL;
	int ret = 0, n;

	if ((*jvmti)->GetMethodDeclaringClass(jvmti, f->method, &k) ||
	    (*jvmti)->GetClassSignature(jvmti, k, &cls, NULL) ||
	    (*jvmti)->GetMethodName(jvmti, f->method, &name, NULL, NULL) ||
	    (*jvmti)->GetThreadInfo(jvmti, f->thread, &ti))
		goto out;
	for (p = ti.name; p && *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	/* cut so REPLACED_MAX lines fit the client's 8 KiB reply buffer */
	n = (int)strlen(cls) - 2;
	ret = strbuf__addf(out, "%.*s.%.60s %.50s\n", n > 120 ? 120 : n,
			   cls + 1, name, ti.name ? ti.name : "?");
out:
	(*jvmti)->Deallocate(jvmti, (unsigned char *)cls);
	(*jvmti)->Deallocate(jvmti, (unsigned char *)name);
	(*jvmti)->Deallocate(jvmti, (unsigned char *)ti.name);
	if (ti.thread_group)
		(*env)->DeleteLocalRef(env, ti.thread_group);
	if (ti.context_class_loader)
		(*env)->DeleteLocalRef(env, ti.context_class_loader);
	if (k)
		(*env)->DeleteLocalRef(env, k);
	return ret;
}

int replaced__report(jvmtiEnv *jvmti, JNIEnv *env, struct strbuf *out)
{
	unsigned i, kept = 0, shown = 0;
	int ret = 0, there;

	for (i = 0; i < nframes; i++) {
		there = still_there(jvmti, &frames[i]);
		frames[i].missed = there > 0 ? 0 : frames[i].missed + 1;
		if (there < 0 || frames[i].missed >= MISSED_MAX) {
			(*env)->DeleteGlobalRef(env, frames[i].thread);
			continue;
		}
		if (there > 0 && !ret) {
			ret = describe(jvmti, env, &frames[i], out);
			shown++;
		}
		frames[kept++] = frames[i];
	}
	nframes = kept;
	return ret ? ret : (int)shown;
}

void replaced__reset(JNIEnv *env)
{
	unsigned i;

	for (i = 0; i < nframes; i++)
		(*env)->DeleteGlobalRef(env, frames[i].thread);
	nframes = 0;
}
