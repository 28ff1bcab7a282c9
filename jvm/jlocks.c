// SPDX-License-Identifier: GPL-2.0
/*
 * jlocks: --lock's view of a JVM (see jlocks.h for the contract and the
 * facts used).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "jlocks.h"
#include "jthreads.h"

const char *const jlocks_sym_names[JL_NR_SYMS] = {
    [JL_PARK_BLOCKER] = "_ZN16java_lang_Thread20_park_blocker_offsetE",
    [JL_EETOP] = "_ZN16java_lang_Thread13_eetop_offsetE",
    [JL_AOS_OWNER] = "_ZN54java_util_concurrent_locks_"
		     "AbstractOwnableSynchronizer13_owner_offsetE",
    [JL_KLASSES] = "_ZN9vmClasses8_klassesE",
};

#define AOS_NAME "java/util/concurrent/locks/AbstractOwnableSynchronizer"
/* vmClasses::_klasses holds 104 classes in JDK 17, 113 in 25 */
#define MAX_VM_CLASSES 256
/* the threads an owner is looked for among (sampler_abi.h's per-JVM
 * limit on anchored threads is the same) */
#define MAX_OWNER_THREADS 8192
/* a Java object's field lies within its first megabyte */
#define MAX_FIELD_OFF (1u << 20)

static int rd(const struct hotspot_mem *m, uint64_t a, void *buf, size_t len)
{
	return a ? m->read(m->ctx, a, buf, len) : -EFAULT;
}

static int off(const struct vmstructs *vs, const char *t, const char *f,
	       uint32_t *out)
{
	uint64_t v;

	if (vmstructs__field(vs, t, f, &v) || v > MAX_FIELD_OFF)
		return -ENOENT;
	*out = (uint32_t)v;
	return 0;
}

/* A static int field offset HotSpot computed (javaClasses.cpp). */
static int java_off(const struct hotspot_mem *m, uint64_t addr, uint32_t *out)
{
	int32_t v;

	if (rd(m, addr, &v, sizeof(v)))
		return -EFAULT;
	if (v <= 0 || (uint32_t)v > MAX_FIELD_OFF)
		return -ENOENT; /* not computed (yet) */
	*out = (uint32_t)v;
	return 0;
}

uint64_t jlocks__aos_klass(const struct hotspot_mem *m,
			   const struct hotspot_layout *hl, uint64_t klasses)
{
	char name[sizeof(AOS_NAME) + 8];
	uint64_t k, sym;

	for (int i = 0; i < MAX_VM_CLASSES; i++) {
		if (rd(m, klasses + i * 8ull, &k, 8))
			return 0; /* past the array and its neighbours */
		if (!k || rd(m, k + hl->off_klass_name, &sym, 8) ||
		    hotspot__symbol(m, hl, sym, name, sizeof(name), NULL) < 0)
			continue;
		if (!strcmp(name, AOS_NAME))
			return k;
	}
	return 0;
}

/* JavaThread::_monitor_owner_id (JDK 24+): 0, or -ENOENT. */
static int owner_id_field(const struct vmstructs *vs, uint32_t *out)
{
	return off(vs, "JavaThread", "_monitor_owner_id", out) &&
		       off(vs, "Thread", "_monitor_owner_id", out)
		   ? -ENOENT
		   : 0;
}

/* j.u.c. locks' class and owner field, once HotSpot has them (0 before). */
static void aos_read(const struct hotspot_mem *m,
		     const struct hotspot_layout *hl,
		     const uint64_t syms[JL_NR_SYMS], struct lock_cfg *c)
{
	if (!java_off(m, syms[JL_AOS_OWNER], &c->aos_owner))
		c->aos_klass = jlocks__aos_klass(m, hl, syms[JL_KLASSES]);
}

/* The monitor's and the thread's fields (JDK 17 or 25 names). */
static int vm_fields(const struct vmstructs *vs, struct lock_cfg *c)
{
	uint32_t jt_obj, oh_obj, supers;

	if (off(vs, "ObjectMonitor", "_object", &c->om_object) ||
	    off(vs, "ObjectMonitor", "_owner", &c->om_owner) ||
	    off(vs, "JavaThread", "_threadObj", &jt_obj) ||
	    off(vs, "OopHandle", "_obj", &oh_obj) ||
	    off(vs, "Klass", "_primary_supers[0]", &supers))
		return -ENOENT;
	c->jt_obj = jt_obj + oh_obj;
	c->aos_super = supers + 8; /* depth 1: a direct subclass of Object */
	/* JDK 24+ keeps owner ids in _owner, and publishes each thread's */
	c->owner_is_id = !owner_id_field(vs, &jt_obj);
	return 0;
}

