// SPDX-License-Identifier: GPL-2.0
/*
 * sampler.bpf.c: on every timer tick of every CPU, count the running
 * thread's (user stack, kernel stack) pair in a hash map keyed by time
 * bucket. Stacks are deduplicated by the kernel's stack map; user space
 * drains finished buckets and never sees a per-sample copy of a stack.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "sampler.h"

#define ENOMEM 12
#define EFAULT 14
#define EEXIST 17

/* set by user space after load, right before attach: bucket 0 starts here */
__u64 start_ns = 0;
const volatile __u64 bucket_ns = 1000000000ULL;
const volatile bool filter_pids = false; /* only tgids in targets */
const volatile bool per_thread = false;
const volatile bool user_stacks = true;
const volatile bool kernel_stacks = true;

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__type(key, __u32);
	/* value_size and max_entries are set by user space before load */
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, struct sample_key);
	__type(value, __u64);
	__uint(max_entries, 65536);
} counts SEC(".maps");

/* tgids to sample when filter_pids; descendants are added on fork */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u8);
	__uint(max_entries, 65536);
} targets SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, STAT_NR);
} stats SEC(".maps");

static __always_inline void stat_inc(__u32 idx)
{
	__u64 *v = bpf_map_lookup_elem(&stats, &idx);

	if (v)
		(*v)++;
}

/* A stack the map could not take is counted; an absent one is not lost. */
static __always_inline void stat_stack(__s32 id, __u32 lost)
{
	if (id == -EEXIST || id == -ENOMEM)
		stat_inc(lost);
}

SEC("perf_event")
int mixprof_sample(struct bpf_perf_event_data *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = id >> 32, tid = (__u32)id;
	struct task_struct *task;
	struct sample_key key = {};
	__u64 one = 1, *cnt;

	if (tid == 0) /* idle */
		return 0;
	if (filter_pids && !bpf_map_lookup_elem(&targets, &tgid))
		return 0;
	stat_inc(STAT_SAMPLES);

	key.pid = tgid;
	key.bucket = (bpf_ktime_get_ns() - start_ns) / bucket_ns;
	if (per_thread) {
		key.tid = tid;
		bpf_get_current_comm(key.comm, sizeof(key.comm));
	} else {
		task = (struct task_struct *)bpf_get_current_task();
		BPF_CORE_READ_STR_INTO(&key.comm, task, group_leader, comm);
	}
	key.user_stack_id = -1;
	key.kern_stack_id = -1;
	if (user_stacks) {
		key.user_stack_id =
		    bpf_get_stackid(ctx, &stacks, BPF_F_USER_STACK);
		stat_stack(key.user_stack_id, STAT_USER_LOST);
		if (key.user_stack_id == -EFAULT)
			stat_inc(STAT_USER_EMPTY);
	}
	if (kernel_stacks) {
		key.kern_stack_id = bpf_get_stackid(ctx, &stacks, 0);
		stat_stack(key.kern_stack_id, STAT_KERN_LOST);
	}

	cnt = bpf_map_lookup_elem(&counts, &key);
	if (cnt) {
		__sync_fetch_and_add(cnt, 1);
		return 0;
	}
	if (bpf_map_update_elem(&counts, &key, &one, BPF_NOEXIST) == 0)
		return 0;
	/* another CPU inserted it first, or the map is full */
	cnt = bpf_map_lookup_elem(&counts, &key);
	if (cnt)
		__sync_fetch_and_add(cnt, 1);
	else
		stat_inc(STAT_COUNTS_FULL);
	return 0;
}

/* A new process forked by a target becomes a target (threads already are). */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(mixprof_fork, struct task_struct *parent,
	     struct task_struct *child)
{
	__u32 ptgid = BPF_CORE_READ(parent, tgid);
	__u32 ctgid = BPF_CORE_READ(child, tgid);
	__u8 one = 1;

	if (!filter_pids || ptgid == ctgid)
		return 0;
	if (!bpf_map_lookup_elem(&targets, &ptgid))
		return 0;
	bpf_map_update_elem(&targets, &ctgid, &one, BPF_ANY);
	stat_inc(STAT_CHILDREN);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
