/*
 * events: the JVMTI callbacks that turn code events into map records.
 *
 * Each callback formats its whole record into per-thread scratch memory
 * (allocated once per thread, grown only for a larger record) and appends
 * it with one write before returning. Compiler, service and attach
 * threads may call back at the same time; the writers serialise them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "agent.h"
#include "jitdump.h"
#include "jmap_status.h"
#include "log.h"
#include "maprec.h"
#include "names.h"
#include "perfmap.h"
#include "strbuf.h"

struct jmap_scratch {
	struct strbuf out;
	struct maprec *mr;
	struct jmap_lines_buf lines; /* jitdump,lines only */
};

void jmap_events__free_scratch(void *p)
{
	struct jmap_scratch *s = p;

	if (!s)
		return;
	strbuf__release(&s->out);
	maprec__free(s->mr);
	strbuf__release(&s->lines.entries);
	strbuf__release(&s->lines.file);
	strbuf__release(&s->lines.last_file);
	free(s);
}

static struct jmap_agent *agent_of(jvmtiEnv *jvmti)
{
	void *a = NULL;

	if ((*jvmti)->GetEnvironmentLocalStorage(jvmti, &a))
		return NULL;
	return a;
}

/* This thread's scratch, created on first use. NULL when out of memory. */
static struct jmap_scratch *scratch_of(struct jmap_agent *a)
{
	struct jmap_scratch *s = pthread_getspecific(a->scratch);

	if (s)
		return s;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->mr = maprec__new(jmap_jvmti_name, a);
	if (!s->mr || pthread_setspecific(a->scratch, s)) {
		jmap_events__free_scratch(s);
		return NULL;
	}
	return s;
}

static void nomem(struct jmap_agent *a)
{
	if (jmap_agent__first(a, ONCE_NOMEM))
		jmap_log("out of memory formatting a map record; record lost");
}

/* Append the formatted record; the first failure of a run is logged. */
static void emit(struct jmap_agent *a, const struct strbuf *rec)
{
	int ret = perfmap__write(a->map, rec->buf, rec->len);

	if (ret && ret != -EBADF && jmap_agent__first(a, ONCE_WRITE))
		jmap_log("%s: write failed: %s; records are being lost",
			 perfmap__path(a->map), strerror(-ret));
}

/* The jitdump record repeats the main line's name (inline ranges have no
 * place in jitdump's one-name-per-load model); lines may be NULL. */
static void emit_jitdump(struct jmap_agent *a, const char *line, size_t len,
			 const void *addr, uint64_t size,
			 const struct jitdump_lines *lines)
{
	const char *name = line, *nl;
	int ret, i;

	for (i = 0; i < 2; i++) /* skip "START SIZE " */
		name = strchr(name, ' ') + 1;
	nl = memchr(name, '\n', len - (name - line));
	/* the newline becomes the NUL jitdump wants, in our own buffer */
	*(char *)nl = '\0';
	ret = jitdump__code_load(a->jd, name, nl - name, addr, size, lines);
	*(char *)nl = '\n';
	if (ret && ret != -EBADF && jmap_agent__first(a, ONCE_JITDUMP))
		jmap_log("jitdump write failed: %s", strerror(-ret));
}

/* jitdump's record of a compiled method, with source lines if asked. */
static void emit_jitdump_method(struct jmap_agent *a, struct jmap_scratch *s,
				const void *code_addr, jint code_size,
				const void *compile_info)
{
	const jvmtiCompiledMethodLoadInlineRecord *inl = NULL;
	struct jitdump_lines lines = {0};
	uint64_t start = (uintptr_t)code_addr;

	if (a->opts.lines)
		inl = maprec__find_inline(compile_info);
	if (inl && inl->pcinfo) {
		if (jmap_jvmti_lines(a, inl, start, start + code_size,
				     &s->lines))
			return nomem(a);
		lines = (struct jitdump_lines){
		    s->lines.entries.buf, s->lines.entries.len, s->lines.nr};
	}
	emit_jitdump(a, s->out.buf, s->out.len, code_addr, code_size, &lines);
}

