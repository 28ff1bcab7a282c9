/*
 * stackfold: keys to folded lines (see stackfold.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stackfold.h"

#define MAX_INLINE 64 /* frames one address may expand to */

struct stackfold {
	struct stackfold_cfg cfg;
	struct sampler *smp;
	struct symbolizer *sym;
	const uint64_t *uips, *kips; /* the key's stacks (sampler's copies) */
	struct frame frames[MAX_INLINE];
	struct fold_line line;
	struct stackfold_stats st;
	struct interp *interp; /* NULL with no_interp or no user stacks */
	const char **inames; /* depth: interpreted frame names, leaf first */
};

struct stackfold *stackfold__new(const struct stackfold_cfg *cfg,
				 struct sampler *smp, struct symbolizer *sym)
{
	struct stackfold *sf = calloc(1, sizeof(*sf));

	if (!sf)
		return NULL;
	sf->cfg = *cfg;
	sf->smp = smp;
	sf->sym = sym;
	sf->inames = calloc(cfg->depth, sizeof(*sf->inames));
	if (cfg->user && !cfg->no_interp && smp)
		sf->interp = interp__new(smp);
	if (!sf->inames ||
	    (cfg->user && !cfg->no_interp && smp && !sf->interp)) {
		stackfold__free(sf);
		errno = ENOMEM;
		return NULL;
	}
	fold_line__init(&sf->line, cfg->annotate);
	return sf;
}

void stackfold__free(struct stackfold *sf)
{
	if (!sf)
		return;
	fold_line__release(&sf->line);
	interp__free(sf->interp);
	free(sf->inames);
	free(sf);
}

/*
 * The frames of stack key into *ips: their number (>= 0), or -1 when the
 * sample has none of this kind (STACK_NONE: user-mode sample, kernel
 * thread), or -2 when it was lost (map full, gone before it was read).
 */
static int fetch(struct stackfold *sf, uint64_t key, const uint64_t **ips)
{
	int n;

	if (key == STACK_NONE)
		return -1;
	n = sf->smp ? sampler__stack(sf->smp, key, ips) : -ENOENT;
	return n < 0 ? -2 : n;
}

/* The interpreter's own code, named by the agent's map. */
static bool is_interpreter(const struct frame *f)
{
	return f->kind == FRAME_STUB && !strcmp(f->name, "Interpreter");
}

/*
 * Push user frames root first; non-leaf addresses are return addresses.
 * Interpreted frames get their Java method's name (interp.h); the rest
 * of the interpreter's frames stay "Interpreter" (or "[unknown]" without
 * the agent's map) and are counted.
 */
static int push_user(struct stackfold *sf, const struct sample_key *k, int n,
		     uint64_t when_ns, uint64_t count)
{
	int i, j, nf, ret = 0, named = 0, unnamed = 0;

	if (sf->interp)
		interp__names(sf->interp, k, sf->uips, n, sf->inames);
	for (i = n - 1; i >= 0 && !ret; i--) {
		uint64_t ip = sf->uips[i] - (i ? 1 : 0);

		if (sf->interp && sf->inames[i]) {
			struct frame f = {sf->inames[i], FRAME_INTERP};

			ret = fold_line__push(&sf->line, &f);
			named++;
			continue;
		}
		nf = symbolizer__user(sf->sym, k->pid, ip, when_ns, sf->frames,
				      MAX_INLINE);
		if (nf > 0 && (is_interpreter(&sf->frames[0]) ||
			       (sf->interp && interp__in_interpreter(
						  sf->interp, k->pid, ip))))
			unnamed++;
		for (j = 0; j < nf && !ret; j++)
			ret = fold_line__push(&sf->line, &sf->frames[j]);
	}
	sf->st.interp_named += named * count;
	sf->st.interp_unnamed += unnamed * count;
	if (named || unnamed)
		sf->st.interp_samples += count;
	if (unnamed)
		sf->st.interp_unnamed_samples += count;
	return ret;
}

