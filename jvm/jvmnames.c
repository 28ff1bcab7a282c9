// SPDX-License-Identifier: GPL-2.0
/*
 * jvmnames: what --events reads of the live JVM (jvmnames.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "jvm/codeblob.h"
#include "jvm/hotspot.h"
#include "jvm/hsprobes.h"
#include "jvm/jvmnames.h"
#include "jvm/jvms.h"
#include "jvm/vmstructs.h"

#define NAMES_MAX 64 /* HotSpot's reasons fit 5 bits, its actions 3 */
#define NAME_LEN 48 /* "intrinsic_or_type_checked_inlining": 34 */

struct jvmnames {
	uint32_t pid;
	struct jvms *jv; /* the run's, whose JVM is borrowed; or NULL */
	struct hotspot *own; /* without jv: the JVM opened here */
	bool tables_read;
	char reason[NAMES_MAX][NAME_LEN];
	char action[NAMES_MAX][NAME_LEN];
};

struct jvmnames *jvmnames__new(uint32_t pid, struct jvms *jv)
{
	struct jvmnames *n = calloc(1, sizeof(*n));

	if (n) {
		n->pid = pid;
		n->jv = jv;
	}
	return n;
}

void jvmnames__free(struct jvmnames *n)
{
	if (!n)
		return;
	hotspot__free(n->own);
	free(n);
}

/* The JVM as read once for the run (jvms.h), or by us; NULL: not yet. */
static struct hotspot *jvm_of(const struct jvmnames *n)
{
	return n->jv ? jvms__hotspot(n->jv, n->pid) : n->own;
}

int jvmnames__ready(struct jvmnames *n, struct jev_cfg *c)
{
	const struct hotspot_unwind *u;
	const struct vmstructs *vs;
	struct hotspot *h;
	uint64_t v;

	if (!n->jv && !n->own && !(n->own = hotspot__open(n->pid)))
		return -errno;
	h = jvm_of(n);
	if (!h)
		return -EAGAIN; /* not a JVM jvms knows yet */
	u = &hotspot__layout(h)->u;
	memset(c, 0, sizeof(*c));
	c->off_anchor_sp = u->threads_ok ? u->off_jt_anchor + u->off_fa_sp : 0;
	vs = hotspot__vmstructs(h); /* read once a JVM, lent */
	if (!vs)
		return 0; /* no tiers */
	if (!vmstructs__field(vs, "CompileTask", "_comp_level", &v) && v < 4096)
		c->off_task_level = v;
	if (!vmstructs__field(vs, "CompileTask", "_osr_bci", &v) && v < 4096)
		c->off_task_osr_bci = v;
	return 0;
}

/* A name HotSpot wrote: lowercase, digits and '_' only, NUL-ended. */
static bool read_name(const struct hotspot_mem *m, uint64_t addr, char *buf)
{
	size_t k = NAME_LEN - 1;

	/* a short string may end just before an unmapped page */
	while (k && m->read(m->ctx, addr, buf, k))
		k /= 2;
	buf[k] = 0;
	if (!k || !buf[0] || strlen(buf) >= k)
		return false;
	for (char *c = buf; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ||
		      *c == '_'))
			return false;
	return true;
}

/* names[0..) from the array of char * at addr, up to the first that is
 * not a name (the array has no length of its own in the tables). */
static void read_table(const struct hotspot_mem *m, uint64_t addr,
		       char names[][NAME_LEN])
{
	uint64_t p;

	for (int i = 0; i < NAMES_MAX; i++)
		if (m->read(m->ctx, addr + 8 * i, &p, sizeof(p)) ||
		    !read_name(m, p, names[i])) {
			names[i][0] = 0;
			return;
		}
}

static void tables(struct jvmnames *n)
{
	static const char *const syms[] = {
	    HS_SYM_TRAP_REASON_NAME,
	    HS_SYM_TRAP_ACTION_NAME,
	};
	struct hotspot *h = jvm_of(n);
	uint64_t at[2];

	if (n->tables_read || !h)
		return;
	n->tables_read = true;
	if (hotspot__jvm_syms(n->pid, syms, 2, at))
		return;
	read_table(hotspot__mem(h), at[0], n->reason);
	read_table(hotspot__mem(h), at[1], n->action);
}

const char *jvmnames__reason(struct jvmnames *n, int i)
{
	tables(n);
	return i >= 0 && i < NAMES_MAX && *n->reason[i] ? n->reason[i] : NULL;
}

const char *jvmnames__action(struct jvmnames *n, int i)
{
	tables(n);
	return i >= 0 && i < NAMES_MAX && *n->action[i] ? n->action[i] : NULL;
}

/* The nmethod at pc: its Method*'s name and its tier (_comp_level's low
 * byte: an int before JDK 21, a byte after; x86-64 is little-endian). */
int jvmnames__method_at(struct jvmnames *n, uint64_t pc, char *buf, size_t cap,
			int *tier)
{
	struct hotspot *h = jvm_of(n);
	const struct hotspot_layout *l;
	const struct hotspot_mem *m;
	uint64_t nm, method;
	uint8_t level;
	int ret;

	if (!h)
		return -EAGAIN;
	l = hotspot__layout(h);
	m = hotspot__mem(h);
	if (l->u.off_nm_method == HOTSPOT_NO_OFF)
		return -ENOENT;
	ret = codeblob__start(m, &l->u, pc, &nm);
	if (ret)
		return ret;
	if (m->read(m->ctx, nm + l->u.off_nm_method, &method, sizeof(method)))
		return -EFAULT;
	if (l->u.off_nm_comp_level != HOTSPOT_NO_OFF &&
	    !m->read(m->ctx, nm + l->u.off_nm_comp_level, &level, 1))
		*tier = level;
	ret = hotspot__method_name(m, l, method, buf, cap);
	for (char *c = buf; ret > 0 && *c; c++)
		if (*c == '/')
			*c = '.';
	return ret;
}