int jlocks__cfg_read(const struct hotspot_mem *m,
		     const struct hotspot_layout *hl,
		     const struct vmstructs *vs,
		     const uint64_t syms[JL_NR_SYMS], struct lock_cfg *out,
		     const char **why)
{
	struct jencoding e;
	int ret;

	memset(out, 0, sizeof(*out));
	*why = "its oop and class pointer encoding";
	ret = jencoding__read(m, vs, &e);
	if (ret)
		return ret;
	*why = "its ObjectMonitor, JavaThread and Klass fields";
	ret = vm_fields(vs, out);
	if (ret)
		return ret;
	*why = "java.lang.Thread's parkBlocker and eetop offsets";
	ret = java_off(m, syms[JL_PARK_BLOCKER], &out->park_blocker)
		  ?: java_off(m, syms[JL_EETOP], &out->eetop);
	if (ret)
		return ret;
	out->coops = e.coops;
	out->ccp = e.ccp;
	out->oop_base = e.oop_base;
	out->oop_shift = e.oop_shift;
	out->klass_base = e.klass_base;
	out->klass_shift = e.klass_shift;
	out->oop_klass = e.oop_klass;
	aos_read(m, hl, syms, out);
	return 0;
}

/* ---- a live JVM -------------------------------------------------------- */

struct jlocks {
	struct hotspot *h;
	struct lock_cfg cfg;
	uint64_t syms[JL_NR_SYMS]; /* for j.u.c. locks looked for again */
	uint32_t owner_id; /* JavaThread::_monitor_owner_id, or 0 */
	uint32_t stack_base, stack_size; /* JavaThread's, or 0 */
	struct hotspot_thread *threads; /* MAX_OWNER_THREADS */
};

struct jlocks *jlocks__open(struct hotspot *h, uint32_t pid, const char **why)
{
	struct jlocks *l = calloc(1, sizeof(*l));
	const struct hotspot_mem *m = hotspot__mem(h);
	const struct vmstructs *vs; /* h's, read once a JVM */
	uint64_t syms[JL_NR_SYMS];
	int ret = -ENOMEM;

	*why = "memory";
	if (!l ||
	    !(l->threads = calloc(MAX_OWNER_THREADS, sizeof(*l->threads))))
		goto fail;
	*why = "libjvm.so's .symtab (Thread and lock field offsets)";
	ret = hotspot__jvm_syms(pid, jlocks_sym_names, JL_NR_SYMS, syms);
	if (ret)
		goto fail;
	*why = "its VMStructs";
	vs = hotspot__vmstructs(h);
	if (!vs) {
		ret = -errno;
		goto fail;
	}
	ret = jlocks__cfg_read(m, hotspot__layout(h), vs, syms, &l->cfg, why);
	if (ret)
		goto fail;
	if (l->cfg.owner_is_id)
		owner_id_field(vs, &l->owner_id);
	/* JDK 17 may leave a stack-locked owner's BasicLock* in _owner */
	if (off(vs, "JavaThread", "_stack_base", &l->stack_base) ||
	    off(vs, "JavaThread", "_stack_size", &l->stack_size))
		l->stack_base = l->stack_size = 0;
	l->h = h;
	memcpy(l->syms, syms, sizeof(l->syms));
	return l;
fail:
	jlocks__free(l);
	errno = -ret;
	return NULL;
}

const struct lock_cfg *jlocks__cfg(const struct jlocks *l)
{
	return &l->cfg;
}

uint64_t jlocks__aos_retry(struct jlocks *l)
{
	if (!l->cfg.aos_klass)
		aos_read(hotspot__mem(l->h), hotspot__layout(l->h), l->syms,
			 &l->cfg);
	return l->cfg.aos_klass;
}

/* Does thread t own v: its JavaThread*, its owner id, or its stack's? */
static bool owns(struct jlocks *l, const struct hotspot_thread *t, uint64_t v,
		 bool id)
{
	const struct hotspot_mem *m = hotspot__mem(l->h);
	uint64_t w, base, size;

	if (id)
		return l->owner_id && !rd(m, t->thread + l->owner_id, &w, 8) &&
		       w == v;
	if (t->thread == v)
		return true;
	return l->stack_size && !rd(m, t->thread + l->stack_base, &base, 8) &&
	       !rd(m, t->thread + l->stack_size, &size, 8) && v < base &&
	       v >= base - size;
}

int jlocks__owner_tid(struct jlocks *l, uint64_t frame)
{
	bool id = LOCK_IS(LOCK_OWNER_ID_BASE, frame);
	uint64_t v = LOCK_VALUE(frame);
	int n =
	    hotspot__threads_read(hotspot__mem(l->h), &hotspot__layout(l->h)->u,
				  l->threads, MAX_OWNER_THREADS);

	if (n < 0)
		return n;
	/* the thread itself first: a stack only when no thread is it */
	for (int i = 0; i < n; i++)
		if (id ? owns(l, &l->threads[i], v, true)
		       : l->threads[i].thread == v)
			return (int)l->threads[i].tid;
	for (int i = 0; !id && i < n; i++)
		if (owns(l, &l->threads[i], v, false))
			return (int)l->threads[i].tid;
	return -ENOENT;
}

void jlocks__free(struct jlocks *l)
{
	if (!l)
		return;
	free(l->threads);
	free(l);
}
