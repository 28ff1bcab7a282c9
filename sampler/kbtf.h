/*
 * kbtf: where one field of one kernel struct lies, from the kernel's BTF
 * (/sys/kernel/btf/vmlinux), read in one pass without building libbpf's
 * index of all its types. The fork hook (fork.bpf.c) needs only
 * task_struct's tgid: libbpf's whole parse of the ~5.5 MB (126,000
 * types), for CO-RE or a tp_btf attach, cost 3-10 ms of every -p and
 * launch run; this scan ~1-2 ms. The file is the kernel's (trusted), but
 * every offset and length is checked against the file's size anyway.
 */
#ifndef MIXPROF_KBTF_H
#define MIXPROF_KBTF_H

#include <stdint.h>

#define KBTF_VMLINUX "/sys/kernel/btf/vmlinux"

/*
 * The byte offset of member field of the struct named sname in the BTF
 * file path (the first struct of that name that has it) into *off: 0;
 * -ENOENT (no such struct or member, or the member is a bit field),
 * -EINVAL (not BTF we read: magic, version, a record past the sections),
 * or -errno of opening or reading the file.
 */
int kbtf__member_off(const char *path, const char *sname, const char *field,
		     uint32_t *off);

#endif
