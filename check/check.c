/*
 * check: what this host allows (check.h): the kernel and its BTF,
 * privileges, the sysctls, the perf events that open, the real BPF
 * sampler loaded and attached, the JDKs found; the -p lines in
 * check_jvm.c. The fixes come from hints.c, as a failed run's do.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "check.h"
#include "common/nsec.h"
#include "common/safename.h"
#include "hints.h"
#include "sampler/cpus.h"
#include "sampler/sampler_ctl.h"

static const char usage_text[] =
    "usage: mixprof check [-p PID] [-v]\n"
    "What this host allows, one line per item: OK, or what is missing\n"
    "(NO: a CPU profile cannot work without it; WARN: a part is lost)\n"
    "and the one line that gets it. Loads and attaches the real BPF\n"
    "sampler (and frees it), opens the perf events, lists the JDKs found\n"
    "(JAVA_HOME, java on PATH, /usr/lib/jvm).\n"
    "\n"
    "  -p, --pid PID   also: is PID a JVM, can its VMStructs tables be\n"
    "                  read, are its stacks walked (a 1 s profile of it)\n"
    "  -v, --verbose   libbpf's messages on stderr\n"
    "  -h, --help      this text\n"
    "\n"
    "Exit status: 0 when a CPU profile (of PID, with -p) will work, 1 when\n"
    "not, 2 for a bad command line.\n";

static bool verbose;

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list args)
{
	return verbose ? vfprintf(stderr, fmt, args) : 0;
}

void check__say(struct check *c, enum check_verdict v, const char *fix,
		const char *fmt, ...)
{
	static const char *const tag[] = {"OK  ", "WARN", "NO  "};
	char line[1024], safe[SAFENAME_SIZE(sizeof(line))];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* a line may name a target's comm or path */
	printf("%s %s\n", tag[v], safename__show(safe, sizeof(safe), line));
	if (v != CHECK_OK && fix)
		printf("     fix: %s\n", fix);
	if (v == CHECK_NO)
		c->nr_no++;
	fflush(stdout);
}

/* A sysctl's number under /proc/sys: 0 or -errno. */
static int sysctl_read(const char *path, long *val)
{
	FILE *f = fopen(path, "re");
	int ret = -EINVAL;

	if (!f)
		return -errno;
	if (fscanf(f, "%ld", val) == 1)
		ret = 0;
	fclose(f);
	return ret;
}

/* The running kernel's major and minor version. */
static int kernel_version(int *maj, int *min, char *rel, size_t len)
{
	struct utsname u;

	if (uname(&u))
		return -errno;
	snprintf(rel, len, "%s", u.release);
	return sscanf(u.release, "%d.%d", maj, min) == 2 ? 0 : -EINVAL;
}

static bool kernel_at_least(int maj, int min)
{
	int a = 0, b = 0;
	char rel[65];

	kernel_version(&a, &b, rel, sizeof(rel));
	return a > maj || (a == maj && b >= min);
}

static void check_kernel(struct check *c, const struct hints_host *h)
{
	char rel[65] = "?";
	int maj = 0, min = 0;

	kernel_version(&maj, &min, rel, sizeof(rel));
	if (kernel_at_least(6, 1))
		check__say(c, CHECK_OK, NULL, "kernel %s (6.1 or later)", rel);
	else
		check__say(c, CHECK_WARN, hints__need(HINT_KERNEL),
			   "kernel %s: mixprof is built for 6.1 and later",
			   rel);
	if (h->btf)
		check__say(
		    c, CHECK_OK, NULL,
		    "BTF: /sys/kernel/btf/vmlinux (tp_btf hooks, CO-RE)");
	else
		check__say(c, CHECK_NO, hints__need(HINT_BTF),
			   "BTF: no /sys/kernel/btf/vmlinux");
}

static void check_privileges(struct check *c, const struct hints_host *h)
{
	char caps[64], fix[256];

	c->caps = h->caps;
	if (hints__missing_caps(caps, sizeof(caps)))
		check__say(c, CHECK_NO,
			   hints__grant(h, "BPF PERFMON", fix, sizeof(fix)),
			   "privileges: uid %u without %s", geteuid(), caps);
	else
		check__say(
		    c, CHECK_OK, NULL, "privileges: uid %u with %s", geteuid(),
		    hints__has_cap(CAP_SYS_ADMIN) ? "CAP_SYS_ADMIN (root)"
						  : "CAP_BPF and "
						    "CAP_PERFMON");
}

/*
 * Java frames are named from the JVM's memory (process_vm_readv): any
 * user's JVM with CAP_SYS_PTRACE, else only one's own, and under
 * kernel.yama.ptrace_scope >= 2 none.
 */