static int push_kernel(struct stackfold *sf, int n)
{
	int i, ret = 0;

	for (i = n - 1; i >= 0 && !ret; i--) {
		symbolizer__kernel(sf->sym, sf->kips[i] - (i ? 1 : 0),
				   sf->frames);
		ret = fold_line__push(&sf->line, &sf->frames[0]);
	}
	return ret;
}

/* The root frames: process, thread, truncation mark. */
static int push_head(struct stackfold *sf, const struct sample_key *k,
		     const char *proc_comm, bool truncated)
{
	char comm[SAMPLER_COMM_LEN + 1], thread[64];
	int ret;

	memcpy(comm, k->comm, SAMPLER_COMM_LEN);
	comm[SAMPLER_COMM_LEN] = 0;
	if (sf->cfg.per_thread) {
		ret = fold_line__push_name(
		    &sf->line, proc_comm && *proc_comm ? proc_comm : comm);
		snprintf(thread, sizeof(thread), "%s [%u]", comm, k->tid);
		ret = ret ?: fold_line__push_name(&sf->line, thread);
	} else {
		ret = fold_line__push_name(&sf->line, comm);
	}
	if (!ret && truncated)
		ret = fold_line__push_name(&sf->line, "[truncated]");
	return ret;
}

/*
 * A method entry stack (USDT in Probe.fire, called by Probe.hit from the
 * probed method's first instruction) ends in the probe's own frames:
 * Probe.hit, Probe.fire's JNI wrapper or the interpreter's native entry,
 * fire in libjmap.so. Cut from the first of them on, so the probed method
 * is the leaf, as if the probe cost nothing. Stacks without them (an
 * unwind that lost the frames) stay whole.
 */
static void cut_probe(struct fold_line *l)
{
	static const char *const marks[] = {";mixprof/jmap/Probe.",
					    ";mixprof.jmap.Probe."};
	char *p;
	size_t i;

	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		p = strstr(l->buf, marks[i]);
		if (p) {
			*p = 0;
			l->len = p - l->buf;
		}
	}
}

const char *stackfold__line(struct stackfold *sf, const struct sample_key *k,
			    uint64_t count, uint64_t when_ns,
			    const char *proc_comm)
{
	int nu = -1, nk = -1, ret;
	uint32_t d = sf->cfg.depth;

	if (sf->cfg.user)
		nu = fetch(sf, k->user_stack, &sf->uips);
	if (sf->cfg.kernel)
		nk = fetch(sf, k->kern_stack, &sf->kips);
	if (nu == -2)
		sf->st.user_lost += count;
	if (nk == -2)
		sf->st.kern_lost += count;
	if (nu == (int)d || nk == (int)d)
		sf->st.truncated += count;

	fold_line__reset(&sf->line);
	ret = push_head(sf, k, proc_comm, nu == (int)d || nk == (int)d);
	if (!ret && nu == -2)
		ret = fold_line__push_name(&sf->line, "[lost user stack]");
	if (!ret && nu > 0)
		ret = push_user(sf, k, nu, when_ns, count);
	if (!ret && sf->cfg.delimit && nu != -1 && nk != -1)
		ret = fold_line__push_name(&sf->line, "-");
	if (!ret && nk == -2)
		ret = fold_line__push_name(&sf->line, "[lost kernel stack]");
	if (!ret && nk > 0)
		ret = push_kernel(sf, nk);
	if (!ret && sf->cfg.probe_leaf)
		cut_probe(&sf->line);
	if (ret) {
		errno = -ret;
		return NULL;
	}
	return sf->line.buf;
}

const struct stackfold_stats *stackfold__stats(const struct stackfold *sf)
{
	struct stackfold *w = (struct stackfold *)sf; /* counters only */
	struct interp_stats is = {};

	if (sf->interp)
		interp__stats(sf->interp, &is);
	w->st.interp_jvms = is.jvms;
	w->st.interp_misaligned = is.misaligned;
	w->st.interp_unreadable = is.unreadable;
	return &sf->st;
}

void stackfold__seen(struct stackfold *sf, const struct sample_key *k,
		     uint64_t now_ns)
{
	if (sf->interp)
		interp__seen(sf->interp, k, now_ns);
}
