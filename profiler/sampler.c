/*
 * sampler: load the BPF sampler, attach it to a timed perf event on each
 * online CPU, and drain the counts map (see sampler_ctl.h).
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "sampler_ctl.h"
#include "sampler.skel.h"

_Static_assert(sizeof(struct sample_key) == 48, "sample_key layout");
_Static_assert(sizeof(struct interp_proc) == 48, "interp_proc layout");
_Static_assert(sizeof(struct interp_frame) == 40, "interp_frame layout");
_Static_assert(sizeof(struct interp_stack) == 8 + 40 * INTERP_MAX_FRAMES,
	       "interp_stack layout");
_Static_assert((INTERP_MAX_FRAMES & (INTERP_MAX_FRAMES - 1)) == 0,
	       "BPF masks frame indices with INTERP_MAX_FRAMES - 1");

#define DEFAULT_INTERP_SIZE 4096

struct sampler {
	struct sampler_bpf *skel;
	struct bpf_link **links; /* one per CPU */
	int *fds; /* perf event per CPU */
	int nr_cpus;
	const int *cpus;
	uint64_t freq;
	uint32_t depth;
	uint32_t nr_stack_ids; /* stack ids are below this */
	bool filter;
	bool interp; /* walking interpreted frames */
	const char *event;
	struct sample_key *keys; /* drain scratch */
	uint64_t *vals;
	size_t keys_cap;
	uint8_t *live, *dead; /* stack id bitmaps */
	uint64_t *idead; /* interp ids of the keys taken by this drain */
	size_t nidead, idead_cap;
	uint64_t *ilive; /* interp ids still in use (sorted scratch) */
	size_t ilive_cap;
};

struct sampler *sampler__new(const struct sampler_cfg *cfg)
{
	struct sampler *s = calloc(1, sizeof(*s));
	struct sampler_bpf *skel;
	int ret = -ENOMEM;

	if (!s)
		goto fail;
	s->skel = skel = sampler_bpf__open();
	if (!skel) {
		ret = -errno;
		goto fail;
	}
	skel->rodata->bucket_ns = cfg->bucket_ns;
	skel->rodata->filter_pids = cfg->filter_pids;
	skel->rodata->per_thread = cfg->per_thread;
	skel->rodata->user_stacks = cfg->user;
	skel->rodata->kernel_stacks = cfg->kernel;
	skel->rodata->interp_walk = cfg->user && !cfg->no_interp;
	bpf_map__set_max_entries(skel->maps.interp, cfg->interp_size
							? cfg->interp_size
							: DEFAULT_INTERP_SIZE);
	bpf_map__set_value_size(skel->maps.stacks, cfg->depth * 8);
	bpf_map__set_max_entries(skel->maps.stacks, cfg->stack_storage);
	bpf_map__set_max_entries(skel->maps.counts, cfg->counts_size);
	if (!cfg->filter_pids || cfg->usdt)
		bpf_program__set_autoload(skel->progs.mixprof_fork, false);
	/* a probe run has no perf events; a sampling run no USDT */
	bpf_program__set_autoload(cfg->usdt ? skel->progs.mixprof_sample
					    : skel->progs.mixprof_entry,
				  false);
	ret = sampler_bpf__load(skel);
	if (ret)
		goto fail;
	s->fds = calloc(cfg->nr_cpus, sizeof(*s->fds));
	s->links = calloc(cfg->nr_cpus, sizeof(*s->links));
	/* the kernel rounds the stack map up to a power of two */
	for (s->nr_stack_ids = 1; s->nr_stack_ids < cfg->stack_storage;)
		s->nr_stack_ids <<= 1;
	s->live = calloc(1, s->nr_stack_ids / 8 + 1);
	s->dead = calloc(1, s->nr_stack_ids / 8 + 1);
	ret = -ENOMEM;
	if (!s->fds || !s->links || !s->live || !s->dead)
		goto fail;
	s->nr_cpus = cfg->nr_cpus;
	s->cpus = cfg->cpus;
	s->freq = cfg->freq;
	s->depth = cfg->depth;
	s->filter = cfg->filter_pids;
	s->interp = cfg->user && !cfg->no_interp;
	for (int i = 0; i < s->nr_cpus; i++)
		s->fds[i] = -1;
	return s;
fail:
	sampler__free(s);
	errno = -ret;
	return NULL;
}

int sampler__add_target(struct sampler *s, uint32_t pid)
{
	struct interp_proc pending = {
	    .code_end = ~0ULL,
	    .method_slot = INTERP_METHOD_SLOT,
	};
	uint8_t one = 1;

	if (bpf_map__update_elem(s->skel->maps.targets, &pid, sizeof(pid), &one,
				 sizeof(one), BPF_ANY))
		return -errno;
	/* a JVM's first interpreted frames come before its first tick */
	if (s->interp)
		sampler__set_interp(s, pid, &pending);
	return 0;
}

