/*
 * offcpu.bpf.h: off-CPU time (--off-cpu), a second program of
 * sampler.bpf.c (included at its end, so it shares the counts map, the
 * stack maps and the user walk; kept in its own file so the sampler's
 * code stays as it is).
 *
 * At each sched_switch, the outgoing task is current: when it is a
 * target and blocks (or, with offcpu_preempt, is preempted), its stacks
 * are taken here, the user one through walk_user from the registers it
 * saved on entering the kernel, and kept with the time in the task's
 * local storage. When the scheduler picks that task again, the blocked
 * time, in microseconds, is added to the key of those stacks in the
 * bucket of that moment: the counts map then holds microseconds where a
 * sampling run holds samples, and everything downstream is the same.
 *
 * Cost for others: one hash lookup (targets) for the outgoing task and
 * one task-storage lookup (a pointer in task_struct, NULL for tasks never
 * switched out as targets) for the incoming one.
 */
#ifndef MIXPROF_OFFCPU_BPF_H
#define MIXPROF_OFFCPU_BPF_H

struct task_struct;

/* kernel frames above schedule() that are ours: the program, the
 * trampoline (bpf_trace_run4) and __traceiter_sched_switch */
#define OFFCPU_SKIP 3

const volatile __u64 offcpu_min_ns = 0; /* --min-block */
const volatile __u64 offcpu_max_ns = ~0ULL; /* --max-block */
const volatile bool offcpu_preempt = false; /* count runnable switches */
const volatile __u64 wall_sample_us = 10101; /* --wall: 1 s / frequency */

/* a switched-out target: its key (bucket left for the switch-in) */
struct offcpu_start {
	struct sample_key key;
	__u64 ts; /* 0: not switched out by us */
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct offcpu_start);
} offcpu_start SEC(".maps");

/* n more of key (count_key's, with a weight) in one more event */
static __always_inline void offcpu_add(struct sample_key *key, __u64 n)
{
	counts_add(key, n, 1);
}

/* The outgoing task (current): keep its stacks and the time. */
static __always_inline void offcpu_out(void *ctx, __u64 now)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = id >> 32, tid = (__u32)id;
	struct task_struct *t = bpf_get_current_task_btf();
	struct offcpu_start *st;

	st = bpf_task_storage_get(&offcpu_start, t, NULL,
				  BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!st)
		return;
	__builtin_memset(&st->key, 0, sizeof(st->key));
	st->ts = 0;
	stat_inc(STAT_SAMPLES);
	key_head(&st->key, tgid, tid);
	if (user_stacks) {
		struct pt_regs *u = (struct pt_regs *)bpf_task_pt_regs(t);
		__u64 ip = 0, sp = 0, fp = 0;

		bpf_probe_read_kernel(&ip, sizeof(ip), &u->rip);
		bpf_probe_read_kernel(&sp, sizeof(sp), &u->rsp);
		bpf_probe_read_kernel(&fp, sizeof(fp), &u->rbp);
		st->key.user_stack = walk_user(interp_proc_of(tgid), tgid, tid,
					       ip, sp, fp, &st->key.interp_id);
		if (st->key.user_stack == STACK_NONE)
			stat_inc(STAT_USER_EMPTY);
	}
	if (kernel_stacks)
		st->key.kern_stack =
		    take_stack(ctx, OFFCPU_SKIP, STAT_KERN_LOST, 0);
	st->ts = now;
}

/* The incoming task: if we saw it leave, count the time it was away. */
static __always_inline void offcpu_in(struct task_struct *next)
{
	struct offcpu_start *st;
	__u64 now, d;

	st = bpf_task_storage_get(&offcpu_start, next, NULL, 0);
	if (!st || !st->ts)
		return;
	now = bpf_ktime_get_ns();
	d = now - st->ts;
	st->ts = 0;
	/* to the nearest microsecond: no bias over many short waits */
	if (d < offcpu_min_ns || d > offcpu_max_ns || d < 500)
		return;
	st->key.bucket = (now - start_ns) / bucket_ns;
	offcpu_add(&st->key, (d + 500) / 1000);
}

/*
 * Waits still open when the run stops (a thread blocked since its switch
 * out, maybe for the whole run): user space detaches the hook, sets
 * offcpu_end_ns to the run's end and runs this task iterator once, which
 * counts each target thread's open wait up to then, in the last bucket.
 * Nothing added to the hook's cost: the record is the switch-out's own.
 */
