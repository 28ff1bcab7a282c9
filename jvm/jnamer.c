// SPDX-License-Identifier: GPL-2.0
/*
 * jnamer: a JVM's compiled frames and thread names with their caches
 * (see jnamer.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "hotspot.h"
#include "jlines.h"
#include "jnamer.h"
#include "jthreads.h"
#include "nmethod.h"
#include "perfcount.h"
#include "readbudget.h"
#include "readcache.h"
#include "common/nsec.h"
#include "common/strpool.h"
#include "common/u64map.h"
#include "vmstructs.h"

/* nmethods whose debug data is kept, one a slot by address: a javac run
 * names ~5,000 pcs in ~4,000 nmethods, and 16 kept in turn read nearly
 * every one again; up to LOADED_BYTES, then they all go */
#define LOADED_BITS 9
#define LOADED (1 << LOADED_BITS)
#define LOADED_BYTES (2u << 20)
/* the counts of unloaded and redefined classes read at most once in this
 * long: names come in bursts, a drain's new frames, and each read is
 * microseconds */
#define EPOCH_NS 1000000ull
#define MAX_CHAINS (1u << 16) /* then the cache starts again: ~10 MB */
#define MAX_NAMES (1u << 16) /* methods' names kept: ~3 MB, then again */
/* no count of unloaded classes found (yet): looked for again after */
#define UNLOAD_RETRY 1024 /* resolved chains */

/*
 * A Method*'s name as a chain read it, for the next chains that inline or
 * call it (a hot method sits in dozens of nmethods' scopes, and each
 * naming is eight reads of the JVM's memory): the BPF walk's names_memo
 * rule (sampler/sampler.bpf.c), kept while the JVM has unloaded no class
 * since (epoch: its count of unloaded classes, read before the names)
 * and, once the JVM says a class was redefined, the Method* still holds
 * the same ConstMethod* (a redefined method's old Method* freed and
 * reused gets a new one): one read then, none before.
 */
struct mname {
	uint64_t cm, epoch;
	const char *name; /* in the pool */
	int len;
};

/* The frames of one (nmethod, compile id, pc offset). */
struct chain {
	uint64_t nm;
	int32_t cid, pc_off;
	int n; /* < 0: the -errno resolving it gave, cached as well */
	struct jnamer_frame f[];
};

struct jnamer {
	uint32_t pid;
	int flags;
	struct hotspot *h; /* borrowed: the JVM's owner opened it */
	/*
	 * &rb.mem: every read is budgeted (rb, as each was asked: a line
	 * read for it is not counted), and what names a frame is read a line
	 * at a time and kept for a moment (rc, under the budget: the same
	 * class's names, an nmethod's header again for each of its pcs);
	 * fresh: &rb.mem_direct, the same budget around the cache, for what
	 * must be read as it is now (the epoch's counts, the thread list)
	 */
	const struct hotspot_mem *m, *fresh;
	struct readbudget rb;
	struct readcache rc;
	const struct hotspot_layout *hl;
	const struct vmstructs *vs; /* borrowed from h (read once a JVM) */
	struct nm_layout l;
	struct jline_layout jl;
	bool lines_ok;
	struct jthreads *jt; /* opened on the first thread asked */
	int major;
	struct strpool *pool;
	struct u64map chains; /* key_of(nm, cid, pc_off) -> struct chain */
	struct u64map threads; /* tid + 1 -> name in pool */
	struct u64map names; /* Method* -> struct mname */
	uint64_t unload_addr; /* the count of unloaded classes, 0: unknown */
	/* unload_epoch's last value (both counts + 1), and when read */
	uint64_t epoch, epoch_ns;
	uint32_t sample_epoch; /* jnamer__sample_epoch's, or 0 */
	/* JvmtiExport::_redefinition_count, 0: not found; and whether it
	 * read nonzero (or failed) with the epoch */
	uint64_t redef_addr;
	bool redefined;
	unsigned int unload_wait; /* chains before it is looked for again */
	/* nmethods whose debug data did not load or decode: key_of(nm,
	 * cid, FAILED_PC) -> (void *)1; a compile id is never reused */
	struct u64map failed;
	struct nm_debug loaded[LOADED];
	size_t loaded_bytes;
	struct jnamer_stats st;
};

