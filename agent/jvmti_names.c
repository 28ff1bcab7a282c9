/*
 * jvmti_names: ask JVMTI about a method and name it with names.c.
 * Runs inside compiled-method callbacks, so every string JVMTI hands out
 * is deallocated on every path, and failures give a placeholder name
 * rather than no line: the code range is still worth mapping.
 */
#include "agent.h"
#include "log.h"
#include "names.h"
#include "strbuf.h"

struct jvmti_strings {
	char *csig, *name, *msig, *src;
	jvmtiLineNumberEntry *lines;
};

void jmap_log_jvmti(jvmtiEnv *jvmti, jvmtiError err, const char *what)
{
	char *ename = NULL;

	if ((*jvmti)->GetErrorName(jvmti, err, &ename) != JVMTI_ERROR_NONE)
		ename = NULL;
	jmap_log("%s: %s (%d)", what, ename ? ename : "JVMTI error", err);
	if (ename)
		(*jvmti)->Deallocate(jvmti, (unsigned char *)ename);
}

void jmap_dealloc(struct jmap_agent *a, void *p)
{
	jvmtiError err;

	if (!p)
		return;
	err = (*a->jvmti)->Deallocate(a->jvmti, p);
	if (err && jmap_agent__first(a, ONCE_DEALLOC))
		jmap_log_jvmti(a->jvmti, err, "Deallocate");
}

/*
 * A failed lookup is logged once per run; the name gets a placeholder.
 * WRONG_PHASE is the JVM ending while a compiler thread still posts a
 * method: nothing is wrong, and the user's stderr stays clean.
 */
void jmap_lookup_failed(struct jmap_agent *a, jvmtiError err, const char *what)
{
	if (err == JVMTI_ERROR_WRONG_PHASE)
		return;
	if (jmap_agent__first(a, ONCE_NAME)) {
		jmap_log_jvmti(a->jvmti, err, what);
		jmap_log("(further name lookup errors are not shown)");
	}
}

/* Source file and first line, for the "lines" option. Missing debug
 * information (ABSENT_INFORMATION, native methods) is normal: no log. */
static void get_position(struct jmap_agent *a, jmethodID m, jclass k,
			 struct jvmti_strings *s, struct jmap_method_desc *d)
{
	jvmtiEnv *j = a->jvmti;
	jvmtiError err;
	jint n = 0, i;

	err = (*j)->GetSourceFileName(j, k, &s->src);
	if (err == JVMTI_ERROR_NONE)
		d->source = s->src;
	else if (err != JVMTI_ERROR_ABSENT_INFORMATION &&
		 err != JVMTI_ERROR_MUST_POSSESS_CAPABILITY)
		jmap_lookup_failed(a, err, "GetSourceFileName");
	err = (*j)->GetLineNumberTable(j, m, &n, &s->lines);
	if (err == JVMTI_ERROR_NONE) {
		jlocation best = -1;

		for (i = 0; i < n; i++)
			if (best < 0 || s->lines[i].start_location < best) {
				best = s->lines[i].start_location;
				d->line = s->lines[i].line_number;
			}
	} else if (err != JVMTI_ERROR_ABSENT_INFORMATION &&
		   err != JVMTI_ERROR_NATIVE_METHOD &&
		   err != JVMTI_ERROR_MUST_POSSESS_CAPABILITY) {
		jmap_lookup_failed(a, err, "GetLineNumberTable");
	}
}

int jmap_jvmti_name(void *arg, jmethodID m, struct strbuf *out)
{
	struct jmap_agent *a = arg;
	jvmtiEnv *j = a->jvmti;
	struct jvmti_strings s = {0};
	struct jmap_method_desc d = {0};
	jclass k = NULL;
	jvmtiError err;
	int ret;

	err = (*j)->GetMethodDeclaringClass(j, m, &k);
	if (err) {
		jmap_lookup_failed(a, err, "GetMethodDeclaringClass");
		return strbuf__adds(out, "[unknown]");
	}
	err = (*j)->GetClassSignature(j, k, &s.csig, NULL);
	if (!err)
		err = (*j)->GetMethodName(j, m, &s.name, &s.msig, NULL);
	if (err) {
		jmap_lookup_failed(a, err, "GetClassSignature/GetMethodName");
		ret = strbuf__adds(out, "[unknown]");
		goto free;
	}
	d.class_sig = s.csig;
	d.name = s.name;
	d.msig = s.msig;
	if (a->opts.lines)
		get_position(a, m, k, &s, &d);
	ret = jmap_name__method(out, &d, &a->opts);
free:
	jmap_dealloc(a, s.csig);
	jmap_dealloc(a, s.name);
	jmap_dealloc(a, s.msig);
	jmap_dealloc(a, s.src);
	jmap_dealloc(a, s.lines);
	return ret;
}
