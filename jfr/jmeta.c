/*
 * jmeta: the metadata event of mixprof's recordings (see jmeta.h).
 *
 * The event is: size, type 0, start time, duration 0, a metadata id,
 * then a string table and a tree of elements whose names, attribute keys
 * and values are indexes into it: "root" holds "metadata" (a "class"
 * element per type, its "field"s and "annotation"s) and "region".
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jmeta.h"

const char *const jmeta_frame_types[JFT_NR] = {
    [JFT_INTERPRETED] = "Interpreted",
    [JFT_JIT] = "JIT compiled",
    [JFT_INLINED] = "Inlined",
    [JFT_NATIVE] = "Native",
    [JFT_CPP] = "C++",
    [JFT_KERNEL] = "Kernel",
    [JFT_C1] = "C1 compiled",
};

enum {
	F_CPOOL = 1,
	F_ARRAY = 2,
	F_TICKS = 4, /* a timestamp in ticks */
	F_SPAN = 8, /* a duration in ticks */
	F_BYTES = 16,
};

struct jfield {
	const char *name;
	enum jtype type;
	unsigned flags;
	const char *label;
};

struct jclass {
	enum jtype id;
	const char *name, *label, *super;
	bool simple;
	const char *category[2]; /* events */
	struct jfield fields[8]; /* ends at a NULL name */
};

#define EVENT "jdk.jfr.Event"
#define ANNOTATION "java.lang.annotation.Annotation"
#define START                                                                  \
	{                                                                      \
		"startTime", JT_LONG, F_TICKS, "Start Time"                    \
	}
#define STACK                                                                  \
	{                                                                      \
		"stackTrace", JT_STACK_TRACE, F_CPOOL, "Stack Trace"           \
	}
#define THREAD                                                                 \
	{                                                                      \
		"eventThread", JT_THREAD, F_CPOOL, "Event Thread"              \
	}