/* JvmtiExport::_redefinition_count (a uint64_t, counted by every
 * RedefineClasses and RetransformClasses): in libjvm.so's symbol table
 * only (C++, not exported) */
static const char *const redef_sym[] = {
    "_ZN11JvmtiExport19_redefinition_countE"};

struct jnamer *jnamer__open(struct hotspot *h, uint32_t pid, int flags)
{
	struct jnamer *j = calloc(1, sizeof(*j));
	int ret = -ENOMEM;

	if (!j)
		goto fail;
	j->pid = pid;
	j->flags = flags;
	j->h = h;
	j->hl = hotspot__layout(j->h);
	/* the tables are read once a JVM, by fixed rules (vmstructs.c
	 * bounds them): the budget is for what follows, driven by samples */
	j->vs = hotspot__vmstructs(j->h);
	if (!j->vs) {
		ret = -errno;
		goto fail;
	}
	ret = readcache__init(&j->rc, hotspot__mem(j->h));
	if (ret)
		goto fail;
	readbudget__init(&j->rb, &j->rc.mem);
	readbudget__direct(&j->rb, hotspot__mem(j->h));
	j->m = &j->rb.mem;
	j->fresh = &j->rb.mem_direct;
	j->major = vmstructs__jdk_major(j->vs, j->fresh);
	ret = j->major < 0 ? j->major
			   : nmethod__layout_init(&j->l, j->vs, j->major);
	if (ret)
		goto fail;
	j->lines_ok = !jline_layout__init(&j->jl, j->vs, j->l.u5_x);
	if (hotspot__jvm_syms(pid, redef_sym, 1, &j->redef_addr))
		j->redef_addr = 0; /* a stripped libjvm.so: checked always */
	j->pool = strpool__new();
	if (j->pool)
		return j;
	ret = -ENOMEM;
fail:
	jnamer__free(j);
	errno = -ret;
	return NULL;
}

static void free_val(void *v)
{
	free(v);
}

static size_t debug_bytes(const struct nm_debug *d)
{
	return d->mem ? d->pcs_len + d->scopes_len + d->nmeta * 8 : 0;
}

static void release_loaded(struct jnamer *j)
{
	for (int i = 0; i < LOADED; i++) {
		nmethod__debug_release(&j->loaded[i]);
		memset(&j->loaded[i], 0, sizeof(j->loaded[i]));
	}
	j->loaded_bytes = 0;
}

int jnamer__redefined_at(const struct jnamer *j, uint64_t *addr)
{
	*addr = j->redef_addr;
	return j->redef_addr ? 0 : -ENOENT;
}

int jnamer__unload_count(const struct jnamer *j, uint64_t *addr)
{
	return perfcount__find(j->vs, j->fresh, "java.cls.unloadedClasses",
			       addr);
}

void jnamer__free(struct jnamer *j)
{
	if (!j)
		return;
	release_loaded(j);
	u64map__clear(&j->chains, free_val);
	u64map__release(&j->chains);
	u64map__clear(&j->names, free_val);
	u64map__release(&j->names);
	u64map__release(&j->threads);
	u64map__release(&j->failed);
	strpool__free(j->pool);
	jthreads__free(j->jt);
	readcache__fini(&j->rc);
	free(j);
}

int jnamer__line(struct jnamer *j, uint64_t method, int bci)
{
	if (!(j->flags & JN_LINES) || !j->lines_ok)
		return -ENOENT;
	return jline__at(j->m, &j->jl, method, bci);
}

const struct hotspot_mem *jnamer__mem(const struct jnamer *j)
{
	return j->m;
}

const struct jnamer_stats *jnamer__stats(const struct jnamer *j)
{
	return &j->st;
}

const char *jnamer__over(const struct jnamer *j)
{
	enum rb_over o = readbudget__over(&j->rb);

	return o == RB_OK ? NULL : readbudget__why(o);
}

