/*
 * loader: fills the BPF maps of unwind.bpf.h. Each file's rows are
 * computed once (rowgen) and stored once, shared by every process that
 * maps it (files known by device and inode); a process gets a table of
 * its executable mappings of such files. Files are opened through
 * /proc/PID/map_files (what the process really maps, in its own mount
 * namespace), with common/safefile's checks and a size limit. All of
 * it happens in one worker thread; the calls below only queue work.
 */
#ifndef MIXPROF_UNWIND_LOADER_H
#define MIXPROF_UNWIND_LOADER_H

#include <stddef.h>
#include <stdint.h>

struct unwind_loader;

struct unwind_loader_stats {
	uint64_t files; /* files with rows loaded */
	uint64_t files_without; /* mapped files without rows (no CFI, ...) */
	uint64_t files_debug_frame; /* ... with rows from a .debug_frame */
	uint64_t rows; /* rows stored: 8 bytes each in the kernel */
	uint64_t pages; /* page entries: 16 bytes of key and value each */
	uint64_t procs; /* process tables written */
	uint64_t full; /* files left out: the rows map is full */
	uint64_t load_ns; /* time spent computing and storing rows */
};

/* On the maps' fds (not owned); max_rows: unwind_rows' size. NULL and
 * errno on failure. */
struct unwind_loader *unwind_loader__new(int rows_fd, int pages_fd,
					 int procs_fd, uint32_t max_rows);
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
 * pid exited and its samples are all taken: its table goes from the BPF
 * map (the exec hook deletes a table only when the pid is reused by an
 * exec; 16,384 entries of 4 KB each in the kernel) and the loader's
 * record of it, in the worker, after any refresh queued before. Returns 0.
 */
int unwind_loader__forget(struct unwind_loader *l, int pid);

/* Wait until every process asked for has its table (or failed), at most
 * max_ns: 0 or -ETIMEDOUT (the rest keeps loading meanwhile). */
int unwind_loader__wait(struct unwind_loader *l, uint64_t max_ns);

/* Mappings with rows in pid's table (0: none of its files has rows),
 * -ENOENT when it has no table (not loaded, or exec'd since). Any
 * thread. */
int unwind_loader__proc_maps(struct unwind_loader *l, int pid);

/* The work done so far (as of the last process finished). */
void unwind_loader__stats(struct unwind_loader *l,
			  struct unwind_loader_stats *st);

#endif
