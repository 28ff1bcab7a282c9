// SPDX-License-Identifier: GPL-2.0
/*
 * fork.bpf.c: a process forked by a target becomes a target, so a shell
 * script or build tool that starts `java` is followed (-p and launch
 * runs). Apart from the sampler because it reads task_struct, whose
 * layout is the kernel's: the offset of its tgid comes from user space
 * (kbtf.h reads it from the kernel's BTF in one pass), so this is a
 * raw tracepoint without CO-RE and libbpf does not parse the kernel's
 * BTF (3-10 ms of every run, with a tp_btf program's attach). Its maps
 * are the sampler's (user space hands their fds over before load).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "sampler_abi.h"
#include "targets.bpf.h"

/* offsetof(struct task_struct, tgid), set before load */
const volatile __u32 tgid_off = 0;

/*
 * sched_process_fork(parent, child), in the parent's context (the
 * current task): its args are the two task_struct pointers. Threads share
 * their process's tgid: targets already.
 */
SEC("raw_tp/sched_process_fork")
int mixprof_fork(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 ptgid = bpf_get_current_pid_tgid() >> 32, ctgid = 0;
	const char *child = (const char *)ctx->args[1];
	__u8 one = 1;

	if (!tgid_off ||
	    bpf_probe_read_kernel(&ctgid, sizeof(ctgid), child + tgid_off))
		return 0;
	if (!ctgid || ptgid == ctgid || !bpf_map_lookup_elem(&targets, &ptgid))
		return 0;
	bpf_map_update_elem(&targets, &ctgid, &one, BPF_ANY);
	stat_inc(STAT_CHILDREN);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