#define FAILED_PC INT32_MIN /* key_of's pc for a whole nmethod */

/* A non-zero hash of the identity; the entry keeps it whole. */
static uint64_t key_of(uint64_t nm, int32_t cid, int32_t pc_off)
{
	uint64_t k = nm ^ ((uint64_t)(uint32_t)cid << 40) ^
		     ((uint64_t)(uint32_t)pc_off * 0x9e3779b97f4a7c15ull);

	return k ? k : 1;
}

/* nm's debug data: kept, or read now (and checked to be cid's). */
static int debug_of(struct jnamer *j, uint64_t nm, int32_t cid,
		    struct nm_debug **out)
{
	struct nm_debug *d;
	int ret;

	d = &j->loaded[(nm >> 4) * 0x9e3779b97f4a7c15ull >> (64 - LOADED_BITS)];
	if (d->info.addr == nm && d->info.compile_id == cid && d->pcs) {
		*out = d;
		return 0;
	}
	if (u64map__find(&j->failed, key_of(nm, cid, FAILED_PC)))
		return -ESTALE; /* failed before: not again */
	j->loaded_bytes -= debug_bytes(d);
	nmethod__debug_release(d);
	if (j->loaded_bytes > LOADED_BYTES)
		release_loaded(j);
	memset(d, 0, sizeof(*d));
	ret = nmethod__load(j->m, &j->l, nm, d);
	j->loaded_bytes += debug_bytes(d);
	j->st.loads++;
	if (!ret && d->info.compile_id != cid)
		ret = -ESTALE;
	if (ret) {
		bool added;
		void **fs = NULL;

		j->loaded_bytes -= debug_bytes(d);
		nmethod__debug_release(d);
		memset(d, 0, sizeof(*d));
		if (readbudget__over(&j->rb))
			return -EDQUOT;
		if (j->failed.n >= MAX_CHAINS)
			u64map__clear(&j->failed, NULL);
		if (ret != -ENOMEM)
			fs = u64map__add(&j->failed, key_of(nm, cid, FAILED_PC),
					 &added);
		if (fs)
			*fs = (void *)1;
		return ret == -EFAULT || ret == -EINVAL ? -ESTALE : ret;
	}
	*out = d;
	return 0;
}

/*
 * The JVM's count of unloaded classes, + its count of redefinitions, + 1
 * (0: unknown, nothing is kept): asked once a chain, before its names,
 * and read again when the last read is EPOCH_NS old. A class unloaded or
 * redefined since reaches the names kept that late at most: the chain's
 * own check (nmethod__same, after its names) does not depend on it.
 */
static uint64_t unload_epoch(struct jnamer *j)
{
	uint64_t n, now = nsec__now();
	uint64_t redef;

	if (!j->unload_addr) {
		if (j->unload_wait) {
			j->unload_wait--;
			return 0;
		}
		if (jnamer__unload_count(j, &j->unload_addr)) {
			j->unload_addr = 0;
			j->unload_wait = UNLOAD_RETRY;
			return 0;
		}
	}
	if (j->epoch && now - j->epoch_ns < EPOCH_NS)
		return j->epoch;
	if (j->fresh->read(j->fresh->ctx, j->unload_addr, &n, sizeof(n)))
		return j->epoch = 0;
	/* the redefinitions too (the BPF walk's rule: hotspot.bpf.h) */
	j->redefined =
	    !j->redef_addr ||
	    j->fresh->read(j->fresh->ctx, j->redef_addr, &redef, sizeof(redef));
	if (!j->redefined && redef) {
		j->redefined = true;
		n += redef;
	}
	j->epoch_ns = now;
	return j->epoch = n + 1;
}

/* Method* method's name (struct mname's rule), in the pool: its length
 * and *out, or -errno. */
