// SPDX-License-Identifier: GPL-2.0
/*
 * fork.bpf.c: a process forked by a target becomes a target, so a shell
 * script or build tool that starts `java` is followed (-p and launch
 * runs). Apart from the sampler because it reads task_struct, whose
 * layout is the kernel's (CO-RE): loading it makes libbpf parse the
 * kernel's BTF, which a whole-host run need not pay. Its maps are the
 * sampler's (user space hands their fds over before load).
 */
#include "sampler/vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "sampler_abi.h"
#include "targets.bpf.h"

/* threads share their process's tgid: targets already */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(mixprof_fork, struct task_struct *parent,
	     struct task_struct *child)
{
	__u32 ptgid = BPF_CORE_READ(parent, tgid);
	__u32 ctgid = BPF_CORE_READ(child, tgid);
	__u8 one = 1;

	if (ptgid == ctgid || !bpf_map_lookup_elem(&targets, &ptgid))
		return 0;
	bpf_map_update_elem(&targets, &ctgid, &one, BPF_ANY);
	stat_inc(STAT_CHILDREN);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