static const struct jclass classes[] = {
    {.id = JT_BOOLEAN, .name = "boolean"},
    {.id = JT_INT, .name = "int"},
    {.id = JT_LONG, .name = "long"},
    {.id = JT_STRING, .name = "java.lang.String"},
    {.id = JT_CLASS,
     .name = "java.lang.Class",
     .label = "Java Class",
     .fields = {{"classLoader", JT_CLASS_LOADER, F_CPOOL, "Class Loader"},
		{"name", JT_SYMBOL, F_CPOOL, "Name"},
		{"package", JT_PACKAGE, F_CPOOL, "Package"},
		{"modifiers", JT_INT, 0, "Access Modifiers"}}},
    {.id = JT_THREAD,
     .name = "java.lang.Thread",
     .label = "Thread",
     .fields = {{"osName", JT_STRING, 0, "OS Thread Name"},
		{"osThreadId", JT_LONG, 0, "OS Thread Id"},
		{"javaName", JT_STRING, 0, "Java Thread Name"},
		{"javaThreadId", JT_LONG, 0, "Java Thread Id"},
		{"group", JT_THREAD_GROUP, F_CPOOL, "Java Thread Group"}}},
    {.id = JT_THREAD_GROUP,
     .name = "jdk.types.ThreadGroup",
     .label = "Thread Group",
     .fields = {{"parent", JT_THREAD_GROUP, F_CPOOL, "Parent"},
		{"name", JT_STRING, 0, "Name"}}},
    {.id = JT_CLASS_LOADER,
     .name = "jdk.types.ClassLoader",
     .label = "Java Class Loader",
     .fields = {{"type", JT_CLASS, F_CPOOL, "Type"},
		{"name", JT_SYMBOL, F_CPOOL, "Name"}}},
    {.id = JT_FRAME_TYPE,
     .name = "jdk.types.FrameType",
     .label = "Frame type",
     .simple = true,
     .fields = {{"description", JT_STRING, 0, "Description"}}},
    {.id = JT_THREAD_STATE,
     .name = "jdk.types.ThreadState",
     .label = "Java Thread State",
     .simple = true,
     .fields = {{"name", JT_STRING, 0, "Name"}}},
    {.id = JT_STACK_TRACE,
     .name = "jdk.types.StackTrace",
     .label = "Stacktrace",
     .fields = {{"truncated", JT_BOOLEAN, 0, "Truncated"},
		{"frames", JT_STACK_FRAME, F_ARRAY, "Stack Frames"}}},
    {.id = JT_STACK_FRAME,
     .name = "jdk.types.StackFrame",
     .label = NULL,
     .fields = {{"method", JT_METHOD, F_CPOOL, "Java Method"},
		{"lineNumber", JT_INT, 0, "Line Number"},
		{"bytecodeIndex", JT_INT, 0, "Bytecode Index"},
		{"type", JT_FRAME_TYPE, F_CPOOL, "Frame Type"}}},
    {.id = JT_METHOD,
     .name = "jdk.types.Method",
     .label = "Java Method",
     .fields = {{"type", JT_CLASS, F_CPOOL, "Type"},
		{"name", JT_SYMBOL, F_CPOOL, "Name"},
		{"descriptor", JT_SYMBOL, F_CPOOL, "Descriptor"},
		{"modifiers", JT_INT, 0, "Access Modifiers"},
		{"hidden", JT_BOOLEAN, 0, "Hidden"}}},
    {.id = JT_PACKAGE,
     .name = "jdk.types.Package",
     .label = "Package",
     .fields = {{"name", JT_SYMBOL, F_CPOOL, "Name"}}},
    {.id = JT_SYMBOL,
     .name = "jdk.types.Symbol",
     .label = "Symbol",
     .simple = true,
     .fields = {{"string", JT_STRING, 0, "String"}}},
    {.id = JT_EXECUTION_SAMPLE,
     .name = "jdk.ExecutionSample",
     .label = "Method Profiling Sample",
     .super = EVENT,
     .category = {"Java Virtual Machine", "Profiling"},
     .fields = {START,
		{"sampledThread", JT_THREAD, F_CPOOL, "Thread"},
		STACK,
		{"state", JT_THREAD_STATE, F_CPOOL, "Thread State"}}},
    {.id = JT_ALLOCATION_SAMPLE,
     .name = "jdk.ObjectAllocationSample",
     .label = "Object Allocation Sample",
     .super = EVENT,
     .category = {"Java Application"},
     .fields = {START,
		THREAD,
		STACK,
		{"objectClass", JT_CLASS, F_CPOOL, "Object Class"},
		{"weight", JT_LONG, F_BYTES, "Sample Weight"}}},
    {.id = JT_OFF_CPU,
     .name = "mixprof.OffCPU",
     .label = "Off-CPU Time",
     .super = EVENT,
     .category = {"mixprof"},
     .fields =
	 {START, {"duration", JT_LONG, F_SPAN, "Duration"}, THREAD, STACK}},
    {.id = JT_WALL_CLOCK,
     .name = "mixprof.WallClock",
     .label = "Wall-Clock Time",
     .super = EVENT,
     .category = {"mixprof"},
     .fields =
	 {START, {"duration", JT_LONG, F_SPAN, "Duration"}, THREAD, STACK}},
    {.id = JT_METHOD_CALLS,
     .name = "mixprof.MethodCalls",
     .label = "Method Calls",
     .super = EVENT,
     .category = {"mixprof"},
     .fields = {START, THREAD, STACK, {"calls", JT_LONG, 0, "Calls"}}},
    {.id = JT_LABEL,
     .name = "jdk.jfr.Label",
     .label = NULL,
     .super = ANNOTATION,
     .fields = {{"value", JT_STRING}}},
    {.id = JT_CATEGORY,
     .name = "jdk.jfr.Category",
     .label = NULL,
     .super = ANNOTATION,
     .fields = {{"value", JT_STRING, F_ARRAY}}},
    {.id = JT_CONTENT_TYPE,
     .name = "jdk.jfr.ContentType",
     .label = NULL,
     .super = ANNOTATION},
    {.id = JT_TIMESTAMP,
     .name = "jdk.jfr.Timestamp",
     .label = "Timestamp",
     .super = ANNOTATION,
     .fields = {{"value", JT_STRING}}},
    {.id = JT_TIMESPAN,
     .name = "jdk.jfr.Timespan",
     .label = "Timespan",
     .super = ANNOTATION,
     .fields = {{"value", JT_STRING}}},
    {.id = JT_DATA_AMOUNT,
     .name = "jdk.jfr.DataAmount",
     .label = "Data Amount",
     .super = ANNOTATION,
     .fields = {{"value", JT_STRING}}},
    {.id = JT_UNSIGNED,
     .name = "jdk.jfr.Unsigned",
     .label = "Unsigned Value",
     .super = ANNOTATION},
};

/* The string table, built as the tree is written. */
struct strtab {
	char *s[512];
	int n;
	int err;
};

static uint64_t str_id(struct strtab *t, const char *s)
{
	for (int i = 0; i < t->n; i++)
		if (!strcmp(t->s[i], s))
			return i;
	if (t->n == (int)(sizeof(t->s) / sizeof(t->s[0])) ||
	    !(t->s[t->n] = strdup(s))) {
		t->err = -ENOMEM;
		return 0;
	}
	return t->n++;
}

/* An element's head: its name, then nattr (key, value) string pairs;
 * the caller writes its children count and children after. */
static void element(struct pbuf *b, struct strtab *t, const char *name,
		    int nattr, const char *const *kv)
{
	jbuf__var(b, str_id(t, name));
	jbuf__var(b, nattr);
	for (int i = 0; i < 2 * nattr; i++)
		jbuf__var(b, str_id(t, kv[i]));
}