static void JNICALL on_compiled_method_load(
    jvmtiEnv *jvmti, jmethodID m, jint code_size, const void *code_addr,
    jint map_length, const jvmtiAddrLocationMap *map, const void *compile_info)
{
	struct jmap_agent *a = agent_of(jvmti);
	const jvmtiCompiledMethodLoadInlineRecord *inl = NULL;
	struct jmap_scratch *s;

	if (!a || code_size <= 0)
		return;
	s = scratch_of(a);
	if (!s)
		return nomem(a);
	if (a->opts.inline_frames)
		inl = maprec__find_inline(compile_info);
	strbuf__reset(&s->out);
	if (maprec__method(s->mr, &s->out, m, (uintptr_t)code_addr, code_size,
			   inl, NULL))
		return nomem(a);
	emit(a, &s->out);
	if (a->jd)
		emit_jitdump_method(a, s, code_addr, code_size, compile_info);
}

static void JNICALL on_dynamic_code_generated(jvmtiEnv *jvmti, const char *name,
					      const void *addr, jint length)
{
	struct jmap_agent *a = agent_of(jvmti);
	struct jmap_scratch *s;

	if (!a || length <= 0 || !name)
		return;
	s = scratch_of(a);
	if (!s)
		return nomem(a);
	strbuf__reset(&s->out);
	if (strbuf__addf(&s->out, "%llx %llx ",
			 (unsigned long long)(uintptr_t)addr,
			 (unsigned long long)length) ||
	    jmap_name__stub(&s->out, name) || strbuf__adds(&s->out, "\n"))
		return nomem(a);
	emit(a, &s->out);
	if (a->jd)
		emit_jitdump(a, s->out.buf, s->out.len, addr, length, NULL);
}

static void JNICALL on_vm_death(jvmtiEnv *jvmti, JNIEnv *jni)
{
	struct jmap_agent *a = agent_of(jvmti);

	if (!a)
		return;
	jitdump__close(a->jd);
	perfmap__close(a->map);
}

/* Enable one event, naming it when JVMTI refuses. */
static int enable(struct jmap_agent *a, jvmtiEvent ev, const char *what)
{
	jvmtiError err = (*a->jvmti)->SetEventNotificationMode(
	    a->jvmti, JVMTI_ENABLE, ev, NULL);

	if (err)
		jmap_log_jvmti(a->jvmti, err, what);
	return err ? JMAP_ERR_JVMTI : 0;
}

/* Replay code that existed before we attached. */
static int replay(struct jmap_agent *a, jvmtiEvent ev, const char *what)
{
	jvmtiError err = (*a->jvmti)->GenerateEvents(a->jvmti, ev);

	if (err)
		jmap_log_jvmti(a->jvmti, err, what);
	return err ? JMAP_ERR_JVMTI : 0;
}

int jmap_events__start(struct jmap_agent *a, bool attach)
{
	jvmtiEventCallbacks cb;
	jvmtiError err;
	int ret;

	memset(&cb, 0, sizeof(cb));
	cb.CompiledMethodLoad = on_compiled_method_load;
	cb.DynamicCodeGenerated = on_dynamic_code_generated;
	cb.VMDeath = on_vm_death;
	err = (*a->jvmti)->SetEventCallbacks(a->jvmti, &cb, sizeof(cb));
	if (err) {
		jmap_log_jvmti(a->jvmti, err, "SetEventCallbacks");
		return JMAP_ERR_JVMTI;
	}
	ret = enable(a, JVMTI_EVENT_VM_DEATH, "enabling VMDeath");
	if (!ret)
		ret = enable(a, JVMTI_EVENT_COMPILED_METHOD_LOAD,
			     "enabling CompiledMethodLoad");
	if (!ret && a->opts.stubs)
		ret = enable(a, JVMTI_EVENT_DYNAMIC_CODE_GENERATED,
			     "enabling DynamicCodeGenerated");
	if (ret || !attach)
		return ret;
	if (a->opts.stubs)
		ret = replay(a, JVMTI_EVENT_DYNAMIC_CODE_GENERATED,
			     "GenerateEvents(DynamicCodeGenerated)");
	if (!ret)
		ret = replay(a, JVMTI_EVENT_COMPILED_METHOD_LOAD,
			     "GenerateEvents(CompiledMethodLoad)");
	return ret;
}
