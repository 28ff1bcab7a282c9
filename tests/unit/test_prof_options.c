/*
 * Unit tests: the profile command line (profile_opts.c), CPU lists
 * (cpus.c) and the JAVA_TOOL_OPTIONS of launch mode (launch.c).
 */
#include <errno.h>
#include <stdlib.h>
#include "check.h"
#include "sampler/cpus.h"
#include "profiler/launch.h"
#include "profiler/profile_opts.h"

static struct profile_opts o;
static char err[256];

/*
 * Parse a NULL-ended list of words after "mixprof". The words are copied
 * to an array that outlives the call: options keep pointers into argv
 * (o.cmd, o.output), and PARSE's own array ends with the CHECK around it.
 */
#define PARSE(...) parse((char *[]){"mixprof", __VA_ARGS__, NULL})
static int parse(char **words)
{
	static char *argv[64];
	int argc = 0;

	while (words[argc] && argc < 63) {
		argv[argc] = words[argc];
		argc++;
	}
	argv[argc] = NULL;
	profile_opts__release(&o);
	err[0] = 0;
	return profile_opts__parse(&o, argc, argv, err, sizeof(err));
}

static void test_defaults(void)
{
	CHECK_INT(parse((char *[]){"mixprof", NULL}), 0);
	CHECK_INT(o.freq, 99);
	CHECK_INT(o.duration_ns, 0);
	CHECK_INT(o.stack_depth, 1024);
	CHECK_INT(o.bucket_ns, 1000000000);
	CHECK(o.annotate && !o.attach && !o.cmd && !o.nr_pids);
	CHECK(!o.tiers && !o.per_container);
}

/* The agent: opt-in, but -e probes need it unless --no-attach. */
static void test_agent(void)
{
	CHECK_INT(PARSE("-p", "7", "--agent"), 0);
	CHECK(o.attach);
	CHECK_INT(PARSE("-p", "7"), 0);
	CHECK(!o.attach);
	CHECK_INT(PARSE("-o", "x", "--", "java", "A"), 0);
	CHECK(!o.attach);
	CHECK_INT(PARSE("-p", "7", "-e", "java:A.b"), 0);
	CHECK(o.attach);
	CHECK_INT(PARSE("-p", "7", "-e", "java:A.b", "--no-attach"), 0);
	CHECK(!o.attach);
	CHECK_INT(PARSE("-p", "7", "--agent", "--no-attach"), 0);
	CHECK(!o.attach);
	CHECK(!o.lines);
	CHECK_INT(PARSE("-p", "7", "--lines"), 0);
	CHECK(o.lines);
}

static void test_examples(void)
{
	CHECK_INT(PARSE("-p", "123", "30"), 0);
	CHECK_INT(o.nr_pids, 1);
	CHECK_INT(o.pids[0], 123);
	CHECK_INT(o.duration_ns, 30000000000ULL);

	CHECK_INT(PARSE("-F", "999", "-o", "out.folded", "10"), 0);
	CHECK_INT(o.freq, 999);
	CHECK_STR(o.output, "out.folded");

	CHECK_INT(PARSE("-o", "w.folded", "--", "java", "-jar", "a.jar"), 0);
	CHECK(o.cmd != NULL);
	CHECK_STR(o.cmd[0], "java");
	CHECK_STR(o.cmd[1], "-jar");
	CHECK_INT(o.duration_ns, 0);

	CHECK_INT(PARSE("-p", "1,2,3", "-U", "-d", "--per-thread",
			"--no-annotate", "--no-attach", "-v"),
		  0);
	CHECK_INT(o.nr_pids, 3);
	CHECK_INT(o.pids[2], 3);
	CHECK(o.user_only && o.delimit && o.per_thread && !o.annotate &&
	      !o.attach && o.verbose);
	CHECK_INT(PARSE("--stack-storage-size", "2048", "-K", "-f"), 0);
	CHECK_INT(o.stack_storage, 2048);
	CHECK(o.kernel_only);
	CHECK_INT(PARSE("--help"), OPTS_HELP);
}

