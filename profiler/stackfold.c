/*
 * stackfold: keys to folded lines (see stackfold.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stackfold.h"

#define MAX_INLINE 64 /* frames one address may expand to */

struct stackfold {
	struct stackfold_cfg cfg;
	struct sampler *smp;
	struct symbolizer *sym;
	uint64_t *uips, *kips; /* depth each */
	struct frame frames[MAX_INLINE];
	struct fold_line line;
	struct stackfold_stats st;
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
	sf->uips = calloc(cfg->depth, sizeof(uint64_t));
	sf->kips = calloc(cfg->depth, sizeof(uint64_t));
	if (!sf->uips || !sf->kips) {
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
	free(sf->uips);
	free(sf->kips);
	free(sf);
}

/*
 * Fetch stack id into ips: frames (>= 0), or -1 when the sample has none
 * of this kind (-EFAULT from BPF: user-mode sample, kernel thread), or -2
 * when it was lost (collision, full map, deleted).
 */
static int fetch(struct stackfold *sf, int32_t id, uint64_t *ips)
{
	int n;

	if (id == -EFAULT)
		return -1;
	if (id < 0)
		return -2;
	n = sf->smp ? sampler__stack(sf->smp, id, ips) : -ENOENT;
	return n < 0 ? -2 : n;
}

/* Push user frames root first; non-leaf addresses are return addresses. */
static int push_user(struct stackfold *sf, uint32_t pid, int n,
		     uint64_t when_ns)
{
	int i, j, nf, ret = 0;

	for (i = n - 1; i >= 0 && !ret; i--) {
		uint64_t ip = sf->uips[i] - (i ? 1 : 0);

		nf = symbolizer__user(sf->sym, pid, ip, when_ns, sf->frames,
				      MAX_INLINE);
		for (j = 0; j < nf && !ret; j++)
			ret = fold_line__push(&sf->line, &sf->frames[j]);
	}
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

const char *stackfold__line(struct stackfold *sf, const struct sample_key *k,
			    uint64_t count, uint64_t when_ns,
			    const char *proc_comm)
{
	int nu = -1, nk = -1, ret;
	uint32_t d = sf->cfg.depth;

	if (sf->cfg.user)
		nu = fetch(sf, k->user_stack_id, sf->uips);
	if (sf->cfg.kernel)
		nk = fetch(sf, k->kern_stack_id, sf->kips);
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
		ret = push_user(sf, k->pid, nu, when_ns);
	if (!ret && sf->cfg.delimit && nu != -1 && nk != -1)
		ret = fold_line__push_name(&sf->line, "-");
	if (!ret && nk == -2)
		ret = fold_line__push_name(&sf->line, "[lost kernel stack]");
	if (!ret && nk > 0)
		ret = push_kernel(sf, nk);
	if (ret) {
		errno = -ret;
		return NULL;
	}
	return sf->line.buf;
}

const struct stackfold_stats *stackfold__stats(const struct stackfold *sf)
{
	return &sf->st;
}
