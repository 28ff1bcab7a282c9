// SPDX-License-Identifier: GPL-2.0
/*
 * ksym.bpf.c: name kernel addresses with the kernel's own lookup, the one
 * behind printk's %pB (a binary search of kallsyms), for the few thousand
 * addresses a profile shows, instead of user space reading and parsing
 * all of /proc/kallsyms (about 200,000 lines the kernel formats one by
 * one). A syscall program: user space runs it with BPF_PROG_TEST_RUN.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "ksym.h"

__u64 ksym_addrs[KSYM_BATCH];
__u32 ksym_nr;
char ksym_text[KSYM_BATCH][KSYM_TEXT];
long ksym_len[KSYM_BATCH];

SEC("syscall")
int ksym_names(void *ctx)
{
	__u32 i, n = ksym_nr;

	for (i = 0; i < KSYM_BATCH && i < n; i++) {
		/* %pB names a return address: it looks up addr - 1 */
		__u64 addr = ksym_addrs[i] + 1;

		ksym_len[i] =
		    BPF_SNPRINTF(ksym_text[i], KSYM_TEXT, "%pB", addr);
	}
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
