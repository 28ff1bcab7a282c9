// SPDX-License-Identifier: GPL-2.0
/*
 * evlog: HotSpot's events paired, written and totalled (evlog.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "common/bisect.h"
#include "common/safename.h"
#include "events/evlog.h"

#define OPEN_MAX 64 /* begins waiting for their end: a thread each */
#define REASONS 64 /* deopt reasons counted by number (HotSpot: 5 bits) */
#define COMPILERS 8 /* tiers 1-4, and compilers of unknown tier */
#define NAME_CAP SAFENAME_SIZE(JEV_STR + 3)

/* A begin waiting for its end, on thread tid. */
struct open_ev {
	uint32_t tid, kind; /* kind 0: a free slot */
	uint64_t ts;
	uint64_t ttsp_ns; /* a safepoint: its first VM operation's start */
	bool full; /* a GC: a full one */
	int tier; /* a compilation's, 0 unknown */
	bool osr; /* an on-stack replacement */
	char name[NAME_CAP]; /* a VM operation's, a compilation's method */
	char op[NAME_CAP]; /* a safepoint's first VM operation */
};

/* A safepoint's time to safepoint: [start, end) ns. */
struct ttsp_win {
	uint64_t start, end;
};

struct ev_total {
	uint64_t n, sum_ns, max_ns;
};

struct evlog {
	FILE *out;
	evlog_line_fn fn;
	void *fn_ctx;
	struct evlog_namer nm;
	struct open_ev open[OPEN_MAX];
	uint64_t lines;
	struct ev_total gc, sp, ttsp;
	char compiler[COMPILERS][16];
	struct ev_total comp[COMPILERS];
	uint64_t comp_failed, classes, deopts;
	uint64_t reason[REASONS + 1]; /* [REASONS]: unloaded (index form) */
	struct ttsp_win *win; /* times to safepoint, in time order */
	size_t nr_win, cap_win;
};

struct evlog *evlog__new(FILE *out, const struct evlog_namer *n)
{
	struct evlog *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->out = out;
	if (n)
		l->nm = *n;
	return l;
}

void evlog__on_line(struct evlog *l, evlog_line_fn fn, void *ctx)
{
	l->fn = fn;
	l->fn_ctx = ctx;
}

void evlog__free(struct evlog *l)
{
	if (l)
		free(l->win);
	free(l);
}

/* Safepoints come one after another: windows in time order, apart. */
static void win_add(struct evlog *l, uint64_t start, uint64_t end)
{
	struct ttsp_win *w = l->win;

	if (l->nr_win == l->cap_win) {
		w = realloc(w, (l->cap_win ? 2 * l->cap_win : 64) * sizeof(*w));
		if (!w)
			return; /* this one is not kept */
		l->win = w;
		l->cap_win = l->cap_win ? 2 * l->cap_win : 64;
	}
	w[l->nr_win++] = (struct ttsp_win){start, end};
}

bool evlog__in_ttsp(const struct evlog *l, uint64_t t0, uint64_t t1)
{
	/* the last window starting before t1 is the only one that can
	 * overlap [t0, t1) and start before it ends */
	size_t i = bisect__lower(l->win, l->nr_win, sizeof(*l->win),
				 offsetof(struct ttsp_win, start), t1);

	return i && l->win[i - 1].end > t0;
}

uint64_t evlog__lines(const struct evlog *l)
{
	return l->lines;
}

/* deoptimization.hpp: ~request holds the action (3 bits) then the reason
 * (5 bits); a request >= 0 is a constant pool index: Reason_unloaded */
int evlog__trap_reason(int32_t request)
{
	return request < 0 ? (~request >> 3) & 31 : -1;
}

int evlog__trap_action(int32_t request)
{
	return request < 0 ? ~request & 7 : -1;
}

static void total_add(struct ev_total *t, uint64_t ns)
{
	t->n++;
	t->sum_ns += ns;
	if (ns > t->max_ns)
		t->max_ns = ns;
}

/* Name i of e made safe into buf; "/" as "." when dots. */
static void ev_name(const struct jvm_event *e, int i, bool dots, char *buf)
{
	size_t n = e->len[i] < JEV_STR ? e->len[i] : JEV_STR;
	size_t w = safename__copy(buf, NAME_CAP - 3, e->str[i], n, 0);

	if (dots)
		for (char *c = buf; *c; c++)
			if (*c == '/')
				*c = '.';
	if (e->len[i] > JEV_STR && w < NAME_CAP - 3)
		strcat(buf, "...");
}

static void line(struct evlog *l, uint64_t start, uint64_t end,
		 const char *kind, const char *detail)
{
	if (!l->out && !l->fn)
		return;
	if (l->out)
		fprintf(l->out, "%" PRIu64 "\t%" PRIu64 "\t%s\t%s\n", start,
			end, kind, detail);
	if (l->fn)
		l->fn(l->fn_ctx, start, end, kind, detail);
	l->lines++;
}