static void test_errors(void)
{
	CHECK_INT(PARSE("-F", "abc"), -EINVAL);
	CHECK(strstr(err, "-F") && strstr(err, "'abc'"));
	CHECK_INT(PARSE("-F", "0"), -EINVAL);
	CHECK_INT(PARSE("-F", "99x"), -EINVAL);
	CHECK_INT(PARSE("-F", "-5"), -EINVAL);
	CHECK_INT(PARSE("-p", "12a"), -EINVAL);
	CHECK(strstr(err, "'12a'") != NULL);
	CHECK_INT(PARSE("-p", ""), -EINVAL);
	CHECK_INT(PARSE("-p", "0"), -EINVAL);
	CHECK_INT(PARSE("x10"), -EINVAL);
	CHECK(strstr(err, "x10") != NULL);
	CHECK_INT(PARSE("10", "20"), -EINVAL);
	CHECK_INT(PARSE("-U", "-K"), -EINVAL);
	CHECK_INT(PARSE("-p", "1", "--", "ls"), -EINVAL);
	CHECK_INT(PARSE("--unfoldall"), -EINVAL);
	CHECK(strstr(err, "--unfoldall") != NULL);
	CHECK_INT(PARSE("--per-t"), 0); /* getopt_long: unique prefix */
	CHECK_INT(PARSE("--per"), -EINVAL); /* -thread or -container */
	CHECK_INT(PARSE("--tiers", "--per-container"), 0);
	CHECK(o.tiers && o.per_container && o.annotate);
	CHECK_INT(PARSE("-F"), -EINVAL);
	CHECK(strstr(err, "needs a value") != NULL);
	CHECK_INT(PARSE("-i", "1"), -EINVAL); /* needs -o DIR */
	CHECK_INT(PARSE("-i", "0.001", "-o", "d"), -EINVAL);
	CHECK_INT(PARSE("--stack-storage-size", "1e5"), -EINVAL);
	CHECK_INT(PARSE("-i", "0.5", "-o", "d", "--bucket-ms", "300"), -EINVAL);
}

static void test_slices_buckets(void)
{
	CHECK_INT(PARSE("-i", "0.5", "-o", "d", "3"), 0);
	CHECK_INT(o.slice_ns, 500000000);
	CHECK_INT(o.bucket_ns, 500000000);
	CHECK_INT(o.duration_ns, 3000000000ULL);
	CHECK_INT(PARSE("-i", "1.5", "-o", "d"), 0);
	CHECK_INT(o.bucket_ns, 500000000);
	CHECK_INT(PARSE("-i", "0.3", "-o", "d"), 0);
	CHECK_INT(o.bucket_ns, 100000000);
	CHECK_INT(PARSE("-i", "2", "-o", "d"), 0);
	CHECK_INT(o.bucket_ns, 1000000000);
	CHECK_INT(PARSE("-i", "0.5", "-o", "d", "--bucket-ms", "10"), 0);
	CHECK_INT(o.bucket_ns, 10000000);
	CHECK_INT(PARSE("--bucket-ms", "10"), 0);
	CHECK_INT(o.bucket_ns, 10000000);
}

