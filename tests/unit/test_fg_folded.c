/* Unit tests of flamegraph/folded.c: odd lines, spaces, merging files. */
#include <errno.h>
#include <stdlib.h>
#include "check.h"
#include "flamegraph/folded.h"
#include "jfr/jfr.h"

static uint64_t count_of(struct fg_tree *t, const char *a, const char *b)
{
	uint32_t id = tree__find(t, 0, a, strlen(a));

	if (id && b)
		id = tree__find(t, id, b, strlen(b));
	return id ? tree__node(t, id)->total[FG_SLOT_VALUE] : 0;
}

static int load(struct fg_tree *t, const char *text, struct fg_load_stats *st,
		const struct fg_load_opts *o)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	int err = folded__load(t, in, o, st);

	fclose(in);
	return err;
}

int main(void)
{
	struct fg_load_opts o = {.slot = FG_SLOT_VALUE};
	struct fg_load_stats st;
	struct fg_tree *t = tree__new();
	const char *why = NULL;
	uint64_t c, before;
	size_t l;

	CHECK_INT(folded__parse_line("a;b 12", 6, &l, &c, &why), 0);
	CHECK_INT(l, 3);
	CHECK_INT(c, 12);
	/* Frames with spaces (async-profiler, perf's "[unknown]" dso). */
	CHECK_INT(folded__parse_line("C2 Compiler;libc.so.6 memcpy 3\r\n", 32,
				     &l, &c, &why),
		  0);
	CHECK_INT(l, 28);
	CHECK_INT(c, 3);
	CHECK_INT(folded__parse_line("a;b\t7", 5, &l, &c, &why), 0);
	CHECK_INT(l, 3);
	CHECK_INT(folded__parse_line("nocount", 7, &l, &c, &why), -EINVAL);
	CHECK_STR(why, "no count");
	CHECK_INT(folded__parse_line("a;b zz", 6, &l, &c, &why), -ERANGE);
	CHECK_STR(why, "bad count");
	CHECK_INT(folded__parse_line("a;b 1.5", 7, &l, &c, &why), -ERANGE);
	CHECK_INT(
	    folded__parse_line("a 99999999999999999999999", 25, &l, &c, &why),
	    -ERANGE);
	CHECK_INT(folded__parse_line(" 5", 2, &l, &c, &why), -ENODATA);
	CHECK_INT(folded__parse_line("", 0, &l, &c, &why), 1);
	CHECK_INT(folded__parse_line("   \n", 4, &l, &c, &why), 1);
	CHECK_INT(folded__parse_line("# comment 3", 11, &l, &c, &why), 1);
	/* Two counts (difffolded.pl), and one count read as AFTER. */
	CHECK_INT(folded__parse_line2("a;b c 3 9", 9, &l, &before, &c, &why),
		  0);
	CHECK_INT(l, 5);
	CHECK_INT(before, 3);
	CHECK_INT(c, 9);
	CHECK_INT(folded__parse_line2("a;b 9", 5, &l, &before, &c, &why), 0);
	CHECK_INT(before, 0);
	CHECK_INT(c, 9);

	/* A file with odd lines: bad ones counted once, the rest used. */
	CHECK_INT(load(t,
		       "java;a_[j];b_[i] 5\n"
		       "java;a_[j] 2\n"
		       "garbage\n"
		       "\n"
		       "java;a_[j];b_[i] 1\n"
		       "java;x zz\n"
		       "java;a_[j];k_[k] 3",
		       &st, &o),
		  0);
	CHECK_INT(st.lines, 7);
	CHECK_INT(st.used, 4);
	CHECK_INT(st.skipped, 2);
	CHECK_INT(st.first_bad, 3);
	CHECK_STR(st.why, "no count");
	CHECK_INT(count_of(t, "java", NULL), 11);
	CHECK_INT(count_of(t, "java", "a_[j]"), 11);
	/* A second file merges into the same tree. */
	CHECK_INT(load(t, "java;a_[j] 4\nother 6\n", &st, &o), 0);
	CHECK_INT(count_of(t, "java", "a_[j]"), 15);
	CHECK_INT(count_of(t, "other", NULL), 6);
	CHECK_INT(tree__node(t, 0)->total[FG_SLOT_VALUE], 21);
	tree__free(t);

	/* Diff input in one file, and reversed stacks. */
	t = tree__new();
	o.two_counts = true;
	CHECK_INT(load(t, "a;b 3 5\na;c 4\n", &st, &o), 0);
	CHECK_INT(count_of(t, "a", "b"), 5);
	CHECK_INT(tree__node(t, tree__find(t, 0, "a", 1))->total[FG_SLOT_BASE],
		  3);
	tree__free(t);
	t = tree__new();
	o.two_counts = false;
	o.reverse = true;
	CHECK_INT(load(t, "a;b 3\nc;b 4\n", &st, &o), 0);
	CHECK_INT(count_of(t, "b", NULL), 7);
	CHECK_INT(count_of(t, "b", "a"), 3);
	tree__free(t);

	/* A JFR recording is read as its lines; text that starts like its
	 * magic, or is shorter than it, is still text. */
	t = tree__new();
	o.reverse = false;
	{
		struct jfr_meta m = {.kind = JFR_CPU, .duration_ns = 1};
		struct jfr_writer *w = jfr_writer__new(&m);
		const char *line = "java;main [7];A.a_[j]";
		char *buf = NULL;
		size_t len;
		FILE *f = open_memstream(&buf, &len);

		CHECK_INT(jfr_writer__add(w, line, strlen(line), 5), 0);
		CHECK_INT(jfr_writer__write(w, f), 0);
		fclose(f);
		jfr_writer__free(w);
		f = fmemopen(buf, len, "r");
		CHECK_INT(folded__load(t, f, &o, &st), 0);
		fclose(f);
		free(buf);
	}
	CHECK_INT(count_of(t, "java", "main [7]"), 5);
	CHECK_INT(load(t, "FLR;x 2\n", &st, &o), 0);
	CHECK_INT(count_of(t, "FLR", "x"), 2);
	CHECK_INT(load(t, "F 3", &st, &o), 0);
	CHECK_INT(count_of(t, "F", NULL), 3);
	tree__free(t);

	/* Loading by path: a missing file is -ENOENT. */
	t = tree__new();
	CHECK_INT(folded__load_path(t, "/nonexistent/x.folded", &o), -ENOENT);
	tree__free(t);
	return check_report();
}
