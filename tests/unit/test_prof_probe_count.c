/*
 * Unit tests: the --count table of a probe run (probe_count.c): counts
 * per site follow the agent's replies, the table is sorted by total.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "probe_count.h"

static void test_table(void)
{
	struct probe_count *t = probe_count__new();
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	CHECK(t != NULL);
	CHECK_INT(probe_count__set(t, 3, 10, "p/A.small()V"), 0);
	CHECK_INT(probe_count__set(t, 5, 7, "p/B.big(I)I"), 0);
	/* the next poll: both grew; a smaller count (never sent) is ignored */
	CHECK_INT(probe_count__set(t, 3, 12, "p/A.small()V"), 0);
	CHECK_INT(probe_count__set(t, 5, 5000000000ULL, "p/B.big(I)I"), 0);
	CHECK_INT(probe_count__set(t, 3, 11, "p/A.small()V"), 0);
	CHECK_INT(probe_count__set(t, 9, 0, "p/C.never()V"), 0);
	CHECK_INT(probe_count__methods(t), 3);
	CHECK_INT(probe_count__total(t), 5000000012ULL);

	f = open_memstream(&buf, &len);
	CHECK_INT(probe_count__print(t, f, 2.0), 0);
	fclose(f);
	CHECK(strncmp(buf, "METHOD", 6) == 0);
	/* biggest first (compared as 64-bit, not subtracted into an int) */
	CHECK(strstr(buf, "p/B.big") < strstr(buf, "p/A.small"));
	CHECK(strstr(buf, "p/A.small") < strstr(buf, "p/C.never"));
	CHECK(strstr(buf, "5000000000") && strstr(buf, "2500000000.0"));
	CHECK(strstr(buf, " 12 ") && strstr(buf, " 6.0\n"));
	free(buf);
	probe_count__free(t);
	probe_count__free(NULL);
}

int main(void)
{
	test_table();
	return check_report();
}