/* --svg, --html, --montage, --heatmap, --title (see --help) */
static void test_render(void)
{
	CHECK_INT(parse((char *[]){"mixprof", NULL}), 0);
	CHECK(o.folded_stdout && !o.svg && !o.html && !o.montage && !o.heatmap);

	/* rendering alone: no folded text on stdout */
	CHECK_INT(PARSE("-p", "12", "--svg", "o.svg", "30"), 0);
	CHECK_STR(o.svg, "o.svg");
	CHECK(!o.folded_stdout && !o.output);
	CHECK_INT(PARSE("--html", "o.html", "--title", "T", "--", "java"), 0);
	CHECK_STR(o.html, "o.html");
	CHECK_STR(o.title, "T");
	CHECK(!o.folded_stdout);
	/* ... unless -o says where it goes */
	CHECK_INT(PARSE("--svg", "o.svg", "-o", "o.folded"), 0);
	CHECK_STR(o.output, "o.folded");
	CHECK(!o.folded_stdout);

	/* --montage DIR: slices into DIR, 10 s unless -i */
	CHECK_INT(PARSE("--montage", "m", "-p", "1"), 0);
	CHECK_STR(o.output, "m");
	CHECK_STR(o.montage, "m");
	CHECK_INT(o.slice_ns, 10000000000ULL);
	CHECK_INT(o.bucket_ns, 1000000000);
	CHECK(!o.folded_stdout);
	CHECK_INT(PARSE("-i", "0.5", "--montage", "m"), 0);
	CHECK_INT(o.slice_ns, 500000000);
	CHECK_INT(PARSE("--montage", "m", "-o", "x"), -EINVAL);
	CHECK(strstr(err, "--montage") && strstr(err, "-o"));
	CHECK_INT(PARSE("-i", "1"), -EINVAL);
	CHECK(strstr(err, "--montage") != NULL);
	CHECK_INT(PARSE("--montage", "m", "--bucket-ms", "300"), -EINVAL);
	CHECK(strstr(err, "10 s with --montage") != NULL);

	/* --heatmap DIR: 10 ms buckets, slices multiples of them */
	CHECK_INT(PARSE("--heatmap", "h", "-p", "1", "5"), 0);
	CHECK_STR(o.heatmap, "h");
	CHECK_INT(o.bucket_ns, 10000000);
	CHECK(!o.folded_stdout && !o.slice_ns);
	CHECK_INT(PARSE("--heatmap", "h", "--montage", "h", "-i", "1"), 0);
	CHECK_INT(o.bucket_ns, 10000000);
	CHECK_INT(o.slice_ns, 1000000000);
	CHECK_INT(PARSE("--heatmap", "h", "--montage", "m"), 0);
	CHECK_INT(o.slice_ns, 10000000000ULL);
	CHECK_INT(PARSE("--heatmap", "h", "--bucket-ms", "10"), 0);
	CHECK_INT(PARSE("--heatmap", "h", "--bucket-ms", "100"), -EINVAL);
	CHECK(strstr(err, "--heatmap") && strstr(err, "100"));
	CHECK_INT(PARSE("--heatmap", "h", "-i", "0.015", "-o", "d"), -EINVAL);
	CHECK(strstr(err, "multiple of the 10 ms buckets of --heatmap") !=
	      NULL);
	CHECK_INT(PARSE("--svg"), -EINVAL);
	CHECK(strstr(err, "--svg") != NULL);
}

static void test_seconds(void)
{
	uint64_t ns = 0;

	CHECK_INT(profile_opts__seconds("0.5", 1, &ns), 0);
	CHECK_INT(ns, 500000000);
	CHECK_INT(profile_opts__seconds("2.000000001", 1, &ns), 0);
	CHECK_INT(ns, 2000000001);
	CHECK_INT(profile_opts__seconds(".25", 1, &ns), 0);
	CHECK_INT(ns, 250000000);
	CHECK_INT(profile_opts__seconds("1.0000000001", 1, &ns), -EINVAL);
	CHECK_INT(profile_opts__seconds("", 1, &ns), -EINVAL);
	CHECK_INT(profile_opts__seconds(".", 1, &ns), -EINVAL);
	CHECK_INT(profile_opts__seconds("1s", 1, &ns), -EINVAL);
	CHECK_INT(profile_opts__seconds("0", 1, &ns), -EINVAL);
	CHECK_INT(profile_opts__seconds("99999999999999999999", 1, &ns),
		  -EINVAL);
}

static void test_cpus(void)
{
	int *cpus = NULL, n = 0;

	CHECK_INT(cpus__parse("0-3,8,10-11\n", &cpus, &n), 0);
	CHECK_INT(n, 7);
	if (n == 7) {
		CHECK_INT(cpus[0], 0);
		CHECK_INT(cpus[4], 8);
		CHECK_INT(cpus[6], 11);
	}
	free(cpus);
	CHECK_INT(cpus__parse("300-301", &cpus, &n), 0);
	CHECK_INT(n, 2);
	CHECK_INT(cpus[1], 301);
	free(cpus);
	CHECK_INT(cpus__parse("", &cpus, &n), -EINVAL);
	CHECK_INT(cpus__parse("3-1", &cpus, &n), -EINVAL);
	CHECK_INT(cpus__parse("1,x", &cpus, &n), -EINVAL);
	CHECK_INT(cpus__online(&cpus, &n), 0);
	CHECK(n >= 1);
	free(cpus);
}