__u64 offcpu_end_ns = 0;
__u64 offcpu_open = 0; /* waits so counted */

/* bpf_iter_meta's and bpf_iter__task's layouts (the kernel's; read by
 * offset) */
struct seq_file;
struct offcpu_iter_meta {
	struct seq_file *seq;
	__u64 session_id, seq_num;
};

struct offcpu_iter_task {
	struct offcpu_iter_meta *meta;
	struct task_struct *task;
};

/*
 * A blocked task's kernel stack, taken again for a wait whose switch out
 * lost it (no kernel memory for a new stack then, in the scheduler): the
 * task has not run since, so its stack is still the one it blocked on.
 */
static __always_inline __u64 offcpu_kstack_again(struct task_struct *t)
{
	__u32 bytes = max_frames * 8;
	__u64 *ips = stack_buf();
	long n;

	if (!ips)
		return STACK_LOST;
	if (bytes > STACK_MAX_DEPTH * 8)
		bytes = STACK_MAX_DEPTH * 8;
	n = bpf_get_task_stack(t, ips, bytes, 0);
	if (n <= 0)
		return STACK_LOST;
	return store_stack((__u64)n / 8, STAT_KERN_LOST, 0);
}

SEC("iter/task")
int mixprof_offcpu_end(struct offcpu_iter_task *ctx)
{
	struct task_struct *t = ctx->task;
	struct offcpu_start *st;
	__u64 end = offcpu_end_ns, d;

	if (!t)
		return 0;
	st = bpf_task_storage_get(&offcpu_start, t, NULL, 0);
	if (!st || !st->ts || st->ts >= end || end <= start_ns)
		return 0;
	d = end - st->ts;
	st->ts = 0;
	if (d < offcpu_min_ns || d > offcpu_max_ns || d < 500)
		return 0;
	if (kernel_stacks && st->key.kern_stack == STACK_LOST)
		st->key.kern_stack = offcpu_kstack_again(t);
	st->key.bucket = (end - 1 - start_ns) / bucket_ns;
	offcpu_add(&st->key, (d + 500) / 1000);
	__sync_fetch_and_add(&offcpu_open, 1);
	return 0;
}

/*
 * The waits open now, for user space's sweep (drain.c): each one's user
 * and kernel stack keys and frame list id, three words a wait. Its
 * stacks went to user space at its switch out, and no key uses them
 * until it ends, buckets later maybe: let go meanwhile, they were lost to
 * it (a thread blocked for the run, a pool's idle workers).
 */
SEC("iter/task")
int mixprof_offcpu_held(struct offcpu_iter_task *ctx)
{
	struct task_struct *t = ctx->task;
	struct offcpu_start *st;
	__u64 ids[3];

	if (!t)
		return 0;
	st = bpf_task_storage_get(&offcpu_start, t, NULL, 0);
	if (!st || !st->ts)
		return 0;
	ids[0] = st->key.user_stack;
	ids[1] = st->key.kern_stack;
	ids[2] = st->key.interp_id;
	bpf_seq_write(ctx->meta->seq, ids, sizeof(ids));
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(mixprof_offcpu, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = id >> 32;

	/* non-targets first, at the cost of one lookup; the clock only for
	 * a target's switches */
	if ((__u32)id && (offcpu_preempt || (!preempt && prev_state != 0)) &&
	    (!filter_pids || bpf_map_lookup_elem(&targets, &tgid)))
		offcpu_out(ctx, bpf_ktime_get_ns());
	offcpu_in(next);
	return 0;
}

/*
 * --wall: a CPU sample (mixprof_sample's key and record) weighing the
 * microseconds of CPU time a sample stands for, so on-CPU samples and
 * off-CPU time (the program above, preemption included) add up to a
 * thread's wall time in user space's count of each key: mixprof_sample's
 * key with a weight, one event.
 */
SEC("perf_event")
int mixprof_wall(struct bpf_perf_event_data *ctx)
{
	struct sample_key *key = perf_key_get();

	if (key && sample_key_of(ctx, key))
		count_sample(key, wall_sample_us, 1);
	return 0;
}

#endif
