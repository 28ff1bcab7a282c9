/*
 * Unit tests of what a run says as text: the line filter (linefilter.c),
 * the top-N table (topn.c), the start and status lines (status.c).
 */
#include <errno.h>
#include <stdlib.h>
#include "check.h"
#include "profiler/fold.h"
#include "profiler/linefilter.h"
#include "profiler/status.h"
#include "profiler/topn.h"

static char err[256];

static void test_filter(void)
{
	struct linefilter *f = linefilter__new();
	const char *a = "java;main [7];Work.run_[j];Work.hot_[i]";
	const char *b = "java;pool-1-thread-1 [8];Work.run_[j];read_[k]";
	const char *c = "java;http-nio-8080-exec-10 [9];Tomcat.serve_[j]";

	CHECK(linefilter__keep(f, a, true)); /* empty: keeps all */
	CHECK_INT(
	    linefilter__add_regex(f, LF_INCLUDE, "^Work\\.", err, sizeof(err)),
	    0);
	CHECK(linefilter__keep(f, a, true));
	CHECK(!linefilter__keep(f, c, true));
	CHECK_INT(
	    linefilter__add_regex(f, LF_EXCLUDE, "_\\[k\\]$", err, sizeof(err)),
	    0);
	CHECK(linefilter__keep(f, a, true));
	CHECK(!linefilter__keep(f, b, true));
	CHECK_INT(linefilter__add_regex(f, LF_INCLUDE, "(", err, sizeof(err)),
		  -EINVAL);
	CHECK(err[0] != 0);
	linefilter__free(f);

	/* threads: by tid, by whole name past the kernel's 15 characters */
	f = linefilter__new();
	CHECK(!linefilter__wants_threads(f));
	CHECK_INT(linefilter__add_tids(f, "8,9", err, sizeof(err)), 0);
	CHECK(linefilter__wants_threads(f));
	CHECK(!linefilter__keep(f, a, true));
	CHECK(linefilter__keep(f, b, true));
	CHECK(linefilter__keep(f, c, true));
	CHECK_INT(
	    linefilter__add_regex(f, LF_THREAD, "exec-10$", err, sizeof(err)),
	    0);
	CHECK(!linefilter__keep(f, b, true));
	CHECK(linefilter__keep(f, c, true));
	CHECK_INT(linefilter__add_tids(f, "8,x", err, sizeof(err)), -EINVAL);
	linefilter__free(f);

	/* a virtual thread's element: its own name, or its carrier's */
	f = linefilter__new();
	CHECK_INT(
	    linefilter__add_regex(f, LF_THREAD, "worker-1$", err, sizeof(err)),
	    0);
	CHECK(linefilter__keep(f, "java;virtual-31 on pool-worker-1 [9];a_[j]",
			       true));
	CHECK(!linefilter__keep(f, "java;virtual-31 on pool-worker-2 [9];a_[j]",
				true));
	CHECK(!linefilter__keep(f, "java;virtual-1 on w-1x [9];a_[j]", true));
	linefilter__free(f);
	f = linefilter__new();
	CHECK_INT(linefilter__add_regex(f, LF_THREAD, "^virtual-31 ", err,
					sizeof(err)),
		  0);
	CHECK(linefilter__keep(f, "java;virtual-31 on pool-worker-1 [9];a_[j]",
			       true));
	CHECK(!linefilter__keep(f, "java;virtual-3 on pool-worker-1 [9];a_[j]",
				true));
	CHECK_INT(linefilter__add_tids(f, "", err, sizeof(err)), -EINVAL);
	CHECK_INT(linefilter__add_tids(f, "0", err, sizeof(err)), -EINVAL);
	linefilter__free(f);
}

static void test_topn(void)
{
	struct fold *f = fold__new();
	char *text = NULL;
	size_t len;
	FILE *out = open_memstream(&text, &len);

	/* rec recurses: its total counts each stack once */
	fold__add(f, "java;main_[j];rec_[j];rec_[j];leaf_[j]", 6);
	fold__add(f, "java;main_[j];rec_[j];other_[j]", 2);
	fold__add(f, "java;main_[j]", 2);
	CHECK_INT(topn__write(f, false, 2, out), 0);
	fclose(out);
	CHECK(strstr(text, "# 10 samples, 3 stacks; top 2 frames") != NULL);
	CHECK(strstr(text, "  60.00%  80.00%  leaf_[j]") == NULL);
	CHECK(strstr(text, "  60.00%  60.00%  leaf_[j]\n") != NULL);
	CHECK(strstr(text, "  20.00%  20.00%  other_[j]\n") != NULL ||
	      strstr(text, "  20.00% 100.00%  main_[j]\n") != NULL);
	CHECK(strstr(text, "java") == NULL); /* the process is no frame */
	free(text);

	/* per_thread: the thread element is no frame either */
	fold__free(f);
	f = fold__new();
	fold__add(f, "java;main [1];a_[j];b_[j]", 3);
	fold__add(f, "java;worker [2];a_[j]", 1);
	out = open_memstream(&text, &len);
	CHECK_INT(topn__write(f, true, 10, out), 0);
	fclose(out);
	CHECK(strstr(text, "  75.00%  75.00%  b_[j]\n") != NULL);
	CHECK(strstr(text, "  25.00% 100.00%  a_[j]\n") != NULL);
	CHECK(strstr(text, "main [1]") == NULL);
	free(text);
	fold__free(f);
}

static void test_status(void)
{
	struct status s;
	char *text = NULL;
	size_t len;
	FILE *out = open_memstream(&text, &len);

	status__init(&s, out, false, true);
	status__start(&s, "java (pid 12)", 99, 30000000000ULL, true);
	status__tick(&s, 1000000000ULL, 99, 0);
	status__tick(&s, 1500000000ULL, 150, 0); /* within the second */
	status__tick(&s, 2000000000ULL, 198, 3);
	status__clear(&s);
	fclose(out);
	CHECK_STR(text, "mixprof: profiling java (pid 12) at 99 Hz for 30 s; "
			"Ctrl-C to stop\n"
			"\r\033[K1 s, 99 samples"
			"\r\033[K2 s, 198 samples, 3 lost"
			"\r\033[K");
	free(text);

	out = open_memstream(&text, &len);
	status__init(&s, out, false, false); /* not a terminal: no status */
	status__start(&s, "the whole host (2 CPUs)", 999, 0, false);
	status__tick(&s, 1000000000ULL, 99, 0);
	status__clear(&s);
	fclose(out);
	CHECK_STR(text, "mixprof: profiling the whole host (2 CPUs) at 999 Hz "
			"until stopped; Ctrl-C to stop\n");
	free(text);

	out = open_memstream(&text, &len);
	status__init(&s, out, true, true); /* -q */
	status__start(&s, "x", 99, 0, true);
	status__tick(&s, 1000000000ULL, 99, 0);
	fclose(out);
	CHECK_STR(text, "");
	free(text);
}

int main(void)
{
	test_filter();
	test_topn();
	test_status();
	return check_report();
}
