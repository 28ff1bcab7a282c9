/*
 * evlog: HotSpot's events, fed by hand, as lines and totals.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>
#include "check.h"
#include "events/evlog.h"

static struct jvm_event ev(uint32_t kind, uint32_t tid, uint64_t ts,
			   const char *s0, const char *s1, const char *s2)
{
	struct jvm_event e = {.kind = kind, .tid = tid, .ts = ts};
	const char *s[3] = {s0, s1, s2};

	for (int i = 0; i < 3; i++)
		if (s[i]) {
			e.len[i] = strlen(s[i]);
			memcpy(e.str[i], s[i],
			       e.len[i] < JEV_STR ? e.len[i] : JEV_STR);
		}
	return e;
}

static const char *reason(void *ctx, int n)
{
	return n == 4 ? "class_check" : NULL;
}

static int method_at(void *ctx, uint64_t pc, char *buf, size_t cap, int *tier)
{
	*tier = 4;
	return snprintf(buf, cap, "p.K\tmeth");
}

static char *lines_of(void (*feed)(struct evlog *), char *out, size_t cap)
{
	struct evlog_namer nm = {reason, NULL, method_at, NULL};
	FILE *f = fmemopen(out, cap, "w");
	struct evlog *l = evlog__new(f, &nm);

	feed(l);
	fclose(f);
	evlog__free(l);
	return out;
}

/* a full GC inside its VM operation inside a safepoint */
static void feed_gc(struct evlog *l)
{
	struct jvm_event e[] = {
	    ev(JEV_SP_BEGIN, 7, 100, NULL, NULL, NULL),
	    ev(JEV_VMOP_BEGIN, 7, 130, "G1CollectFull", NULL, NULL),
	    ev(JEV_GC_BEGIN, 7, 140, NULL, NULL, NULL),
	    ev(JEV_GC_END, 7, 1140, NULL, NULL, NULL),
	    ev(JEV_VMOP_END, 7, 1150, "G1CollectFull", NULL, NULL),
	    ev(JEV_SP_END, 7, 1200, NULL, NULL, NULL),
	    ev(JEV_GC_END, 9, 1300, NULL, NULL, NULL), /* begun before */
	};

	e[2].arg0 = 1;
	for (size_t i = 0; i < sizeof(e) / sizeof(e[0]); i++)
		evlog__event(l, &e[i]);
}

static void feed_compile(struct evlog *l)
{
	struct jvm_event e[] = {
	    ev(JEV_COMPILE_BEGIN, 3, 10, "C2", "p/Hot", "work"),
	    ev(JEV_COMPILE_BEGIN, 4, 11, "C1", "p/Cold", "x\ny"),
	    ev(JEV_COMPILE_END, 4, 21, "C1", "p/Cold", "x\ny"),
	    ev(JEV_COMPILE_END, 3, 50, "C2", "p/Hot", "work"),
	    ev(JEV_CLASS_LOADED, 3, 60, "a/B$C", NULL, NULL),
	    ev(JEV_DEOPT, 3, 70, NULL, NULL, NULL),
	};

	e[0].arg0 = 4; /* C2's tier */
	e[0].arg1 = 1; /* OSR */
	e[3].arg0 = 1; /* C1's failed */
	e[5].arg0 = (uint32_t) ~((4 << 3) | 2); /* class_check, action 2 */
	e[5].arg1 = 0x1000;
	for (size_t i = 0; i < sizeof(e) / sizeof(e[0]); i++)
		evlog__event(l, &e[i]);
}

int main(void)
{
	char out[4096], sum[2048];
	struct evlog *l;
	FILE *f;

	CHECK_STR(lines_of(feed_gc, out, sizeof(out)),
		  "140\t1140\tgc\tG1CollectFull full\n"
		  "130\t1150\tvmop\tG1CollectFull\n"
		  "100\t1200\tsafepoint\tttsp_ns=30 op=G1CollectFull\n");
	CHECK_STR(lines_of(feed_compile, out, sizeof(out)),
		  "11\t21\tcompile\tC1 p.Cold.x\\x0ay tier=? failed\n"
		  "10\t50\tcompile\tC2 p.Hot.work tier=4 osr\n"
		  "60\t60\tclassload\ta.B$C\n"
		  "70\t70\tdeopt\treason=class_check action=2 "
		  "method=p.K\\x09meth tier=4\n");
	CHECK_INT(evlog__trap_reason(~((4 << 3) | 2)), 4);
	CHECK_INT(evlog__trap_action(~((4 << 3) | 2)), 2);
	CHECK_INT(evlog__trap_reason(17), -1); /* an index: unloaded */

	l = evlog__new(NULL, NULL);
	feed_gc(l);
	/* the safepoint's time to safepoint: [100, 130) */
	CHECK(evlog__in_ttsp(l, 90, 101));
	CHECK(evlog__in_ttsp(l, 129, 200));
	CHECK(!evlog__in_ttsp(l, 0, 100));
	CHECK(!evlog__in_ttsp(l, 130, 140));
	feed_compile(l);
	f = fmemopen(sum, sizeof(sum), "w");
	evlog__summary(l, f, 3);
	fclose(f);
	evlog__free(l);
	CHECK(
	    strstr(sum, "1 GC pauses (0.001 ms, max 0.001 ms), 1 safepoints") !=
	    NULL);
	CHECK(strstr(sum,
		     "tier4 1 (0.0 ms) C1 1 (0.0 ms), 1 failed; 1 classes") !=
	      NULL);
	CHECK(strstr(sum, "deoptimizations: 1 reason4 1") != NULL);
	CHECK(strstr(sum, "3 events lost") != NULL);
	return check_report();
}
