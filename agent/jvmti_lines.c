/*
 * jvmti_lines: source lines of a compiled method, for jitdump's DEBUG_INFO
 * records (option "jitdump,lines"). Each debug point of HotSpot's inline
 * record names its innermost method and bytecode index; the method's line
 * number table turns that into a line, its class into a file name
 * ("java/lang/String.java"). A debug point at pc covers (previous pc, pc]
 * (see inline_ranges.h), so its entry starts one byte after the previous
 * point. Consecutive points on the same line give one entry.
 */
#include <errno.h>
#include <string.h>
#include "agent.h"
#include "jitdump_rec.h"
#include "names.h"
#include "strbuf.h"

/* The method whose table is loaded: consecutive points share it. */
struct cur_method {
	jmethodID m;
	jvmtiLineNumberEntry *tab;
	jint n;
	bool has_file;
};

static void drop_table(struct jmap_agent *a, struct cur_method *c)
{
	jmap_dealloc(a, c->tab);
	c->tab = NULL;
	c->n = 0;
}

/* Missing debug information is normal (no -g, native methods). */
static bool absent(jvmtiError err)
{
	return err == JVMTI_ERROR_ABSENT_INFORMATION ||
	       err == JVMTI_ERROR_NATIVE_METHOD;
}

/* "pkg/Class" + source "Class.java" -> "pkg/Class.java" into file.
 * 0, -ENOENT without one, -ENOMEM. */
static int class_file(struct jmap_agent *a, jclass k, struct strbuf *file)
{
	jvmtiEnv *j = a->jvmti;
	char *csig = NULL, *src = NULL, *slash;
	jvmtiError err;
	int ret = -ENOENT;

	err = (*j)->GetClassSignature(j, k, &csig, NULL);
	if (!err)
		err = (*j)->GetSourceFileName(j, k, &src);
	if (err) {
		if (!absent(err))
			jmap_lookup_failed(a, err, "GetSourceFileName");
		goto out;
	}
	strbuf__reset(file);
	ret = jmap_name__class(file, csig, false);
	if (ret)
		goto out;
	slash = strrchr(file->buf, '/');
	file->len = slash ? (size_t)(slash + 1 - file->buf) : 0;
	ret = strbuf__adds(file, src);
out:
	jmap_dealloc(a, csig);
	jmap_dealloc(a, src);
	return ret;
}

/* Make m current: its line table and file. Missing debug information
 * (no -g, native) just means no entries: 0 with has_file false. */
static int load_method(struct jmap_agent *a, struct cur_method *c, jmethodID m,
		       struct strbuf *file)
{
	jvmtiError err;
	jclass k;
	int ret;

	drop_table(a, c);
	c->m = m;
	c->has_file = false;
	err = (*a->jvmti)->GetLineNumberTable(a->jvmti, m, &c->n, &c->tab);
	if (err) {
		c->tab = NULL;
		c->n = 0;
		if (!absent(err))
			jmap_lookup_failed(a, err, "GetLineNumberTable");
		return 0;
	}
	err = (*a->jvmti)->GetMethodDeclaringClass(a->jvmti, m, &k);
	if (err) {
		jmap_lookup_failed(a, err, "GetMethodDeclaringClass");
		return 0;
	}
	ret = class_file(a, k, file);
	c->has_file = !ret;
	return ret == -ENOMEM ? ret : 0;
}

/* Line of bci: the entry with the largest start not after bci. */
static int line_of(const struct cur_method *c, jint bci)
{
	jlocation best = -1;
	int line = 0;
	jint i;

	for (i = 0; i < c->n; i++)
		if (c->tab[i].start_location <= bci &&
		    c->tab[i].start_location > best) {
			best = c->tab[i].start_location;
			line = c->tab[i].line_number;
		}
	return line;
}

int jmap_jvmti_lines(struct jmap_agent *a,
		     const jvmtiCompiledMethodLoadInlineRecord *inl,
		     uint64_t start, uint64_t end, struct jmap_lines_buf *lb)
{
	struct cur_method c = {0};
	uint64_t next = start; /* where the next point's code starts */
	int last_line = -1, i, ret = 0;

	strbuf__reset(&lb->entries);
	strbuf__reset(&lb->last_file);
	lb->nr = 0;
	for (i = 0; i < inl->numpcs && !ret; i++) {
		const PCStackInfo *p = &inl->pcinfo[i];
		uint64_t pc = (uintptr_t)p->pc, from = next;
		int line;

		if (i && pc < (uintptr_t)inl->pcinfo[i - 1].pc)
			break; /* unsorted: keep what we have */
		/* outside the code, no frames, or a repeated pc: no code */
		if (pc < start || pc >= end || p->numstackframes < 1 ||
		    pc < from)
			continue;
		next = pc + 1;
		if (p->methods[0] != c.m)
			ret = load_method(a, &c, p->methods[0], &lb->file);
		if (ret || !c.has_file)
			continue;
		line = line_of(&c, p->bcis[0]);
		if (line == last_line &&
		    !strcmp(lb->file.buf, lb->last_file.buf))
			continue;
		ret = jitdump_rec__debug_entry(&lb->entries, from, line,
					       lb->file.buf);
		if (!ret) {
			strbuf__reset(&lb->last_file);
			ret = strbuf__adds(&lb->last_file, lb->file.buf);
		}
		last_line = line;
		lb->nr++;
	}
	drop_table(a, &c);
	return ret;
}
