/*
 * unwind.bpf.h: the native frame step by unwind rows (rows.h), for code
 * of files whose .eh_frame user space turned into rows (loader.c).
 * Included by sampler.bpf.c; takes and leaves a frame's registers in a
 * struct unwind_regs and answers a step result (both sampler_abi.h,
 * which the includer includes first, as it does bpf_helpers.h and
 * targets.bpf.h, whose stat_inc counts MIXPROF_ROWS_VERIFY's checks). The
 * sampler's native step asks rows_step_regs first and walks by frame
 * pointer only where it answers ROWS_NONE (a pc in no mapping with rows,
 * a process not loaded) or ROWS_WANTED (a file whose rows are still to
 * be built: the walk notes it).
 */
#ifndef MIXPROF_UNWIND_BPF_H
#define MIXPROF_UNWIND_BPF_H

#include "rows.h"
#include "sampler/phases.bpf.h" /* a BPF_PHASES=1 build's timer */
#include "sampler/memo.bpf.h" /* this CPU's part of a memo */

/* every loaded file's rows; max_entries set by user space before load;
 * mmapable: user space copies a file's rows in at once (an update per
 * row was most of the time of reading libjvm's back from the cache) */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct unwind_row);
	__uint(max_entries, 1);
} unwind_rows SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct unwind_page_key);
	__type(value, struct unwind_page);
	__uint(max_entries, 1 << 18);
} unwind_pages SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32);
	__type(value, struct unwind_proc);
	__uint(max_entries, 16384);
} unwind_procs SEC(".maps");

/* file id -> its rows' state, and the demand for them (rows.h) */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct unwind_file);
	__uint(max_entries, UNWIND_MAX_FILES);
} unwind_files SEC(".maps");

/* every loaded file's bitmap of frame-record code (fpmap.h), each in one
 * run of words (unwind_file.fp_word); max_entries set by user space
 * before load; mmapable, as unwind_rows, for one copy a file */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
} unwind_fp SEC(".maps");

/*
 * Set by user space (MIXPROF_ROWS_VERIFY, a test's switch): a step whose
 * block the bitmap says is frame-record code is still stepped by its row,
 * and counted (STAT_ROWS_FP), and counted again when that row is not the
 * frame record (STAT_ROWS_FP_DIFF: the bitmap would have stepped it
 * wrong). Off, the bitmap's answer is taken without the row.
 */
const volatile bool rows_fp_verify = false;

/*
 * The mapping a walk's rows step met last, with its file's unwind_files
 * facts (struct rows_seen, in the walk's record: reset to none at each
 * walk's start): a walk's native frames come in runs of one file
 * (libjvm's C++, glibc's), and a step in the mapping of the step before
 * skips the search of the process's table and the file's entry. Only a
 * file with rows is kept: its state and bitmap never change, and the
 * table a walk looked up is its own for the walk (an update of
 * unwind_procs makes a new element).
 */
struct rows_seen {
	__u64 start, end, bias; /* the mapping: end 0, none */
	__u32 file;
	__u32 fp_word, fp_words, fp_block0; /* its unwind_file's */
};

static __always_inline void rows_seen__reset(struct rows_seen *s)
{
	s->start = s->end = 0;
}

/*
 * The row found for a file's address, kept for the next frames at that
 * address: a file's rows never change once stored (UNWIND_FILE_ROWS;
 * file ids are never reused: loader.c), so a CPU's direct-mapped memo (a
 * slot per address hash; file + 1: an empty slot matches nothing)
 * replaces the page's hash lookup and the search in the rows array, the
 * two dearest parts of a rows step (measured on javac's native frames,
 * BPF_PHASES=1: about 540 and 400 ns of 1,400; a lookup in a large hash
 * map misses the cache at every level, a per-CPU array's slot once). One
 * program at a time runs on a CPU (as for the walk record).
 */
#define ROW_MEMO 4096 /* slots a CPU: a process's hot return addresses */
#define ROW_MEMO_SLOT(f, a) (((a)*2654435761u ^ (f)) & (ROW_MEMO - 1))

