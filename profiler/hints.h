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
 * tests/unit/test_prof_hints.c). Static text or buf.
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
