/*
 * profile_opts: the profile command line. Strict getopt_long parsing: every
 * number is checked whole and in range, and an error names the flag and
 * the value it got.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "stacks/linefilter.h"
#include "profile_opts.h"

enum {
	OPT_STACK_STORAGE = 256,
	OPT_PER_THREAD,
	OPT_NO_ANNOTATE,
	OPT_LINES,
	OPT_NO_ATTACH,
	OPT_AGENT,
	OPT_BUCKET_MS,
	OPT_STACK_DEPTH,
	OPT_COUNTS_SIZE,
	OPT_SVG,
	OPT_HTML,
	OPT_MONTAGE,
	OPT_HEATMAP,
	OPT_TITLE,
	OPT_COUNT,
	OPT_HELP,
	OPT_FORMAT,
	OPT_TID,
	OPT_THREAD,
	OPT_QUIET,
	OPT_OFF_CPU,
	OPT_OFF_CPU_PREEMPT,
	OPT_MIN_BLOCK,
	OPT_MAX_BLOCK,
	OPT_WALL,
	OPT_ALLOC,
	OPT_LOCK,
	OPT_EVENTS,
	OPT_TTSP,
	OPT_TIERS,
	OPT_PER_CONTAINER,
};

static const struct option long_opts[] = {
    {"pid", required_argument, NULL, 'p'},
    {"frequency", required_argument, NULL, 'F'},
    {"user-stacks-only", no_argument, NULL, 'U'},
    {"kernel-stacks-only", no_argument, NULL, 'K'},
    {"delimited", no_argument, NULL, 'd'},
    {"folded", no_argument, NULL, 'f'},
    {"output", required_argument, NULL, 'o'},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"include", required_argument, NULL, 'I'},
    {"exclude", required_argument, NULL, 'X'},
    {"tid", required_argument, NULL, OPT_TID},
    {"thread", required_argument, NULL, OPT_THREAD},
    {"quiet", no_argument, NULL, OPT_QUIET},
    {"interval", required_argument, NULL, 'i'},
    {"verbose", no_argument, NULL, 'v'},
    {"stack-storage-size", required_argument, NULL, OPT_STACK_STORAGE},
    {"per-thread", no_argument, NULL, OPT_PER_THREAD},
    {"no-annotate", no_argument, NULL, OPT_NO_ANNOTATE},
    {"tiers", no_argument, NULL, OPT_TIERS},
    {"per-container", no_argument, NULL, OPT_PER_CONTAINER},
    {"lines", no_argument, NULL, OPT_LINES},
    {"no-attach", no_argument, NULL, OPT_NO_ATTACH},
    {"agent", no_argument, NULL, OPT_AGENT},
    {"bucket-ms", required_argument, NULL, OPT_BUCKET_MS},
    {"stack-depth", required_argument, NULL, OPT_STACK_DEPTH},
    {"counts-size", required_argument, NULL, OPT_COUNTS_SIZE},
    {"svg", required_argument, NULL, OPT_SVG},
    {"html", required_argument, NULL, OPT_HTML},
    {"montage", required_argument, NULL, OPT_MONTAGE},
    {"heatmap", required_argument, NULL, OPT_HEATMAP},
    {"title", required_argument, NULL, OPT_TITLE},
    {"event", required_argument, NULL, 'e'},
    {"count", no_argument, NULL, OPT_COUNT},
    {"help", no_argument, NULL, OPT_HELP},
    {"off-cpu", no_argument, NULL, OPT_OFF_CPU},
    {"off-cpu-preempt", no_argument, NULL, OPT_OFF_CPU_PREEMPT},
    {"min-block", required_argument, NULL, OPT_MIN_BLOCK},
    {"max-block", required_argument, NULL, OPT_MAX_BLOCK},
    {"wall", no_argument, NULL, OPT_WALL},
    {"alloc", no_argument, NULL, OPT_ALLOC},
    {"lock", no_argument, NULL, OPT_LOCK},
    {"events", required_argument, NULL, OPT_EVENTS},
    {"ttsp", no_argument, NULL, OPT_TTSP},
    {0},
};

/* The text is laid out as it prints. */
/* clang-format off */
void profile_opts__usage(FILE *out, const char *prog)
{
	fprintf(out,
"Usage: %s [OPTIONS] [DURATION]\n"
"       %s [OPTIONS] -- COMMAND [ARGS...]\n"
"Sample on-CPU stacks (Java, JVM, native and kernel frames in one stack)\n"
"and print them folded, root first: \"comm;frame;...;frame count\".\n"
"\n"
"  DURATION                 seconds to profile (default: until Ctrl-C,\n"
"                           or until the target exits)\n"
"  -- COMMAND ARGS          launch COMMAND and profile it and every process\n"
"                           it starts, from its first instruction (JVMs\n"
"                           as they are: nothing is added unless --agent)\n"
"  -p, --pid PID[,PID]      profile these processes (all their threads and\n"
"                           the processes they start during the run)\n"
"                           instead of the host; a pid that is not a JVM but\n"
"                           has JVMs below it gets the first one named\n"
"  -F, --frequency HZ       samples per second per CPU (default 99)\n"
"  -U, --user-stacks-only   user frames only\n"
"  -K, --kernel-stacks-only kernel frames only\n"
"  -d, --delimited          put a \"-\" frame between user and kernel frames\n"
"  -f, --folded             folded text output (the default)\n"
"      --format folded|pprof|jfr  pprof: gzipped profile.proto (go tool\n"
"                           pprof, Pyroscope, Parca), the default when -o\n"
"                           ends in .pb.gz or .pprof; jfr: a JFR recording\n"
"                           (JDK Mission Control, IntelliJ, jfr), the\n"
"                           default for .jfr, implies --per-thread and\n"
"                           --lines; slices are slice-NNNN.pb.gz or .jfr\n"
"  -o, --output FILE|DIR    write to FILE (default stdout, or nothing when\n"
"                           --svg, --html or --heatmap is given); with -i,\n"
"                           a directory of slices\n"
"  -i, --interval SECS      cut the profile into slices of SECS (may be\n"
"                           fractional): DIR/slice-NNNN.folded and\n"
"                           DIR/slices.tsv (index start_ns end_ns samples\n"
"                           file partial; CLOCK_MONOTONIC, as System.nanoTime)\n"
"      --per-thread         a \"name [tid]\" frame under the process frame\n"
"      --per-container      a \"[container ID]\" frame under the process\n"
"                           frame of processes in a container (the id from\n"
"                           its cgroup: Docker, Kubernetes, containerd,\n"
"                           CRI-O, Podman); pprof: labels container.id and\n"
"                           process.linux.cgroup\n"
"  -I, --include REGEX      keep only stacks with a frame REGEX matches\n"
"                           (POSIX extended, frames as folded; again: any)\n"
"  -X, --exclude REGEX      drop stacks with a frame REGEX matches\n"
"      --tid TID[,TID]      only these threads (implies --per-thread)\n"
"      --thread REGEX       only threads whose name matches (Java threads\n"
"                           by their whole Java name; implies --per-thread)\n"
"  -q, --quiet              no start line, status line or summary (errors\n"
"                           and warnings still)\n"
"      --stack-storage-size N  no effect (stacks are no longer kept in a\n"
"                           kernel map); accepted for old command lines\n"
"      --no-annotate        no _[0] _[1] _[j] _[i] _[k] frame suffixes\n"
"      --tiers              folded text keeps each Java frame's tier: _[0]\n"
"                           interpreted, _[1] C1, _[j] C2 (default: _[j]\n"
"                           for all three, as flamegraph.pl --color=java\n"
"                           knows only _[j] _[i] _[k]); pprof and our\n"
"                           graphs always keep them\n"
"      --lines              compiled Java frames as Class.method:LINE\n"
"      --agent              load the map agent (libjmap.so) into the JVMs\n"
"                           (-p: attach; launch: -agentpath) for perf-map\n"
"                           files; Java frames are named without it, from\n"
"                           the JVM's own metadata\n"
"      --no-attach          never load the agent (not even for -e)\n"
"Java method entry probes (instead of CPU sampling; one JVM, -p or a\n"
"command; the agent instruments the methods and removes it at the end):\n"
"  -e, --event java:CLASS.METHOD[(DESC)]  probe the entries of these methods\n"
"                           (* matches any run of characters, class dotted\n"
"                           or slashed; -e again for more): folded stacks\n"
"                           of the callers, counts = calls\n"
"      --count              with -e: no stacks; a table METHOD TOTAL\n"
"                           CALLS_PER_S, biggest first\n"
"  -v, --verbose            libbpf and debug messages on stderr\n"
"  -h, --help               this text (also: mixprof help [COMMAND])\n"
"Off-CPU time (instead of CPU sampling):\n"
"      --off-cpu            at each switch out of a target thread that\n"
"                           blocks (sleep, lock, I/O: not runnable), its\n"
"                           user and kernel stacks; counts = microseconds\n"
"                           until it runs again (blue graphs, in ms)\n"
"      --off-cpu-preempt    count involuntary switches (runnable) too\n"
"      --min-block US       only blocks of at least US microseconds\n"
"      --max-block US       only blocks of at most US microseconds\n"
"      --wall               per thread, on-CPU samples (1 s / -F each) and\n"
"                           off-CPU time (blocked or preempted) on one\n"
"                           axis, counts = microseconds of wall time\n"
"      --alloc              one JVM (-p): bytes allocated, by stack, the\n"
"                           class as the leaf (libjvm's allocation hooks:\n"
"                           each new TLAB and each allocation outside one)\n"
"      --lock               one JVM (-p or a launched java): nanoseconds\n"
"                           waited for contended monitors and j.u.c. locks,\n"
"                           by stack, the lock's class as the leaf and its\n"
"                           owner when the wait began under it\n"
"JVM events (besides any of the above; one JVM: -p PID or a launched java):\n"
"      --events FILE        HotSpot's own events from its USDT probes (no\n"
"                           agent, no JVM flag), one line each: start_ns\n"
"                           end_ns kind detail, tab-separated, kinds gc,\n"
"                           safepoint (with its time to safepoint), vmop,\n"
"                           compile, deopt, classload; totals in the summary;\n"
"                           FILE.pb.gz or FILE.pprof: totals by kind as a\n"
"                           pprof profile (events/count, duration/nanoseconds)\n"
"      --ttsp               with --events: keep only the samples taken while\n"
"                           a safepoint waited for threads to stop (its time\n"
"                           to safepoint; 1 ms buckets): who held it back\n"
"Rendering (self-contained files; any browser, offline):\n"
"      --svg FILE           the run's flame graph, interactive SVG\n"
"      --html FILE          the same as an HTML page (canvas, for big ones)\n"
"      --montage DIR        warmup montage: the slices (-i, default 10 s) go\n"
"                           to DIR as with -o DIR (so no -o), each also as\n"
"                           a flame graph; DIR/index.html shows them in\n"
"                           order\n"
"      --heatmap DIR        count in 10 ms buckets; write DIR/samples.timed\n"
"                           and DIR/heatmap.html (seconds across, 20 ms\n"
"                           rows down; drag a range to see its graph)\n"
"      --title TEXT         title of the graphs (default: the command, the\n"
"                           pids or \"whole host\")\n"
"Advanced:\n"
"      --stack-depth N      frames kept per stack (default 1024)\n"
"      --bucket-ms N        time resolution of the counts (default 1000)\n"
"      --counts-size N      distinct (stack, time bucket) entries (default:\n"
"                           one per sample of 2 s on every CPU, >= 4096)\n"
"\n"
"Examples:\n"
"  %s -p 1234 30                   # one process, 30 s, to stdout\n"
"  %s -F 999 -o out.folded 10      # whole host at 999 Hz\n"
"  %s -o warm.folded -- java -jar app.jar\n"
"  %s -i 1 -o slices/ -p 1234 60   # one folded file per second\n"
"  %s --svg out.svg -p 1234 30     # a flame graph, no folded text\n"
"  %s -i 30 --montage warm/ --heatmap warm/ -- java -jar app.jar\n"
"  %s -p 1234 -e 'java:java.util.ArrayList.add' 10   # who calls it\n"
"  %s -p 1234 -e 'java:com.acme.*.handle*' --count 10\n"
"\n"
"Exit status: 0 profiled (also when stdout's reader left early, as | head\n"
"does: the summary says what was not written); 1 runtime failure, an\n"
"output that could not be written (a full disk) among them; 2 bad command\n"
"line; 3 missing privilege (CAP_BPF and CAP_PERFMON, or root). With -e, a\n"
"pattern the agent refuses exits 2, one matching no method 1. In launch\n"
"mode, once profiled, the command's own status (128 + N when signal N\n"
"killed it), as perf record does; mixprof's own failures always print a\n"
"\"mixprof:\" error line on stderr.\n",
		prog, prog, prog, prog, prog, prog, prog, prog, prog, prog);
}
/* clang-format on */