static void check_ptrace(struct check *c, const struct hints_host *h)
{
	long scope = 0;
	char fix[256], who[64];

	sysctl_read("/proc/sys/kernel/yama/ptrace_scope", &scope);
	if (hints__has_cap(CAP_SYS_PTRACE)) {
		check__say(c, CHECK_OK, NULL,
			   "reading JVMs' memory (Java names): CAP_SYS_PTRACE, "
			   "any user's JVM");
		return;
	}
	if (scope >= 2)
		snprintf(who, sizeof(who),
			 "no JVM (kernel.yama.ptrace_scope "
			 "= %ld)",
			 scope);
	else
		snprintf(who, sizeof(who), "only JVMs of uid %u", geteuid());
	check__say(
	    c, CHECK_WARN, hints__grant(h, "SYS_PTRACE", fix, sizeof(fix)),
	    "reading JVMs' memory (Java names): no CAP_SYS_PTRACE: %s", who);
}

static void check_paranoid(struct check *c)
{
	long v;

	if (sysctl_read("/proc/sys/kernel/perf_event_paranoid", &v)) {
		check__say(c, CHECK_NO, hints__need(HINT_PERF_EVENTS),
			   "kernel.perf_event_paranoid: missing (no perf "
			   "events)");
		return;
	}
	if (c->caps)
		check__say(c, CHECK_OK, NULL,
			   "kernel.perf_event_paranoid = %ld (CAP_PERFMON "
			   "overrides it)",
			   v);
	else
		check__say(c, v <= 0 ? CHECK_OK : CHECK_NO,
			   hints__need(HINT_PARANOID),
			   "kernel.perf_event_paranoid = %ld: every process's "
			   "events on a CPU need <= 0 without CAP_PERFMON",
			   v);
}

/* The sampling events a run opens, on the first online CPU. */
static void check_events(struct check *c, const struct hints_host *h, int cpu)
{
	static const char *const name[] = {"software cpu-clock",
					   "hardware cycles"};
	char fix[256];
	int fd;

	for (int hw = 1; hw >= 0; hw--) {
		fd = sampler__open_event(cpu, 99, hw);
		if (fd >= 0) {
			close(fd);
			check__say(c, CHECK_OK, NULL,
				   "perf event %s opens (CPU %d)", name[hw],
				   cpu);
			continue;
		}
		check__say(c, hw ? CHECK_WARN : CHECK_NO,
			   hw && (errno == ENOENT || errno == EOPNOTSUPP ||
				  errno == ENODEV)
			       ? hints__need(HINT_CPU_CLOCK)
			       : hints__fix(h, SAMPLER_STEP_PERF_OPEN, errno,
					    fix, sizeof(fix)),
			   "perf event %s: %s (%s)", name[hw], strerror(errno),
			   strerrorname_np(errno));
	}
}

/*
 * Load the real sampler with a run's defaults and attach it (a -p or
 * launch run's hooks: perf events on every CPU, fork, exec; or
 * --off-cpu's sched_switch), then free it. With no target nothing is
 * counted. 0 or -errno, *f what failed.
 */
static int try_sampler(bool off_cpu, const int *cpus, int nr_cpus,
		       struct sampler_fail *f, char *event, size_t len)
{
	struct sampler_cfg cfg = {
	    .freq = 99,
	    .bucket_ns = 1000000000ULL,
	    .counts_size = 4096,
	    .depth = 1024,
	    .filter_pids = true,
	    .user = true,
	    .kernel = true,
	    .unwind_mode = UNWIND_MODE_HOTSPOT,
	    .off_cpu = off_cpu,
	    .cpus = cpus,
	    .nr_cpus = nr_cpus,
	};
	struct sampler *s = sampler__new(&cfg, f);
	int ret;

	if (!s)
		return -errno;
	ret = sampler__attach(s, nsec__now());
	if (ret)
		*f = *sampler__failure(s);
	snprintf(event, len, "%s", sampler__event_name(s));
	sampler__free(s);
	return ret;
}

static void check_sampler(struct check *c, const struct hints_host *h,
			  const int *cpus, int nr_cpus)
{
	char what[384], fix[256], event[64];
	struct sampler_fail f = {};

	if (!try_sampler(false, cpus, nr_cpus, &f, event, sizeof(event)))
		check__say(c, CHECK_OK, NULL,
			   "BPF sampler: loaded, attached (%s on %d CPUs, "
			   "fork and exec hooks) and freed",
			   event, nr_cpus);
	else
		check__say(
		    c, CHECK_NO, hints__fix(h, f.step, f.err, fix, sizeof(fix)),
		    "BPF sampler: %s", hints__describe(&f, what, sizeof(what)));
	memset(&f, 0, sizeof(f));
	if (!try_sampler(true, cpus, nr_cpus, &f, event, sizeof(event)))
		check__say(c, CHECK_OK, NULL,
			   "off-CPU and wall (--off-cpu, --wall): %s attached",
			   event);
	else
		check__say(c, CHECK_WARN,
			   hints__fix(h, f.step, f.err, fix, sizeof(fix)),
			   "off-CPU and wall (--off-cpu, --wall): %s",
			   hints__describe(&f, what, sizeof(what)));
}

