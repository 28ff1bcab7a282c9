/*
 * maxstack: kernel.perf_event_max_stack, the depth limit of every kernel
 * stack walk (perf and BPF alike), raised for a run and put back after.
 */
#ifndef MIXPROF_MAXSTACK_H
#define MIXPROF_MAXSTACK_H

/* The current limit, or negative errno. */
int maxstack__get(void);

/*
 * Make the limit at least want. *old gets the value to restore (-1 when
 * nothing was changed). 0 or negative errno (-EACCES: not root; -EBUSY:
 * a perf or BPF stack user is active, the kernel refuses a change).
 */
int maxstack__raise(int want, int *old);

/* Put back old (from maxstack__raise); retries while -EBUSY. */
int maxstack__restore(int old);

#endif