/* Whole-string unsigned decimal in [min, max]; 0 or -EINVAL. */
static int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *v)
{
	unsigned long long x;
	char *end;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || *end || x < min || x > max)
		return -EINVAL;
	*v = x;
	return 0;
}

int profile_opts__seconds(const char *s, uint64_t min_ns, uint64_t *ns)
{
	uint64_t whole = 0, frac = 0, scale = NSEC_PER_SEC;
	const char *p = s;
	int digits = 0;

	for (; *p >= '0' && *p <= '9'; p++, digits++) {
		if (whole > UINT64_MAX / NSEC_PER_SEC / 10)
			return -EINVAL;
		whole = whole * 10 + (*p - '0');
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, digits++) {
			if (scale == 1)
				return -EINVAL; /* finer than 1 ns */
			scale /= 10;
			frac += (*p - '0') * scale;
		}
	}
	if (*p || !digits)
		return -EINVAL;
	*ns = whole * NSEC_PER_SEC + frac;
	return *ns >= min_ns ? 0 : -EINVAL;
}

/* "123,456" into o->pids. */
static int parse_pids(struct profile_opts *o, const char *arg)
{
	char *copy = strdup(arg), *tok, *save = NULL;
	uint32_t *pids;
	uint64_t v;
	int ret = -EINVAL;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (parse_u64(tok, 1, INT_MAX, &v))
			goto out;
		pids = realloc(o->pids, (o->nr_pids + 1) * sizeof(*pids));
		if (!pids) {
			ret = -ENOMEM;
			goto out;
		}
		o->pids = pids;
		o->pids[o->nr_pids++] = v;
	}
	ret = o->nr_pids ? 0 : -EINVAL;
