/*
 * probes: which methods are probed, the ClassFileLoadHook that rewrites
 * them and the retransforms that apply and remove probes. See probes.h.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "agent.h"
#include "classfile.h"
#include "control.h"
#include "inject.h"
#include "log.h"
#include "pattern.h"
#include "probe_class.h"
#include "probes.h"
#include "replaced.h"

#define MAX_PROBES 64

struct probe {
	unsigned id, nsites;
	bool stacks;
	struct pattern pat;
	char text[PATTERN_MAX];
};

struct site {
	unsigned id, probe;
	char *name; /* "pkg/C.m(DESC)" */
};

/* One per library copy: the hook has no other way to find it. */
static struct {
	jvmtiEnv *jvmti;
	JavaVM *vm;
	char dir[4096];
	pthread_mutex_t lock;
	struct probe probes[MAX_PROBES];
	unsigned nprobes, next_probe;
	struct site *sites;
	unsigned nsites, site_cap, next_site;
	char **classes; /* names rewritten since the last clear */
	unsigned nclasses, class_cap;
	bool caps, helper, hook_on, full_logged;
} P = {.lock = PTHREAD_MUTEX_INITIALIZER, .next_site = 1};

static bool probe_class_match(const struct probe *p, const char *cls, size_t n)
{
	return pattern__class(&p->pat, cls, n) &&
	       !probe_class__excluded(cls, n);
}

/* The site of a method, created (live, counting from 0) on first use.
 * 0 when ids or memory ran out. Called with the lock held. */
static unsigned site_for(JNIEnv *env, struct probe *p, const char *name)
{
	struct site *s;
	unsigned i;

	for (i = 0; i < P.nsites; i++)
		if (!strcmp(P.sites[i].name, name))
			return P.sites[i].id;
	if (P.next_site >= PROBE_SITES) {
		if (!P.full_logged)
			jmap_log("all %d probe ids used; %s not probed",
				 PROBE_SITES - 1, name);
		P.full_logged = true;
		return 0;
	}
	if (P.nsites == P.site_cap) {
		s = realloc(P.sites, (P.site_cap * 2 + 16) * sizeof(*s));
		if (!s)
			return 0;
		P.sites = s;
		P.site_cap = P.site_cap * 2 + 16;
	}
	s = &P.sites[P.nsites];
	s->name = strdup(name);
	if (!s->name)
		return 0;
	s->id = P.next_site++;
	s->probe = p->id;
	P.nsites++;
	p->nsites++;
	probe_class__open(env, s->id, p->stacks, (uint16_t)p->id);
	return s->id;
}

/* Remember a rewritten class so clearing can restore it. */
static void note_class(const char *name)
{
	char **c;
	unsigned i;

	for (i = 0; i < P.nclasses; i++)
		if (!strcmp(P.classes[i], name))
			return;
	if (P.nclasses == P.class_cap) {
		c = realloc(P.classes, (P.class_cap * 2 + 16) * sizeof(*c));
		if (!c)
			return;
		P.classes = c;
		P.class_cap = P.class_cap * 2 + 16;
	}
	P.classes[P.nclasses] = strdup(name);
	if (P.classes[P.nclasses])
		P.nclasses++;
}

/* The first probe matching method m of class cls, or NULL. */
static struct probe *method_probe(const struct classfile *cf,
				  const struct cf_method *m, const char *cls)
{
	const char *name, *desc;
	uint16_t nn, dn;
	unsigned i;

	if (!m->code_off || (m->access & (CF_ACC_ABSTRACT | CF_ACC_NATIVE)) ||
	    classfile__utf8(cf, m->name, &name, &nn) ||
	    classfile__utf8(cf, m->desc, &desc, &dn))
		return NULL;
	for (i = 0; i < P.nprobes; i++)
		if (probe_class_match(&P.probes[i], cls, strlen(cls)) &&
		    pattern__method(&P.probes[i].pat, name, nn, desc, dn))
			return &P.probes[i];
	return NULL;
}