static int method_name(struct jnamer *j, uint64_t method, uint64_t epoch,
		       const char **out)
{
	struct mname *mn = NULL;
	char name[1024];
	uint64_t cm = 0;
	void **slot;
	bool added;
	int len;

	if (epoch && method && (slot = u64map__find(&j->names, method)) &&
	    (mn = *slot) && mn->epoch == epoch &&
	    (!j->redefined ||
	     (!j->m->read(j->m->ctx, method + j->hl->off_const_method, &cm,
			  sizeof(cm)) &&
	      mn->cm == cm))) {
		*out = mn->name;
		return mn->len;
	}
	if (!cm && epoch && method)
		j->m->read(j->m->ctx, method + j->hl->off_const_method, &cm,
			   sizeof(cm));
	len = hotspot__method_name(j->m, j->hl, method, name, sizeof(name));
	if (len < 0)
		return len;
	*out = strpool__intern(j->pool, name, len);
	if (!*out)
		return -ENOMEM;
	if (!cm) /* unknown: not kept */
		return len;
	if (j->names.n >= MAX_NAMES)
		u64map__clear(&j->names, free_val);
	slot = u64map__add(&j->names, method, &added);
	if (slot && !*slot)
		*slot = calloc(1, sizeof(*mn));
	if (slot && *slot)
		*(struct mname *)*slot = (struct mname){cm, epoch, *out, len};
	return len;
}

/* The frames of one chain, named now. */
static int name_chain(struct jnamer *j, const struct nm_debug *d,
		      const struct nm_scope *s, int n, struct chain *c)
{
	enum jframe_kind kinds[NM_MAX_SCOPES];
	uint64_t epoch = unload_epoch(j);

	/* sampled in another epoch: names neither kept nor taken */
	if (j->sample_epoch && (uint32_t)epoch != j->sample_epoch)
		epoch = 0;
	jframe__chain_kinds(n, kinds);
	for (int i = 0; i < n; i++) {
		const char *name;
		int len = method_name(j, s[i].method, epoch, &name);
		int line = 0;

		if (len < 0)
			return len;
		if ((j->flags & JN_LINES) && j->lines_ok)
			line = jline__at(j->m, &j->jl, s[i].method, s[i].bci);
		c->f[i] =
		    (struct jnamer_frame){name, s[i].bci, line > 0 ? line : 0,
					  kinds[i], d->info.comp_level};
	}
	c->n = n;
	return 0;
}

/* A chain's pc key: its offset in the nmethod, the top bit for a return
 * address (named by its exact PcDesc only, nmethod__chain_at_return). */
static int32_t pc_key(uint64_t nm, uint64_t pc, bool ret_pc)
{
	return (int32_t)(((uint32_t)(pc - nm) & 0x7fffffffu) |
			 (ret_pc ? 0x80000000u : 0));
}

/* Resolve (nm, cid, pc) now: a new chain entry, or -errno. */
static int resolve(struct jnamer *j, uint64_t nm, int32_t cid, uint64_t pc,
		   bool ret_pc, struct chain **out)
{
	struct nm_scope s[NM_MAX_SCOPES];
	struct nm_debug *d;
	struct chain *c;
	int n, ret;

	ret = debug_of(j, nm, cid, &d);
	if (ret)
		return ret;
	n = ret_pc ? nmethod__chain_at_return(&j->l, d, pc, s, NM_MAX_SCOPES)
		   : nmethod__chain_at(&j->l, d, pc, s, NM_MAX_SCOPES);
	if (n <= 0)
		return n == -ERANGE ? n : -EINVAL;
	c = calloc(1, sizeof(*c) + n * sizeof(c->f[0]));
	if (!c)
		return -ENOMEM;
	*c = (struct chain){nm, cid, pc_key(nm, pc, ret_pc), 0};
	ret = name_chain(j, d, s, n, c);
	/* read, then check: names read from freed code are dropped, and
	 * not kept for other chains either */
	if (!ret && nmethod__same(j->m, &j->l, nm, cid, d->info.method) != 1)
		ret = -ESTALE;
	for (int i = 0; ret && i < n; i++)
		if (s[i].method)
			free(u64map__del(&j->names, s[i].method));
	if (ret) {
		free(c);
		/* a Method* or Symbol unreadable or not one (-EINVAL: its
		 * bytes are no Symbol's): its class was unloaded and its
		 * metadata freed, the code soon to follow (measured under
		 * class churn): gone, so the caller falls back to the
		 * method the sample recorded, not to the maps */
		return ret == -EFAULT || ret == -EINVAL ? -ESTALE : ret;
	}
	*out = c;
	return 0;
}

