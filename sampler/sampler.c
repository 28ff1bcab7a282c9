/*
 * sampler: load the BPF sampler and attach it to a timed perf event on
 * each online CPU (see sampler_ctl.h); the drain is in drain.c.
 */
#include <errno.h>
#include <stdio.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "alloc.h"
#include "sampler_int.h"
#include "unwind/loader.h"
#include "unwind/rows.h"

_Static_assert(sizeof(struct sample_key) == 56, "sample_key layout");
_Static_assert(sizeof(struct sample_count) == 24, "sample_count layout");
_Static_assert(sizeof(struct interp_proc) == 224, "interp_proc layout");
_Static_assert(sizeof(struct unwind_heap) == 32, "unwind_heap layout");
_Static_assert(sizeof(struct interp_frame) == 56, "interp_frame layout");
_Static_assert(sizeof(struct interp_stack) == 16 + 56 * INTERP_MAX_FRAMES,
	       "interp_stack layout");
_Static_assert((INTERP_MAX_FRAMES & (INTERP_MAX_FRAMES - 1)) == 0,
	       "BPF masks frame indices with INTERP_MAX_FRAMES - 1");

#define DEFAULT_INTERP_SIZE 4096
#define MIN_RING (256 * 1024)
#define MAX_RING (64 * 1024 * 1024)

/*
 * The new_keys ring: room for 200 ms of samples (a drain period) that are
 * all new keys with a new stack each (a 56-byte key and ~1.2 KiB of stack
 * record, with their 8-byte headers: 256 bytes per sample per second), a
 * power of two. Beyond that, records are dropped and counted, and the
 * drain reads the whole counts map instead.
 */
static uint32_t ring_bytes(const struct sampler_cfg *cfg)
{
	uint64_t want = cfg->freq * (uint64_t)cfg->nr_cpus * 256;
	uint32_t n = MIN_RING;

	while (n < want && n < MAX_RING)
		n <<= 1;
	return n;
}

uint32_t sampler__value_frames(uint32_t depth)
{
	return depth > STACK_SHORT ? depth : STACK_SHORT;
}

/* Sizes set before load: the stack maps, their scratch, the counts. */
static int size_maps(struct sampler_bpf *skel, const struct sampler_cfg *cfg)
{
	uint32_t bytes = sampler__value_frames(cfg->depth) * 8;
	int ncpu = libbpf_num_possible_cpus();

	if (ncpu < 0)
		return ncpu;
	skel->rodata->max_frames = cfg->depth;
	bpf_map__set_max_entries(skel->maps.interp, cfg->interp_size
							? cfg->interp_size
							: DEFAULT_INTERP_SIZE);
	bpf_map__set_value_size(skel->maps.stack_scratch,
				bytes + STACK_REC_HEAD * 8);
	bpf_map__set_max_entries(skel->maps.stack_scratch, ncpu);
	bpf_map__set_value_size(skel->maps.stacks_long, bytes);
	bpf_map__set_max_entries(skel->maps.stacks_long, cfg->stack_storage);
	bpf_map__set_max_entries(skel->maps.stacks_short, cfg->stack_storage);
	bpf_map__set_max_entries(skel->maps.counts, cfg->counts_size);
	bpf_map__set_max_entries(skel->maps.new_keys, ring_bytes(cfg));
	bpf_map__set_max_entries(skel->maps.unwind_rows, UNWIND_MAX_ROWS);
	return 0;
}

/* The fork hook (fork.bpf.c), on the sampler's targets and stats. */
static int load_fork(struct sampler *s)
{
	struct fork_bpf *f = fork_bpf__open();

	s->fork = f;
	if (!f)
		return -errno;
	if (bpf_map__reuse_fd(f->maps.targets,
			      bpf_map__fd(s->skel->maps.targets)) ||
	    bpf_map__reuse_fd(f->maps.stats, bpf_map__fd(s->skel->maps.stats)))
		return -errno;
	return fork_bpf__load(f) ? -errno : 0;
}

/*
 * MIXPROF_VERIFIER_STATS (a debug switch, for the bench): ask the
 * verifier for its statistics of prog before the load (before), print
 * its "processed N insns" line after it.
 */
