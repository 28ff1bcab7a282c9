/*
 * Unit tests: the profile command line (profile_opts.c), CPU lists
 * (cpus.c) and the JAVA_TOOL_OPTIONS of launch mode (launch.c).
 */
#include <errno.h>
#include <stdlib.h>
#include "check.h"
#include "cpus.h"
#include "launch.h"
#include "profile_opts.h"

static struct profile_opts o;
static char err[256];

/* Parse a NULL-ended list of words after "mixprof". */
#define PARSE(...) parse((char *[]){"mixprof", __VA_ARGS__, NULL})
static int parse(char **argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
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
	CHECK(o.annotate && o.attach && !o.cmd && !o.nr_pids);
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
	CHECK_INT(PARSE("--per"), 0); /* getopt_long: unique prefix */
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

static void test_seconds(void)
{
	uint64_t ns = 0;

	CHECK_INT(parse_seconds("0.5", 1, &ns), 0);
	CHECK_INT(ns, 500000000);
	CHECK_INT(parse_seconds("2.000000001", 1, &ns), 0);
	CHECK_INT(ns, 2000000001);
	CHECK_INT(parse_seconds(".25", 1, &ns), 0);
	CHECK_INT(ns, 250000000);
	CHECK_INT(parse_seconds("1.0000000001", 1, &ns), -EINVAL);
	CHECK_INT(parse_seconds("", 1, &ns), -EINVAL);
	CHECK_INT(parse_seconds(".", 1, &ns), -EINVAL);
	CHECK_INT(parse_seconds("1s", 1, &ns), -EINVAL);
	CHECK_INT(parse_seconds("0", 1, &ns), -EINVAL);
	CHECK_INT(parse_seconds("99999999999999999999", 1, &ns), -EINVAL);
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

	s = launch__java_options(NULL, "/x/libjmap.so");
	CHECK_STR(s, "-agentpath:/x/libjmap.so -XX:+PreserveFramePointer");
	free(s);
	s = launch__java_options("-Xmx1g -Dk=v", "/x/libjmap.so");
	CHECK_STR(s, "-Xmx1g -Dk=v -agentpath:/x/libjmap.so "
		     "-XX:+PreserveFramePointer");
	free(s);
	s = launch__java_options("", NULL);
	CHECK_STR(s, "-XX:+PreserveFramePointer");
	free(s);
}

int main(void)
{
	test_defaults();
	test_examples();
	test_errors();
	test_slices_buckets();
	test_seconds();
	test_cpus();
	test_java_options();
	profile_opts__release(&o);
	return check_report();
}