static struct open_ev *find_open(struct evlog *l, uint32_t tid, uint32_t kind)
{
	for (int i = 0; i < OPEN_MAX; i++)
		if (l->open[i].kind == kind && l->open[i].tid == tid)
			return &l->open[i];
	return NULL;
}

/* A begin of kind on e's thread: a slot (the same thread's earlier one of
 * that kind, never ended, is dropped), or NULL when all are taken. */
static struct open_ev *begin(struct evlog *l, const struct jvm_event *e,
			     uint32_t kind)
{
	struct open_ev *o = find_open(l, e->tid, kind);

	for (int i = 0; !o && i < OPEN_MAX; i++)
		if (!l->open[i].kind)
			o = &l->open[i];
	if (o) {
		memset(o, 0, sizeof(*o));
		o->tid = e->tid;
		o->kind = kind;
		o->ts = e->ts;
	}
	return o;
}

/* The safepoint open now (the VM thread's, whichever thread asks). */
static struct open_ev *open_safepoint(struct evlog *l)
{
	for (int i = 0; i < OPEN_MAX; i++)
		if (l->open[i].kind == JEV_SP_BEGIN)
			return &l->open[i];
	return NULL;
}

static void vmop_begin(struct evlog *l, const struct jvm_event *e)
{
	struct open_ev *o = begin(l, e, JEV_VMOP_BEGIN);
	struct open_ev *sp = open_safepoint(l);

	if (!o)
		return;
	ev_name(e, 0, false, o->name);
	if (sp && !sp->ttsp_ns && e->ts >= sp->ts) {
		sp->ttsp_ns = e->ts - sp->ts;
		memcpy(sp->op, o->name, sizeof(sp->op));
		win_add(l, sp->ts, e->ts);
	}
}

static void gc_end(struct evlog *l, const struct open_ev *o,
		   const struct jvm_event *e)
{
	struct open_ev *op = find_open(l, e->tid, JEV_VMOP_BEGIN);
	char d[NAME_CAP + 8];

	total_add(&l->gc, e->ts - o->ts);
	snprintf(d, sizeof(d), "%s%s", op ? op->name : "-",
		 o->full ? " full" : "");
	line(l, o->ts, e->ts, "gc", d);
}

static void sp_end(struct evlog *l, const struct open_ev *o,
		   const struct jvm_event *e)
{
	char d[NAME_CAP + 40];

	total_add(&l->sp, e->ts - o->ts);
	if (*o->op)
		total_add(&l->ttsp, o->ttsp_ns);
	snprintf(d, sizeof(d), "ttsp_ns=%" PRIu64 " op=%s", o->ttsp_ns,
		 *o->op ? o->op : "-");
	line(l, o->ts, e->ts, "safepoint", d);
}

/* The slot of compiler name c, taken on first sight. */
static int compiler_slot(struct evlog *l, const char *c)
{
	for (int i = 0; i < COMPILERS; i++) {
		if (!*l->compiler[i])
			snprintf(l->compiler[i], sizeof(l->compiler[i]), "%s",
				 c);
		if (!strcmp(l->compiler[i], c))
			return i;
	}
	return COMPILERS - 1;
}

static void compile_end(struct evlog *l, const struct open_ev *o,
			const struct jvm_event *e)
{
	char d[2 * NAME_CAP + 32], tier[16];

	if (o->tier)
		snprintf(tier, sizeof(tier), "tier%d", o->tier);
	total_add(&l->comp[compiler_slot(l, o->tier ? tier : o->op)],
		  e->ts - o->ts);
	if (!e->arg0)
		l->comp_failed++;
	snprintf(tier, sizeof(tier), "%d", o->tier);
	snprintf(d, sizeof(d), "%s %s tier=%s%s%s", o->op, o->name,
		 o->tier ? tier : "?", o->osr ? " osr" : "",
		 e->arg0 ? "" : " failed");
	line(l, o->ts, e->ts, "compile", d);
}

static void compile_begin(struct evlog *l, const struct jvm_event *e)
{
	struct open_ev *o = begin(l, e, JEV_COMPILE_BEGIN);
	char m[NAME_CAP];
	size_t n;

	if (!o)
		return;
	o->tier = e->arg0 <= 4 ? e->arg0 : 0;
	o->osr = e->arg1 != 0;
	ev_name(e, 0, false, o->op);
	ev_name(e, 1, true, o->name);
	ev_name(e, 2, false, m);
	n = strlen(o->name);
	snprintf(o->name + n, sizeof(o->name) - n, ".%s", m);
}

