/*
 * ksymbpf: kernel symbol names from the kernel itself (ksym.bpf.c), a
 * source for symbolizer__kernel_source(): a profile names a few thousand
 * kernel addresses, which costs far less asked one batch at a time than
 * reading the whole of /proc/kallsyms.
 *
 * ksymbpf__new() loads the program (needs CAP_BPF and CAP_PERFMON);
 * NULL and errno when it cannot (the caller keeps /proc/kallsyms).
 * ksymbpf__names() has the contract of struct ksym_source's name().
 */
#ifndef MIXPROF_KSYMBPF_H
#define MIXPROF_KSYMBPF_H

#include <stddef.h>
#include <stdint.h>

struct ksymbpf;

struct ksymbpf *ksymbpf__new(void);
int ksymbpf__names(void *k, const uint64_t *ips, size_t n, const char **out);
void ksymbpf__free(struct ksymbpf *k);

#endif