/* Inject method i if a probe wants it. 1 if injected, 0 if not. */
static int inject_method(JNIEnv *env, const struct classfile *cf, unsigned i,
			 const char *cls, uint16_t mref, struct strbuf *code)
{
	const struct cf_method *m = &cf->methods[i];
	struct probe *p = method_probe(cf, m, cls);
	const char *name, *desc, *why;
	uint16_t nn, dn;
	char full[1024];
	unsigned site;

	if (!p)
		return 0;
	classfile__utf8(cf, m->name, &name, &nn);
	classfile__utf8(cf, m->desc, &desc, &dn);
	snprintf(full, sizeof(full), "%s.%.*s%.*s", cls, nn, name, dn, desc);
	/* refuse before taking a site id: a site must mean a probed method */
	if (m->code_end - m->code_off >= 14 &&
	    cf_u4(cf->buf + m->code_off + 10) + INJECT_LEN > 0xffff) {
		jmap_log("%s: method too long for a probe; not probed", full);
		return 0;
	}
	site = site_for(env, p, full);
	if (!site)
		return 0;
	if (inject__entry(cf, m, mref, site, code, &why)) {
		jmap_log("%s: %s; not probed", full, why);
		return 0;
	}
	return 1;
}

/* Rewrite a matching class into JVMTI memory; lock held. */
static void rewrite(jvmtiEnv *jvmti, JNIEnv *env, const char *cls,
		    const uint8_t *data, size_t len, jint *new_len,
		    unsigned char **new_data)
{
	struct strbuf cp = STRBUF_INIT, out = STRBUF_INIT, *codes = NULL;
	const struct strbuf **ptrs = NULL;
	struct cf_edits ed = {0};
	struct classfile cf;
	const char *why;
	unsigned i, n = 0;
	uint16_t mref;
	jvmtiError err;

	if (classfile__parse(&cf, data, len, &why)) {
		jmap_log("%s: cannot parse class file (%s); not probed", cls,
			 why);
		return;
	}
	codes = calloc(cf.nmethods + 1, sizeof(*codes));
	ptrs = calloc(cf.nmethods + 1, sizeof(*ptrs));
	if (!codes || !ptrs ||
	    inject__helper_cp(&cf, PROBE_CLASS, PROBE_METHOD, PROBE_DESC, &cp,
			      &ed.ncp, &mref))
		goto out;
	for (i = 0; i < cf.nmethods; i++)
		if (inject_method(env, &cf, i, cls, mref, &codes[i])) {
			ptrs[i] = &codes[i];
			n++;
		}
	ed.cp = (const uint8_t *)cp.buf;
	ed.cp_len = cp.len;
	ed.code = ptrs;
	if (!n || classfile__write(&cf, &ed, &out))
		goto out;
	err = (*jvmti)->Allocate(jvmti, (jlong)out.len, new_data);
	if (err) {
		jmap_log_jvmti(jvmti, err, "Allocate");
		goto out;
	}
	memcpy(*new_data, out.buf, out.len);
	*new_len = (jint)out.len;
	note_class(cls);
out:
	for (i = 0; codes && i < cf.nmethods; i++)
		strbuf__release(&codes[i]);
	free(codes);
	free(ptrs);
	strbuf__release(&cp);
	strbuf__release(&out);
	classfile__release(&cf);
}

