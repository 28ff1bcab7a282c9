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
#include "stackcache.h"
#include "u64map.h"

_Static_assert(sizeof(struct sample_key) == 56, "sample_key layout");
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
	bool filter;
	bool interp; /* walking interpreted frames */
	const char *event;
	struct sample_key *keys; /* drain scratch */
	struct sample_count *vals;
	size_t keys_cap;
	struct stackcache *stacks; /* the kernel's stacks, copied once */
	uint64_t *ips; /* one stack read from the kernel */
	uint64_t *del; /* stack keys to delete, scratch */
	size_t del_cap;
	struct u64map idead; /* interp ids of the keys taken last drain */
	uint64_t reads; /* reads of the counts map so far */
	uint64_t taken; /* every key of a bucket <= this is taken */
};

static uint32_t stack_value_frames(uint32_t depth)
{
	return depth > STACK_SHORT ? depth : STACK_SHORT;
}

/* Sizes set before load: the stack maps, their scratch, the counts. */
static int size_maps(struct sampler_bpf *skel, const struct sampler_cfg *cfg)
{
	uint32_t bytes = stack_value_frames(cfg->depth) * 8;
	int ncpu = libbpf_num_possible_cpus();

	if (ncpu < 0)
		return ncpu;
	skel->rodata->max_frames = cfg->depth;
	bpf_map__set_max_entries(skel->maps.interp, cfg->interp_size
							? cfg->interp_size
							: DEFAULT_INTERP_SIZE);
	bpf_map__set_value_size(skel->maps.stack_scratch, bytes);
	bpf_map__set_max_entries(skel->maps.stack_scratch, ncpu);
	bpf_map__set_value_size(skel->maps.stacks_long, bytes);
	bpf_map__set_max_entries(skel->maps.stacks_long, cfg->stack_storage);
	bpf_map__set_max_entries(skel->maps.stacks_short, cfg->stack_storage);
	bpf_map__set_max_entries(skel->maps.counts, cfg->counts_size);
	return 0;
}

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
	ret = size_maps(skel, cfg);
	if (ret)
		goto fail;
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
	s->stacks = stackcache__new();
	s->ips = calloc(stack_value_frames(cfg->depth), sizeof(*s->ips));
	s->taken = UINT64_MAX; /* none yet */
	ret = -ENOMEM;
	if (!s->fds || !s->links || !s->stacks || !s->ips)
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
	    .off_sym_hash = INTERP_NO_OFF,
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
	stackcache__free(s->stacks);
	free(s->ips);
	free(s->del);
	u64map__release(&s->idead);
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

/*
 * Delete n keys from map fd: one call, and past keys already gone (a
 * stack deleted after a sample stored it again is there once more, or
 * not). Kernels without batch deletes get one call per key.
 */
static void delete_keys(int fd, const void *keys, size_t key_size, size_t n)
{
	const char *k = keys;
	size_t done = 0;
	__u32 count;
	LIBBPF_OPTS(bpf_map_batch_opts, opts);

	while (done < n) {
		count = n - done;
		if (!bpf_map_delete_batch(fd, k + done * key_size, &count,
					  &opts)) {
			done += count;
			continue;
		}
		done += count;
		if (errno == ENOENT) {
			done++; /* that one is gone already */
			continue;
		}
		for (; done < n; done++)
			bpf_map_delete_elem(fd, k + done * key_size);
	}
}

/*
 * Read a stack the cache lacks from its kernel map into the cache; its
 * number of frames when read now (s->ips holds them), else 0.
 */
static int fetch_stack(struct sampler *s, uint64_t key, uint64_t bucket)
{
	struct bpf_map *m = key & STACK_DEEP ? s->skel->maps.stacks_long
					     : s->skel->maps.stacks_short;
	uint32_t max = key & STACK_DEEP ? stack_value_frames(s->depth)
					: STACK_SHORT,
		 n;

	if (key <= STACK_LOST || stackcache__touch(s->stacks, key, bucket))
		return 0;
	if (bpf_map__lookup_elem(m, &key, sizeof(key), s->ips, max * 8, 0))
		return 0; /* gone: the key's samples count as lost */
	for (n = 0; n < max && s->ips[n]; n++)
		;
	return stackcache__put(s->stacks, key, s->ips, n, bucket) ? 0 : (int)n;
}

