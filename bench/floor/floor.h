/*
 * floor.h: the ABI of bench/floor (floor.bpf.c and floor.c): what this
 * machine's kernel and memory make a sample cost, on the same target as
 * mixprof's walk. The BPF program runs on each CPU's cpu-clock tick, does
 * the work of the mode user space has set (turned in turn every
 * FLOOR_TURN_MS, so every mode sees the same phases of the target), and
 * adds its time to the mode's sums. Not part of mixprof: a measuring
 * instrument for bench/walkcost.sh (bench/README.md, "The floor,
 * measured beside the walk").
 */
#ifndef MIXPROF_BENCH_FLOOR_H
#define MIXPROF_BENCH_FLOOR_H

/* The modes: X(name, what it does in a tick of the target) */
#define FLOOR_MODE_LIST(X)                                                     \
	X(NOTHING, "nothing (the clock pair)")                                 \
	X(KERNEL_FP, "the kernel's frame-pointer walk of the user stack")      \
	X(FP_LOOP, "a loop of bpf_probe_read_user by frame pointer")           \
	X(COPY_4K, "one 4 KB copy of the user stack at sp")                    \
	X(KSTACK, "the kernel stack by the kernel's unwinder")                 \
	X(LOOP, "32 steps of bpf_loop, no read (the touches' own cost)")       \
	X(TOUCH_IND, "32 cold map lines, independent reads, 32 pages")         \
	X(TOUCH_DEP, "32 cold map lines, each address from the last read")     \
	X(TOUCH_DEP2, "the same, the lines in 2 pages (TLB misses apart)")

#define FLOOR_ENUM(n, s) FLOOR_##n,
enum floor_mode { FLOOR_MODE_LIST(FLOOR_ENUM) FLOOR_MODES };
#undef FLOOR_ENUM

#define FLOOR_TURN_MS 100 /* a mode's turn: short against a run's phases */
#define FLOOR_MAX_FRAMES 127 /* perf's default kernel.perf_event_max_stack */
#define FLOOR_TOUCHES 32 /* a javac walk's ~28 frames, rounded */
/*
 * The touched map: 256 pages of 64 lines (1 MiB, so vmalloc'd, 4 KB
 * pages, like mixprof's large maps); a sample's lines are drawn at random
 * from all of it, so the target's work in between has evicted them.
 */
#define FLOOR_PAGES 256
#define FLOOR_LINES_A_PAGE 64

struct floor_line {
	unsigned long long w[8];
};

/* A mode's sums on a CPU (a per-CPU array indexed by mode). */
struct floor_sum {
	unsigned long long ns; /* time in the mode's work */
	unsigned long long ticks; /* the target's ticks in the mode */
	unsigned long long
	    done; /* ticks where the work applied (user or kernel mode) */
	unsigned long long frames; /* frames the walks found */
};

#endif
