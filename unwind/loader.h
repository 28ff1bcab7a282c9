/*
 * loader: fills the BPF maps of unwind.bpf.h. A process gets a table of
 * its executable file mappings (files known by device and inode, each
 * given an id on first sight); a file's rows are computed (rowgen) and
 * stored once, shared by every process that maps it, when a sample's
 * walk first needs them: BPF counts the frames it walked in code of a
 * file still pending (unwind_files), and the loader builds the most
 * wanted file first, so a run pays for the code that runs. A target's
 * files (unwind_loader__target) are built even before samples ask,
 * after the wanted ones. Rows made are kept on disk (rowcache.h) and
 * read back by the next run. Files are opened through /proc/PID/map_files
 * (what the process really maps, in its own mount namespace), with
 * common/safefile's checks and a size limit. All of it happens in one
 * worker thread; the calls below only queue work.
 */
#ifndef MIXPROF_UNWIND_LOADER_H
#define MIXPROF_UNWIND_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct unwind_loader;

struct unwind_loader_stats {
	uint64_t files; /* files with rows loaded */
	uint64_t files_without; /* mapped files without rows (no CFI, ...) */
	uint64_t files_debug_frame; /* ... with rows from a .debug_frame */
	uint64_t files_cached; /* ... read from the cache (rowcache.h) */
	uint64_t rows; /* rows stored: 8 bytes each in the kernel */
	uint64_t pages; /* page entries: 16 bytes of key and value each */
	uint64_t fp_words; /* frame-record bitmaps' words (fpmap.h): 8 bytes */
	uint64_t procs; /* process tables written */
	uint64_t full; /* files left out: the rows or files map is full */
	uint64_t pending; /* mapped files no sample needed rows of (yet) */
	uint64_t load_ns; /* time spent computing and storing rows */
};

/* On the maps' fds (not owned; fp_fd, unwind_fp of UNWIND_MAX_FP_WORDS,
 * may be -1: no bitmaps); max_rows: unwind_rows' size. NULL and errno on
 * failure. */
struct unwind_loader *unwind_loader__new(int rows_fd, int pages_fd,
					 int procs_fd, int files_fd, int fp_fd,
					 uint32_t max_rows);
void unwind_loader__free(struct unwind_loader *l);

/*
 * Make sure pid's table is current, in the loader's own thread (a big
 * library's rows take ~0.3 s, which must not hold up the profile): asks
 * it to (re)read the process's mappings, which it does when they were
 * never read, when an exec took the table away (unwind.bpf.h), or when
 * the last reading is older than UNWIND_RESCAN_NS (or the table younger
 * than UNWIND_START_NS) and the mappings changed. A file that cannot be
 * read goes without rows; a process gone is left. Returns 0.
 */
#define UNWIND_RESCAN_NS 1000000000ULL
#define UNWIND_START_NS 2000000000ULL /* first 2 s: each time asked */
int unwind_loader__refresh(struct unwind_loader *l, int pid, uint64_t now_ns);
/* (Asked again while still queued, pid moves to the front: a host-wide
 * start-up queues every process, and those with samples come first.) */

/*
 * pid is a target (-p, a launched command): unwind_loader__refresh, and
 * the files of its tables get rows before its samples ask (after the
 * files samples wanted). 0 or -ENOMEM.
 */
int unwind_loader__target(struct unwind_loader *l, int pid);

/*
 * pid exited and its samples are all taken: its table goes from the BPF
 * map (the exec hook deletes a table only when the pid is reused by an
 * exec; 16,384 entries of 4 KB each in the kernel) and the loader's
 * record of it, in the worker, after any refresh queued before. Returns 0.
 */
int unwind_loader__forget(struct unwind_loader *l, int pid);

/* Wait until every process asked for has its table (or failed) and the
 * files samples or targets need have rows, at most max_ns: 0 or
 * -ETIMEDOUT (the rest keeps loading meanwhile). */
int unwind_loader__wait(struct unwind_loader *l, uint64_t max_ns);

/* Mappings in pid's table: of files with rows or still pending (0: none
 * of its files has CFI),
 * -ENOENT when it has no table (not loaded, or exec'd since). Any
 * thread. */
int unwind_loader__proc_maps(struct unwind_loader *l, int pid);

/* A file whose rows were built: why and when. */
struct unwind_built {
	char *path; /* as the process that was asked maps it */
	uint32_t wanted; /* frames walked in its code before: its demand */
	bool eager; /* a target's */
	bool cached; /* read from the cache, not made */
	uint64_t at_ns, took_ns; /* since the loader began; building it */
};

/* The i-th file built (in order): true and *out (its path copied into
 * path, cap bytes), or false past the last. Any thread. */
bool unwind_loader__built(struct unwind_loader *l, size_t i,
			  struct unwind_built *out, char *path, size_t cap);

/* The work done so far (as of the last process finished). */
void unwind_loader__stats(struct unwind_loader *l,
			  struct unwind_loader_stats *st);

#endif