/* --alloc, --lock and -e hook user code through the uprobe PMU (no tracefs). */
static void check_uprobes(struct check *c)
{
	if (!access("/sys/bus/event_source/devices/uprobe/type", R_OK))
		check__say(c, CHECK_OK, NULL,
			   "uprobe PMU (--alloc, --lock, -e): "
			   "/sys/bus/event_source/devices/uprobe");
	else
		check__say(c, CHECK_WARN, hints__need(HINT_UPROBE_PMU),
			   "uprobe PMU (--alloc, --lock, -e): missing");
}

/* Since 5.11 BPF memory is charged to the cgroup, not RLIMIT_MEMLOCK. */
static void check_memlock(struct check *c)
{
	struct rlimit rl = {};
	char lim[32] = "unlimited";

	getrlimit(RLIMIT_MEMLOCK, &rl);
	if (rl.rlim_cur != RLIM_INFINITY)
		snprintf(lim, sizeof(lim), "%llu KiB",
			 (unsigned long long)rl.rlim_cur / 1024);
	if (kernel_at_least(5, 11))
		check__say(c, CHECK_OK, NULL,
			   "memlock limit %s: not used (BPF memory is "
			   "charged to the cgroup since 5.11)",
			   lim);
	else
		check__say(c,
			   rl.rlim_cur == RLIM_INFINITY ||
				   rl.rlim_cur >= (256ULL << 20)
			       ? CHECK_OK
			       : CHECK_NO,
			   hints__need(HINT_MEMLOCK), "memlock limit %s", lim);
}

/* Where tracefs is mounted, if anywhere: nothing of ours uses it. */
static void check_tracefs(struct check *c)
{
	char line[1024], at[512] = "";
	FILE *f = fopen("/proc/self/mountinfo", "re");

	while (f && !*at && fgets(line, sizeof(line), f))
		if (strstr(line, " - tracefs "))
			sscanf(line, "%*s %*s %*s %*s %511s", at);
	if (f)
		fclose(f);
	check__say(c, CHECK_OK, NULL, "tracefs: not needed (%s%s)",
		   *at ? "mounted at " : "not mounted", at);
}

static void check_bpf_stats(struct check *c)
{
	long v = 0;

	if (sysctl_read("/proc/sys/kernel/bpf_stats_enabled", &v))
		check__say(c, CHECK_OK, NULL,
			   "kernel.bpf_stats_enabled: absent (not needed)");
	else
		check__say(c, CHECK_OK, NULL,
			   "kernel.bpf_stats_enabled = %ld (not needed; the "
			   "bench turns it on for its BPF costs)",
			   v);
}

static int parse_args(int argc, char **argv, long *pid)
{
	char *end;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage_text, stdout);
			return 1;
		}
		if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) {
			verbose = true;
			continue;
		}
		if ((strcmp(argv[i], "-p") && strcmp(argv[i], "--pid")) ||
		    i + 1 == argc) {
			fprintf(stderr,
				"mixprof: check: bad argument '%s' (see "
				"'mixprof check --help')\n",
				argv[i]);
			return -EINVAL;
		}
		*pid = strtol(argv[++i], &end, 10);
		if (*end || *pid <= 0 || *pid > INT_MAX) {
			fprintf(stderr, "mixprof: check: bad PID '%s'\n",
				argv[i]);
			return -EINVAL;
		}
	}
	return 0;
}

int check__cmd(int argc, char **argv)
{
	struct check c = {};
	struct hints_host h;
	int *cpus = NULL, nr_cpus = 0;
	long pid = 0;
	int ret = parse_args(argc, argv, &pid);

	if (ret)
		return ret > 0 ? 0 : 2;
	libbpf_set_print(libbpf_print);
	hints__host(&h);
	check_kernel(&c, &h);
	check_privileges(&c, &h);
	check_ptrace(&c, &h);
	check_paranoid(&c);
	if (cpus__online(&cpus, &nr_cpus))
		check__say(&c, CHECK_NO, NULL, "online CPUs: unreadable");
	else
		check_events(&c, &h, cpus[0]);
	if (nr_cpus && c.caps)
		check_sampler(&c, &h, cpus, nr_cpus);
	else
		check__say(&c, CHECK_NO, "the privileges above",
			   "BPF sampler: not tried without privileges");
	free(cpus);
	check_uprobes(&c);
	check_memlock(&c);
	check_tracefs(&c);
	check_bpf_stats(&c);
	check__jdks(&c);
	if (pid)
		check__jvm(&c, pid);
	return c.nr_no ? 1 : 0;
}
