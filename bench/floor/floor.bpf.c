// SPDX-License-Identifier: GPL-2.0
/*
 * floor.bpf.c: bench/floor's sampler (floor.h): on each tick of the
 * target's threads, the current mode's work, timed, added to its sums.
 * Each mode is one thing a stack walk is built of, done as plainly as
 * BPF allows: what it costs here is the floor under anything that does
 * it (mixprof's walk does all of them, and more, in each sample).
 */
#include <linux/bpf.h>
#include <linux/bpf_perf_event.h>
#include <bpf/bpf_helpers.h>
#include "bench/floor/floor.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 tgid; /* the target process */
__u32 mode; /* .bss: set by user space, a mode at a time */
__u64 sink; /* the touches' sums land here, so no read is optimised away */

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, FLOOR_MODES);
	__type(key, __u32);
	__type(value, struct floor_sum);
} sums SEC(".maps");

struct floor_buf {
	__u64 w[512]; /* 4 KB: the copy's, and the walks' frames */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct floor_buf);
} bufs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, FLOOR_PAGES *FLOOR_LINES_A_PAGE);
	__type(key, __u32);
	__type(value, struct floor_line);
} lines SEC(".maps");

struct touch {
	__u32 pages; /* FLOOR_PAGES: any page; 2: the two of base */
	__u32 dep; /* each address from the value the last read gave */
	__u32 read; /* 0: the steps alone (FLOOR_LOOP) */
	__u32 base;
	__u64 sum;
};

static long touch_step(__u32 i, void *arg)
{
	struct touch *t = arg;
	__u32 r = bpf_get_prandom_u32(), page, k;
	struct floor_line *l;

	if (t->dep) /* the lines are zeros: the same draw, made to wait */
		r ^= (__u32)t->sum;
	if (t->pages == 2)
		page = (r & 1 ? t->base : t->base >> 8) % FLOOR_PAGES;
	else
		page = r % FLOOR_PAGES;
	k = page * FLOOR_LINES_A_PAGE + (r >> 8) % FLOOR_LINES_A_PAGE;
	if (!t->read) {
		t->sum += k;
		return 0;
	}
	l = bpf_map_lookup_elem(&lines, &k);
	if (l)
		t->sum += l->w[0];
	return 0;
}

/* Frames by frame pointer from fp, each record read from the target. */
static __u64 fp_loop(__u64 fp)
{
	__u64 n = 0, rec[2];

	for (int i = 0; i < FLOOR_MAX_FRAMES; i++) {
		if (!fp || bpf_probe_read_user(rec, sizeof(rec), (void *)fp))
			break;
		n++;
		if (rec[0] <= fp) /* the chain must climb */
			break;
		fp = rec[0];
	}
	return n;
}

/* The mode's work on this tick: 1 when it applied, its frames in *frames */
static int work(struct bpf_perf_event_data *ctx, __u32 m, struct floor_buf *b,
		__u64 *frames)
{
	int user = ctx->regs.cs & 3;
	struct touch t = {.read = 1, .pages = FLOOR_PAGES};
	long n;

	switch (m) {
	case FLOOR_KERNEL_FP:
		n = bpf_get_stack(ctx, b->w, FLOOR_MAX_FRAMES * 8,
				  BPF_F_USER_STACK);
		*frames = n > 0 ? (__u64)n / 8 : 0;
		return 1;
	case FLOOR_FP_LOOP:
		if (!user)
			return 0;
		*frames = fp_loop(ctx->regs.rbp);
		return 1;
	case FLOOR_COPY_4K:
		if (!user)
			return 0;
		bpf_probe_read_user(b->w, sizeof(b->w),
				    (void *)(ctx->regs.rsp & ~4095ULL));
		return 1;
	case FLOOR_KSTACK:
		if (user)
			return 0;
		n = bpf_get_stack(ctx, b->w, FLOOR_MAX_FRAMES * 8, 0);
		*frames = n > 0 ? (__u64)n / 8 : 0;
		return 1;
	case FLOOR_LOOP:
		t.read = 0;
		break;
	case FLOOR_TOUCH_DEP2:
		t.pages = 2;
		/* fall through */
	case FLOOR_TOUCH_DEP:
		t.dep = 1;
		break;
	case FLOOR_TOUCH_IND:
		break;
	default:
		return 1;
	}
	t.base = bpf_get_prandom_u32();
	bpf_loop(FLOOR_TOUCHES, touch_step, &t, 0);
	sink += t.sum;
	return 1;
}

SEC("perf_event")
int floor_tick(struct bpf_perf_event_data *ctx)
{
	__u32 m = mode, zero = 0;
	struct floor_sum *s;
	struct floor_buf *b;
	__u64 t0, frames = 0;
	int done;

	if (bpf_get_current_pid_tgid() >> 32 != tgid)
		return 0;
	s = bpf_map_lookup_elem(&sums, &m);
	b = bpf_map_lookup_elem(&bufs, &zero);
	if (!s || !b)
		return 0;
	t0 = bpf_ktime_get_ns();
	done = work(ctx, m, b, &frames);
	s->ns += bpf_ktime_get_ns() - t0;
	s->ticks++;
	s->done += done;
	s->frames += frames;
	return 0;
}