struct row_memo {
	__u32 file1, a; /* file id + 1, ELF address */
	struct unwind_row row;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY); /* x possible CPUs: memo.bpf.h */
	__type(key, __u32);
	__type(value, struct row_memo);
	__uint(max_entries, ROW_MEMO);
} row_memo SEC(".maps");

/*
 * A copy of one page of the walked stack (struct stack_win): a frame's
 * words are read from it when they lie in it, and a word of the stack
 * outside it copies the page holding that word first. A read of the
 * target's memory costs about as much as a whole step whatever its size
 * (bpf_probe_read_user's fixed cost), and the frames of a page share
 * one. A page, aligned: the copy never runs past the stack's last page.
 */
#define STACK_WIN_BYTES 4096

struct stack_win {
	__u64 lo; /* the page copied: [lo, lo + STACK_WIN_BYTES) */
	__u32 ok; /* the copy holds that page */
	__u32 pad;
	__u8 b[STACK_WIN_BYTES];
};

/*
 * n bytes of the stack at addr into dst, from win; win copies the page of
 * addr first when addr lies in the stack that the sample's sp sp0 begins
 * (its page and up to UNWIND_MAX_SPAN above). 0, or a read's error.
 */
static __always_inline long stack_win__read(struct stack_win *win, void *dst,
					    __u32 n, __u64 addr, __u64 sp0)
{
	__u64 off = addr - win->lo, base;

	if (!win->ok || off > STACK_WIN_BYTES - n) {
		base = addr & ~(__u64)(STACK_WIN_BYTES - 1);
		if (base + STACK_WIN_BYTES <= sp0 ||
		    addr - sp0 > UNWIND_MAX_SPAN ||
		    addr + n > base + STACK_WIN_BYTES)
			return bpf_probe_read_user(dst, n, (const void *)addr);
		win->lo = base;
		PHASE_START(tw);
		win->ok = !bpf_probe_read_user(win->b, STACK_WIN_BYTES,
					       (const void *)base);
		PHASE_END(PH_WIN_COPY, tw);
		if (!win->ok)
			return bpf_probe_read_user(dst, n, (const void *)addr);
		off = addr - base;
	}
	asm volatile("" : "+r"(off)); /* checked, then used */
	if (off > STACK_WIN_BYTES - n)
		return -EFAULT;
	__builtin_memcpy(dst, win->b + off, n);
	return 0;
}

#define ROWS_NONE 100 /* not a step result (sampler_abi.h): no rows here */
/* code of a file whose rows are not built yet: counted, by fp meanwhile */
#define ROWS_WANTED 101

/*
 * An exec replaces the process's mappings: its table goes, so no sample
 * is walked by the old one; user space loads the new one (loader.c).
 * A raw tracepoint: attached by name through bpf(), where a classic
 * tracepoint needs tracefs mounted to read the event's id.
 */
SEC("raw_tp/sched_process_exec")
int mixprof_unwind_exec(void *ctx)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;

	bpf_map_delete_elem(&unwind_procs, &tgid);
	return 0;
}

/*
 * The searches below are global functions that return an index, not
 * inlined ones that return a pointer: each way out of an inlined search
 * was a verifier state of its own through the rest of the rows step
 * (rows_step_regs, ~550 instructions, took 9,136 of the 46,943 the
 * verifier processed for the sample program at load; 3,655 with its
 * searches apart).
 */

/* The index in pr->m of the mapping holding pc, or -1. */
__noinline int map_find(const struct unwind_proc *pr, __u64 pc)
{
	__u32 lo = 0, hi, i;

	if (!pr || pr->n > UNWIND_PROC_MAPS)
		return -1;
	hi = pr->n;
	for (i = 0; i < UNWIND_MAP_STEPS && lo < hi; i++) {
		__u32 mid = (lo + hi) / 2;

		/* checked where it is used: the compiler may not hoist it */
		asm volatile("" : "+r"(mid));
		if (mid >= UNWIND_PROC_MAPS)
			return -1;
		if (pc < pr->m[mid].start)
			hi = mid;
		else if (pc >= pr->m[mid].end)
			lo = mid + 1;
		else
			return (int)mid;
	}
	return -1;
}

