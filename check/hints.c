/*
 * hints: the one line that fixes what a host lacks (hints.h).
 */
#include <ctype.h>
#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "hints.h"

bool hints__has_cap(int cap)
{
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2] = {};

	if (syscall(SYS_capget, &h, d))
		return false;
	return d[cap / 32].effective & (1U << (cap % 32));
}

int hints__missing_caps(char *buf, size_t len)
{
	bool bpf, perfmon;

	if (hints__has_cap(CAP_SYS_ADMIN))
		return 0;
	bpf = hints__has_cap(CAP_BPF);
	perfmon = hints__has_cap(CAP_PERFMON);
	if (bpf && perfmon)
		return 0;
	snprintf(buf, len, "%s%s%s", bpf ? "" : "CAP_BPF",
		 !bpf && !perfmon ? " and " : "", perfmon ? "" : "CAP_PERFMON");
	return -EPERM;
}

/* Docker and podman leave a mark at the root; Kubernetes its variables. */
static bool in_container(void)
{
	return !access("/.dockerenv", F_OK) ||
	       !access("/run/.containerenv", F_OK) ||
	       getenv("KUBERNETES_SERVICE_HOST");
}

void hints__host(struct hints_host *h)
{
	char caps[64];

	h->caps = !hints__missing_caps(caps, sizeof(caps));
	h->btf = !access("/sys/kernel/btf/vmlinux", R_OK);
	h->container = in_container();
}

const char *hints__grant(const struct hints_host *h, const char *caps,
			 char *buf, size_t len)
{
	char add[128] = "", lower[64] = "", list[96] = "";
	size_t na = 0, nl = 0, nk = 0;
	char *save, *c, copy[64];

	snprintf(copy, sizeof(copy), "%s", caps);
	for (c = strtok_r(copy, " ", &save); c;
	     c = strtok_r(NULL, " ", &save)) {
		na += snprintf(add + na, sizeof(add) - na, " --cap-add %s", c);
		nk += snprintf(list + nk, sizeof(list) - nk, "%s%s",
			       nk ? ", " : "", c);
		nl += snprintf(lower + nl, sizeof(lower) - nl, "%scap_",
			       nl ? "," : "");
		for (; *c && nl < sizeof(lower) - 1; c++)
			lower[nl++] = tolower((unsigned char)*c);
		lower[nl] = 0;
	}
	if (h->container)
		snprintf(buf, len,
			 "run as root in a container given %s: docker run%s "
			 "(Kubernetes: securityContext: {capabilities: {add: "
			 "[%s]}})",
			 list, add, list);
	else
		snprintf(buf, len,
			 "run as root, or: sudo setcap %s+ep $(command -v "
			 "mixprof)",
			 lower);
	return buf;
}

static const char *const needs[HINT_NR] = {
    [HINT_KERNEL] = "a 6.1 or later kernel",
    [HINT_BTF] = "the kernel lacks BTF (/sys/kernel/btf/vmlinux): boot a "
		 "kernel built with CONFIG_DEBUG_INFO_BTF=y",
    [HINT_PERF_EVENTS] = "a kernel built with CONFIG_PERF_EVENTS=y",
    [HINT_PARANOID] = "sysctl -w kernel.perf_event_paranoid=0 (BPF still "
		      "needs CAP_BPF)",
    [HINT_CPU_CLOCK] = "none needed (runs sample cpu-clock); in a VM, a "
		       "virtual PMU passed through gives cycles",
    [HINT_UPROBE_PMU] = "a kernel built with CONFIG_UPROBE_EVENTS=y",
    [HINT_MEMLOCK] = "ulimit -l unlimited (kernels before 5.11)",
    [HINT_JDK] = "install a JDK (apt-get install openjdk-17-jdk) or set "
		 "JAVA_HOME",
    [HINT_HOTSPOT] = "a HotSpot JDK (OpenJDK, Temurin, Corretto...)",
    [HINT_JVM_PID] = "give the java process's pid (pgrep -a java)",
    [HINT_JVM_STARTING] = "the JVM is starting: check again in a second",
    [HINT_JVM_LAYOUT] = "a HotSpot layout mixprof does not know: --agent "
			"names compiled frames through the JVM's own agent",
    [HINT_JVM_IDLE] = "check it while the JVM is busy (nothing of it ran "
		      "on a CPU)",
    [HINT_JVM_WALK] = "run the JVM with -XX:+PreserveFramePointer, or "
		      "report it with the JVM's java -version",
    [HINT_VERBOSE] = "run with -v for libbpf's messages",
};

const char *hints__need(enum hints_need need)
{
	return need < HINT_NR && needs[need] ? needs[need]
					     : needs[HINT_VERBOSE];
}