out:
	free(copy);
	return ret;
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static void set_defaults(struct profile_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->freq = 99;
	o->annotate = true;
	o->stack_storage = 16384;
	o->counts_size = 0; /* CPUs x frequency x time alive (run_setup.c) */
	o->stack_depth = 1024;
}

#define BAD(flag, want)                                                        \
	do {                                                                   \
		snprintf(err, errlen, "invalid %s value '%s' (want %s)", flag, \
			 optarg, want);                                        \
		return -EINVAL;                                                \
	} while (0)

/* -I, -X, --tid, --thread into the run's line filter (linefilter.h). */
static int add_filter(struct profile_opts *o, int c, const char *arg, char *err,
		      size_t errlen)
{
	static const char *const names[] = {"-I", "-X", "--thread", "--tid"};
	int which = c == 'I' ? 0 : c == 'X' ? 1 : c == OPT_THREAD ? 2 : 3;
	char why[200];
	int ret;

	if (!o->filter && !(o->filter = linefilter__new()))
		return -ENOMEM;
	if (which == 3)
		ret = linefilter__add_tids(o->filter, arg, why, sizeof(why));
	else
		ret = linefilter__add_regex(o->filter,
					    which == 0	 ? LF_INCLUDE
					    : which == 1 ? LF_EXCLUDE
							 : LF_THREAD,
					    arg, why, sizeof(why));
	if (ret) {
		snprintf(err, errlen, "%s '%s': %s", names[which], arg, why);
		return -EINVAL;
	}
	if (which >= 2)
		o->per_thread = true; /* the lines must name the thread */
	return 0;
}

