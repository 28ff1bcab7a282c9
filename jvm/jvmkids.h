/*
 * jvmkids: the JVMs below a process that is not one, so that `mixprof -p`
 * of a wrapper (timeout, a shell script, a launcher) names the pid that
 * was meant. -p follows children forked during the run (fork.bpf.c), not
 * the ones that already ran when it started: those are named, not
 * followed, so a run never widens to processes nobody asked for.
 */
#ifndef MIXPROF_JVMKIDS_H
#define MIXPROF_JVMKIDS_H

#include <stddef.h>
#include <stdint.h>

struct proc_link {
	uint32_t pid, ppid;
};

/*
 * The descendants of root among the n links, breadth first (children
 * before grandchildren, each generation in the links' order): up to max
 * of them written to out. Returns how many were written. Pure; a cycle in
 * the links (pid reuse between two reads) cannot loop: each pid once.
 */
size_t jvmkids__descendants(const struct proc_link *l, size_t n, uint32_t root,
			    uint32_t *out, size_t max);

/*
 * If pid is not a JVM but has JVM descendants, say so on stderr, naming
 * them and the command line to use. Returns how many JVMs were named
 * (0 when pid is a JVM, has none, or /proc cannot be read).
 */
int jvmkids__hint(uint32_t pid);

#endif