static void verifier_stats(struct bpf_program *prog, bool before)
{
	static char log[64 << 10];
	char *p;

	if (!getenv("MIXPROF_VERIFIER_STATS"))
		return;
	if (before) {
		log[0] = 0;
		bpf_program__set_log_buf(prog, log, sizeof(log));
		bpf_program__set_log_level(prog, 4);
		return;
	}
	p = strstr(log, "processed ");
	if (p)
		fprintf(stderr, "mixprof: verifier: %.*s\n",
			(int)strcspn(p, "\n"), p);
}

/* The unwind rows' loader (unwind/loader.h), for runs that walk user
 * stacks by the HotSpot rules (rows come with them). */
static int new_unwind(struct sampler *s, const struct sampler_cfg *cfg)
{
	if (!cfg->user || cfg->usdt || cfg->unwind_mode != UNWIND_MODE_HOTSPOT)
		return 0;
	s->uw = unwind_loader__new(bpf_map__fd(s->skel->maps.unwind_rows),
				   bpf_map__fd(s->skel->maps.unwind_pages),
				   bpf_map__fd(s->skel->maps.unwind_procs),
				   UNWIND_MAX_ROWS);
	return s->uw ? 0 : -errno;
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
	skel->rodata->unwind_mode = cfg->unwind_mode;
	skel->rodata->offcpu_min_ns = cfg->min_block_ns;
	skel->rodata->offcpu_max_ns =
	    cfg->max_block_ns ? cfg->max_block_ns : ~0ULL;
	skel->rodata->offcpu_preempt = cfg->off_cpu_preempt || cfg->wall;
	if (cfg->freq)
		skel->rodata->wall_sample_us = 1000000 / cfg->freq;
	ret = size_maps(skel, cfg);
	if (ret)
		goto fail;
	/* a probe run has no perf events; a sampling run no USDT; only an
	 * off-CPU run hooks the scheduler (and pays for the kernel's BTF) */
	bpf_program__set_autoload(cfg->usdt ? skel->progs.mixprof_sample
					    : skel->progs.mixprof_entry,
				  false);
	bpf_program__set_autoload(skel->progs.mixprof_offcpu,
				  cfg->off_cpu || cfg->wall);
	bpf_program__set_autoload(skel->progs.mixprof_offcpu_end,
				  cfg->off_cpu || cfg->wall);
	bpf_program__set_autoload(skel->progs.mixprof_wall, cfg->wall);
	bpf_program__set_autoload(skel->progs.mixprof_alloc_tlab, cfg->alloc);
	bpf_program__set_autoload(skel->progs.mixprof_alloc_outside,
				  cfg->alloc);
	if (cfg->off_cpu || cfg->wall || cfg->alloc)
		bpf_program__set_autoload(skel->progs.mixprof_sample, false);
	verifier_stats(skel->progs.mixprof_sample, true);
	ret = sampler_bpf__load(skel);
	verifier_stats(skel->progs.mixprof_sample, false);
	if (!ret && cfg->filter_pids && !cfg->usdt)
		ret = load_fork(s);
	if (ret)
		goto fail;
	s->fds = calloc(cfg->nr_cpus, sizeof(*s->fds));
	s->links = calloc(cfg->nr_cpus, sizeof(*s->links));
	s->depth = cfg->depth;
	ret = -ENOMEM;
	if (!s->fds || !s->links)
		goto fail;
	ret = drain__init(s);
	if (!ret)
		ret = new_unwind(s, cfg);
	if (ret)
		goto fail;
	s->nr_cpus = cfg->nr_cpus;
	s->cpus = cfg->cpus;
	s->freq = cfg->freq;
	s->off_cpu = cfg->off_cpu || cfg->wall;
	s->wall = cfg->wall;
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

/* --off-cpu: the sched_switch program instead of perf events. */
static int attach_offcpu(struct sampler *s)
{
	struct bpf_link *l = bpf_program__attach(s->skel->progs.mixprof_offcpu);

	if (!l)
		return -errno;
	s->skel->links.mixprof_offcpu = l; /* destroyed by the detach */
	s->event = "sched_switch";
	return 0;
}

int sampler__attach(struct sampler *s, uint64_t start_ns)
{
	/* --wall: a timer's samples stand for exactly 1 s / freq each */
	bool hw = !s->wall;
	int i, fd;

	s->skel->bss->start_ns = start_ns;
	if (s->off_cpu && attach_offcpu(s))
		return -errno;
	if (s->off_cpu && !s->wall)
		goto fork;
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
		    s->wall ? s->skel->progs.mixprof_wall
			    : s->skel->progs.mixprof_sample,
		    fd);
		if (!s->links[i]) {
			s->links[i] = NULL;
			return -errno;
		}
	}
	s->event = s->wall ? (hw ? "cycles + sched_switch"
				 : "cpu-clock + sched_switch")
		   : hw	   ? "cycles"
			   : "cpu-clock";
