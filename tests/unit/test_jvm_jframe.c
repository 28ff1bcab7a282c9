/* jframe.c: async-profiler's frame suffixes by kind and tier, inline
 * chains, and names with lines. */
#include <errno.h>
#include "check.h"
#include "jvm/jframe.h"

int main(void)
{
	enum jframe_kind k[3];
	char buf[32];

	CHECK_STR(jframe__suffix(JF_INTERPRETED, 0), "_[0]");
	CHECK_STR(jframe__suffix(JF_INTERPRETED, 4), "_[0]");
	for (int tier = 1; tier <= 3; tier++)
		CHECK_STR(jframe__suffix(JF_COMPILED, tier), "_[1]");
	CHECK_STR(jframe__suffix(JF_COMPILED, 4), "_[j]");
	CHECK_STR(jframe__suffix(JF_COMPILED, 0), "_[j]"); /* native wrapper */
	CHECK_STR(jframe__suffix(JF_INLINED, 1), "_[i]");
	CHECK_STR(jframe__suffix(JF_INLINED, 4), "_[i]");
	CHECK_STR(jframe__suffix(JF_KERNEL, 0), "_[k]");
	CHECK_STR(jframe__suffix((enum jframe_kind)99, 0), "");
	jframe__chain_kinds(3, k);
	CHECK_INT(k[0], JF_INLINED);
	CHECK_INT(k[1], JF_INLINED);
	CHECK_INT(k[2], JF_COMPILED);
	jframe__chain_kinds(1, k);
	CHECK_INT(k[0], JF_COMPILED);
	CHECK_INT(jframe__with_line(buf, sizeof(buf), "p/A.run", 123), 11);
	CHECK_STR(buf, "p/A.run:123");
	CHECK_INT(jframe__with_line(buf, sizeof(buf), "p/A.run", -2), 7);
	CHECK_STR(buf, "p/A.run");
	CHECK_INT(jframe__with_line(buf, 8, "p/A.run", 1), -ENOSPC);
	return check_report();
}
