/*
 * sampler: load the BPF sampler and attach it to a timed perf event on
 * each online CPU (see sampler_ctl.h); the drain is in drain.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "alloc.h"
#include "kbtf.h"
#include "jvm/hsprobes.h" /* the libjvm functions --alloc, --lock hook */
#include "lock.h"
#include "sampler_int.h"
#include "unwind/loader.h"
#include "unwind/rows.h"

_Static_assert(sizeof(struct sample_key) == 56, "sample_key layout");
_Static_assert(sizeof(struct sample_count) == 24, "sample_count layout");
_Static_assert(sizeof(struct sample_rec) == 40 + 56, "sample_rec layout");
_Static_assert(sizeof(struct interp_proc) == 360 + 8 * INTERP_TAILS,
	       "interp_proc layout");
_Static_assert(sizeof(struct interp_tail) == 8, "interp_tail layout");
_Static_assert((INTERP_TAILS & (INTERP_TAILS - 1)) == 0,
	       "BPF masks tail indices with INTERP_TAILS - 1");
_Static_assert(sizeof(struct unwind_heap) == 32, "unwind_heap layout");
_Static_assert(sizeof(struct interp_frame) == 56, "interp_frame layout");
_Static_assert(sizeof(struct java_thread_key) == 8, "java_thread_key layout");
_Static_assert(sizeof(struct interp_stack) == 16 + 56 * INTERP_MAX_FRAMES,
	       "interp_stack layout");
_Static_assert((INTERP_MAX_FRAMES & (INTERP_MAX_FRAMES - 1)) == 0,
	       "BPF masks frame indices with INTERP_MAX_FRAMES - 1");

#define MIN_RING (256 * 1024)
#define MAX_RING (64 * 1024 * 1024)

/*
 * The new_keys ring: it carries every sample a CPU has not counted in
 * the counts map (a record each: sampler_abi.h), every other new key,
 * and every stack and frame list a CPU has not sent in this epoch, with
 * the sample or on its own (sampler_abi.h), so a drain that
 * falls behind (a JVM's tables opened, names read, a loaded host) must
 * find them still there. Room for about a second of samples that are all
 * new keys with a new stack and list each (a 56-byte key, ~1.2 KiB of
 * stack, a list of its used length, with their 8-byte headers: 2 KiB per
 * sample per second), a power of two: 2 MiB at 499 Hz on 2 CPUs. With
 * 256 bytes (200 ms of keys and stacks, before lists came this way), a
 * fresh-clone test run lost 679 of 1,626 samples' stacks to a full ring
 * on a JVM serving requests. Beyond that, records are dropped and
 * counted, and the drain reads the whole counts map instead.
 */
static uint32_t ring_bytes(const struct sampler_cfg *cfg)
{
	uint64_t want = cfg->freq * (uint64_t)cfg->nr_cpus * 2048;
	uint32_t n = MIN_RING;

	while (n < want && n < MAX_RING)
		n <<= 1;
	return n;
}

uint32_t sampler__value_frames(uint32_t depth)
{
	return depth > STACK_SHORT ? depth : STACK_SHORT;
}

/*
 * The memos (memo.bpf.h): each declared with its slots for one CPU, made
 * a plain array of them for every possible CPU, one allocation where a
 * per-CPU array makes one per slot.
 */
static void memos_size(struct sampler_bpf *skel, int ncpu)
{
	struct bpf_map *memos[] = {
	    skel->maps.stack_sent, skel->maps.list_sent, skel->maps.blob_memo,
	    skel->maps.names_memo, skel->maps.row_memo,
	};

	for (size_t i = 0; i < sizeof(memos) / sizeof(memos[0]); i++)
		bpf_map__set_max_entries(memos[i],
					 bpf_map__max_entries(memos[i]) * ncpu);
}