static void deopt(struct evlog *l, const struct jvm_event *e)
{
	int32_t req = (int32_t)e->arg0;
	int r = evlog__trap_reason(req), a = evlog__trap_action(req);
	const char *rn = NULL, *an = NULL;
	char rb[16], ab[16], raw[256], m[SAFENAME_SIZE(256)], d[1200];
	int tier = 0;

	l->deopts++;
	l->reason[r < 0 ? REASONS : r]++;
	if (r >= 0 && l->nm.reason)
		rn = l->nm.reason(l->nm.ctx, r);
	if (a >= 0 && l->nm.action)
		an = l->nm.action(l->nm.ctx, a);
	snprintf(rb, sizeof(rb), "%d", r);
	snprintf(ab, sizeof(ab), "%d", a);
	if (!e->arg1 || !l->nm.method_at ||
	    l->nm.method_at(l->nm.ctx, e->arg1, raw, sizeof(raw), &tier) < 0)
		snprintf(raw, sizeof(raw), "-");
	safename__copy(m, sizeof(m), raw, strlen(raw), 0);
	snprintf(d, sizeof(d), "reason=%s action=%s method=%s tier=%d",
		 r < 0 ? "unloaded"
		 : rn  ? rn
		       : rb,
		 a < 0 ? "reinterpret"
		 : an  ? an
		       : ab,
		 m, tier);
	line(l, e->ts, e->ts, "deopt", d);
}

static void end(struct evlog *l, const struct jvm_event *e, uint32_t kind)
{
	struct open_ev *o = kind == JEV_SP_BEGIN ? open_safepoint(l)
						 : find_open(l, e->tid, kind);

	if (!o || e->ts < o->ts)
		return; /* begun before the attach */
	if (kind == JEV_GC_BEGIN)
		gc_end(l, o, e);
	else if (kind == JEV_SP_BEGIN)
		sp_end(l, o, e);
	else if (kind == JEV_COMPILE_BEGIN)
		compile_end(l, o, e);
	else
		line(l, o->ts, e->ts, "vmop", o->name);
	o->kind = 0;
}

void evlog__event(struct evlog *l, const struct jvm_event *e)
{
	struct open_ev *o;
	char c[NAME_CAP];

	switch (e->kind) {
	case JEV_GC_BEGIN:
		o = begin(l, e, JEV_GC_BEGIN);
		if (o)
			o->full = e->arg0 != 0;
		break;
	case JEV_SP_BEGIN:
		begin(l, e, JEV_SP_BEGIN);
		break;
	case JEV_VMOP_BEGIN:
		vmop_begin(l, e);
		break;
	case JEV_COMPILE_BEGIN:
		compile_begin(l, e);
		break;
	case JEV_GC_END:
	case JEV_SP_END:
	case JEV_VMOP_END:
	case JEV_COMPILE_END:
		end(l, e, e->kind - 1);
		break;
	case JEV_CLASS_LOADED:
		l->classes++;
		ev_name(e, 0, true, c);
		line(l, e->ts, e->ts, "classload", c);
		break;
	case JEV_DEOPT:
		deopt(l, e);
		break;
	}
}

static double ms(uint64_t ns)
{
	return ns / 1e6;
}

void evlog__summary(const struct evlog *l, FILE *f, uint64_t lost)
{
	fprintf(f,
		"mixprof: JVM events: %" PRIu64 " GC pauses (%.3f ms, max "
		"%.3f ms), %" PRIu64 " safepoints (%.3f ms, time to "
		"safepoint %.3f ms, max %.3f ms)\n",
		l->gc.n, ms(l->gc.sum_ns), ms(l->gc.max_ns), l->sp.n,
		ms(l->sp.sum_ns), ms(l->ttsp.sum_ns), ms(l->ttsp.max_ns));
	fprintf(f, "mixprof:   compilations:");
	/* tiers in order, then compilations of unknown tier by compiler */
	for (int t = 1; t <= 5; t++)
		for (int i = 0; i < COMPILERS && *l->compiler[i]; i++) {
			bool tier = !strncmp(l->compiler[i], "tier", 4);

			if (t < 5 ? !tier || l->compiler[i][4] - '0' != t
				  : tier)
				continue;
			fprintf(f, " %s %" PRIu64 " (%.1f ms)", l->compiler[i],
				l->comp[i].n, ms(l->comp[i].sum_ns));
		}
	fprintf(f, ", %" PRIu64 " failed; %" PRIu64 " classes loaded\n",
		l->comp_failed, l->classes);
	fprintf(f, "mixprof:   deoptimizations: %" PRIu64, l->deopts);
	for (int r = 0; r <= REASONS; r++) {
		const char *n = r == REASONS   ? "unloaded"
				: l->nm.reason ? l->nm.reason(l->nm.ctx, r)
					       : NULL;

		if (l->reason[r] && n)
			fprintf(f, " %s %" PRIu64, n, l->reason[r]);
		else if (l->reason[r])
			fprintf(f, " reason%d %" PRIu64, r, l->reason[r]);
	}
	fprintf(f, "\n");
	if (lost)
		fprintf(f,
			"mixprof:   %" PRIu64
			" events lost (ring buffer full)\n",
			lost);
}
