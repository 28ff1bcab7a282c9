/*
 * targets: the processes a run has seen in its samples, by tgid, with
 * what the run needs about each: when it was first met, whether it is
 * gone, and its process comm (for the --per-thread process frame).
 */
#ifndef MIXPROF_TARGETS_H
#define MIXPROF_TARGETS_H

#include <stdbool.h>
#include <stdint.h>
#include "common/safename.h"

struct pid_info {
	uint32_t pid;
	bool gone; /* exited (or a zombie) when last looked */
	bool jit; /* writes a JIT map (/tmp/perf-PID.map) */
	bool user; /* a key of it had user frames (not a kernel thread) */
	uint64_t seen_ns; /* when a new key of it was last seen */
	char comm[16]; /* process comm, "" until read */
	const char *container; /* --per-container: its id (containers.h) */
};

struct targets;

struct targets *targets__new(void); /* NULL and errno */
void targets__free(struct targets *p);

/* The entry for pid, added (zeroed but pid, *added = true) if new; NULL
 * for pid 0 or without memory. An entry stays where it is until
 * targets__filter drops it or the set is freed. */
struct pid_info *targets__get(struct targets *p, uint32_t pid, bool *added);
/* The entry for pid, or NULL. */
struct pid_info *targets__find(struct targets *p, uint32_t pid);

/*
 * Keep only the entries keep() says true of (it may act on the others
 * first). 0 or -ENOMEM (all kept).
 */
int targets__filter(struct targets *p,
		    bool (*keep)(struct pid_info *pi, void *ctx), void *ctx);
/* Call fn for each entry. */
void targets__for_each(struct targets *p,
		       void (*fn)(struct pid_info *pi, void *ctx), void *ctx);

/*
 * How busy pid is, to take the busiest first: its CPU time over its
 * life (CPUs' worth: a JVM's threads add up; its main thread's state is
 * S), plus one when it is running or runnable now (state R); -1 when it
 * cannot be read.
 */
double targets__busy(uint32_t pid);
/* How long pid has run, in ns; 0 when that cannot be read. */
uint64_t targets__age_ns(uint32_t pid);
/* Read /proc/PID/comm into comm (16 bytes). 0 or negative errno. */
int targets__comm(uint32_t pid, char *comm);

/* Does pid have a JIT map: perf-<its own pid>.map in the /tmp of its
 * mount namespace, where the symbolizer reads it (common/procfs.h)? */
bool targets__has_jit_map(uint32_t pid);

#endif