/* Sizes set before load: the stack buffer, the counts, the ring, memos. */
static int size_maps(struct sampler_bpf *skel, const struct sampler_cfg *cfg)
{
	uint32_t bytes = sampler__value_frames(cfg->depth) * 8;
	int ncpu = libbpf_num_possible_cpus();

	if (ncpu < 0)
		return ncpu;
	skel->rodata->max_frames = cfg->depth;
	bpf_map__set_value_size(skel->maps.stack_scratch,
				bytes + STACK_REC_HEAD * 8);
	bpf_map__set_max_entries(skel->maps.stack_scratch, ncpu);
	bpf_map__set_value_size(skel->maps.kstack_scratch,
				bytes + STACK_REC_HEAD * 8);
	bpf_map__set_max_entries(skel->maps.kstack_scratch, ncpu);
	memos_size(skel, ncpu);
	bpf_map__set_max_entries(skel->maps.counts, cfg->counts_size);
	bpf_map__set_max_entries(skel->maps.new_keys, ring_bytes(cfg));
	bpf_map__set_max_entries(skel->maps.unwind_rows, UNWIND_MAX_ROWS);
	bpf_map__set_max_entries(skel->maps.unwind_fp, UNWIND_MAX_FP_WORDS);
	/* filled by user space alone, only read by BPF: entries made as
	 * threads come, not 65,536 of them at every start */
	bpf_map__set_map_flags(skel->maps.java_threads,
			       bpf_map__map_flags(skel->maps.java_threads) |
				   BPF_F_NO_PREALLOC);
	/* the rows' loader reads the demand in place (unwind/loader.c) */
	bpf_map__set_map_flags(skel->maps.unwind_files,
			       bpf_map__map_flags(skel->maps.unwind_files) |
				   BPF_F_MMAPABLE);
	bpf_map__set_max_entries(skel->maps.lock_waits,
				 cfg->lock ? LOCK_WAITS : 1);
	/* an LRU map takes at least one entry per CPU */
	bpf_map__set_max_entries(skel->maps.vt_waits,
				 cfg->off_cpu || cfg->wall ? VT_WAITS : ncpu);
	return 0;
}

/* Record the step that failed in *f (when not NULL); returns -err. */
static int fail_at(struct sampler_fail *f, enum sampler_step step,
		   const char *prog, int err, const char *fmt, ...)
{
	va_list ap;

	if (!f)
		return -err;
	f->step = step;
	f->err = err;
	snprintf(f->prog, sizeof(f->prog), "%s", prog);
	va_start(ap, fmt);
	vsnprintf(f->event, sizeof(f->event), fmt, ap);
	va_end(ap);
	return -err;
}

/*
 * A load's failure is named by libbpf only in its messages ("prog 'x':
 * failed to load", "map 'y': failed to create"): while loading, its print
 * callback is wrapped to keep the first program or map it names in a
 * warning, and everything is passed on to the caller's callback.
 */
static libbpf_print_fn_t load_print_next;
static char load_culprit[64]; /* "prog 'x'" or "map 'y'", or "" */

static int load_print(enum libbpf_print_level level, const char *fmt,
		      va_list ap)
{
	char line[256], *p;
	va_list cp;

	if (level == LIBBPF_WARN && !load_culprit[0]) {
		va_copy(cp, ap);
		vsnprintf(line, sizeof(line), fmt, cp);
		va_end(cp);
		p = strstr(line, "prog '");
		if (!p)
			p = strstr(line, "map '");
		if (p && strchr(strchr(p, '\'') + 1, '\''))
			snprintf(
			    load_culprit, sizeof(load_culprit), "%.*s",
			    (int)(strchr(strchr(p, '\'') + 1, '\'') + 1 - p),
			    p);
	}
	return load_print_next ? load_print_next(level, fmt, ap) : 0;
}

/* Load obj through load(obj): on failure, *f names what libbpf blamed. */
static int load_named(void *obj, int (*load)(void *), const char *name,
		      struct sampler_fail *f)
{
	int ret;

	load_culprit[0] = 0;
	load_print_next = libbpf_set_print(load_print);
	ret = load(obj) ? -errno : 0;
	libbpf_set_print(load_print_next);
	if (!ret)
		return 0;
	if (!load_culprit[0])
		return fail_at(f, SAMPLER_STEP_LOAD, name, -ret, "loading it");
	return fail_at(f, SAMPLER_STEP_LOAD, load_culprit, -ret, "%s", name);
}