/* A sampling perf event on cpu: cycles where the PMU has it. */
static int open_event(int cpu, uint64_t freq, bool hw)
{
	struct perf_event_attr attr = {
	    .size = sizeof(attr),
	    .type = hw ? PERF_TYPE_HARDWARE : PERF_TYPE_SOFTWARE,
	    .config = hw ? PERF_COUNT_HW_CPU_CYCLES : PERF_COUNT_SW_CPU_CLOCK,
	    .freq = 1,
	    .sample_freq = freq,
	};

	return syscall(__NR_perf_event_open, &attr, -1, cpu, -1,
		       PERF_FLAG_FD_CLOEXEC);
}

int sampler__attach(struct sampler *s, uint64_t start_ns)
{
	bool hw = true;
	int i, fd;

	s->skel->bss->start_ns = start_ns;
	for (i = 0; i < s->nr_cpus; i++) {
		fd = open_event(s->cpus[i], s->freq, hw);
		if (fd < 0 && hw && i == 0 &&
		    (errno == ENOENT || errno == EOPNOTSUPP ||
		     errno == ENODEV)) {
			hw = false;
			fd = open_event(s->cpus[i], s->freq, hw);
		}
		if (fd < 0) {
			/* a CPU that went offline since we listed them */
			if (errno == ENODEV)
				continue;
			return -errno;
		}
		s->fds[i] = fd;
		s->links[i] = bpf_program__attach_perf_event(
		    s->skel->progs.mixprof_sample, fd);
		if (!s->links[i]) {
			s->links[i] = NULL;
			return -errno;
		}
	}
	s->event = hw ? "cycles" : "cpu-clock";
	if (s->filter && sampler_bpf__attach(s->skel))
		return -errno;
	return 0;
}

int sampler__attach_usdt(struct sampler *s, uint64_t start_ns, int pid,
			 const char *path, const char *provider,
			 const char *name)
{
	struct bpf_link *l;

	s->skel->bss->start_ns = start_ns;
	l = bpf_program__attach_usdt(s->skel->progs.mixprof_entry, pid, path,
				     provider, name, NULL);
	if (!l)
		return -errno;
	s->skel->links.mixprof_entry = l; /* destroyed by the detach */
	s->event = "jmap:method_entry";
	return 0;
}

const char *sampler__event_name(const struct sampler *s)
{
	return s->event ? s->event : "none";
}

void sampler__detach(struct sampler *s)
{
	int i;

	if (!s)
		return;
	for (i = 0; s->links && i < s->nr_cpus; i++) {
		bpf_link__destroy(s->links[i]);
		s->links[i] = NULL;
		if (s->fds[i] >= 0)
			close(s->fds[i]);
		s->fds[i] = -1;
	}
	if (s->skel)
		sampler_bpf__detach(s->skel);
}

void sampler__free(struct sampler *s)
{
	if (!s)
		return;
	sampler__detach(s);
	sampler_bpf__destroy(s->skel);
	free(s->links);
	free(s->fds);
	free(s->keys);
	free(s->vals);
	free(s->live);
	free(s->dead);
	free(s->idead);
	free(s->ilive);
	free(s);
}

/* Read every (key, count) of the counts map into s->keys/vals. */
static int read_counts(struct sampler *s, size_t *nr)
{
	int fd = bpf_map__fd(s->skel->maps.counts);
	size_t cap = bpf_map__max_entries(s->skel->maps.counts), n = 0;
	struct sample_key batch;
	__u32 count;
	int ret;
	LIBBPF_OPTS(bpf_map_batch_opts, opts);

	if (s->keys_cap < cap) {
		free(s->keys);
		free(s->vals);
		s->keys = malloc(cap * sizeof(*s->keys));
		s->vals = malloc(cap * sizeof(*s->vals));
		if (!s->keys || !s->vals) {
			s->keys_cap = 0;
			return -ENOMEM;
		}
		s->keys_cap = cap;
	}
	for (;;) {
		count = cap - n;
		ret = bpf_map_lookup_batch(fd, n ? &batch : NULL, &batch,
					   s->keys + n, s->vals + n, &count,
					   &opts);
		n += count;
		if (ret < 0 && errno == ENOENT)
			break; /* the end of the map */
		if (ret < 0)
			return -errno;
		if (n >= cap)
			break;
	}
	*nr = n;
	return 0;
}

static void bit_set(uint8_t *map, uint32_t nbits, int32_t id)
{
	if (id >= 0 && (uint32_t)id < nbits)
		map[id / 8] |= 1 << (id % 8);
}

