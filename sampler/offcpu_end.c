/*
 * offcpu_end: the waits still open when an off-CPU or wall run stops,
 * counted up to its end by the task iterator of offcpu.bpf.h (see
 * sampler_ctl.h, sampler__offcpu_end).
 */
#include <errno.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "sampler_int.h"

/* Run the iterator to its end: its reads are what make it count. */
static int run_iter(struct bpf_link *link)
{
	char buf[64];
	int fd = bpf_iter_create(bpf_link__fd(link)), ret = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	if (n < 0)
		ret = -errno;
	close(fd);
	return ret;
}

int sampler__offcpu_end(struct sampler *s, uint64_t end_ns, uint64_t *closed)
{
	struct bpf_link *link;
	int ret;

	*closed = 0;
	if (!s->off_cpu)
		return 0;
	s->skel->bss->offcpu_end_ns = end_ns;
	link =
	    bpf_program__attach_iter(s->skel->progs.mixprof_offcpu_end, NULL);
	if (!link)
		return -errno;
	ret = run_iter(link);
	bpf_link__destroy(link);
	*closed = s->skel->bss->offcpu_open;
	return ret;
}