static int load_sampler(void *obj)
{
	return sampler_bpf__load(obj);
}

static int load_fork_obj(void *obj)
{
	return fork_bpf__load(obj);
}

/* The fork hook (fork.bpf.c), on the sampler's targets and stats. */
static int load_fork(struct sampler *s, struct sampler_fail *fail)
{
	struct fork_bpf *f = fork_bpf__open();
	uint32_t off = 0;
	int ret;

	s->fork = f;
	if (!f)
		return fail_at(fail, SAMPLER_STEP_LOAD, "fork.bpf.o", errno,
			       "opening it");
	ret = kbtf__member_off(KBTF_VMLINUX, "task_struct", "tgid", &off);
	if (ret)
		return fail_at(fail, SAMPLER_STEP_LOAD, "fork.bpf.o", -ret,
			       "finding task_struct's tgid in " KBTF_VMLINUX);
	f->rodata->tgid_off = off;
	if (bpf_map__reuse_fd(f->maps.targets,
			      bpf_map__fd(s->skel->maps.targets)) ||
	    bpf_map__reuse_fd(f->maps.stats, bpf_map__fd(s->skel->maps.stats)))
		return fail_at(fail, SAMPLER_STEP_LOAD, "fork.bpf.o", errno,
			       "sharing the sampler's maps");
	return load_named(f, load_fork_obj, "fork.bpf.o", fail);
}

/*
 * MIXPROF_VERIFIER_STATS (a debug switch, for the bench and for kernels
 * before 6.13, whose whole call chain gets 512 bytes of stack): ask the
 * verifier for the statistics of every program to load (before), print
 * its "processed N insns" and "stack depth" lines after the load.
 */
#define STATS_LOG (64 << 10)
static void verifier_stats(struct sampler_bpf *skel, bool before)
{
	static char *logs[16];
	struct bpf_program *prog;
	int i = 0;

	if (!getenv("MIXPROF_VERIFIER_STATS"))
		return;
	bpf_object__for_each_program(prog, skel->obj)
	{
		if (i >= 16 || !bpf_program__autoload(prog))
			continue;
		if (before) {
			logs[i] = logs[i] ?: calloc(1, STATS_LOG);
			if (logs[i]) {
				bpf_program__set_log_buf(prog, logs[i],
							 STATS_LOG);
				bpf_program__set_log_level(prog, 4);
			}
		} else if (logs[i]) {
			const char *keys[] = {"processed ", "stack depth "};

			for (int k = 0; k < 2; k++) {
				char *p = strstr(logs[i], keys[k]);

				if (p)
					fprintf(stderr,
						"mixprof: verifier: %s: %.*s\n",
						bpf_program__name(prog),
						(int)strcspn(p, "\n"), p);
			}
			free(logs[i]);
			logs[i] = NULL;
		}
		i++;
	}
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
				   bpf_map__fd(s->skel->maps.unwind_files),
				   bpf_map__fd(s->skel->maps.unwind_fp),
				   UNWIND_MAX_ROWS);
	return s->uw ? 0 : -errno;
}

struct sampler *sampler__new(const struct sampler_cfg *cfg,
			     struct sampler_fail *fail)
{
	struct sampler *s = calloc(1, sizeof(*s));
	const char *stage = "memory"; /* what failed, when not a load */
	struct sampler_bpf *skel;
	int ret = -ENOMEM;

