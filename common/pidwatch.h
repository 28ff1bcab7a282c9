/*
 * pidwatch: whether processes are still alive, asked often (a run's -p
 * targets, at every drain). Each has a pidfd (pidfd_open, Linux 5.3+),
 * which poll finds readable once the process has exited (a zombie too)
 * and which no later process given the same pid can pass for. Where one
 * cannot be opened, /proc/PID/stat's state is read (procfs__alive): for
 * a JVM that costs ~30 us (the kernel sums its threads' times), read at
 * every drain 7% of mixprof's CPU on Tomcat; the poll costs 0.2 us.
 */
#ifndef MIXPROF_COMMON_PIDWATCH_H
#define MIXPROF_COMMON_PIDWATCH_H

#include <stdint.h>

struct pidwatch;

/* A watch of the n processes in pids (copied), or NULL (no memory). */
struct pidwatch *pidwatch__new(const uint32_t *pids, int n);

/* How many of them are alive now (none once each has exited). */
int pidwatch__alive(const struct pidwatch *w);

void pidwatch__free(struct pidwatch *w);

#endif
