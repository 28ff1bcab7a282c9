/*
 * jitdump: the writer of DIR/jit-PID.dump for `perf inject --jit`.
 *
 * Opened by the agent that holds the perf map's lock (so one writer per
 * JVM), with safefile's checks, truncated, given its header, and mapped
 * once PROT_READ|PROT_EXEC: that executable mapping is the marker perf
 * record sees and perf inject follows to this file. Each code load is one
 * writev() under a mutex, stamped with CLOCK_MONOTONIC inside the mutex
 * so records are in time order.
 */
#ifndef MIXPROF_JMAP_JITDUMP_H
#define MIXPROF_JMAP_JITDUMP_H

#include <stddef.h>
#include <stdint.h>

struct jitdump;

/* 0 and *out, or -errno (safefile's errors, mmap's). *path_out as in
 * perfmap__open. */
int jitdump__open(const char *dir, int pid, struct jitdump **out,
		  const char **path_out);

/* Source lines for a code load: nr entries as jitdump_rec__debug_entry
 * encodes them, len bytes at entries. */
struct jitdump_lines {
	const void *entries;
	size_t len;
	uint64_t nr;
};

/*
 * Append a CODE_LOAD of [addr, addr + size) named name (namelen bytes,
 * followed by a NUL in memory), copying the code bytes from addr; with
 * lines (may be NULL) a DEBUG_INFO record first, in the same write so no
 * other load can come between them. 0, -EBADF after close, or -errno.
 */
int jitdump__code_load(struct jitdump *jd, const char *name, size_t namelen,
		       const void *addr, uint64_t size,
		       const struct jitdump_lines *lines);

/* Write CODE_CLOSE, unmap, close; later loads get -EBADF. NULL allowed. */
void jitdump__close(struct jitdump *jd);

/* Close and free; only when no thread can still use jd. */
void jitdump__free(struct jitdump *jd);

#endif