/* One option; 0, OPTS_HELP, or -EINVAL with err set. */
static int parse_one(struct profile_opts *o, int c, char *err, size_t errlen,
		     uint64_t *bucket_ms)
{
	uint64_t v;

	switch (c) {
	case 'p':
		if (parse_pids(o, optarg))
			BAD("-p", "PID[,PID...]");
		return 0;
	case 'F':
		if (parse_u64(optarg, 1, 100000, &o->freq))
			BAD("-F", "1..100000 Hz");
		o->freq_set = true;
		return 0;
	case 'U':
		o->user_only = true;
		return 0;
	case 'K':
		o->kernel_only = true;
		return 0;
	case 'd':
		o->delimit = true;
		return 0;
	case 'f':
		o->format = PROFILE_FOLDED;
		return 0;
	case 'I':
	case 'X':
	case OPT_THREAD:
		return add_filter(o, c, optarg, err, errlen);
	case OPT_TID:
		return add_filter(o, c, optarg, err, errlen);
	case 'q':
	case OPT_QUIET:
		o->quiet = true;
		return 0;
	case OPT_FORMAT:
		if (!strcmp(optarg, "folded"))
			o->format = PROFILE_FOLDED;
		else if (!strcmp(optarg, "pprof"))
			o->format = PROFILE_PPROF;
		else if (!strcmp(optarg, "jfr"))
			o->format = PROFILE_JFR;
		else
			BAD("--format", "folded, pprof or jfr");
		return 0;
	case 'v':
		o->verbose = true;
		return 0;
	case 'o':
		o->output = optarg;
		return 0;
	case 'i':
		if (profile_opts__seconds(optarg, 10 * NSEC_PER_MSEC,
					  &o->slice_ns))
			BAD("-i", "seconds >= 0.01, e.g. 0.5");
		return 0;
	case OPT_STACK_STORAGE:
		if (parse_u64(optarg, 64, 1U << 24, &v))
			BAD("--stack-storage-size", "64..16777216");
		o->stack_storage = v;
		return 0;
	case OPT_COUNTS_SIZE:
		if (parse_u64(optarg, 64, 1U << 24, &v))
			BAD("--counts-size", "64..16777216");
		o->counts_size = v;
		return 0;
	case OPT_STACK_DEPTH:
		if (parse_u64(optarg, 8, 65535, &v))
			BAD("--stack-depth", "8..65535");
		o->stack_depth = v;
		o->stack_depth_set = true;
		return 0;
	case OPT_BUCKET_MS:
		if (parse_u64(optarg, 1, 3600000, bucket_ms))
			BAD("--bucket-ms", "1..3600000");
		return 0;
	case OPT_PER_THREAD:
		o->per_thread = true;
		return 0;
	case OPT_NO_ANNOTATE:
		o->annotate = false;
		return 0;
	case OPT_TIERS:
		o->tiers = true;
		return 0;
	case OPT_PER_CONTAINER:
		o->per_container = true;
		return 0;
	case OPT_LINES:
		o->lines = true;
		return 0;
	case OPT_AGENT:
		o->agent_opt = 1;
		return 0;
	case OPT_NO_ATTACH:
		o->agent_opt = -1;
		return 0;
	case OPT_SVG:
		o->svg = optarg;
		return 0;
	case OPT_HTML:
		o->html = optarg;
		return 0;
	case OPT_MONTAGE:
		o->montage = optarg;
		return 0;
	case OPT_HEATMAP:
		o->heatmap = optarg;
		return 0;
	case OPT_TITLE:
		o->title = optarg;
		return 0;
	case 'e':
		if (o->nr_probes == PROFILE_MAX_PROBES) {
			snprintf(err, errlen, "more than %d -e patterns",
				 PROFILE_MAX_PROBES);
			return -EINVAL;
		}
		if (!*optarg) {
			snprintf(err, errlen, "-e: empty pattern");
			return -EINVAL;
		}
		o->probes[o->nr_probes++] = optarg;
		return 0;
	case OPT_COUNT:
		o->count = true;
		return 0;
	case OPT_HELP:
		return OPTS_HELP;
	case OPT_OFF_CPU:
		o->off_cpu = true;
		return 0;
	case OPT_ALLOC:
		o->alloc = true;
		return 0;
	case OPT_LOCK:
		o->lock = true;
		return 0;
	case OPT_EVENTS:
		o->events = optarg;
		return 0;
	case OPT_TTSP:
		o->ttsp = true;
		return 0;
	case OPT_WALL:
		o->wall = true;
		o->per_thread = true; /* wall time is a thread's */
		return 0;
	case OPT_OFF_CPU_PREEMPT:
		o->off_cpu_preempt = true;
		return 0;
	case OPT_MIN_BLOCK:
	case OPT_MAX_BLOCK:
		if (parse_u64(optarg, 1, UINT64_MAX / 1000, &v))
			BAD(c == OPT_MIN_BLOCK ? "--min-block" : "--max-block",
			    "microseconds >= 1");
		*(c == OPT_MIN_BLOCK ? &o->min_block_ns : &o->max_block_ns) =
		    v * 1000;
		return 0;
	default:
		return -EINVAL;
	}
}

