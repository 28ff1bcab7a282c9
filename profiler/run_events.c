// SPDX-License-Identifier: GPL-2.0
/*
 * run_events: --events on a run (run_events.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "common/safefile.h"
#include "common/safename.h"
#include "common/nsec.h"
#include "common/procfs.h"
#include "events/evlog.h"
#include "events/evpprof.h"
#include "events/jvmevents.h"
#include "jvm/hotspot.h"
#include "jvm/jdkpath.h"
#include "jvm/jvmnames.h"
#include "jvm/jvms.h"
#include "run.h"
#include "run_events.h"

struct runev {
	uint32_t pid;
	FILE *f;
	struct jvmevents *j;
	struct jvmnames *names;
	struct evlog *log;
	struct evpprof *pp; /* FILE.pb.gz / FILE.pprof: the lines as pprof */
	bool layout; /* the JVM's offsets given to BPF */
	uint64_t ttsp_kept, ttsp_left; /* --ttsp: samples in and out */
	unsigned int tries; /* ticks the layout was asked for */
};

/* The JVM's libjvm.so as this process opens it: 0, or -ENOENT reported. */
static int libjvm_of(struct run *r, uint32_t pid, char *lib, size_t cap)
{
	char path[PATH_MAX], show[256];

	if (r->launched) {
		if (!jdkpath__libjvm(r->o.cmd[0], getenv("PATH"), lib, cap))
			return 0;
		fprintf(stderr,
			"mixprof: --events: '%s' is not a JDK's bin/java "
			"(launch java itself, or use -p)\n",
			safename__show(show, sizeof(show), r->o.cmd[0]));
		return -ENOENT;
	}
	if (!hotspot__libjvm(pid, path, sizeof(path))) {
		snprintf(lib, cap, "/proc/%u/root%s", pid, path);
		return 0;
	}
	fprintf(stderr,
		"mixprof: --events: %u: no libjvm.so mapped (not a "
		"HotSpot JVM?)\n",
		pid);
	return -ENOENT;
}

static bool is_pprof(const char *path)
{
	size_t n = strlen(path);

	/* both suffixes are 6 bytes: the names -o takes as pprof too */
	return n > 6 && (!strcmp(path + n - 6, ".pb.gz") ||
			 !strcmp(path + n - 6, ".pprof"));
}

/* The file, and for pprof the writer that fills it at the end. */
static int open_file(struct run *r, struct runev *ev)
{
	char comm[32] = "java";

	ev->f = safefile__fcreate(r->o.events);
	if (!ev->f) {
		fprintf(stderr, "mixprof: --events %s: %s\n", r->o.events,
			strerror(errno));
		return -errno;
	}
	if (!is_pprof(r->o.events))
		return 0;
	/* a launched command is not exec'ed yet: its name, as comm will be */
	if (r->launched)
		snprintf(comm, sizeof(comm), "%.15s",
			 strrchr(r->o.cmd[0], '/')
			     ? strrchr(r->o.cmd[0], '/') + 1
			     : r->o.cmd[0]);
	else
		procfs__read_comm(ev->pid, comm);
	ev->pp = evpprof__new(comm);
	return ev->pp ? 0 : -ENOMEM;
}

/* evlog's namer: the JVM's names (jvm/jvmnames.h) on its ctx */
static const char *trap_reason(void *ctx, int i)
{
	return jvmnames__reason(ctx, i);
}

static const char *trap_action(void *ctx, int i)
{
	return jvmnames__action(ctx, i);
}

static int trap_method(void *ctx, uint64_t pc, char *buf, size_t cap, int *tier)
{
	return jvmnames__method_at(ctx, pc, buf, cap, tier);
}

