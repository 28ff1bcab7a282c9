/*
 * probe_class: define the helper class, reach its counters, fire the
 * USDT probe. See probe_class.h and Probe.java.
 */
#include <string.h>
/* Probe arguments in registers (or constants), never memory operands:
 * libbpf 1.1 cannot parse an indexed one such as 2@(%rax,%rcx,2) and
 * refuses to attach to the probe at all. */
#define STAP_SDT_ARG_CONSTRAINT nr
#include <sys/sdt.h>
#include "agent.h"
#include "log.h"
#include "probe_bytes.h" /* probe_class_bytes, generated from Probe.java */
#include "probe_class.h"

static jclass helper; /* global refs: the class, Probe.totals, Probe.armed */
static jlongArray totals;
static jbyteArray armed;
static jmethodID collect; /* Probe.collect(int) */
static uint16_t owner[PROBE_SITES];
static bool live[PROBE_SITES];
static uint64_t closed_at[PROBE_SITES]; /* count when the site closed */

/* Probe.fire: only armed sites get here. Frame pointers are kept in this
 * file so a tracer can unwind from the probe into the Java frames. */
static void JNICALL fire(JNIEnv *env, jclass cls, jint site)
{
	unsigned s = (unsigned)site & (PROBE_SITES - 1);

	DTRACE_PROBE2(jmap, method_entry, site, owner[s]);
}

/* Probe.base: where long[] elements start. Unsafe.ARRAY_LONG_BASE_OFFSET
 * is an int in JDK 17 and a long in JDK 25, so it is read from here, by
 * whichever type this JDK has. */
static jlong JNICALL base(JNIEnv *env, jclass cls)
{
	jclass u = (*env)->FindClass(env, "jdk/internal/misc/Unsafe");
	const char *f = "ARRAY_LONG_BASE_OFFSET";
	jfieldID id;
	jlong v = -1;

	if (!u)
		return -1; /* NoClassDefFoundError stops the initialiser */
	id = (*env)->GetStaticFieldID(env, u, f, "J");
	if (id) {
		v = (*env)->GetStaticLongField(env, u, id);
	} else {
		(*env)->ExceptionClear(env);
		id = (*env)->GetStaticFieldID(env, u, f, "I");
		if (id)
			v = (*env)->GetStaticIntField(env, u, id);
	}
	(*env)->DeleteLocalRef(env, u);
	return v;
}

bool probe_class__excluded(const char *cls, size_t n)
{
	static const char *const never[] = {PROBE_CLASS,
					    "jdk/internal/misc/Unsafe"};
	size_t i;

	for (i = 0; i < sizeof(never) / sizeof(never[0]); i++)
		if (n == strlen(never[i]) && !memcmp(cls, never[i], n))
			return true;
	return false;
}

/* Clear and log a pending Java exception; true if there was one. */
static bool exception(JNIEnv *env, const char *what)
{
	if (!(*env)->ExceptionCheck(env))
		return false;
	(*env)->ExceptionClear(env);
	jmap_log("%s failed with a Java exception", what);
	return true;
}

/* The class, defined now or found from an earlier definition. */
static jclass get_class(JNIEnv *env)
{
	jclass c = (*env)->DefineClass(env, PROBE_CLASS, NULL,
				       (const jbyte *)probe_class_bytes,
				       sizeof(probe_class_bytes));

	if (c)
		return c;
	(*env)->ExceptionClear(env); /* LinkageError: already defined */
	c = (*env)->FindClass(env, PROBE_CLASS);
	exception(env, "defining " PROBE_CLASS);
	return c;
}

static jobject module_of(JNIEnv *env, const char *cls)
{
	jclass c = (*env)->FindClass(env, cls);
	jobject m;

	if (!c)
		return NULL;
	m = (*env)->GetModule(env, c);
	(*env)->DeleteLocalRef(env, c);
	return m;
}

/* java.base exports Unsafe's package to the helper; every named module
 * reads the helper's (unnamed) module so instrumented code links. */
