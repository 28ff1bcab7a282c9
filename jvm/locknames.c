// SPDX-License-Identifier: GPL-2.0
/*
 * locknames: --lock's JVM and frames (see locknames.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/nsec.h"
#include "common/u64map.h"
#include "hotspot.h"
#include "jlocks.h"
#include "jvms.h"
#include "locknames.h"

/*
 * An owner's name is looked up again after this: a JavaThread* (or an
 * owner id) of a thread gone can come back as another thread's.
 */
#define OWNER_TTL_NS NSEC_PER_SEC
#define NAME_CAP 512

struct frame_name {
	char *text;
	uint64_t named_ns;
	bool fixed; /* a class named: kept for the run */
	bool named; /* an owner named (kept if it cannot be named again:
		     * the JVM gone) */
};

enum named { NAMED_NOT, NAMED_OWNER, NAMED_CLASS };

struct locknames {
	struct jvms *jv;
	uint32_t pid;
	struct hotspot *h; /* jvms', when jl was opened: jl reads through
			    * it, so only while jvms still has it */
	struct jlocks *jl;
	struct u64map names; /* frame -> struct frame_name */
};

struct locknames *locknames__new(struct jvms *jv)
{
	struct locknames *ln = calloc(1, sizeof(*ln));

	if (ln)
		ln->jv = jv;
	return ln;
}

static void free_name(void *v)
{
	struct frame_name *f = v;

	if (f)
		free(f->text);
	free(f);
}

void locknames__free(struct locknames *ln)
{
	if (!ln)
		return;
	jlocks__free(ln->jl);
	u64map__clear(&ln->names, free_name);
	u64map__release(&ln->names);
	free(ln);
}

int locknames__open(struct locknames *ln, uint32_t pid, const char **what)
{
	struct hotspot *h = jvms__hotspot(ln->jv, pid);

	*what = "its VMStructs tables";
	if (!h)
		return -EAGAIN;
	jlocks__free(ln->jl);
	ln->jl = jlocks__open(h, pid, what);
	if (!ln->jl)
		return -errno;
	ln->pid = pid;
	ln->h = h;
	return 0;
}

const struct lock_cfg *locknames__cfg(const struct locknames *ln)
{
	return jlocks__cfg(ln->jl);
}

/* jl, while the JVM it reads is still the one jvms has for pid */
static struct jlocks *live(struct locknames *ln, uint32_t pid)
{
	return ln->jl && pid == ln->pid && jvms__hotspot(ln->jv, pid) == ln->h
		   ? ln->jl
		   : NULL;
}

uint64_t locknames__aos(struct locknames *ln)
{
	struct jlocks *jl = live(ln, ln->pid);

	return jl ? jlocks__aos_retry(jl) : 0;
}

bool locknames__is_frame(uint64_t ip)
{
	return LOCK_IS(LOCK_CLASS_BASE, ip) || LOCK_IS(LOCK_OWNER_BASE, ip) ||
	       LOCK_IS(LOCK_OWNER_ID_BASE, ip);
}

/* A frame's text, read now from the JVM, and how well. */
static enum named name_now(struct locknames *ln, uint32_t pid, uint64_t ip,
			   char *out, size_t cap)
{
	struct hotspot *h = jvms__hotspot(ln->jv, pid);
	char name[NAME_CAP];
	int tid;

	if (LOCK_IS(LOCK_CLASS_BASE, ip)) {
		bool ok = h && LOCK_VALUE(ip) &&
			  hotspot__klass_name(h, LOCK_VALUE(ip), name,
					      sizeof(name)) > 0;

		snprintf(out, cap, "[lock] %s", ok ? name : "[unknown class]");
		return ok ? NAMED_CLASS : NAMED_NOT;
	}
	tid = live(ln, pid) ? jlocks__owner_tid(ln->jl, ip) : -ENOENT;
	if (tid < 0) {
		snprintf(out, cap, "[owner] unknown");
		return NAMED_NOT;
	}
	if (jvms__thread_read(ln->jv, pid, tid, name, sizeof(name)) < 0)
		snprintf(name, sizeof(name), "thread");
	snprintf(out, cap, "[owner] %s [%d]", name, tid);
	return NAMED_OWNER;
}

const char *locknames__frame(struct locknames *ln, uint32_t pid, uint64_t ip)
{
	uint64_t now = nsec__now();
	struct frame_name *f;
	char text[NAME_CAP + 64];
	enum named how;
	bool added;
	void **slot;

	/* one JVM a run: the frame alone is the key */
	slot = u64map__add(&ln->names, ip, &added);
	if (!slot)
		return "[lock]";
	f = *slot;
	if (f && f->text && (f->fixed || now - f->named_ns < OWNER_TTL_NS))
		return f->text;
	if (!f && !(f = *slot = calloc(1, sizeof(*f)))) {
		u64map__del(&ln->names, ip);
		return "[lock]";
	}
	how = name_now(ln, pid, ip, text, sizeof(text));
	f->named_ns = now;
	if (how == NAMED_NOT && f->named && f->text)
		return f->text; /* its thread (or the JVM) gone since */
	f->fixed = how == NAMED_CLASS;
	f->named = how != NAMED_NOT;
	free(f->text);
	f->text = strdup(text);
	return f->text ? f->text : "[lock]";
}
