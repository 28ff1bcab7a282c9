/*
 * hints: what this host lacks for profiling, and the one line that fixes
 * it. The knowledge of fixes (capabilities, sysctls, mounts, kernel
 * options, container settings) lives here only: a failed run
 * (run_setup.c, run_cpu.c, run_probe.c) and `mixprof check` (check.c)
 * say the same thing for the same cause.
 */
#ifndef MIXPROF_HINTS_H
#define MIXPROF_HINTS_H

#include <linux/capability.h>
#include <stdbool.h>
#include <stddef.h>
#include "sampler/sampler_ctl.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

/* What the fixes depend on, read once from the host (hints__host). */
struct hints_host {
	bool caps; /* root's capabilities, or CAP_BPF + CAP_PERFMON */
	bool btf; /* /sys/kernel/btf/vmlinux */
	bool container; /* in a container (docker, podman, Kubernetes) */
};

/* What a `mixprof check` line may lack, for hints__need. */
enum hints_need {
	HINT_KERNEL, /* older than 6.1 */
	HINT_BTF, /* no /sys/kernel/btf/vmlinux */
	HINT_PERF_EVENTS, /* no perf events at all */
	HINT_PARANOID, /* perf_event_paranoid without CAP_PERFMON */
	HINT_CPU_CLOCK, /* no hardware cycles */
	HINT_UPROBE_PMU, /* no uprobe PMU */
	HINT_MEMLOCK, /* a low memlock limit before 5.11 */
	HINT_JDK, /* no JDK found */
	HINT_HOTSPOT, /* a JDK that is not HotSpot */
	HINT_JVM_PID, /* -p of a process that is not a JVM */
	HINT_JVM_STARTING, /* its tables not complete yet */
	HINT_JVM_LAYOUT, /* tables of a layout we do not know */
	HINT_JVM_IDLE, /* no samples of it */
	HINT_JVM_WALK, /* its stacks broken or without Java */
	HINT_VERBOSE, /* anything else */
	HINT_NR,
};

/* The one line that gets need. Static text. */
const char *hints__need(enum hints_need need);
/* This host's facts. */
void hints__host(struct hints_host *h);
/* Whether this process has capability cap in its effective set. */
bool hints__has_cap(int cap);
/*
 * Name the capabilities BPF sampling needs that we lack ("CAP_BPF and
 * CAP_PERFMON") into buf: -EPERM, or 0 when none are missing (or we
 * cannot tell). Reports nothing.
 */
int hints__missing_caps(char *buf, size_t len);
/*
 * The one line that grants capabilities caps ("BPF", "PERFMON",
 * "SYS_PTRACE", space-separated): in a container the docker run and
 * Kubernetes securityContext settings, else root or setcap. Static text
 * or buf.
 */
const char *hints__grant(const struct hints_host *h, const char *caps,
			 char *buf, size_t len);
/*
 * The one line that fixes a failed step with errno err on host h (pure:
 * tests/unit/test_check_hints.c). Static text or buf.
 */
const char *hints__fix(const struct hints_host *h, enum sampler_step step,
		       int err, char *buf, size_t len);
/*
 * What failed, into buf: "cannot attach PROG to EVENT: strerror (ENAME)"
 * (load: "cannot load PROG (OBJECT)", open: "cannot open EVENT (for
 * PROG)"). Returns buf.
 */
const char *hints__describe(const struct sampler_fail *f, char *buf,
			    size_t len);
/* Report f on stderr: what failed and, on the same line, the fix. */
void hints__report(const struct sampler_fail *f);
/* Report missing capabilities caps ("CAP_BPF and CAP_PERFMON"). */
void hints__perm_error(const char *caps);

#endif
