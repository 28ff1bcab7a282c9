/*
 * maxstack: kernel.perf_event_max_stack, the depth limit of the kernel's
 * own stack walks (perf and BPF's bpf_get_stack alike). mixprof takes
 * only kernel stacks that way (user stacks are walked by its own BPF
 * program, to --stack-depth), and never changes it: a host-wide setting
 * that a crash or SIGKILL would leave changed. Kernel stacks are cut at
 * it (127 by default; deeper ones are rare).
 */
#ifndef MIXPROF_MAXSTACK_H
#define MIXPROF_MAXSTACK_H

/* The current limit, or negative errno. */
int maxstack__get(void);

#endif