fork:
	if (s->fork && fork_bpf__attach(s->fork))
		return -errno;
	/* an exec drops the process's unwind table (unwind.bpf.h) */
	if (s->uw) {
		s->skel->links.mixprof_unwind_exec =
		    bpf_program__attach(s->skel->progs.mixprof_unwind_exec);
		if (!s->skel->links.mixprof_unwind_exec)
			return -errno;
	}
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

/* A uprobe of prog on sym in libjvm of pid, kept in *link. */
static int alloc_probe(struct bpf_program *prog, struct bpf_link **link,
		       int pid, const char *libjvm, const char *sym)
{
	LIBBPF_OPTS(bpf_uprobe_opts, o, .func_name = sym);

	*link = bpf_program__attach_uprobe_opts(prog, pid, libjvm, 0, &o);
	return *link ? 0 : -errno;
}

int sampler__attach_alloc(struct sampler *s, uint64_t start_ns, int pid,
			  const char *libjvm)
{
	int ret;

	s->skel->bss->start_ns = start_ns;
	ret = alloc_probe(s->skel->progs.mixprof_alloc_tlab,
			  &s->skel->links.mixprof_alloc_tlab, pid, libjvm,
			  ALLOC_SYM_NEW_TLAB);
	if (!ret)
		ret = alloc_probe(s->skel->progs.mixprof_alloc_outside,
				  &s->skel->links.mixprof_alloc_outside, pid,
				  libjvm, ALLOC_SYM_OUTSIDE);
	if (!ret)
		s->event = "libjvm AllocTracer";
	return ret; /* links destroyed by the detach */
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
	if (s->fork)
		fork_bpf__detach(s->fork);
}

void sampler__free(struct sampler *s)
{
	if (!s)
		return;
	sampler__detach(s);
	drain__free(s); /* before the skeleton: the ring maps its map */
	unwind_loader__free(s->uw);
	fork_bpf__destroy(s->fork);
	sampler_bpf__destroy(s->skel);
	free(s->links);
	free(s->fds);
	free(s);
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

int sampler__set_thread(struct sampler *s, uint32_t tid, uint64_t thread)
{
	if (bpf_map__update_elem(s->skel->maps.java_threads, &tid, sizeof(tid),
				 &thread, sizeof(thread), BPF_ANY))
		return -errno;
	return 0;
}

int sampler__clear_thread(struct sampler *s, uint32_t tid)
{
	if (bpf_map__delete_elem(s->skel->maps.java_threads, &tid, sizeof(tid),
				 0))
		return -errno;
	return 0;
}

int sampler__interp_chunk(struct sampler *s, uint64_t key,
			  struct interp_stack *out)
{
	if (bpf_map__lookup_elem(s->skel->maps.interp_chunks, &key, sizeof(key),
				 out, sizeof(*out), 0))
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

int sampler__unwind_refresh(struct sampler *s, uint32_t pid, uint64_t now_ns)
{
	return s->uw ? unwind_loader__refresh(s->uw, pid, now_ns) : 0;
}

void sampler__unwind_forget(struct sampler *s, uint32_t pid)
{
	if (s->uw)
		unwind_loader__forget(s->uw, (int)pid);
}

void sampler__unwind_wait(struct sampler *s, uint64_t max_ns)
{
	if (s->uw)
		unwind_loader__wait(s->uw, max_ns);
}

int sampler__unwind_proc_maps(struct sampler *s, uint32_t pid)
{
	return s->uw ? unwind_loader__proc_maps(s->uw, (int)pid) : -ENOENT;
}

bool sampler__unwind_stats(struct sampler *s, struct unwind_loader_stats *st)
{
	if (!s->uw)
		return false;
	unwind_loader__stats(s->uw, st);
	return true;
}