/* name ends in suffix */
static bool ends_with(const char *name, const char *suffix)
{
	size_t n = strlen(name), k = strlen(suffix);

	return n >= k && !strcmp(name + n - k, suffix);
}

/* The format a file's name asks for: pprof for *.pb.gz or *.pprof, JFR
 * for *.jfr, else folded text. */
static enum profile_format format_of(const char *path)
{
	if (ends_with(path, ".pb.gz") || ends_with(path, ".pprof"))
		return PROFILE_PPROF;
	return ends_with(path, ".jfr") ? PROFILE_JFR : PROFILE_FOLDED;
}

/*
 * The output format: as asked, else as the file's name says. A montage
 * draws its slices, so they stay folded text; pprof and JFR are binary,
 * so not to a terminal. A JFR event names its thread and its frames'
 * types and lines: every line has its thread frame, kind suffixes and
 * lines.
 */
static int check_format(struct profile_opts *o, char *err, size_t errlen)
{
	const char *name = o->format == PROFILE_JFR ? "jfr" : "pprof";

	if (o->format == PROFILE_FORMAT_AUTO)
		o->format = o->output && !o->slice_ns ? format_of(o->output)
						      : PROFILE_FOLDED;
	if (o->format == PROFILE_FOLDED)
		return 0;
	if (o->montage) {
		snprintf(err, errlen,
			 "--montage draws folded slices: leave out --format "
			 "%s (or use -o DIR -i SECS --format %s)",
			 name, name);
		return -EINVAL;
	}
	if (!o->output && isatty(STDOUT_FILENO)) {
		snprintf(err, errlen,
			 "--format %s is binary: give -o FILE.%s or "
			 "redirect stdout",
			 name, o->format == PROFILE_JFR ? "jfr" : "pb.gz");
		return -EINVAL;
	}
	if (o->format == PROFILE_JFR && o->count) {
		snprintf(err, errlen,
			 "--count prints a table: leave out --format jfr");
		return -EINVAL;
	}
	/* and lines: a JDK recording's Java frames all have theirs */
	if (o->format == PROFILE_JFR)
		o->per_thread = o->annotate = o->lines = true;
	return 0;
}

