/*
 * evpprof: --events lines, fed by hand, as a pprof profile read back with
 * pprof__read (the same reader mixprof flamegraph uses): the stacks, and
 * an event's count under its kind (the time to safepoint leaf counts no
 * event, so the reader, which reads counts, leaves it out; its duration
 * is checked through go tool pprof in tests/integration/events_pprof.sh).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "events/evpprof.h"
#include "pprof/pprof.h"

struct got {
	char text[4096];
	size_t len;
};

static int take(const char *line, size_t len, uint64_t count, void *ctx)
{
	struct got *g = ctx;

	g->len +=
	    snprintf(g->text + g->len, sizeof(g->text) - g->len, "%.*s %llu\n",
		     (int)len, line, (unsigned long long)count);
	return 0;
}

int main(void)
{
	struct evpprof *p = evpprof__new("java");
	struct got g = {0};
	const char *why = NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	CHECK(p != NULL);
	evpprof__line(p, 100, 1200, "safepoint", "ttsp_ns=30 op=G1CollectFull");
	evpprof__line(p, 140, 1140, "gc", "G1CollectFull full");
	evpprof__line(p, 10, 50, "compile", "C2 p.Hot.work tier=4 osr");
	evpprof__line(p, 70, 70, "deopt",
		      "reason=class_check action=2 method=p.K.m tier=4");
	evpprof__line(p, 60, 60, "classload", "a;B");
	f = open_memstream(&buf, &len);
	CHECK(f != NULL);
	CHECK_INT(evpprof__write(p, f), 0);
	fclose(f);
	CHECK(pprof__is_gzip(buf, len));
	CHECK_INT(pprof__read(buf, len, take, &g, &why), 0);
	CHECK_STR(
	    g.text,
	    "java;safepoint;G1CollectFull;operation 1\n"
	    "java;gc;G1CollectFull full 1\n"
	    "java;compile;C2;p.Hot.work tier=4 osr 1\n"
	    "java;deopt;reason=class_check;action=2 method=p.K.m tier=4 1\n"
	    "java;classload;a:B 1\n");
	free(buf);
	evpprof__free(p);
	return check_report();
}