static void JNICALL on_class_file_load(jvmtiEnv *jvmti, JNIEnv *jni,
				       jclass redefined, jobject loader,
				       const char *name, jobject pd, jint len,
				       const unsigned char *data, jint *new_len,
				       unsigned char **new_data)
{
	unsigned i;

	if (!name || !__atomic_load_n(&P.nprobes, __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&P.lock);
	for (i = 0; i < P.nprobes; i++)
		if (probe_class_match(&P.probes[i], name, strlen(name)))
			break;
	if (i < P.nprobes)
		rewrite(jvmti, jni, name, data, (size_t)len, new_len, new_data);
	pthread_mutex_unlock(&P.lock);
}

/* A JVMTI call failed: said, unless the JVM is ending (WRONG_PHASE: a
 * client's probes removed as the JVM exits need no undoing, and the
 * user's stderr stays clean). */
static void probe_failed(jvmtiError err, const char *what)
{
	if (err != JVMTI_ERROR_WRONG_PHASE)
		jmap_log_jvmti(P.jvmti, err, what);
}

static void set_hook(bool on)
{
	jvmtiError err;

	if (P.hook_on == on)
		return;
	err = (*P.jvmti)->SetEventNotificationMode(
	    P.jvmti, on ? JVMTI_ENABLE : JVMTI_DISABLE,
	    JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, NULL);
	if (err)
		probe_failed(err, "ClassFileLoadHook");
	else
		P.hook_on = on;
}

typedef bool (*class_filter)(jclass k, const char *cls, size_t n,
			     const void *arg);

static bool method_matches(jmethodID m, const struct probe *p);

static bool probed_method(jmethodID m, const void *p)
{
	return method_matches(m, p);
}

/* The loaded, modifiable classes that pass filter, retransformed.
 * A batch failure is retried class by class so one bad class does not
 * stop the others. With a probe p (adding it), the frames left in the
 * old versions of the classes' other methods are noted (replaced.h). */
static void retransform(JNIEnv *env, class_filter filter, const void *arg,
			const struct probe *p)
{
	jclass *all = NULL, *pick;
	jint n = 0, i, k = 0;
	jboolean mod;
	jvmtiError err;
	char *sig;

	err = (*P.jvmti)->GetLoadedClasses(P.jvmti, &n, &all);
	if (err)
		return probe_failed(err, "GetLoadedClasses");
	pick = all;
	for (i = 0; i < n; i++) {
		sig = NULL;
		if (!(*P.jvmti)->GetClassSignature(P.jvmti, all[i], &sig,
						   NULL) &&
		    sig[0] == 'L' &&
		    filter(all[i], sig + 1, strlen(sig) - 2, arg) &&
		    !(*P.jvmti)->IsModifiableClass(P.jvmti, all[i], &mod) &&
		    mod)
			pick[k++] = all[i];
		else
			(*env)->DeleteLocalRef(env, all[i]);
		(*P.jvmti)->Deallocate(P.jvmti, (unsigned char *)sig);
	}
	err = k ? (*P.jvmti)->RetransformClasses(P.jvmti, k, pick) : 0;
	if (!err && p)
		replaced__note(P.jvmti, env, pick, k, probed_method, p);
	if (err == JVMTI_ERROR_WRONG_PHASE)
		err = 0; /* the JVM is ending: nothing left to restore */
	for (i = 0; err && i < k; i++) {
		err = (*P.jvmti)->RetransformClasses(P.jvmti, 1, &pick[i]);
		if (err)
			jmap_log_jvmti(P.jvmti, err, "RetransformClasses");
		err = JVMTI_ERROR_INTERNAL; /* keep going one by one */
	}
	for (i = 0; i < k; i++)
		(*env)->DeleteLocalRef(env, pick[i]);
	(*P.jvmti)->Deallocate(P.jvmti, (unsigned char *)all);
}

/* Whether method m has code and its name and descriptor match p. */
static bool method_matches(jmethodID m, const struct probe *p)
{
	char *name = NULL, *desc = NULL;
	jint mods = 0;
	bool ok;

	ok = !(*P.jvmti)->GetMethodModifiers(P.jvmti, m, &mods) &&
	     !(mods & (CF_ACC_ABSTRACT | CF_ACC_NATIVE)) &&
	     !(*P.jvmti)->GetMethodName(P.jvmti, m, &name, &desc, NULL) &&
	     pattern__method(&p->pat, name, strlen(name), desc, strlen(desc));
	(*P.jvmti)->Deallocate(P.jvmti, (unsigned char *)name);
	(*P.jvmti)->Deallocate(P.jvmti, (unsigned char *)desc);
	return ok;
}

/*
 * A class the pattern names that declares a method it matches. Only
 * those are retransformed: a retransform replaces every method of the
 * class, and HotSpot never compiles a replaced version again, so a
 * thread looping in any of its methods at that moment runs interpreted
 * until that call returns. A class not yet prepared (no methods to ask
 * about, so none running) is left to the hook.
 */
static bool by_pattern(jclass k, const char *cls, size_t n, const void *arg)
{
	jmethodID *ms = NULL;
	jint nm = 0, i;
	jvmtiError err;
	bool hit = false;

	if (!probe_class_match(arg, cls, n))
		return false;
	err = (*P.jvmti)->GetClassMethods(P.jvmti, k, &nm, &ms);
	if (err)
		return err == JVMTI_ERROR_CLASS_NOT_PREPARED;
	for (i = 0; i < nm && !hit; i++)
		hit = method_matches(ms[i], arg);
	(*P.jvmti)->Deallocate(P.jvmti, (unsigned char *)ms);
	return hit;
}

static bool by_name(jclass k, const char *cls, size_t n, const void *arg)
{
	char *const *names = arg;

	for (; *names; names++)
		if (strlen(*names) == n && !memcmp(*names, cls, n))
			return true;
	return false;
}

/* Optional capabilities: without them only probes are missing. */
static int capabilities(void)
{
	jvmtiCapabilities pot, caps;
	jvmtiError err;

	memset(&caps, 0, sizeof(caps));
	err = (*P.jvmti)->GetPotentialCapabilities(P.jvmti, &pot);
	if (err || !pot.can_retransform_classes) {
		jmap_log("cannot retransform classes; no probes");
		return -1;
	}
	caps.can_retransform_classes = 1;
	caps.can_retransform_any_class = pot.can_retransform_any_class;
	err = (*P.jvmti)->AddCapabilities(P.jvmti, &caps);
	if (err) {
		jmap_log_jvmti(P.jvmti, err, "AddCapabilities; no probes");
		return -1;
	}
	return 0;
}

static int add_probe(const char *text, bool stacks, char *err, size_t errlen,
		     struct probe **out)
{
	struct probe *p;

	if (P.nprobes == MAX_PROBES) {
		snprintf(err, errlen, "too many probes (%d)", MAX_PROBES);
		return -ENOSPC;
	}
	p = &P.probes[P.nprobes];
	memset(p, 0, sizeof(*p));
	if (pattern__parse(text, &p->pat, err, errlen))
		return -EINVAL;
	snprintf(p->text, sizeof(p->text), "%s", text);
	p->stacks = stacks;
	p->id = ++P.next_probe;
	*out = p;
	__atomic_store_n(&P.nprobes, P.nprobes + 1, __ATOMIC_RELEASE);
	return 0;
}

int probes__add(JNIEnv *env, const char *text, bool stacks, bool wait,
		unsigned *id, unsigned *nsites, char *err, size_t errlen)
{
	struct probe *p, pat;
	int ret;

	if (!P.jvmti) {
		snprintf(err, errlen, "probes are not available in this JVM");
		return -ENOTSUP;
	}
	/* asked for at the first probe, not at load: a retransform-capable
	 * environment from the start makes the JVM keep class bytes (and
	 * costs startup) */
	if (!P.caps && capabilities()) {
		snprintf(err, errlen, "this JVM cannot retransform classes");
		return -ENOTSUP;
	}
	P.caps = true;
	if (!P.helper && probe_class__define(env, P.jvmti)) {
		snprintf(err, errlen, "cannot define " PROBE_CLASS);
		return -EIO;
	}
	P.helper = true;
	pthread_mutex_lock(&P.lock);
	ret = add_probe(text, stacks, err, errlen, &p);
	if (!ret)
		pat = *p;
	pthread_mutex_unlock(&P.lock);
	if (ret)
		return ret;
	set_hook(true);
	retransform(env, by_pattern, &pat, &pat);
	pthread_mutex_lock(&P.lock);
	p = &P.probes[P.nprobes - 1]; /* only this thread adds or removes */
	*id = p->id;
	*nsites = p->nsites;
	if (!p->nsites && !wait) {
		__atomic_store_n(&P.nprobes, P.nprobes - 1, __ATOMIC_RELEASE);
		snprintf(err, errlen,
			 "no loaded method matches '%s' "
			 "(add 'wait' to probe classes loaded later)",
			 text);
		ret = -ENOENT;
	}
	pthread_mutex_unlock(&P.lock);
	if (ret && !P.nprobes)
		set_hook(false);
	return ret;
}

/* Snapshot of every counter: only the control thread reads it. */
static uint64_t snap[PROBE_SITES];

/* Counters into snap, read before taking the lock: reading runs Java
 * code, which must not meet the hook's lock. */
static int read_counts(JNIEnv *env)
{
	return probe_class__read(
	    env, __atomic_load_n(&P.next_site, __ATOMIC_RELAXED), snap);
}

void probes__clear(JNIEnv *env)
{
	char **names;
	unsigned i, n;

	if (read_counts(env))
		memset(snap, 0, sizeof(snap)); /* strays are counted high */
	replaced__reset(env);
	pthread_mutex_lock(&P.lock);
	__atomic_store_n(&P.nprobes, 0, __ATOMIC_RELEASE);
	for (i = 0; i < P.nsites; i++) {
		probe_class__close(env, P.sites[i].id, snap[P.sites[i].id]);
		free(P.sites[i].name);
	}
	P.nsites = 0;
	names = P.classes;
	n = P.nclasses;
	P.classes = NULL;
	P.nclasses = P.class_cap = 0;
	pthread_mutex_unlock(&P.lock);
	if (!P.jvmti)
		return;
	set_hook(false);
	if (n && (names = realloc(names, (n + 1) * sizeof(*names)))) {
		names[n] = NULL;
		retransform(env, by_name, names, NULL);
	}
	for (i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}

int probes__counts(JNIEnv *env, struct strbuf *out)
{
	unsigned i;
	int ret = read_counts(env) ? -EIO : 0;

	pthread_mutex_lock(&P.lock);
	for (i = 0; i < P.nsites && !ret; i++)
		ret = strbuf__addf(
		    out, "%u %u %llu %s\n", P.sites[i].id, P.sites[i].probe,
		    (unsigned long long)snap[P.sites[i].id], P.sites[i].name);
	pthread_mutex_unlock(&P.lock);
	return ret ? ret : (int)i;
}

int probes__replaced(JNIEnv *env, struct strbuf *out)
{
	return P.jvmti ? replaced__report(P.jvmti, env, out) : 0;
}

int probes__list(struct strbuf *out)
{
	const struct probe *p;
	unsigned i;
	int ret = 0;

	pthread_mutex_lock(&P.lock);
	for (i = 0; i < P.nprobes && !ret; i++) {
		p = &P.probes[i];
		ret = strbuf__addf(out, "%u %u %s %s\n", p->id, p->nsites,
				   p->stacks ? "stacks" : "count", p->text);
	}
	pthread_mutex_unlock(&P.lock);
	return ret ? ret : (int)i;
}

void probes__status(JNIEnv *env, unsigned *nprobes, unsigned *nsites,
		    uint64_t *strays)
{
	bool read = !read_counts(env);

	pthread_mutex_lock(&P.lock);
	*nprobes = P.nprobes;
	*nsites = P.nsites;
	*strays = read ? probe_class__strays(snap) : 0;
	pthread_mutex_unlock(&P.lock);
}

static void JNICALL on_vm_init(jvmtiEnv *jvmti, JNIEnv *env, jthread t)
{
	if (!control__start(P.vm, P.dir))
		control__hold();
}

static void JNICALL on_vm_death(jvmtiEnv *jvmti, JNIEnv *env)
{
	control__hold_exit();
	control__stop();
}

static int events(bool attach)
{
	jvmtiEventCallbacks cb;
	jvmtiError err;

	memset(&cb, 0, sizeof(cb));
	cb.ClassFileLoadHook = on_class_file_load;
	cb.VMInit = on_vm_init;
	cb.VMDeath = on_vm_death;
	err = (*P.jvmti)->SetEventCallbacks(P.jvmti, &cb, sizeof(cb));
	if (!err && !attach)
		err = (*P.jvmti)->SetEventNotificationMode(
		    P.jvmti, JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, NULL);
	if (!err)
		err = (*P.jvmti)->SetEventNotificationMode(
		    P.jvmti, JVMTI_ENABLE, JVMTI_EVENT_VM_DEATH, NULL);
	if (err)
		jmap_log_jvmti(P.jvmti, err, "probe events; probes disabled");
	return err ? -1 : 0;
}

void probes__rebind(void)
{
	if (P.jvmti)
		control__start(P.vm, P.dir);
}

int probes__init(JavaVM *vm, const char *dir, bool attach)
{
	jvmtiEnv *jvmti;

	if (P.jvmti)
		return 0;
	if ((*vm)->GetEnv(vm, (void **)&jvmti, JVMTI_VERSION_9)) {
		jmap_log("no JVMTI 9 environment; probes disabled");
		return -1;
	}
	P.jvmti = jvmti;
	P.vm = vm;
	snprintf(P.dir, sizeof(P.dir), "%s", dir);
	if (events(attach))
		goto fail;
	if (attach)
		control__start(vm, P.dir);
	return 0;
fail:
	P.jvmti = NULL;
	if ((*jvmti)->DisposeEnvironment(jvmti))
		jmap_log("DisposeEnvironment failed");
	return -1;
}