/*
 * The rendering options: --montage DIR is -o DIR with slices (10 s unless
 * -i says), --heatmap fixes 10 ms buckets, and folded text goes to stdout
 * only when nothing else was asked for. Then the bucket length.
 */
static int check_render(struct profile_opts *o, uint64_t bucket_ms, char *err,
			size_t errlen)
{
	bool dflt = o->montage && !o->slice_ns;

	if (o->montage && o->output) {
		snprintf(err, errlen,
			 "--montage DIR writes the folded slices into DIR: "
			 "leave out -o");
		return -EINVAL;
	}
	if (o->montage) {
		o->output = o->montage;
		if (!o->slice_ns)
			o->slice_ns = MONTAGE_SLICE_NS;
	}
	if (o->slice_ns && !o->output) {
		snprintf(err, errlen,
			 "-i needs -o DIR (or --montage DIR) for the slice "
			 "files");
		return -EINVAL;
	}
	if (o->heatmap && bucket_ms && bucket_ms != HEATMAP_BUCKET_MS) {
		snprintf(err, errlen,
			 "--heatmap counts in %d ms buckets: leave out "
			 "--bucket-ms %llu",
			 HEATMAP_BUCKET_MS, (unsigned long long)bucket_ms);
		return -EINVAL;
	}
	if (o->heatmap)
		bucket_ms = HEATMAP_BUCKET_MS;
	o->folded_stdout = !o->output && !o->svg && !o->html && !o->heatmap;
	if (check_format(o, err, errlen))
		return -EINVAL;
	if (bucket_ms) {
		o->bucket_ns = bucket_ms * NSEC_PER_MSEC;
		if (o->slice_ns && o->slice_ns % o->bucket_ns) {
			snprintf(err, errlen,
				 "-i%s must be a multiple of the %llu ms "
				 "buckets%s",
				 dflt ? " (10 s with --montage)" : "",
				 (unsigned long long)bucket_ms,
				 o->heatmap ? " of --heatmap" : "");
			return -EINVAL;
		}
	} else {
		/* slices are unions of buckets: the largest bucket <= 1 s
		 * that divides the slice */
		o->bucket_ns = o->slice_ns ? gcd64(o->slice_ns, NSEC_PER_SEC)
					   : NSEC_PER_SEC;
	}
	return 0;
}

