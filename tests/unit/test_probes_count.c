/*
 * Unit tests: the --count table of a probe run (probe_count.c): counts
 * per site follow the agent's replies, the table is sorted by total,
 * names are shown made safe.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "probes/probe_count.h"

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

/*
 * The rate is over the polls that saw the method being called: one called
 * only during the first second of a 10 s run shows its real rate; long
 * names widen the column instead of pushing the numbers out of line.
 */
static void test_window(void)
{
	struct probe_count *t = probe_count__new();
	const char *longname = "p/with/a/very/long/package/name/Klass.method"
			       "(Ljava/lang/String;Ljava/util/Map;I)V";
	char *buf = NULL, *l1, *l2;
	size_t len;
	FILE *f;
	uint64_t s = 1000000000ULL;

	probe_count__tick(t, 100 * s); /* probes in */
	probe_count__tick(t, 100 * s + s / 2);
	probe_count__set(t, 1, 500, "p/A.burst()V");
	probe_count__set(t, 2, 0, longname);
	probe_count__tick(t, 101 * s);
	probe_count__set(t, 1, 1000, "p/A.burst()V");
	probe_count__set(t, 2, 0, longname);
	for (int i = 2; i <= 10; i++) { /* burst is over; long starts late */
		probe_count__tick(t, (100 + i) * s);
		probe_count__set(t, 1, 1000, "p/A.burst()V");
		probe_count__set(t, 2, i >= 6 ? 400 * (i - 5) : 0, longname);
	}
	f = open_memstream(&buf, &len);
	CHECK_INT(probe_count__print(t, f, 10.0), 0);
	fclose(f);
	/* burst: 1000 calls between 100 s and 101 s, not over 10 s */
	CHECK(strstr(buf, " 1000.0\n") != NULL);
	/* long: 2000 calls between the polls at 105 s and 110 s */
	CHECK(strstr(buf, " 400.0\n") != NULL);
	l1 = strchr(buf, '\n') + 1;
	l2 = strchr(l1, '\n') + 1;
	/* numbers end in one column: each line as long as the header */
	CHECK_INT(strchr(l1, '\n') - l1, strchr(buf, '\n') - buf);
	CHECK_INT(strchr(l2, '\n') - l2, strchr(buf, '\n') - buf);
	free(buf);
	probe_count__free(t);
}

/* The JVM names the methods: the table shows them made safe. */
static void test_unsafe_name(void)
{
	struct probe_count *t = probe_count__new();
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	CHECK_INT(probe_count__set(t, 1, 3, "p/\e]0;X\a.m(Lp/A;)V"), 0);
	f = open_memstream(&buf, &len);
	CHECK_INT(probe_count__print(t, f, 1.0), 0);
	fclose(f);
	CHECK(strstr(buf, "p/\\x1b]0;X\\x07.m(Lp/A;)V ") != NULL);
	CHECK(!strchr(buf, '\e') && !strchr(buf, '\a'));
	free(buf);
	probe_count__free(t);
}

int main(void)
{
	test_table();
	test_window();
	test_unsafe_name();
	return check_report();
}
