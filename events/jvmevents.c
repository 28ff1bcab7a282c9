// SPDX-License-Identifier: GPL-2.0
/*
 * jvmevents: events.bpf.o loaded and attached to one JVM (jvmevents.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "events/jvmevents.h" /* before the skeleton: its types */
#include "events/events.skel.h"
#include "jvm/hsprobes.h" /* which probes, which functions */

_Static_assert(sizeof(struct jvm_event) == 384, "jvm_event as BPF has it");

#define JEV_LINKS 16 /* 9 USDT probes, 2 uprobes, and room */

struct jvmevents {
	struct events_bpf *skel;
	struct ring_buffer *rb;
	/* hsprobes.h's USDT probes and the two uprobes */
	struct bpf_link *links[JEV_LINKS];
	const char *names[JEV_LINKS];
	int nr_links;
	jvmevents_fn fn; /* during a poll */
	void *ctx;
};

static int on_sample(void *ctx, void *data, size_t len)
{
	struct jvmevents *j = ctx;

	if (len >= sizeof(struct jvm_event))
		j->fn(j->ctx, data);
	return 0;
}

/* The link of a probe attached, kept under its name. */
static void keep(struct jvmevents *j, struct bpf_link *l, const char *name)
{
	if (j->nr_links == JEV_LINKS) { /* hsprobes.h grew past it */
		bpf_link__destroy(l);
		return;
	}
	j->names[j->nr_links] = name;
	j->links[j->nr_links++] = l;
}

/* A uprobe of prog on libjvm's function sym, kept if lib has it. */
static void uprobe(struct jvmevents *j, struct bpf_program *prog, int pid,
		   const char *lib, const char *sym, const char *name)
{
	LIBBPF_OPTS(bpf_uprobe_opts, uo, .func_name = sym);
	struct bpf_link *l;

	l = bpf_program__attach_uprobe_opts(prog, pid, lib, 0, &uo);
	if (l)
		keep(j, l, name);
}

/* Every probe lib has; a missing one is left out. 0 or -errno of the
 * first that failed otherwise, named in err. */
static int attach_all(struct jvmevents *j, int pid, const char *lib, char *err,
		      size_t errlen)
{
	const struct hsprobe_usdt *u;
	struct bpf_program *prog;
	struct bpf_link *l;
	size_t i, n;

	for (u = hsprobes__usdt(&n), i = 0; i < n; i++) {
		prog =
		    bpf_object__find_program_by_name(j->skel->obj, u[i].prog);
		l = prog ? bpf_program__attach_usdt(
			       prog, pid, lib, u[i].provider, u[i].name, NULL)
			 : NULL;
		if (!prog)
			errno = ESRCH; /* hsprobes.h and jevents.bpf.h apart */
		if (!l && errno != ENOENT) {
			snprintf(err, errlen, "usdt %s:%s of %s in %d: %s",
				 u[i].provider, u[i].name, lib, pid,
				 strerror(errno));
			return -errno;
		}
		if (l)
			keep(j, l, u[i].name);
	}
	uprobe(j, j->skel->progs.jev_deopt, pid, lib, HS_SYM_UNCOMMON_TRAP,
	       "uncommon_trap");
	uprobe(j, j->skel->progs.jev_task, pid, lib, HS_SYM_INVOKE_COMPILER,
	       "invoke_compiler_on_method");
	return 0;
}

struct jvmevents *jvmevents__open(int pid, const char *lib, char *err,
				  size_t errlen)
{
	struct jvmevents *j = calloc(1, sizeof(*j));
	struct bpf_program *p;
	int ret;

	if (!j)
		return NULL;
	j->skel = events_bpf__open();
	if (!j->skel) {
		ret = -errno;
		snprintf(err, errlen, "opening events.bpf.o: %s",
			 strerror(errno));
		goto fail;
	}
	/* sleepable (uprobes, kernel 6.0+): a name on a page the JVM has
	 * not touched yet (its CDS archive) is faulted in, not lost */
	bpf_object__for_each_program(p, j->skel->obj)
	    bpf_program__set_flags(p, BPF_F_SLEEPABLE);
	ret = events_bpf__load(j->skel);
	if (ret) {
		snprintf(err, errlen, "loading events.bpf.o: %s",
			 strerror(-ret));
		goto fail;
	}
	ret = attach_all(j, pid, lib, err, errlen);
	if (ret)
		goto fail;
	if (!j->nr_links) {
		ret = -ENOENT;
		snprintf(err, errlen, "%s: no HotSpot probes (stapsdt notes)",
			 lib);
		goto fail;
	}
	j->rb = ring_buffer__new(bpf_map__fd(j->skel->maps.jev_ring), on_sample,
				 j, NULL);
	if (!j->rb) {
		ret = -errno;
		snprintf(err, errlen, "ring buffer: %s", strerror(errno));
		goto fail;
	}
	return j;
fail:
	jvmevents__free(j);
	errno = -ret;
	return NULL;
}

int jvmevents__attached(const struct jvmevents *j, char *buf, size_t cap)
{
	size_t n = 0;

	if (cap)
		*buf = 0;
	for (int i = 0; i < j->nr_links && n < cap; i++)
		n += snprintf(buf + n, cap - n, "%s%s", i ? "," : "",
			      j->names[i]);
	return j->nr_links;
}

void jvmevents__set_offsets(struct jvmevents *j, const struct jev_cfg *c)
{
	j->skel->bss->cfg = *c;
}

int jvmevents__poll(struct jvmevents *j, jvmevents_fn fn, void *ctx)
{
	int n;

	j->fn = fn;
	j->ctx = ctx;
	n = ring_buffer__consume(j->rb);
	j->fn = NULL;
	return n;
}

uint64_t jvmevents__lost(const struct jvmevents *j)
{
	return j->skel->bss->lost;
}

void jvmevents__free(struct jvmevents *j)
{
	if (!j)
		return;
	for (int i = 0; i < j->nr_links; i++)
		bpf_link__destroy(j->links[i]);
	ring_buffer__free(j->rb);
	events_bpf__destroy(j->skel);
	free(j);
}
