/*
 * sampler_int.h: the sampler object, shared by sampler.c (load, attach,
 * the BPF maps' small accessors) and drain.c (reading counts and stacks
 * out of the kernel). Not for other files: they use sampler_ctl.h.
 */
#ifndef MIXPROF_SAMPLER_INT_H
#define MIXPROF_SAMPLER_INT_H

#include <stdbool.h>
#include <stdint.h>
#include "sampler_ctl.h"
#include "jvm/lockcfg.h" /* the skeleton holds a struct lock_cfg */
#include "sampler/fork.skel.h"
#include "sampler/sampler.skel.h"
#include "common/u64map.h"
#include "keytab.h"

struct stackcache;
struct ring_buffer;

struct sampler {
	struct sampler_bpf *skel;
	struct fork_bpf *fork; /* follows children: -p and launch runs */
	struct unwind_loader *uw; /* unwind rows (unwind/), or NULL */
	struct bpf_link **links; /* one per CPU */
	int *fds; /* perf event per CPU */
	int nr_cpus;
	const int *cpus;
	uint64_t freq;
	uint32_t depth;
	bool filter;
	bool interp; /* walking interpreted frames */
	bool off_cpu; /* sched_switch (counts: us) */
	bool wall; /* and perf events with mixprof_wall */
	bool lock; /* --lock: lock_waits */
	const char *event;
	/* --lock's return probe on Unsafe_Park: mixprof_lock_end's second
	 * link (the skeleton keeps one a program) */
	struct bpf_link *lock_park_end;
	/* --off-cpu, --wall: virtual threads' freeze and thaw probes, a
	 * few per JVM (sampler__attach_vtwait) */
	struct bpf_link **vt_links;
	int nvt, vt_cap;
	struct sampler_fail fail; /* the step that failed last */
	char fallback[96]; /* what was taken instead, or "" */
	/* the drain (drain.c) */
	struct ring_buffer *rb; /* new_keys */
	uint64_t done_below; /* during a drain: buckets to take */
	struct sample_key *keys; /* counts read; then the done ones */
	struct sample_count *vals;
	size_t keys_cap;
	struct keytab kt; /* the keys counted here (keytab.h) */
	struct keytab_ent *out; /* the keys taken (keytab__take) */
	size_t out_cap;
	struct sample_key *out_keys; /* the batch's: the keys taken */
	size_t out_keys_cap;
	uint64_t *out_n; /* their counts, then their events */
	size_t out_n_cap;
	struct sample_key *seen; /* keys seen this drain */
	size_t nseen, seen_cap;
	uint64_t *kips; /* new kernel stacks' frames this drain */
	size_t nkips, kips_cap;
	bool swept; /* the drain read the counts: sampler__drain_end sweeps */
	bool oom; /* the batch misses keys or stacks (no memory) */
	struct stackcache *stacks; /* the stacks the program sent */
	struct u64map lists; /* list id -> struct interp_stack, as sent */
	struct u64map idead; /* list ids of the keys taken last read */
	struct u64map inew; /* list ids of keys new since then */
	struct u64map idoomed; /* lists to forget unless a new key uses them */
	/* stack keys and list ids of the waits open at the sweep (held.c) */
	struct u64map held;
	struct bpf_link *held_link; /* mixprof_offcpu_held, once attached */
	uint64_t drains; /* drains so far: the next_read stamps */
	uint64_t last_read; /* the drain that last read all counts */
	uint64_t lost_seen; /* new_keys_lost at that read */
	uint64_t pending; /* the counts map's oldest bucket not taken, or ~0 */
	uint64_t taken; /* every key of a bucket <= this is taken */
};

uint32_t sampler__value_frames(uint32_t depth);
/*
 * held.c: s->held, the stacks and lists of the waits open now (off-CPU,
 * virtual threads', --lock's), which the sweep must keep. 0, or -errno
 * (what was read is held).
 */
int held__read(struct sampler *s);
void held__free(struct sampler *s);
/* drain.c: its part of sampler__new/free. 0 or -errno. */
int drain__init(struct sampler *s);
void drain__free(struct sampler *s);

#endif