/*
 * Could the i-th key read be new since the last read? (sampler.h: struct
 * sample_count) Older keys were shown before, so each key costs user space
 * at most two looks, not one per tick while it lives.
 */
static bool fresh(const struct sampler *s, size_t i)
{
	return s->vals[i].read + 1 >= s->reads;
}

/* Delete the stacks the cache says no new sample used lately. */
static void free_stacks(struct sampler *s)
{
	const uint64_t *gone;
	size_t i, nshort = 0, nlong = 0;
	long n = stackcache__sweep(s->stacks, s->taken, &gone);

	if (n <= 0)
		return;
	if ((size_t)n > s->del_cap) {
		free(s->del);
		s->del = malloc(n * sizeof(*s->del));
		s->del_cap = s->del ? n : 0;
		if (!s->del)
			return; /* kept: a later sweep will not offer them */
	}
	for (i = 0; i < (size_t)n; i++)
		if (gone[i] & STACK_DEEP)
			s->del[n - 1 - nlong++] = gone[i];
		else
			s->del[nshort++] = gone[i];
	delete_keys(bpf_map__fd(s->skel->maps.stacks_short), s->del,
		    sizeof(*s->del), nshort);
	delete_keys(bpf_map__fd(s->skel->maps.stacks_long), s->del + nshort,
		    sizeof(*s->del), nlong);
}

/*
 * The interpreted-frame lists of the keys taken last time, unless a new
 * key uses them: interp.c copied each list when its key was new, so only
 * new samples need the kernel's copy (to find theirs stored already).
 */
static void free_interp(struct sampler *s, size_t nr)
{
	size_t i, n = 0;

	if (!s->idead.n)
		return;
	for (i = 0; i < nr; i++)
		if (s->keys[i].interp_id && fresh(s, i))
			u64map__del(&s->idead, s->keys[i].interp_id);
	for (i = 0; i < s->idead.cap; i++)
		if (s->idead.keys[i])
			s->idead.keys[n++] = s->idead.keys[i];
	delete_keys(bpf_map__fd(s->skel->maps.interp), s->idead.keys,
		    sizeof(uint64_t), n);
	u64map__release(&s->idead); /* its keys were just reordered */
}

int sampler__drain(struct sampler *s, const struct sampler_drain_ops *ops)
{
	size_t nr = 0, i, taken = 0;
	int n;
	bool added;
	int ret;

	/* keys added from now on are new to this read (and maybe the next) */
	s->skel->bss->next_read = ++s->reads;
	ret = read_counts(s, &nr);
	if (ret)
		return ret;
	stackcache__begin(s->stacks);
	free_interp(s, nr);
	for (i = 0; i < nr; i++) {
		struct sample_key *k = &s->keys[i];

		if (fresh(s, i)) {
			fetch_stack(s, k->user_stack, k->bucket);
			n = fetch_stack(s, k->kern_stack, k->bucket);
			if (n && ops->kstack)
				ops->kstack(s->ips, n, ops->ctx);
			if (ops->seen)
				ops->seen(k, ops->ctx);
		}
		if (!ops->done(k, ops->ctx))
			continue;
		ops->take(k, s->vals[i].n, ops->ctx);
		if (k->interp_id)
			u64map__add(&s->idead, k->interp_id, &added);
		if (s->taken == UINT64_MAX || k->bucket > s->taken)
			s->taken = k->bucket;
		s->keys[taken++] = *k; /* i >= taken: already read */
	}
	free_stacks(s);
	delete_keys(bpf_map__fd(s->skel->maps.counts), s->keys,
		    sizeof(*s->keys), taken);
	return taken;
}

int sampler__stack(struct sampler *s, uint64_t key, const uint64_t **ips)
{
	if (key <= STACK_LOST)
		return -ENOENT;
	return stackcache__get(s->stacks, key, ips);
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