/* The index in unwind_rows of the row of ELF address a in the run pg (the
 * last with pc <= a), or -1. */
__noinline long row_find(const struct unwind_page *pg, __u32 a)
{
	const struct unwind_row *r;
	__u32 lo, hi, i;
	long best = -1;

	if (!pg)
		return -1;
	lo = pg->first;
	hi = pg->first + pg->n;
	for (i = 0; i < UNWIND_SEARCH_STEPS && lo < hi; i++) {
		__u32 mid = lo + (hi - lo) / 2;

		r = bpf_map_lookup_elem(&unwind_rows, &mid);
		if (!r)
			return -1;
		if (r->pc <= a) {
			best = mid;
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	return lo < hi ? -1 : best; /* a run too long to search: none */
}

/*
 * The row of ELF address a of file (its rows stored): from this CPU's
 * memo, else by its page and kept there. NULL: none.
 */
static __always_inline const struct unwind_row *row_of(__u32 file, __u32 a)
{
	struct unwind_page_key k = {.file = file,
				    .page = a >> UNWIND_PAGE_SHIFT};
	__u32 slot = ROW_MEMO_SLOT(file, a);
	const struct unwind_page *pg;
	const struct unwind_row *r;
	__u32 at;
	long i;
	struct row_memo *m =
	    memo__slot(&row_memo, ROW_MEMO, bpf_get_smp_processor_id(), slot);
	PHASE_START(t);

	if (m && m->file1 == file + 1 && m->a == a) {
		PHASE_END(PH_ROWS_MEMO, t);
		return &m->row;
	}
	pg = bpf_map_lookup_elem(&unwind_pages, &k);
	if (!pg || (i = row_find(pg, a)) < 0)
		return NULL;
	at = (__u32)i;
	if (!(r = bpf_map_lookup_elem(&unwind_rows, &at)))
		return NULL;
	PHASE_END(PH_ROWS_FIND, t);
	if (!m)
		return r;
	m->file1 = file + 1;
	m->a = a;
	m->row = *r;
	return &m->row;
}

/*
 * Fill s with the mapping of pr holding pc, when its file has rows: 0;
 * else ROWS_NONE (no mapping, a file without rows) or ROWS_WANTED (a file
 * whose rows are not built yet: counted in its demand).
 */
static __always_inline int
rows_seen__find(struct rows_seen *s, const struct unwind_proc *pr, __u64 pc)
{
	const struct unwind_map *m;
	struct unwind_file *f;
	__u32 file;
	int k = map_find(pr, pc);

	/* one register for the check and the access */
	asm volatile("" : "+r"(k));
	if (!pr || k < 0 || k >= UNWIND_PROC_MAPS)
		return ROWS_NONE;
	m = &pr->m[k];
	file = m->file;
	f = bpf_map_lookup_elem(&unwind_files, &file);
	if (!f || f->state == UNWIND_FILE_NONE)
		return ROWS_NONE;
	if (f->state != UNWIND_FILE_ROWS) {
		__sync_fetch_and_add(&f->wanted, 1);
		return ROWS_WANTED;
	}
	s->start = m->start;
	s->end = m->end;
	s->bias = m->bias;
	s->file = file;
	s->fp_word = f->fp_word;
	s->fp_words = f->fp_words;
	s->fp_block0 = f->fp_block0;
	return 0;
}

/* Is ELF address a of s's file in a block of frame-record code (fpmap.h)? */
static __always_inline bool rows_seen__fp(const struct rows_seen *s, __u32 a)
{
	__u32 i = (a >> UNWIND_FP_SHIFT) - s->fp_block0, k;
	const __u64 *word;

	if (a >> UNWIND_FP_SHIFT < s->fp_block0 || i / 64 >= s->fp_words)
		return false;
	k = s->fp_word + i / 64;
	word = bpf_map_lookup_elem(&unwind_fp, &k);
	return word && (*word >> (i % 64) & 1);
}

/*
 * The caller of frame g (frame idx of the walk, 0 the sampled pc; words
 * read land in g->word, through the stack's copy win) of the process
 * whose table is pr (unwind_procs: looked up once a sample, by the
 * caller) by its rows: STEP_ON (g updated), STEP_ROOT (an outermost
 * frame: the stack's natural end, a root), -UNWIND_NO_ROW (code of a file with rows, but none we
 * follow), -UNWIND_BAD_SP (a CFA that does not grow or leaves the
 * stack), -UNWIND_READ, ROWS_NONE (also for code no FDE describes), or
 * ROWS_WANTED (a file whose rows are not built yet: the walk goes on by
 * frame pointer, and the file's count tells the loader it is needed). A caller's pc is a return address:
 * its row is the call's (pc - 1), which may end the function (a call to
 * a noreturn function). seen: the walk's last mapping (struct
 * rows_seen). An address in a block of frame-record code (the file's
 * bitmap) takes that row without a search: the same step, since every
 * address of the block has it. A global function: verified once, not at each
 * of the walk's call sites (start-up under CPU contention).
 */
__noinline int rows_step_regs(struct unwind_regs *g,
			      const struct unwind_proc *pr,
			      struct stack_win *win, struct rows_seen *seen,
			      __u32 idx)
{
	const struct unwind_row *r;
	__u64 pc, a, cfa, *fr;
	__s64 slot;
	bool fp;
	int e;

	if (!g || !win || !seen)
		return ROWS_NONE;
	fr = g->word;
	pc = idx ? g->ip - 1 : g->ip;
	PHASE_START(t);
	if (pc - seen->start >= seen->end - seen->start &&
	    (e = rows_seen__find(seen, pr, pc)))
		return e;
	PHASE_END(PH_ROWS_MAP, t);
	a = pc - seen->bias;
	PHASE_START(tf);
	fp = rows_seen__fp(seen, (__u32)a);
	PHASE_END(PH_ROWS_FP, tf);
	if (fp && !rows_fp_verify) {
		/* the frame record's row (fpmap.h), as the switch below */
		cfa = g->fp + 16;
		slot = -2;
	} else {
		if (!(r = row_of(seen->file, (__u32)a)))
			return -UNWIND_NO_ROW;
		if (fp) {
			stat_inc(STAT_ROWS_FP);
			if (r->kind != ROW_CFA_RBP || r->cfa_off != 16 ||
			    r->rbp_slot != -2)
				stat_inc(STAT_ROWS_FP_DIFF);
		}
		switch (r->kind) {
		case ROW_END:
			return STEP_ROOT;
		case ROW_FP:
			return ROWS_NONE; /* no CFI for this code: by fp */
		case ROW_CFA_RSP:
			cfa = g->sp + r->cfa_off;
			break;
		case ROW_CFA_RBP:
			cfa = g->fp + r->cfa_off;
			break;
		case ROW_CFA_PLT:
			cfa = g->sp + 8 +
			      ((g->ip & 15) >= (__u64)r->cfa_off ? 8 : 0);
			break;
		default:
			return -UNWIND_NO_ROW;
		}
		slot = r->rbp_slot;
	}
	if (cfa <= g->sp || cfa - g->sp0 > UNWIND_MAX_SPAN)
		return -UNWIND_BAD_SP;
	/* the usual frame (rbp pushed right after the call): both words
	 * in one read, each read costing about a frame's whole step */
	if (slot == -2) {
		if (stack_win__read(win, fr, 16, cfa - 16, g->sp0))
			return -UNWIND_READ;
		g->fp = fr[0];
		g->ip = fr[1];
		g->sp = cfa;
		return fr[1] ? STEP_ON : STEP_ROOT;
	}
	if (stack_win__read(win, fr, 8, cfa - 8, g->sp0))
		return -UNWIND_READ;
	a = fr[0]; /* the return address */
	if (slot) {
		if (stack_win__read(win, fr, 8, cfa + 8 * slot, g->sp0))
			return -UNWIND_READ;
		g->fp = fr[0];
	}
	g->ip = a;
	g->sp = cfa;
	return a ? STEP_ON : STEP_ROOT;
}

#endif