/* An annotation of class id: value NULL (none), or value[0..n). */
static void annotation(struct pbuf *b, struct strtab *t, enum jtype id,
		       const char *const *value, int n)
{
	static const char *const keys[] = {"value", "value-0", "value-1"};
	char idbuf[12];
	const char *kv[6] = {"class", idbuf};

	snprintf(idbuf, sizeof(idbuf), "%d", id);
	for (int i = 0; i < n; i++) {
		kv[2 + 2 * i] = keys[id == JT_CATEGORY ? i + 1 : 0];
		kv[3 + 2 * i] = value[i];
	}
	element(b, t, "annotation", 1 + n, kv);
	jbuf__var(b, 0);
}

static void label(struct pbuf *b, struct strtab *t, const char *text)
{
	annotation(b, t, JT_LABEL, &text, 1);
}

/* A field's annotations: its label and what its number means. */
static int field_annotations(const struct jfield *f)
{
	return !!f->label + !!(f->flags & (F_TICKS | F_SPAN)) +
	       2 * !!(f->flags & F_BYTES);
}

static void field(struct pbuf *b, struct strtab *t, const struct jfield *f)
{
	static const char *const ticks = "TICKS", *const bytes = "BYTES";
	char type[12];
	const char *kv[8] = {"name", f->name, "class", type};
	int n = 2;

	snprintf(type, sizeof(type), "%d", f->type);
	if (f->flags & F_CPOOL) {
		kv[2 * n] = "constantPool";
		kv[2 * n++ + 1] = "true";
	}
	if (f->flags & F_ARRAY) {
		kv[2 * n] = "dimension";
		kv[2 * n++ + 1] = "1";
	}
	element(b, t, "field", n, kv);
	jbuf__var(b, field_annotations(f));
	if (f->label)
		label(b, t, f->label);
	if (f->flags & F_TICKS)
		annotation(b, t, JT_TIMESTAMP, &ticks, 1);
	if (f->flags & F_SPAN)
		annotation(b, t, JT_TIMESPAN, &ticks, 1);
	if (f->flags & F_BYTES) {
		annotation(b, t, JT_UNSIGNED, NULL, 0);
		annotation(b, t, JT_DATA_AMOUNT, &bytes, 1);
	}
}

static void class(struct pbuf *b, struct strtab *t, const struct jclass *c)
{
	char id[12];
	const char *kv[6] = {"name", c->name, "id", id};
	int n = 2, nf = 0, ncat = !!c->category[0] + !!c->category[1];
	bool content = c->id >= JT_TIMESTAMP && c->id <= JT_DATA_AMOUNT;

	snprintf(id, sizeof(id), "%d", c->id);
	if (c->simple) {
		kv[4] = "simpleType";
		kv[5] = "true";
		n++;
	} else if (c->super) {
		kv[4] = "superType";
		kv[5] = c->super;
		n++;
	}
	while (nf < 8 && c->fields[nf].name)
		nf++;
	element(b, t, "class", n, kv);
	jbuf__var(b, nf + !!c->label + !!ncat + content);
	if (c->label)
		label(b, t, c->label);
	if (ncat)
		annotation(b, t, JT_CATEGORY, c->category, ncat);
	if (content)
		annotation(b, t, JT_CONTENT_TYPE, NULL, 0);
	for (int i = 0; i < nf; i++)
		field(b, t, &c->fields[i]);
}

/* root { metadata { class... }, region } */
static void tree(struct pbuf *b, struct strtab *t)
{
	static const char *const region[] = {"locale", "en_US", "gmtOffset",
					     "0"};
	size_t nc = sizeof(classes) / sizeof(classes[0]);

	element(b, t, "root", 0, NULL);
	jbuf__var(b, 2);
	element(b, t, "metadata", 0, NULL);
	jbuf__var(b, nc);
	for (size_t i = 0; i < nc; i++)
		class(b, t, &classes[i]);
	element(b, t, "region", 2, region);
	jbuf__var(b, 0);
}

void jmeta__write(struct pbuf *b, uint64_t start_ticks)
{
	struct strtab t = {.n = 0};
	struct pbuf body = {0}, tr = {0};

	tree(&tr, &t);
	jbuf__var(&body, JT_METADATA);
	jbuf__var(&body, start_ticks);
	jbuf__var(&body, 0); /* duration */
	/* the metadata id: one description per recording */
	jbuf__var(&body, 1);
	jbuf__var(&body, t.n);
	for (int i = 0; i < t.n; i++)
		jbuf__str(&body, t.s[i], strlen(t.s[i]));
	pbuf__raw(&body, tr.p, tr.len);
	jbuf__var(b, jbuf__event_size(body.len));
	pbuf__raw(b, body.p, body.len);
	if (!b->err)
		b->err = t.err ? t.err : body.err ? body.err : tr.err;
	for (int i = 0; i < t.n; i++)
		free(t.s[i]);
	pbuf__release(&body);
	pbuf__release(&tr);
}