/*
 * A probe run (-e) watches one JVM, counts calls instead of sampling, and
 * with --count prints a table instead of stacks.
 */
static int check_probes(struct profile_opts *o, char *err, size_t errlen)
{
	const char *bad = NULL;

	o->attach = o->agent_opt > 0 || (!o->agent_opt && o->nr_probes);
	if (!o->nr_probes) {
		if (o->count)
			snprintf(err, errlen, "--count needs -e PATTERN");
		return o->count ? -EINVAL : 0;
	}
	if (!o->nr_pids && !o->cmd)
		bad = "-e needs -p PID or a command (after \"--\")";
	else if (o->nr_pids > 1)
		bad = "-e probes one JVM: give one -p PID";
	else if (o->freq_set)
		bad = "-F does not apply to -e (a probe run counts calls, "
		      "it does not sample)";
	else if (o->kernel_only)
		bad = "-K does not apply to -e (probes take user stacks)";
	else if (o->count && (o->slice_ns || o->svg || o->html || o->montage ||
			      o->heatmap || o->per_thread))
		bad = "--count prints a table: leave out -i, --svg, --html, "
		      "--montage, --heatmap and --per-thread";
	if (bad) {
		snprintf(err, errlen, "%s", bad);
		return -EINVAL;
	}
	o->user_only = true; /* no kernel stack at a Java method's entry */
	return 0;
}

/* --off-cpu's own options need it; it counts time, not samples or calls. */
static int check_offcpu(struct profile_opts *o, char *err, size_t errlen)
{
	const char *bad = NULL;

	if (o->alloc && (o->off_cpu || o->wall || o->nr_probes || o->freq_set ||
			 o->kernel_only))
		bad = "--alloc excludes --off-cpu, --wall, -e, -F and -K";
	else if (o->alloc && o->nr_pids != 1)
		bad = "--alloc profiles one running JVM: give one -p PID";
	else if (o->lock && (o->off_cpu || o->wall || o->alloc ||
			     o->nr_probes || o->freq_set || o->kernel_only))
		bad =
		    "--lock excludes --off-cpu, --wall, --alloc, -e, -F and -K";
	else if (o->lock && !(o->cmd ? !o->nr_pids : o->nr_pids == 1))
		bad = "--lock follows one JVM: give one -p PID or a command";
	else if (o->wall && o->off_cpu)
		bad = "--wall and --off-cpu exclude each other (--wall "
		      "counts off-CPU time too)";
	else if (o->wall &&
		 (o->off_cpu_preempt || o->min_block_ns || o->max_block_ns))
		bad = "--wall counts every off-CPU moment: leave out "
		      "--off-cpu-preempt, --min-block and --max-block";
	else if (!o->off_cpu && !o->wall &&
		 (o->off_cpu_preempt || o->min_block_ns || o->max_block_ns))
		bad = "--off-cpu-preempt, --min-block and --max-block need "
		      "--off-cpu";
	else if (o->events && !(o->cmd ? !o->nr_pids : o->nr_pids == 1))
		bad = "--events follows one JVM: give one -p PID or a command";
	else if (o->events && o->nr_probes)
		bad = "--events excludes -e";
	else if ((o->off_cpu || o->wall) && o->nr_probes)
		bad = "--off-cpu and --wall exclude -e";
	else if (o->off_cpu && o->freq_set)
		bad = "-F does not apply to --off-cpu (it measures blocked "
		      "time, it does not sample)";
	else if (o->max_block_ns && o->min_block_ns > o->max_block_ns)
		bad = "--min-block is above --max-block";
	if (bad) {
		snprintf(err, errlen, "%s", bad);
		return -EINVAL;
	}
	return 0;
}

/*
 * --ttsp keeps the samples of the times to safepoint --events finds: CPU
 * samples in buckets of TTSP_BUCKET_MS, so that the buckets fit them.
 */