	if (fail)
		memset(fail, 0, sizeof(*fail));
	if (!s)
		goto fail;
	s->skel = skel = sampler_bpf__open();
	if (!skel) {
		ret = fail_at(fail, SAMPLER_STEP_LOAD, "sampler.bpf.o", errno,
			      "opening it");
		goto fail;
	}
	skel->rodata->bucket_ns = cfg->bucket_ns;
	skel->rodata->filter_pids = cfg->filter_pids;
	skel->rodata->per_thread = cfg->per_thread;
	skel->rodata->user_stacks = cfg->user;
	skel->rodata->kernel_stacks = cfg->kernel;
	skel->rodata->hotspot_walk = cfg->user && !cfg->no_hotspot;
	skel->rodata->unwind_mode = cfg->unwind_mode;
	skel->rodata->rows_fp_verify = cfg->rows_verify;
	skel->rodata->offcpu_min_ns = cfg->min_block_ns;
	skel->rodata->offcpu_max_ns =
	    cfg->max_block_ns ? cfg->max_block_ns : ~0ULL;
	skel->rodata->offcpu_preempt = cfg->off_cpu_preempt || cfg->wall;
	if (cfg->freq)
		skel->rodata->wall_sample_us = 1000000 / cfg->freq;
	stage = "map sizes";
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
	bpf_program__set_autoload(skel->progs.mixprof_offcpu_held,
				  cfg->off_cpu || cfg->wall);
	bpf_program__set_autoload(skel->progs.mixprof_wall, cfg->wall);
	bpf_program__set_autoload(skel->progs.mixprof_vt_freeze,
				  cfg->off_cpu || cfg->wall);
	bpf_program__set_autoload(skel->progs.mixprof_vt_thaw,
				  cfg->off_cpu || cfg->wall);
	bpf_program__set_autoload(skel->progs.mixprof_alloc_tlab, cfg->alloc);
	bpf_program__set_autoload(skel->progs.mixprof_alloc_outside,
				  cfg->alloc);
	bpf_program__set_autoload(skel->progs.mixprof_lock_enter, cfg->lock);
	bpf_program__set_autoload(skel->progs.mixprof_lock_park, cfg->lock);
	bpf_program__set_autoload(skel->progs.mixprof_lock_end, cfg->lock);
	if (cfg->off_cpu || cfg->wall || cfg->alloc || cfg->lock)
		bpf_program__set_autoload(skel->progs.mixprof_sample, false);
	verifier_stats(skel, true);
	ret = load_named(skel, load_sampler, "sampler.bpf.o", fail);
	verifier_stats(skel, false);
	if (!ret && cfg->filter_pids && !cfg->usdt)
		ret = load_fork(s, fail);
	if (ret)
		goto fail;
	s->fds = calloc(cfg->nr_cpus, sizeof(*s->fds));
	s->links = calloc(cfg->nr_cpus, sizeof(*s->links));
	s->depth = cfg->depth;
	stage = "memory";
	ret = -ENOMEM;
	if (!s->fds || !s->links)
		goto fail;
	stage = "drain (its new_keys ring)";
	ret = drain__init(s);
	if (ret)
		goto fail;
	stage = "unwind rows' loader";
	ret = new_unwind(s, cfg);
	if (ret)
		goto fail;
	s->nr_cpus = cfg->nr_cpus;
	s->cpus = cfg->cpus;
	s->freq = cfg->freq;
	s->off_cpu = cfg->off_cpu || cfg->wall;
	s->wall = cfg->wall;
	s->lock = cfg->lock;
	s->filter = cfg->filter_pids;
	s->interp = cfg->user && !cfg->no_hotspot;
	for (int i = 0; i < s->nr_cpus; i++)
		s->fds[i] = -1;
	return s;
fail:
	if (fail && !fail->err)
		fail_at(fail, SAMPLER_STEP_SETUP, "sampler", -ret, "%s", stage);
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

int sampler__open_event(int cpu, uint64_t freq, bool hw)
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

/*
 * Attach prog, a tracepoint program, to its section's event, the link
 * kept in *link (destroyed by the detach). A failure names the section
 * ("tp_btf/sched_switch"), whose kind decides the fix.
 */
static int attach_tp(struct sampler *s, struct bpf_program *prog,
		     struct bpf_link **link)
{
	const char *sec = bpf_program__section_name(prog);
	enum sampler_step step =
	    !strncmp(sec, "tp_btf/", 7)	  ? SAMPLER_STEP_TP_BTF
	    : !strncmp(sec, "raw_tp/", 7) ? SAMPLER_STEP_RAW_TP
					  : SAMPLER_STEP_TRACEPOINT;