int run_events__start(struct run *r)
{
	struct evlog_namer nm;
	char lib[PATH_MAX + 64], err[512], show[512];
	struct runev *ev;
	int ret;

	if (!r->o.events)
		return 0;
	ev = r->ev = calloc(1, sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	ev->pid = r->launched ? (uint32_t)r->child.pid : r->o.pids[0];
	ret = libjvm_of(r, ev->pid, lib, sizeof(lib));
	if (ret)
		return ret;
	ret = open_file(r, ev);
	if (ret)
		return ret;
	ev->names = jvmnames__new(ev->pid, r->jvms);
	nm = (struct evlog_namer){trap_reason, trap_action, trap_method,
				  ev->names};
	ev->log = ev->names ? evlog__new(ev->pp ? NULL : ev->f, &nm) : NULL;
	if (!ev->log)
		return -ENOMEM;
	if (ev->pp)
		evlog__on_line(ev->log, evpprof__line, ev->pp);
	ev->j = jvmevents__open(ev->pid, lib, err, sizeof(err));
	if (!ev->j) {
		fprintf(stderr, "mixprof: --events: %s\n",
			safename__show(show, sizeof(show), err));
		return -errno;
	}
	if (r->o.verbose) {
		jvmevents__attached(ev->j, err, sizeof(err));
		fprintf(stderr, "mixprof: --events: probes %s\n", err);
	}
	run_events__tick(r);
	return 0;
}

/*
 * The JVM's layout for the probes, through the run's JVMs (its tables
 * read once for the run), which are told of it here: an idle JVM may
 * have no sample to be learnt by.
 */
static int ready(struct run *r, struct runev *ev, struct jev_cfg *c)
{
	if (r->jvms) /* the start's first try comes before the loop's clock */
		jvms__seen(r->jvms, ev->pid, nsec__now());
	return jvmnames__ready(ev->names, c);
}

static void on_event(void *ctx, const struct jvm_event *e)
{
	evlog__event(ctx, e);
}

void run_events__tick(struct run *r)
{
	struct runev *ev = r->ev;
	struct jev_cfg c;

	if (!ev || !ev->j)
		return;
	/* a JVM starting is asked again every tick for 5 s (its first
	 * compilations' tiers wait for it), then every second */
	if (!ev->layout && (ev->tries++ < 50 || ev->tries % 10 == 0) &&
	    !ready(r, ev, &c)) {
		jvmevents__set_offsets(ev->j, &c);
		ev->layout = true;
	}
	jvmevents__poll(ev->j, on_event, ev->log);
}

int run_events__stop(struct run *r)
{
	struct runev *ev = r->ev;
	int ret = 0;

	if (!ev || !ev->f)
		return 0;
	if (ev->j)
		jvmevents__poll(ev->j, on_event, ev->log);
	errno = 0;
	if (ev->pp)
		ret = evpprof__write(ev->pp, ev->f);
	/* a write that failed earlier (a full disk) counts too */
	if (((ferror(ev->f) | fclose(ev->f)) || ret) && (ret = ret     ? ret
							       : errno ? -errno
								       : -EIO))
		fprintf(stderr, "mixprof: --events %s: %s\n", r->o.events,
			strerror(-ret));
	ev->f = NULL;
	return ret;
}

bool run_events__keep(struct run *r, uint64_t t0, uint64_t t1, uint64_t n)
{
	struct runev *ev = r->ev;
	bool in;

	if (!r->o.ttsp || !ev || !ev->log)
		return true;
	in = evlog__in_ttsp(ev->log, t0, t1);
	*(in ? &ev->ttsp_kept : &ev->ttsp_left) += n;
	return in;
}

void run_events__summary(struct run *r)
{
	struct runev *ev = r->ev;

	if (!ev || !ev->log || !ev->j)
		return;
	evlog__summary(ev->log, stderr, jvmevents__lost(ev->j));
	if (r->o.ttsp)
		fprintf(stderr,
			"mixprof:   --ttsp: %" PRIu64 " samples kept, taken "
			"while a safepoint waited for threads to stop; %" PRIu64
			" left out\n",
			ev->ttsp_kept, ev->ttsp_left);
}

void run_events__free(struct run *r)
{
	struct runev *ev = r->ev;

	if (!ev)
		return;
	jvmevents__free(ev->j);
	if (ev->f)
		fclose(ev->f);
	evlog__free(ev->log);
	evpprof__free(ev->pp);
	jvmnames__free(ev->names);
	free(ev);
	r->ev = NULL;
}