static int open_modules(JNIEnv *env, jvmtiEnv *jvmti, jobject to)
{
	jobject base = module_of(env, "java/lang/Object"), *mods = NULL;
	jint n = 0, i;
	jvmtiError err;

	if (!base || exception(env, "GetModule"))
		return -1;
	err = (*jvmti)->AddModuleExports(jvmti, base, "jdk.internal.misc", to);
	(*env)->DeleteLocalRef(env, base);
	if (!err)
		err = (*jvmti)->GetAllModules(jvmti, &n, &mods);
	if (err) {
		jmap_log_jvmti(jvmti, err, "opening modules; probes disabled");
		return -1;
	}
	for (i = 0; i < n; i++) {
		err = (*jvmti)->AddModuleReads(jvmti, mods[i], to);
		if (err)
			jmap_log_jvmti(jvmti, err, "AddModuleReads");
		(*env)->DeleteLocalRef(env, mods[i]);
	}
	err = (*jvmti)->Deallocate(jvmti, (unsigned char *)mods);
	if (err)
		jmap_log_jvmti(jvmti, err, "Deallocate");
	return 0;
}

/* Run the static initialiser here, on the control thread, not in some
 * probed method (reading a static field does not do it on JDK 25). */
static int initialise(JNIEnv *env, jclass c)
{
	jmethodID m = (*env)->GetStaticMethodID(env, c, "init", "()V");

	if (m)
		(*env)->CallStaticVoidMethod(env, c, m);
	return exception(env, "initialising " PROBE_CLASS) || !m ? -1 : 0;
}

/* A global ref to one of the class's static arrays. */
static jobject static_array(JNIEnv *env, jclass c, const char *name,
			    const char *sig)
{
	jfieldID f = (*env)->GetStaticFieldID(env, c, name, sig);
	jobject a, g;

	if (!f || exception(env, "initialising " PROBE_CLASS))
		return NULL;
	a = (*env)->GetStaticObjectField(env, c, f);
	g = a ? (*env)->NewGlobalRef(env, a) : NULL;
	(*env)->DeleteLocalRef(env, a);
	return g;
}

int probe_class__define(JNIEnv *env, jvmtiEnv *jvmti)
{
	JNINativeMethod m[] = {{"fire", "(I)V", (void *)fire},
			       {"base", "()J", (void *)base}};
	jclass c = get_class(env);
	jobject mod = NULL;
	int ret = -1;

	if (!c)
		return -1;
	mod = (*env)->GetModule(env, c);
	if (!mod || exception(env, "GetModule") ||
	    open_modules(env, jvmti, mod))
		goto out;
	if ((*env)->RegisterNatives(env, c, m, 2) ||
	    exception(env, "RegisterNatives"))
		goto out;
	if (initialise(env, c))
		goto out;
	collect = (*env)->GetStaticMethodID(env, c, "collect", "(I)V");
	if (!collect || exception(env, "initialising " PROBE_CLASS))
		goto out;
	totals = static_array(env, c, "totals", "[J");
	armed = totals ? static_array(env, c, "armed", "[B") : NULL;
	helper = armed ? (*env)->NewGlobalRef(env, c) : NULL;
	ret = helper ? 0 : -1;
out:
	(*env)->DeleteLocalRef(env, mod);
	(*env)->DeleteLocalRef(env, c);
	return ret;
}

void probe_class__open(JNIEnv *env, unsigned site, bool stacks, uint16_t probe)
{
	jbyte on = stacks;

	if (site >= PROBE_SITES)
		return;
	owner[site] = probe;
	live[site] = true;
	(*env)->SetByteArrayRegion(env, armed, (jsize)site, 1, &on);
}

void probe_class__close(JNIEnv *env, unsigned site, uint64_t count)
{
	jbyte off = 0;

	if (site >= PROBE_SITES)
		return;
	(*env)->SetByteArrayRegion(env, armed, (jsize)site, 1, &off);
	closed_at[site] = count;
	live[site] = false;
}

int probe_class__read(JNIEnv *env, unsigned n, uint64_t *all)
{
	static bool told; /* a failing read is logged once, not every poll */

	if (!helper) {
		memset(all, 0, PROBE_SITES * sizeof(*all));
		return 0;
	}
	(*env)->CallStaticVoidMethod(env, helper, collect,
				     (jint)(n < PROBE_SITES ? n : PROBE_SITES));
	if ((*env)->ExceptionCheck(env)) {
		if (told)
			(*env)->ExceptionClear(env);
		else
			told = exception(env, "summing probe counts");
		return -1;
	}
	(*env)->GetLongArrayRegion(env, totals, 0, PROBE_SITES, (jlong *)all);
	return 0;
}

uint64_t probe_class__strays(const uint64_t *all)
{
	uint64_t n = 0;
	unsigned i;

	for (i = 0; i < PROBE_SITES; i++)
		if (!live[i])
			n += all[i] - closed_at[i];
	return n;
}