static bool bit_test(const uint8_t *map, int32_t id)
{
	return map[id / 8] & (1 << (id % 8));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Remember an interp id a taken key used (deleted unless still live). */
static void interp_dead(struct sampler *s, uint64_t id)
{
	uint64_t *n;

	if (!id)
		return;
	if (s->nidead == s->idead_cap) {
		n = realloc(s->idead, (s->idead_cap * 2 + 64) * sizeof(*n));
		if (!n)
			return; /* not deleted now: a later drain may */
		s->idead = n;
		s->idead_cap = s->idead_cap * 2 + 64;
	}
	s->idead[s->nidead++] = id;
}

/* The interp map's counterpart of the stack cleanup; nr live keys. */
static void free_interp(struct sampler *s, size_t nr)
{
	int fd = bpf_map__fd(s->skel->maps.interp);
	size_t i, nl = 0;

	if (!s->nidead)
		return;
	if (s->ilive_cap < nr) {
		free(s->ilive);
		s->ilive = malloc(nr * sizeof(*s->ilive));
		s->ilive_cap = s->ilive ? nr : 0;
		if (!s->ilive)
			return;
	}
	for (i = 0; i < nr; i++)
		if (s->keys[i].interp_id)
			s->ilive[nl++] = s->keys[i].interp_id;
	qsort(s->ilive, nl, sizeof(*s->ilive), cmp_u64);
	for (i = 0; i < s->nidead; i++)
		if (!bsearch(&s->idead[i], s->ilive, nl, sizeof(*s->ilive),
			     cmp_u64))
			bpf_map_delete_elem(fd, &s->idead[i]);
	s->nidead = 0;
}

/*
 * Delete the stacks that only drained keys used, so the stack map holds
 * the live working set, not every stack of the run. The live set is read
 * again right before deleting: a sample taken while the drained keys were
 * being symbolized may have reused one of their stacks.
 */
static void free_stacks(struct sampler *s)
{
	int fd = bpf_map__fd(s->skel->maps.stacks);
	size_t nr = 0, i;
	uint32_t id;

	if (read_counts(s, &nr))
		return;
	memset(s->live, 0, s->nr_stack_ids / 8 + 1);
	for (i = 0; i < nr; i++) {
		bit_set(s->live, s->nr_stack_ids, s->keys[i].user_stack_id);
		bit_set(s->live, s->nr_stack_ids, s->keys[i].kern_stack_id);
	}
	for (id = 0; id < s->nr_stack_ids; id++)
		if (bit_test(s->dead, id) && !bit_test(s->live, id))
			bpf_map_delete_elem(fd, &id);
	free_interp(s, nr);
}

int sampler__drain(struct sampler *s, const struct sampler_drain_ops *ops)
{
	int fd = bpf_map__fd(s->skel->maps.counts);
	size_t nr = 0, i;
	int ret, taken = 0;

	ret = read_counts(s, &nr);
	if (ret)
		return ret;
	memset(s->dead, 0, s->nr_stack_ids / 8 + 1);
	for (i = 0; i < nr; i++) {
		struct sample_key *k = &s->keys[i];

		if (ops->seen)
			ops->seen(k, ops->ctx);
		if (!ops->done(k, ops->ctx))
			continue;
		ops->take(k, s->vals[i], ops->ctx);
		bpf_map_delete_elem(fd, k);
		bit_set(s->dead, s->nr_stack_ids, k->user_stack_id);
		bit_set(s->dead, s->nr_stack_ids, k->kern_stack_id);
		interp_dead(s, k->interp_id);
		taken++;
	}
	if (taken)
		free_stacks(s);
	return taken;
}

int sampler__stack(struct sampler *s, int32_t id, uint64_t *ips)
{
	uint32_t n;

	if (bpf_map__lookup_elem(s->skel->maps.stacks, &id, sizeof(id), ips,
				 s->depth * 8, 0))
		return -errno;
	for (n = 0; n < s->depth && ips[n]; n++)
		;
	return n;
}

int sampler__set_interp(struct sampler *s, uint32_t pid,
			const struct interp_proc *p)
{
	if (bpf_map__update_elem(s->skel->maps.interp_procs, &pid, sizeof(pid),
				 p, sizeof(*p), BPF_ANY))
		return -errno;
	return 0;
}

int sampler__clear_interp(struct sampler *s, uint32_t pid)
{
	if (bpf_map__delete_elem(s->skel->maps.interp_procs, &pid, sizeof(pid),
				 0))
		return -errno;
	return 0;
}

int sampler__interp(struct sampler *s, uint64_t id, struct interp_stack *out)
{
	if (bpf_map__lookup_elem(s->skel->maps.interp, &id, sizeof(id), out,
				 sizeof(*out), 0))
		return -errno;
	return 0;
}

int sampler__stats(struct sampler *s, uint64_t out[STAT_NR])
{
	int ncpu = libbpf_num_possible_cpus();
	uint64_t *v;
	uint32_t i;
	int c;

	if (ncpu < 0)
		return ncpu;
	v = calloc(ncpu, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < STAT_NR; i++) {
		out[i] = 0;
		if (bpf_map__lookup_elem(s->skel->maps.stats, &i, sizeof(i), v,
					 ncpu * sizeof(*v), 0))
			continue;
		for (c = 0; c < ncpu; c++)
			out[i] += v[c];
	}
	free(v);
	return 0;
}
