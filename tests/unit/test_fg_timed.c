/* Unit tests of flamegraph/timed.c: timed sample lines and the header. */
#include <errno.h>
#include "check.h"
#include "flamegraph/timed.h"

static int line(struct fg_timed *tm, const char *s, const char **why)
{
	return timed__parse_line(tm, s, strlen(s), why);
}

int main(void)
{
	struct fg_timed *tm = timed__new();
	struct fg_load_stats st;
	const char *why = NULL;
	const char *text = "# mixprof-timed v1 bucket_ms=10 start_ns=123\n"
			   "0 java;a_[j];b 3\n"
			   "10 java;a_[j] 2\n"
			   "1020 java;a_[j];b 4\n"
			   "x java;a 1\n"
			   "# comment\n"
			   "1030 java;c d 5\n";
	FILE *in;

	CHECK(tm != NULL);
	CHECK_INT(tm->bucket_ms, 10);
	CHECK_INT(
	    line(tm, "# mixprof-timed v1 bucket_ms=5 start_ns=99 x=1", &why),
	    1);
	CHECK_INT(tm->bucket_ms, 5);
	CHECK_INT(tm->start_ns, 99);
	CHECK_INT(line(tm, "20 java;f 7\n", &why), 0);
	CHECK_INT(tm->nr, 1);
	CHECK_INT(tm->samples[0].ms, 20);
	CHECK_INT(tm->samples[0].count, 7);
	CHECK_STR(tree__name(tm->tree,
			     tree__node(tm->tree, tm->samples[0].node)->name),
		  "f");
	CHECK_INT(line(tm, "abc java;f 7", &why), -EINVAL);
	CHECK_STR(why, "bad offset");
	CHECK_INT(line(tm, "20", &why), -EINVAL);
	CHECK_INT(line(tm, "20 java;f", &why), -EINVAL);
	CHECK_INT(line(tm, "20 java;f zz", &why), -ERANGE);
	CHECK_INT(line(tm, "20x java;f 1", &why), -EINVAL);
	CHECK_INT(line(tm, "", &why), 1);
	timed__free(tm);

	tm = timed__new();
	in = fmemopen((void *)text, strlen(text), "r");
	CHECK_INT(timed__load(tm, in, &st), 0);
	fclose(in);
	CHECK_INT(st.used, 4);
	CHECK_INT(st.skipped, 1);
	CHECK_INT(st.first_bad, 5);
	CHECK_INT(tm->start_ns, 123);
	CHECK_INT(tm->total, 14);
	CHECK_INT(tm->nr, 4);
	/* Same stack, same leaf node: the page sums per node. */
	CHECK_INT(tm->samples[0].node, tm->samples[2].node);
	CHECK_INT(tm->samples[3].ms, 1030);
	CHECK_STR(tree__name(tm->tree,
			     tree__node(tm->tree, tm->samples[3].node)->name),
		  "c d");
	timed__free(tm);
	timed__free(NULL);
	return check_report();
}