static int check_ttsp(struct profile_opts *o, uint64_t *bucket_ms, char *err,
		      size_t errlen)
{
	const char *bad = NULL;

	if (!o->ttsp)
		return 0;
	if (!o->events)
		bad = "--ttsp needs --events FILE (the safepoints it keeps the "
		      "samples of)";
	else if (o->heatmap || *bucket_ms)
		bad = "--ttsp counts in 1 ms buckets: leave out --heatmap and "
		      "--bucket-ms";
	else if (o->off_cpu || o->wall || o->alloc || o->lock)
		bad = "--ttsp keeps CPU samples: leave out --off-cpu, --wall, "
		      "--alloc and --lock";
	if (bad) {
		snprintf(err, errlen, "%s", bad);
		return -EINVAL;
	}
	*bucket_ms = TTSP_BUCKET_MS;
	return 0;
}

/* Duration, launch command, and the checks between options. */
/* The checks that take the whole command line; dur the duration or NULL. */
static int parse_rest(struct profile_opts *o, const char *dur,
		      uint64_t bucket_ms, char *err, size_t errlen)
{
	if (dur && profile_opts__seconds(dur, 1, &o->duration_ns)) {
		snprintf(err, errlen, "invalid duration '%s' (want seconds)",
			 dur);
		return -EINVAL;
	}
	if (dur && o->cmd) {
		snprintf(err, errlen,
			 "a duration and a command exclude each other (the "
			 "run lasts as long as the command)");
		return -EINVAL;
	}
	if (o->user_only && o->kernel_only) {
		snprintf(err, errlen, "-U and -K exclude each other");
		return -EINVAL;
	}
	if (o->cmd && o->nr_pids) {
		snprintf(err, errlen, "-p and a command exclude each other");
		return -EINVAL;
	}
	if (check_probes(o, err, errlen) || check_offcpu(o, err, errlen) ||
	    check_ttsp(o, &bucket_ms, err, errlen))
		return -EINVAL;
	return check_render(o, bucket_ms, err, errlen);
}

/*
 * Options up to the next non-option or "--" (in order: "+", so a
 * command's own options after "--" are never ours). 0 or as parse_one.
 */
static int parse_opts(struct profile_opts *o, int argc, char **argv,
		      uint64_t *bucket_ms, char *err, size_t errlen)
{
	int c, ret;

	while ((c = getopt_long(argc, argv, "+:p:F:UKdfo:i:ve:hI:X:q",
				long_opts, NULL)) != -1) {
		if (c == ':' || c == '?') {
			snprintf(err, errlen,
				 c == ':' ? "option '%s' needs a value"
					  : "unknown option '%s' (see --help)",
				 argv[optind - 1]);
			return -EINVAL;
		}
		ret = parse_one(o, c == 'h' ? OPT_HELP : c, err, errlen,
				bucket_ms);
		if (ret)
			return ret;
	}
	return 0;
}

int profile_opts__parse(struct profile_opts *o, int argc, char **argv,
			char *err, size_t errlen)
{
	uint64_t bucket_ms = 0;
	const char *dur = NULL;
	int ret;

	set_defaults(o);
	optind = 0; /* full reset: parse may run more than once */
	opterr = 0;
	/* options may come after the duration too: mixprof 30 -o x */
	while (!(ret = parse_opts(o, argc, argv, &bucket_ms, err, errlen)) &&
	       optind < argc) {
		if (!strcmp(argv[optind - 1], "--")) {
			o->cmd = argv + optind;
			break;
		}
		if (dur) {
			snprintf(err, errlen,
				 "unexpected argument '%s' (a command goes "
				 "after \"--\")",
				 argv[optind]);
			return -EINVAL;
		}
		dur = argv[optind++];
	}
	if (!ret && !o->cmd && optind == argc && optind > 1 &&
	    !strcmp(argv[optind - 1], "--")) {
		snprintf(err, errlen, "\"--\" with no command after it");
		return -EINVAL;
	}
	return ret ? ret : parse_rest(o, dur, bucket_ms, err, errlen);
}

void profile_opts__release(struct profile_opts *o)
{
	linefilter__free(o->filter);
	o->filter = NULL;
	free(o->pids);
	o->pids = NULL;
	o->nr_pids = 0;
}
