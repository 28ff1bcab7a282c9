/*
 * rows.h: the unwind rows BPF and user space share (fixed-width types
 * only; included by sampler.bpf.c through unwind.bpf.h and by rowgen.c).
 *
 * A row says, from its pc to the next row's pc, how to find the caller
 * of a native frame of x86-64 code without frame pointers: the CFA (the
 * caller's sp) as rsp + cfa_off or rbp + cfa_off; the return address at
 * CFA - 8 (x86-64 code always); the caller's rbp at CFA + 8 * rbp_slot,
 * or unchanged when rbp_slot is 0. pc is the ELF's own virtual address
 * (p_vaddr space), so one file's rows serve every process mapping it.
 */
#ifndef MIXPROF_UNWIND_ROWS_H
#define MIXPROF_UNWIND_ROWS_H

#include <linux/types.h>

enum unwind_row_kind {
	/* CFI we do not turn into a rule (an expression we do not know,
	 * rules for the return address other than CFA - 8): the walk ends
	 * with a marked frame rather than guess */
	ROW_NONE,
	ROW_CFA_RSP, /* CFA = rsp + cfa_off */
	ROW_CFA_RBP, /* CFA = rbp + cfa_off */
	/* a PLT entry (16 bytes): CFA = rsp + 8, + 8 more once the entry's
	 * push is done (pc & 15 >= cfa_off) */
	ROW_CFA_PLT,
	/* the return address is undefined: the outermost frame (_start,
	 * clone's child): the stack's natural end */
	ROW_END,
	/* code no FDE describes (between functions, or whole regions
	 * without CFI: V8's builtins, hand-written assembly): walked by
	 * frame pointer, as code of a file without rows */
	ROW_FP,
	ROW_KINDS,
};

struct unwind_row {
	__u32 pc; /* first address of the row (ELF virtual address) */
	__s16 cfa_off;
	__u8 kind; /* enum unwind_row_kind */
	__s8 rbp_slot; /* caller's rbp at CFA + 8 * this; 0: unchanged */
};

/*
 * The BPF maps (unwind.bpf.h), filled by user space (loader.c):
 * - unwind_rows: one array of every loaded file's rows, each file's
 *   sorted by pc in one run of indexes;
 * - unwind_pages: (file id, pc >> UNWIND_PAGE_SHIFT) -> the run of rows
 *   that covers that page: the row holding the page's first byte, and
 *   every row that starts in the page;
 * - unwind_procs: tgid -> its mappings of files with CFI, sorted;
 * - unwind_files: file id -> whether its rows are in the maps yet, and
 *   how often a walk met its code before they were (rows on demand: the
 *   loader builds the files samples need, most wanted first), and where
 *   its blocks of frame-record code are (fpmap.h) in unwind_fp;
 * - unwind_fp: one array of every loaded file's frame-record bitmap.
 */
#define UNWIND_PAGE_SHIFT 12
#define UNWIND_MAX_ROWS (1u << 21) /* 16 MB: a host's libraries (README) */
/* distinct files mapped host-wide (a busy host: a few thousand): 512 KB */
#define UNWIND_MAX_FILES (1u << 16)
#define UNWIND_PROC_MAPS 128 /* mappings of files with CFI per process */
#define UNWIND_SEARCH_STEPS 16 /* rows per page up to 65536 */
#define UNWIND_MAP_STEPS 8 /* log2(UNWIND_PROC_MAPS) + 1 */
/* a bit of unwind_fp per 16 bytes of code: 85% of libjvm's code in
 * blocks set (32: 81%, 64: 73%), its bitmap 106 KB */
#define UNWIND_FP_SHIFT 4
/* unwind_fp's words: 2 MB, the blocks of 256 MB of code (the rows map's
 * 2 M rows hold ~150 MB of libjvm-like code); a file with no room for
 * its bitmap is stepped by its rows alone */
#define UNWIND_MAX_FP_WORDS (UNWIND_MAX_ROWS / 8)

struct unwind_page_key {
	__u32 file; /* the file's id (loader.c): an index, not a pointer */
	__u32 page;
};

struct unwind_page {
	__u32 first; /* index into unwind_rows */
	__u32 n; /* rows, at least 1 */
};

struct unwind_map {
	__u64 start, end; /* the executable mapping: [start, end) */
	__u64 bias; /* ELF address = pc - bias */
	__u32 file;
	__u32 pad;
};

enum unwind_file_state {
	UNWIND_FILE_PENDING, /* rows not built yet: walked by frame pointer */
	UNWIND_FILE_ROWS, /* rows and pages stored */
	UNWIND_FILE_NONE, /* no rows after all (no CFI we read): by fp */
};

/*
 * The frame-record bitmap's fields are written (with state PENDING)
 * before the state turns ROWS, and never change after: a walk that sees
 * ROWS sees them whole.
 */
struct unwind_file {
	__u32 state; /* enum unwind_file_state, written by user space */
	__u32 wanted; /* frames walked while PENDING: BPF counts them */
	__u32 fp_word; /* its bitmap's first word in unwind_fp */
	__u32 fp_words; /* and its words; 0: no bitmap */
	__u32 fp_block0; /* the block of its first bit (a multiple of 64) */
	__u32 pad;
};

struct unwind_proc {
	__u32 n; /* maps used, sorted by start */
	__u32 pad;
	struct unwind_map m[UNWIND_PROC_MAPS];
};

#endif