	*link = bpf_program__attach(prog);
	if (!*link)
		return fail_at(&s->fail, step, bpf_program__name(prog), errno,
			       "%s", sec);
	return 0;
}

/*
 * The sampling perf event of CPU i (at s->fds[i]) with prog on it. *hw:
 * cycles, or cpu-clock from the first CPU on when the PMU has no
 * cycles (a VM without one passed through), as s->fallback says.
 * 1 when the CPU went offline since we listed them, else 0 or -errno.
 */
static int attach_cpu(struct sampler *s, struct bpf_program *prog, int i,
		      bool *hw)
{
	int fd = sampler__open_event(s->cpus[i], s->freq, *hw);

	if (fd < 0 && *hw && i == 0 &&
	    (errno == ENOENT || errno == EOPNOTSUPP || errno == ENODEV)) {
		snprintf(s->fallback, sizeof(s->fallback),
			 "no hardware cycles event (%s): cpu-clock instead",
			 strerrorname_np(errno));
		*hw = false;
		fd = sampler__open_event(s->cpus[i], s->freq, *hw);
	}
	if (fd < 0)
		return errno == ENODEV
			   ? 1
			   : fail_at(&s->fail, SAMPLER_STEP_PERF_OPEN,
				     bpf_program__name(prog), errno,
				     "perf event %s on CPU %d",
				     *hw ? "cycles" : "cpu-clock", s->cpus[i]);
	s->fds[i] = fd;
	s->links[i] = bpf_program__attach_perf_event(prog, fd);
	if (!s->links[i])
		return fail_at(&s->fail, SAMPLER_STEP_PERF_ATTACH,
			       bpf_program__name(prog), errno,
			       "perf event %s on CPU %d",
			       *hw ? "cycles" : "cpu-clock", s->cpus[i]);
	return 0;
}

int sampler__attach(struct sampler *s, uint64_t start_ns)
{
	/* --wall: a timer's samples stand for exactly 1 s / freq each */
	bool hw = !s->wall;
	int i, ret;

	s->skel->bss->start_ns = start_ns;
	/* --off-cpu: the sched_switch program instead of perf events */
	if (s->off_cpu) {
		ret = attach_tp(s, s->skel->progs.mixprof_offcpu,
				&s->skel->links.mixprof_offcpu);
		if (ret)
			return ret;
		s->event = "sched_switch";
	}
	if (s->off_cpu && !s->wall)
		goto fork;
	for (i = 0; i < s->nr_cpus; i++) {
		ret = attach_cpu(s,
				 s->wall ? s->skel->progs.mixprof_wall
					 : s->skel->progs.mixprof_sample,
				 i, &hw);
		if (ret < 0)
			return ret;
	}
	s->event = s->wall ? (hw ? "cycles + sched_switch"
				 : "cpu-clock + sched_switch")
		   : hw	   ? "cycles"
			   : "cpu-clock";
fork:
	if (s->fork && (ret = attach_tp(s, s->fork->progs.mixprof_fork,
					&s->fork->links.mixprof_fork)))
		return ret;
	/* an exec drops the process's unwind table (unwind.bpf.h) */
	if (s->uw)
		return attach_tp(s, s->skel->progs.mixprof_unwind_exec,
				 &s->skel->links.mixprof_unwind_exec);
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
		return fail_at(&s->fail, SAMPLER_STEP_USDT, "mixprof_entry",
			       errno, "usdt %s:%s of %s in %d", provider, name,
			       path, pid);
	s->skel->links.mixprof_entry = l; /* destroyed by the detach */
	s->event = "jmap:method_entry";
	return 0;
}

/* A uprobe (or uretprobe) of prog on sym in libjvm of pid, in *link. */
static int jvm_probe(struct sampler *s, struct bpf_program *prog,
		     struct bpf_link **link, int pid, const char *libjvm,
		     const char *sym, bool ret)
{
	LIBBPF_OPTS(bpf_uprobe_opts, o, .func_name = sym, .retprobe = ret);

	*link = bpf_program__attach_uprobe_opts(prog, pid, libjvm, 0, &o);
	if (!*link)
		return fail_at(&s->fail, SAMPLER_STEP_UPROBE,
			       bpf_program__name(prog), errno, "%s %s in %s",
			       ret ? "uretprobe" : "uprobe", sym, libjvm);
	return 0;
}

int sampler__attach_alloc(struct sampler *s, uint64_t start_ns, int pid,
			  const char *libjvm)
{
	int ret;

	s->skel->bss->start_ns = start_ns;
	ret = jvm_probe(s, s->skel->progs.mixprof_alloc_tlab,
			&s->skel->links.mixprof_alloc_tlab, pid, libjvm,
			HS_SYM_ALLOC_NEW_TLAB, false);
	if (!ret)
		ret = jvm_probe(s, s->skel->progs.mixprof_alloc_outside,
				&s->skel->links.mixprof_alloc_outside, pid,
				libjvm, HS_SYM_ALLOC_OUTSIDE, false);
	if (!ret)
		s->event = "libjvm AllocTracer";
	return ret; /* links destroyed by the detach */
}

/* The monitor's contended entry: JDK 25's name, else JDK 17's. */
static const char *lock_enter_sym(struct sampler *s, int pid,
				  const char *libjvm, struct bpf_link **link)
{
	static const char *const names[] = {HS_SYM_LOCK_ENTER_25,
					    HS_SYM_LOCK_ENTER_17};
	int ret = -ENOENT;

	for (size_t i = 0; i < 2 && ret == -ENOENT; i++) {
		ret = jvm_probe(s, s->skel->progs.mixprof_lock_end, link, pid,
				libjvm, names[i], true);
		if (!ret)
			return names[i];
	}
	return NULL;
}

int sampler__attach_lock(struct sampler *s, uint64_t start_ns, int pid,
			 const char *libjvm, const struct lock_cfg *cfg)
{
	struct sampler_bpf *k = s->skel;
	const char *enter;
	int ret;

	k->bss->lock_cfg = *cfg;
	k->bss->start_ns = start_ns;
	/* each return first: a wait begun is always ended */
	enter = lock_enter_sym(s, pid, libjvm, &k->links.mixprof_lock_end);
	if (!enter)
		return -s->fail.err;
	ret = jvm_probe(s, k->progs.mixprof_lock_enter,
			&k->links.mixprof_lock_enter, pid, libjvm, enter,
			false) ?:
	      jvm_probe(s, k->progs.mixprof_lock_end, &s->lock_park_end, pid,
			libjvm, HS_SYM_PARK, true) ?:
	      jvm_probe(s, k->progs.mixprof_lock_park,
			&k->links.mixprof_lock_park, pid, libjvm,
			HS_SYM_PARK, false);
	if (!ret)
		s->event = "libjvm monitor enter and park";
	return ret; /* links destroyed by the detach */
}

/* A uprobe of prog at file offset off of libjvm in pid, kept in s. */
static int vt_probe(struct sampler *s, struct bpf_program *prog, int pid,
		    const char *libjvm, uint64_t off)
{
	struct bpf_link **l;

	if (s->nvt == s->vt_cap) {
		int cap = s->vt_cap ? 2 * s->vt_cap : 8;

		l = realloc(s->vt_links, cap * sizeof(*l));
		if (!l)
			return -ENOMEM;
		s->vt_links = l;
		s->vt_cap = cap;
	}
	l = &s->vt_links[s->nvt];
	*l = bpf_program__attach_uprobe(prog, false, pid, libjvm, off);
	if (!*l)
		return fail_at(&s->fail, SAMPLER_STEP_UPROBE,
			       bpf_program__name(prog), errno,
			       "uprobe at 0x%" PRIx64 " of %s", off, libjvm);
	s->nvt++;
	return 0;
}

int sampler__attach_vtwait(struct sampler *s, int pid, const char *libjvm,
			   const uint64_t *freeze, int nfreeze, uint64_t thaw)
{
	struct sampler_bpf *k = s->skel;
	int ret, n0 = s->nvt;

	if (!s->off_cpu)
		return -EINVAL;
	/* the thaw first: a wait begun is ended */
	ret = vt_probe(s, k->progs.mixprof_vt_thaw, pid, libjvm, thaw);
	for (int i = 0; !ret && i < nfreeze; i++)
		ret = vt_probe(s, k->progs.mixprof_vt_freeze, pid, libjvm,
			       freeze[i]);
	while (ret && s->nvt > n0) /* all or none */
		bpf_link__destroy(s->vt_links[--s->nvt]);
	return ret;
}

void sampler__lock_juc(struct sampler *s, const struct lock_cfg *cfg)
{
	struct lock_cfg *c = &s->skel->bss->lock_cfg;

	/* the class last: a probe that sees it sees the offset */
	c->aos_owner = cfg->aos_owner;
	__sync_synchronize();
	c->aos_klass = cfg->aos_klass;
}

const char *sampler__event_name(const struct sampler *s)
{
	return s->event ? s->event : "none";
}

const struct sampler_fail *sampler__failure(const struct sampler *s)
{
	return &s->fail;
}

const char *sampler__fallback(const struct sampler *s)
{
	return s->fallback[0] ? s->fallback : NULL;
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
	bpf_link__destroy(s->lock_park_end);
	s->lock_park_end = NULL;
	while (s->nvt > 0)
		bpf_link__destroy(s->vt_links[--s->nvt]);
	if (s->fork)
		fork_bpf__detach(s->fork);
}

void sampler__free(struct sampler *s)
{
	if (!s)
		return;
	sampler__detach(s);
	drain__free(s); /* before the skeleton: the ring maps its map */
	held__free(s);
	unwind_loader__free(s->uw);
	fork_bpf__destroy(s->fork);
	sampler_bpf__destroy(s->skel);
	free(s->links);
	free(s->fds);
	free(s->vt_links);
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

int sampler__set_thread(struct sampler *s, uint32_t tgid, uint32_t tid,
			uint64_t thread)
{
	struct java_thread_key k = {.tgid = tgid, .tid = tid};

	if (bpf_map__update_elem(s->skel->maps.java_threads, &k, sizeof(k),
				 &thread, sizeof(thread), BPF_ANY))
		return -errno;
	return 0;
}

int sampler__clear_thread(struct sampler *s, uint32_t tgid, uint32_t tid)
{
	struct java_thread_key k = {.tgid = tgid, .tid = tid};

	if (bpf_map__delete_elem(s->skel->maps.java_threads, &k, sizeof(k), 0))
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

int sampler__bpf_time(struct sampler *s, uint64_t *ns, uint64_t *runs)
{
	struct bpf_program *p;

	*ns = *runs = 0;
	bpf_object__for_each_program(p, s->skel->obj)
	{
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(p);

		if (fd < 0)
			continue;
		if (bpf_obj_get_info_by_fd(fd, &info, &len))
			return -errno;
		*ns += info.run_time_ns;
		*runs += info.run_cnt;
	}
	return 0;
}

int sampler__phases(struct sampler *s, struct phase_stat out[PH_NR])
{
	const struct bpf_map *m =
	    bpf_object__find_map_by_name(s->skel->obj, "phases");
	int ncpu = libbpf_num_possible_cpus();
	struct phase_stat *v;
	uint32_t i;
	int c;

	if (!m)
		return -ENOENT;
	if (ncpu < 0)
		return ncpu;
	v = calloc(ncpu, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < PH_NR; i++) {
		out[i].ns = out[i].n = 0;
		if (bpf_map__lookup_elem(m, &i, sizeof(i), v, ncpu * sizeof(*v),
					 0))
			continue;
		for (c = 0; c < ncpu; c++) {
			out[i].ns += v[c].ns;
			out[i].n += v[c].n;
		}
	}
	free(v);
	return 0;
}

int sampler__unwind_refresh(struct sampler *s, uint32_t pid, uint64_t now_ns)
{
	return s->uw ? unwind_loader__refresh(s->uw, pid, now_ns) : 0;
}

int sampler__unwind_target(struct sampler *s, uint32_t pid)
{
	return s->uw ? unwind_loader__target(s->uw, (int)pid) : 0;
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

bool sampler__unwind_built(struct sampler *s, size_t i,
			   struct unwind_built *out, char *path, size_t cap)
{
	return s->uw && unwind_loader__built(s->uw, i, out, path, cap);
}

bool sampler__unwind_stats(struct sampler *s, struct unwind_loader_stats *st)
{
	if (!s->uw)
		return false;
	unwind_loader__stats(s->uw, st);
	return true;
}