static void test_java_options(void)
{
	char *s;

	s = launch__java_options(NULL, "/x/libjmap.so", true);
	CHECK_STR(s, "-agentpath:/x/libjmap.so -XX:+PreserveFramePointer");
	free(s);
	s = launch__java_options("-Xmx1g -Dk=v", "/x/libjmap.so", true);
	CHECK_STR(s, "-Xmx1g -Dk=v -agentpath:/x/libjmap.so "
		     "-XX:+PreserveFramePointer");
	free(s);
	s = launch__java_options("", NULL, true);
	CHECK_STR(s, "-XX:+PreserveFramePointer");
	free(s);
	/* the HotSpot unwinder needs no flag */
	s = launch__java_options("-Xmx1g", "/x/libjmap.so", false);
	CHECK_STR(s, "-Xmx1g -agentpath:/x/libjmap.so");
	free(s);
	s = launch__java_options(NULL, NULL, false);
	CHECK_STR(s, "");
	free(s);
}

/* -e: a probe run of one JVM; --count; what does not go with them */
static void test_probes(void)
{
	CHECK_INT(PARSE("-p", "7", "-e", "java:A.b", "-e", "java:C.*", "10"),
		  0);
	CHECK_INT(o.nr_probes, 2);
	CHECK_STR(o.probes[0], "java:A.b");
	CHECK_STR(o.probes[1], "java:C.*");
	CHECK(!o.count && o.user_only && o.folded_stdout);
	CHECK_INT(PARSE("--event", "java:A.b", "--count", "-o", "t.txt", "--",
			"java", "Busy"),
		  0);
	CHECK(o.count && o.cmd && o.nr_probes == 1);
	CHECK_STR(o.output, "t.txt");
	CHECK_INT(PARSE("-p", "7", "-e", "java:A.b", "--svg", "x.svg"), 0);
	CHECK(!o.folded_stdout);

	CHECK_INT(PARSE("--count", "-p", "7"), -EINVAL);
	CHECK(strstr(err, "--count needs -e") != NULL);
	CHECK_INT(PARSE("-e", "java:A.b", "10"), -EINVAL);
	CHECK(strstr(err, "-e needs -p PID") != NULL);
	CHECK_INT(PARSE("-p", "1,2", "-e", "java:A.b"), -EINVAL);
	CHECK(strstr(err, "one -p PID") != NULL);
	CHECK_INT(PARSE("-F", "99", "-p", "1", "-e", "java:A.b"), -EINVAL);
	CHECK(strstr(err, "-F does not apply") != NULL);
	CHECK_INT(PARSE("-K", "-p", "1", "-e", "java:A.b"), -EINVAL);
	CHECK_INT(PARSE("-p", "1", "-e", "java:A.b", "--count", "--svg", "a"),
		  -EINVAL);
	CHECK(strstr(err, "--count prints a table") != NULL);
	CHECK_INT(PARSE("-p", "1", "-e", ""), -EINVAL);
	CHECK_INT(PARSE("-p", "1", "-e"), -EINVAL);
	CHECK(strstr(err, "needs a value") != NULL);
}

/* Options after the duration, -h, "--" alone, and --format. */
static void test_habits(void)
{
	CHECK_INT(PARSE("-p", "1", "30", "-o", "x.folded", "-F", "49"), 0);
	CHECK_INT(o.duration_ns, 30000000000ULL);
	CHECK_STR(o.output, "x.folded");
	CHECK_INT(o.freq, 49);
	CHECK_INT(PARSE("30", "40"), -EINVAL);
	CHECK(strstr(err, "unexpected argument '40'") != NULL);
	CHECK_INT(PARSE("30", "--", "java"), -EINVAL);
	CHECK(strstr(err, "exclude each other") != NULL);
	CHECK_INT(PARSE("--"), -EINVAL);
	CHECK(strstr(err, "no command") != NULL);
	/* a command's own options stay its own */
	CHECK_INT(PARSE("-o", "x", "--", "java", "-o", "y", "30"), 0);
	CHECK_STR(o.output, "x");
	CHECK_STR(o.cmd[2], "y");
	CHECK_INT(PARSE("-h"), OPTS_HELP);
	CHECK_INT(PARSE("-o", "a.pb.gz", "5"), 0);
	CHECK_INT(o.format, PROFILE_PPROF);
	CHECK_INT(PARSE("-o", "a.pprof", "5"), 0);
	CHECK_INT(o.format, PROFILE_PPROF);
	CHECK_INT(PARSE("-o", "a.folded", "5"), 0);
	CHECK_INT(o.format, PROFILE_FOLDED);
	CHECK_INT(PARSE("-f", "-o", "a.pb.gz", "5"), 0);
	CHECK_INT(o.format, PROFILE_FOLDED);
	CHECK_INT(PARSE("--format", "pprof", "-o", "d", "-i", "1", "5"), 0);
	CHECK_INT(o.format, PROFILE_PPROF);
	CHECK_INT(PARSE("--format", "json", "5"), -EINVAL);
	CHECK(strstr(err, "--format") != NULL);
	CHECK_INT(PARSE("--format", "pprof", "--montage", "d", "5"), -EINVAL);
}