/* EPERM or EACCES with the capabilities: what else denies it. */
static const char *denied(const struct hints_host *h, enum sampler_step step,
			  int err)
{
	if (step == SAMPLER_STEP_LOAD && err == EACCES)
		return "the kernel's verifier refused the program: run with -v "
		       "for its log (mixprof needs Linux 6.1 or later)";
	if (h->container)
		return "the container's seccomp profile denies bpf() or "
		       "perf_event_open(): docker run --security-opt "
		       "seccomp=unconfined (Kubernetes: securityContext: "
		       "{seccompProfile: {type: Unconfined}})";
	if (step == SAMPLER_STEP_PERF_OPEN)
		return "a security module or kernel.perf_event_paranoid denies "
		       "it: sysctl -w kernel.perf_event_paranoid=1 (and see "
		       "/sys/kernel/security/lockdown)";
	return "a security module or kernel lockdown denies it (see "
	       "/sys/kernel/security/lockdown and the audit log)";
}

/* A hook that is not there: what the kernel lacks, by the kind of hook. */
static const char *missing(const struct hints_host *h, enum sampler_step step)
{
	if (!h->btf &&
	    (step == SAMPLER_STEP_LOAD || step == SAMPLER_STEP_TP_BTF))
		return needs[HINT_BTF];
	switch (step) {
	case SAMPLER_STEP_PERF_OPEN:
	case SAMPLER_STEP_PERF_ATTACH:
		return "the kernel has no such perf event "
		       "(CONFIG_PERF_EVENTS=y; "
		       "in a VM, cpu-clock is used when cycles is missing)";
	case SAMPLER_STEP_TRACEPOINT:
		return "tracefs is not mounted: mount -t tracefs tracefs "
		       "/sys/kernel/tracing";
	case SAMPLER_STEP_TP_BTF:
	case SAMPLER_STEP_RAW_TP:
		return "the kernel lacks this tracepoint: mixprof needs Linux "
		       "6.1 or later";
	case SAMPLER_STEP_UPROBE:
		return "no such symbol in the library (a HotSpot JVM whose "
		       "libjvm.so keeps its .symtab), or the kernel lacks the "
		       "uprobe PMU (CONFIG_UPROBE_EVENTS=y)";
	case SAMPLER_STEP_USDT:
		return "no such USDT note in the agent library, or the kernel "
		       "lacks the uprobe PMU (CONFIG_UPROBE_EVENTS=y)";
	default:
		return "the kernel lacks a BPF feature mixprof uses: Linux 6.1 "
		       "or later with BTF; run with -v for libbpf's messages";
	}
}

const char *hints__fix(const struct hints_host *h, enum sampler_step step,
		       int err, char *buf, size_t len)
{
	switch (err) {
	case EPERM:
	case EACCES:
		if (!h->caps)
			return hints__grant(h, "BPF PERFMON", buf, len);
		return denied(h, step, err);
	case ENOENT:
	case ESRCH:
	case EOPNOTSUPP:
	case 524: /* ENOTSUPP, the kernel's own: not in user space's list */
	case EINVAL:
	case ENODEV:
		return missing(h, step);
	case EMFILE:
	case ENFILE:
		return "too many open files: ulimit -n 65536 (a perf event and "
		       "a link per CPU)";
	case ENOMEM:
	case E2BIG:
		return "not enough memory for the BPF maps: ulimit -l "
		       "unlimited "
		       "(kernels before 5.11), or a smaller "
		       "--counts-size";
	case EBUSY:
		return "another tool holds the hook or the PMU (perf, another "
		       "profiler): stop it and retry";
	default:
		return needs[HINT_VERBOSE];
	}
}

const char *hints__describe(const struct sampler_fail *f, char *buf, size_t len)
{
	int err = f->err ? f->err : EIO;
	const char *name = strerrorname_np(err);

	if (!f->prog[0]) { /* a step that recorded nothing: a bug of ours */
		snprintf(buf, len, "cannot start the sampler: %s (%s)",
			 strerror(err), name ? name : "?");
		return buf;
	}
	switch (f->step) {
	case SAMPLER_STEP_LOAD:
		snprintf(buf, len, "cannot load %s (%s): %s (%s)", f->prog,
			 f->event, strerror(err), name ? name : "?");
		break;
	case SAMPLER_STEP_SETUP:
		snprintf(buf, len, "cannot set up the %s's %s: %s (%s)",
			 f->prog, f->event, strerror(err), name ? name : "?");
		break;
	case SAMPLER_STEP_PERF_OPEN:
		snprintf(buf, len, "cannot open %s (for %s): %s (%s)", f->event,
			 f->prog, strerror(err), name ? name : "?");
		break;
	default:
		snprintf(buf, len, "cannot attach %s to %s: %s (%s)", f->prog,
			 f->event, strerror(err), name ? name : "?");
	}
	return buf;
}

void hints__report(const struct sampler_fail *f)
{
	struct hints_host h;
	char what[384], fix[256];

	hints__host(&h);
	fprintf(
	    stderr, "mixprof: %s; fix: %s\n",
	    hints__describe(f, what, sizeof(what)),
	    hints__fix(&h, f->step, f->err ? f->err : EIO, fix, sizeof(fix)));
}

void hints__perm_error(const char *caps)
{
	struct hints_host h;
	char fix[256];

	hints__host(&h);
	fprintf(stderr, "mixprof: permission denied: needs %s; fix: %s\n", caps,
		hints__grant(&h, "BPF PERFMON", fix, sizeof(fix)));
}
