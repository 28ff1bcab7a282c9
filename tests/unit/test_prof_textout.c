/*
 * Unit tests of what a run says as text: the line filter (linefilter.c),
 * the top-N table (topn.c), the start and status lines (status.c).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "stacks/fold.h"
#include "stacks/linefilter.h"
#include "profiler/status.h"
#include "output/topn.h"

static char err[256];

#define CT                                                                     \
	"[container "                                                          \
	"8e126766ee34e1d3b203c0a7cfc2a619c49d482a2ecc99a190fff577111a4dca]"

/*
 * Does f keep the stack written as folded text (the fixture's way to
 * say its frames, typed as fold.h reads text)? Its thread frame is frame
 * thread ("NAME [TID]", or "virtual-ID on CARRIER [TID]"), when the
 * stack has that many.
 */
static bool keep(const struct linefilter *f, const char *text, int thread)
{
	struct fold_line l;
	struct fold_stack s = {.line = &l, .pid = 1, .thread = -1};
	bool ret;

	fold_line__init(&l, false);
	CHECK_INT(fold_line__parse(&l, text, strlen(text)), 0);
	if ((uint32_t)thread < l.n && l.types[thread].kind == FOLD_THREAD) {
		s.thread = thread;
		s.tid = l.types[thread].tid;
	}
	ret = linefilter__keep(f, &s);
	fold_line__release(&l);
	return ret;
}

static void test_filter(void)
{
	struct linefilter *f = linefilter__new();
	const char *a = "java;main [7];Work.run_[j];Work.hot_[i]";
	const char *b = "java;pool-1-thread-1 [8];Work.run_[j];read_[k]";
	const char *c = "java;http-nio-8080-exec-10 [9];Tomcat.serve_[j]";

	CHECK(keep(f, a, 1)); /* empty: keeps all */
	CHECK_INT(
	    linefilter__add_regex(f, LF_INCLUDE, "^Work\\.", err, sizeof(err)),
	    0);
	CHECK(keep(f, a, 1));
	CHECK(!keep(f, c, 1));
	CHECK_INT(
	    linefilter__add_regex(f, LF_EXCLUDE, "_\\[k\\]$", err, sizeof(err)),
	    0);
	CHECK(keep(f, a, 1));
	CHECK(!keep(f, b, 1));
	CHECK_INT(linefilter__add_regex(f, LF_INCLUDE, "(", err, sizeof(err)),
		  -EINVAL);
	CHECK(err[0] != 0);
	linefilter__free(f);

	/* threads: by tid, by whole name past the kernel's 15 characters */
	f = linefilter__new();
	CHECK(!linefilter__wants_threads(f));
	CHECK_INT(linefilter__add_tids(f, "8,9", err, sizeof(err)), 0);
	CHECK(linefilter__wants_threads(f));
	CHECK(!keep(f, a, 1));
	CHECK(keep(f, b, 1));
	CHECK(keep(f, c, 1));
	CHECK_INT(
	    linefilter__add_regex(f, LF_THREAD, "exec-10$", err, sizeof(err)),
	    0);
	CHECK(!keep(f, b, 1));
	CHECK(keep(f, c, 1));
	CHECK_INT(linefilter__add_tids(f, "8,x", err, sizeof(err)), -EINVAL);
	CHECK_INT(linefilter__add_tids(f, "", err, sizeof(err)), -EINVAL);
	CHECK_INT(linefilter__add_tids(f, "0", err, sizeof(err)), -EINVAL);
	/* --per-container: the thread is the frame after the container's */
	CHECK(keep(f, "java;" CT ";http-nio-8080-exec-10 [9];x_[j]", 2));
	CHECK(!keep(f, "java;" CT ";main [7];x_[j]", 2));
	CHECK(!keep(f, "java;" CT, 2)); /* no thread */
	linefilter__free(f);

	/* a virtual thread's element: its own name, or its carrier's */
	f = linefilter__new();
	CHECK_INT(
	    linefilter__add_regex(f, LF_THREAD, "worker-1$", err, sizeof(err)),
	    0);
	CHECK(keep(f, "java;virtual-31 on pool-worker-1 [9];a_[j]", 1));
	CHECK(!keep(f, "java;virtual-31 on pool-worker-2 [9];a_[j]", 1));
	CHECK(!keep(f, "java;virtual-1 on w-1x [9];a_[j]", 1));
	linefilter__free(f);
	f = linefilter__new();
	CHECK_INT(linefilter__add_regex(f, LF_THREAD, "^virtual-31 ", err,
					sizeof(err)),
		  0);
	CHECK(keep(f, "java;virtual-31 on pool-worker-1 [9];a_[j]", 1));
	CHECK(!keep(f, "java;virtual-3 on pool-worker-1 [9];a_[j]", 1));
	linefilter__free(f);
}

/* The top-n table of lines (NULL-ended, count after each): malloc'd. */
static char *top_of(const char *const *lines, const uint64_t *counts,
		    bool per_thread, unsigned int n)
{
	struct fold *f = fold__new();
	char *text = NULL;
	size_t len;
	FILE *out = open_memstream(&text, &len);

	for (size_t i = 0; lines[i]; i++)
		fold__add(f, lines[i], counts[i]);
	CHECK_INT(topn__write(f, per_thread, n, out), 0);
	fclose(out);
	fold__free(f);
	return text;
}

static void test_topn(void)
{
	/* rec recurses: its total counts each stack once */
	const char *rec[] = {"java;main_[j];rec_[j];rec_[j];leaf_[j]",
			     "java;main_[j];rec_[j];other_[j]", "java;main_[j]",
			     NULL};
	/* per_thread: the thread element is no frame either */
	const char *thr[] = {"java;main [1];a_[j];b_[j]",
			     "java;worker [2];a_[j]", NULL};
	/* --per-container: nor the container, with or without a thread */
	const char *ctr[] = {"java;" CT ";main [1];a_[j];b_[j]",
			     "java;worker [2];a_[j]", NULL};
	const char *ct1[] = {"java;" CT ";a_[j]", NULL};
	const uint64_t c1[] = {6, 2, 2}, c2[] = {3, 1}, c3[] = {1};
	char *text = top_of(rec, c1, false, 2);

	CHECK(strstr(text, "# 10 samples, 3 stacks; top 2 frames") != NULL);
	CHECK(strstr(text, "  60.00%  80.00%  leaf_[j]") == NULL);
	CHECK(strstr(text, "  60.00%  60.00%  leaf_[j]\n") != NULL);
	CHECK(strstr(text, "  20.00%  20.00%  other_[j]\n") != NULL ||
	      strstr(text, "  20.00% 100.00%  main_[j]\n") != NULL);
	CHECK(strstr(text, "java") == NULL); /* the process is no frame */
	free(text);
	for (int i = 0; i < 2; i++) {
		text = top_of(i ? ctr : thr, c2, true, 10);
		CHECK(strstr(text, "  75.00%  75.00%  b_[j]\n") != NULL);
		CHECK(strstr(text, "  25.00% 100.00%  a_[j]\n") != NULL);
		CHECK(!strstr(text, "main [1]") && !strstr(text, "container"));
		free(text);
	}
	text = top_of(ct1, c3, false, 10);
	CHECK(strstr(text, "container") == NULL);
	CHECK(strstr(text, " 100.00% 100.00%  a_[j]\n") != NULL);
	free(text);
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