/* --off-cpu and its bounds; what excludes it */
static void test_offcpu(void)
{
	CHECK_INT(PARSE("--off-cpu", "--min-block", "100", "--max-block",
			"2000", "-p", "1", "5"),
		  0);
	CHECK(o.off_cpu && !o.off_cpu_preempt);
	CHECK_INT(o.min_block_ns, 100000);
	CHECK_INT(o.max_block_ns, 2000000);
	CHECK_INT(PARSE("--off-cpu", "--off-cpu-preempt", "5"), 0);
	CHECK(o.off_cpu_preempt);
	CHECK_INT(PARSE("--min-block", "100", "5"), -EINVAL);
	CHECK_INT(PARSE("--off-cpu", "--min-block", "0", "5"), -EINVAL);
	CHECK_INT(PARSE("--off-cpu", "--min-block", "x", "5"), -EINVAL);
	CHECK_INT(
	    PARSE("--off-cpu", "--min-block", "9", "--max-block", "8", "5"),
	    -EINVAL);
	CHECK_INT(PARSE("--off-cpu", "-F", "99", "5"), -EINVAL);
	CHECK_INT(PARSE("--off-cpu", "-p", "1", "-e", "java:A.b", "5"),
		  -EINVAL);
	CHECK_INT(PARSE("--wall", "-F", "499", "5"), 0);
	CHECK(o.wall && o.per_thread && o.freq == 499 && !o.off_cpu);
	CHECK_INT(PARSE("--wall", "--off-cpu", "5"), -EINVAL);
	CHECK_INT(PARSE("--wall", "--min-block", "10", "5"), -EINVAL);
	CHECK_INT(PARSE("--wall", "--off-cpu-preempt", "5"), -EINVAL);
	CHECK_INT(PARSE("--alloc", "-p", "7", "5"), 0);
	CHECK(o.alloc && !o.user_only);
	CHECK_INT(PARSE("--alloc", "5"), -EINVAL);
	CHECK_INT(PARSE("--alloc", "-p", "7,8", "5"), -EINVAL);
	CHECK_INT(PARSE("--alloc", "--off-cpu", "-p", "7", "5"), -EINVAL);
	CHECK_INT(PARSE("--alloc", "-F", "99", "-p", "7", "5"), -EINVAL);
	/* --events: one JVM, beside any sampling */
	CHECK_INT(PARSE("--events", "e.tsv", "-p", "7", "5"), 0);
	CHECK_STR(o.events, "e.tsv");
	CHECK_INT(PARSE("--events", "e.tsv", "--wall", "--", "java", "A"), 0);
	CHECK(o.events && o.wall && o.cmd);
	CHECK_INT(PARSE("--events", "e.tsv", "5"), -EINVAL);
	CHECK_INT(PARSE("--events", "e.tsv", "-p", "7,8", "5"), -EINVAL);
	CHECK_INT(PARSE("--events", "e.tsv", "-p", "7", "-e", "java:A.b"),
		  -EINVAL);
	CHECK_INT(PARSE("--events", "e.tsv", "--ttsp", "-p", "7", "5"), 0);
	CHECK(o.ttsp && o.bucket_ns == TTSP_BUCKET_MS * NSEC_PER_MSEC);
	CHECK_INT(PARSE("--ttsp", "-p", "7", "5"), -EINVAL);
	CHECK_INT(PARSE("--events", "e", "--ttsp", "--heatmap", "d", "-p", "7"),
		  -EINVAL);
	CHECK_INT(PARSE("--events", "e", "--ttsp", "--wall", "-p", "7", "5"),
		  -EINVAL);
}

int main(void)
{
	test_defaults();
	test_agent();
	test_habits();
	test_examples();
	test_offcpu();
	test_errors();
	test_slices_buckets();
	test_render();
	test_seconds();
	test_cpus();
	test_java_options();
	test_probes();
	profile_opts__release(&o);
	return check_report();
}