void jnamer__sample_epoch(struct jnamer *j, uint32_t epoch)
{
	if (j)
		j->sample_epoch = epoch;
}

int jnamer__compiled(struct jnamer *j, uint64_t nm, int32_t cid, uint64_t pc,
		     struct jnamer_frame *out, int max)
{
	return jnamer__compiled_at(j, nm, cid, pc, false, out, max);
}

int jnamer__compiled_at(struct jnamer *j, uint64_t nm, int32_t cid, uint64_t pc,
			bool ret_pc, struct jnamer_frame *out, int max)
{
	int32_t pc_off = pc_key(nm, pc, ret_pc);
	uint64_t key = key_of(nm, cid, pc_off);
	struct chain *c;
	bool added;
	void **slot;
	int ret;

	j->st.lookups++;
	slot = u64map__find(&j->chains, key);
	c = slot ? *slot : NULL;
	if (c && c->nm == nm && c->cid == cid && c->pc_off == pc_off) {
		j->st.hits++;
	} else {
		if (j->chains.n >= MAX_CHAINS)
			u64map__clear(&j->chains, free_val);
		ret = resolve(j, nm, cid, pc, ret_pc, &c);
		if (ret && readbudget__over(&j->rb))
			return -EDQUOT; /* degraded: nothing more is read */
		if (ret) {
			j->st.gone += ret == -ESTALE;
			j->st.bad += ret == -EINVAL;
			/* a failure is kept as a result: a frame that does
			 * not resolve is not read again at each sample */
			if (ret == -ENOMEM || !(c = calloc(1, sizeof(*c))))
				return ret;
			*c = (struct chain){nm, cid, pc_off, ret};
		}
		slot = u64map__add(&j->chains, key, &added);
		if (!slot) {
			free(c);
			return -ENOMEM;
		}
		if (!added)
			free(*slot); /* a colliding identity: the newer wins */
		*slot = c;
	}
	if (c->n < 0)
		return c->n;
	if (c->n > max)
		return -ENOSPC;
	memcpy(out, c->f, c->n * sizeof(*out));
	return c->n;
}

/* ---- threads ----------------------------------------------------------- */

static int keep_thread(void *arg, int32_t tid, const char *name)
{
	struct jnamer *j = arg;
	bool added;
	void **slot =
	    u64map__add(&j->threads, (uint64_t)(uint32_t)tid + 1, &added);
	const char *cur = slot && !added ? *slot : NULL;

	if (!slot)
		return -ENOMEM;
	if (!cur || strcmp(cur, name))
		*slot = (void *)strpool__intern(j->pool, name, strlen(name));
	return 0;
}

int jnamer__threads_refresh(struct jnamer *j)
{
	int ret;

	if (readbudget__over(&j->rb))
		return -EDQUOT;
	if (!j->jt) {
		j->jt = jthreads__new(j->fresh, j->hl, j->vs, j->major);
		if (!j->jt)
			return -errno;
	}
	ret = jthreads__each(j->jt, keep_thread, j);
	return readbudget__over(&j->rb) ? -EDQUOT : ret;
}

int jnamer__thread(struct jnamer *j, int32_t tid, char *buf, size_t cap)
{
	uint64_t key = (uint64_t)(uint32_t)tid + 1;
	void **slot = u64map__find(&j->threads, key);
	size_t len;

	if (!slot || !*slot) {
		int ret = jnamer__threads_refresh(j);

		if (ret < 0)
			return ret;
		slot = u64map__find(&j->threads, key);
		if (!slot || !*slot)
			return -ENOENT;
	}
	len = strlen(*slot);
	if (len >= cap) {
		memcpy(buf, *slot, cap - 1);
		buf[cap - 1] = '\0';
		return -ENOSPC;
	}
	memcpy(buf, *slot, len + 1);
	return (int)len;
}
