/* Unit tests of flamegraph/slicetab.c: slices.tsv by column position. */
#include <errno.h>
#include "check.h"
#include "flamegraph/slicetab.h"

static int line(struct fg_slicetab *st, const char *s, unsigned long n,
		const char **why)
{
	return slicetab__parse_line(st, s, strlen(s), n, why);
}

int main(void)
{
	struct fg_slicetab st = {0};
	const char *why = NULL;

	CHECK_INT(
	    line(&st, "# index\tstart_ns\tend_ns\tsamples\tfile\n", 1, &why),
	    1);
	CHECK_INT(
	    line(&st, "index\tstart_ns\tend_ns\tsamples\tfile\n", 1, &why), 1);
	CHECK_INT(line(&st, "1\t2000\t3000\t7\tslice-0001.folded\n", 2, &why),
		  0);
	CHECK_INT(
	    line(&st, "0\t1000\t2000\t5\tslice-0000.folded\t0\n", 3, &why), 0);
	CHECK_INT(
	    line(&st, "2\t3000\t3500\t1\tslice-0002.folded\t1\tnew\n", 4, &why),
	    0);
	CHECK_INT(line(&st, "\n", 5, &why), 1);
	CHECK_INT(line(&st, "x\t1\t2\t3\tf\n", 6, &why), -EINVAL);
	CHECK_STR(why, "bad index");
	CHECK_INT(line(&st, "3\t1\t2\t3\n", 6, &why), -EINVAL);
	CHECK_INT(line(&st, "3\t5\t2\t3\tf\n", 6, &why), -EINVAL);
	CHECK_INT(line(&st, "3\t1\t2\tz\tf\n", 6, &why), -EINVAL);
	CHECK_INT(st.nr, 3);
	slicetab__sort(&st);
	CHECK_INT(st.v[0].index, 0);
	CHECK_INT(st.v[0].start_ns, 1000);
	CHECK_STR(st.v[1].file, "slice-0001.folded");
	CHECK(!st.v[1].partial);
	CHECK(st.v[2].partial);
	CHECK_INT(st.v[2].samples, 1);
	slicetab__release(&st);
	CHECK_INT(st.nr, 0);
	return check_report();
}
