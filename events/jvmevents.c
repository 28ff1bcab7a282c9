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

_Static_assert(sizeof(struct jvm_event) == 384, "jvm_event as BPF has it");

/* HotSpot's entry of the uncommon trap blob (JDK 8 to 25: one mangling) */
#define DEOPT_SYM "_ZN14Deoptimization13uncommon_trapEP10JavaThreadii"
/* where a compiler thread takes its task (JDK 8 to 25: one mangling) */
#define TASK_SYM "_ZN13CompileBroker25invoke_compiler_on_methodEP11CompileTask"

struct jvmevents {
	struct events_bpf *skel;
	struct ring_buffer *rb;
	/* the sites below and the two uprobes */
	struct bpf_link *links[16];
	const char *names[16];
	int nr_links;
	jvmevents_fn fn; /* during a poll */
	void *ctx;
};

struct usdt_site {
	const char *provider, *name;
};

static const struct usdt_site sites[] = {
    {"hotspot", "gc__begin"},
    {"hotspot", "gc__end"},
    {"hs_private", "safepoint__begin"},
    {"hs_private", "safepoint__end"},
    {"hotspot", "vmops__begin"},
    {"hotspot", "vmops__end"},
    {"hotspot", "method__compile__begin"},
    {"hotspot", "method__compile__end"},
    {"hotspot", "class__loaded"},
};

/* The program of each site, in the order of sites[]. */
static struct bpf_program *site_prog(struct events_bpf *s, int i)
{
	struct bpf_program *p[] = {
	    s->progs.jev_gc_begin,	s->progs.jev_gc_end,
	    s->progs.jev_sp_begin,	s->progs.jev_sp_end,
	    s->progs.jev_vmop_begin,	s->progs.jev_vmop_end,
	    s->progs.jev_compile_begin, s->progs.jev_compile_end,
	    s->progs.jev_class_loaded,
	};

	return p[i];
}

static int on_sample(void *ctx, void *data, size_t len)
{
	struct jvmevents *j = ctx;

	if (len >= sizeof(struct jvm_event))
		j->fn(j->ctx, data);
	return 0;
}

/* Every probe lib has; a missing one is left out. 0 or -errno of the
 * first that failed otherwise, named in err. */
static int attach_all(struct jvmevents *j, int pid, const char *lib, char *err,
		      size_t errlen)
{
	LIBBPF_OPTS(bpf_uprobe_opts, uo, .func_name = DEOPT_SYM);
	struct bpf_link *l;
	size_t i;

	for (i = 0; i < sizeof(sites) / sizeof(sites[0]); i++) {
		l = bpf_program__attach_usdt(site_prog(j->skel, i), pid, lib,
					     sites[i].provider, sites[i].name,
					     NULL);
		if (!l && errno != ENOENT) {
			snprintf(err, errlen, "usdt %s:%s of %s in %d: %s",
				 sites[i].provider, sites[i].name, lib, pid,
				 strerror(errno));
			return -errno;
		}
		if (l) {
			j->names[j->nr_links] = sites[i].name;
			j->links[j->nr_links++] = l;
		}
	}
	l = bpf_program__attach_uprobe_opts(j->skel->progs.jev_deopt, pid, lib,
					    0, &uo);
	if (l) {
		j->names[j->nr_links] = "uncommon_trap";
		j->links[j->nr_links++] = l;
	}
	uo.func_name = TASK_SYM;
	l = bpf_program__attach_uprobe_opts(j->skel->progs.jev_task, pid, lib,
					    0, &uo);
	if (l) {
		j->names[j->nr_links] = "invoke_compiler_on_method";
		j->links[j->nr_links++] = l;
	}
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
