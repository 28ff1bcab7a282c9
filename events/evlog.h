/*
 * evlog: HotSpot's events (struct jvm_event, as jvmevents reads them) made
 * into the --events file and the summary's totals. Pure: no BPF, no
 * target memory but through the namer, so unit tests feed it events.
 *
 * One line per event, written when it ends (so in the order of their
 * ends), tab-separated: start_ns end_ns kind detail (CLOCK_MONOTONIC, as
 * the slices' times; an instant has start = end). Kinds and details:
 *   gc         the VM operation that collected, " full" for a full GC
 *   safepoint  "ttsp_ns=N op=NAME": the time from its start to the
 *              first VM operation it ran (the time to safepoint)
 *   vmop       its name
 *   compile    "C2 pkg.Class.method tier=4", then " osr" for an
 *              on-stack replacement, " failed" for a failure (tier=?
 *              when the JVM's layout was not read yet)
 *   deopt      "reason=R action=A method=M tier=T" (an uncommon trap)
 *   classload  the class
 * Every name from the JVM is made safe (common/safename.h).
 */
#ifndef MIXPROF_EVLOG_H
#define MIXPROF_EVLOG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/types.h>
#include "events/events_abi.h"

/* How an uncommon trap is named: each hook may be NULL (then numbers). */
struct evlog_namer {
	/* HotSpot's name of reason / action number n, or NULL */
	const char *(*reason)(void *ctx, int n);
	const char *(*action)(void *ctx, int n);
	/* the compiled method at pc into buf, its tier in *tier: 0 or <0 */
	int (*method_at)(void *ctx, uint64_t pc, char *buf, size_t cap,
			 int *tier);
	void *ctx;
};

struct evlog;

/* Lines to out (not owned; NULL: totals only). NULL and errno. */
struct evlog *evlog__new(FILE *out, const struct evlog_namer *n);
/*
 * Each line's fields also go to fn (NULL: none) as the line is made, with
 * or without out: another format's writer (evpprof.h) takes them so.
 */
typedef void (*evlog_line_fn)(void *ctx, uint64_t start, uint64_t end,
			      const char *kind, const char *detail);
void evlog__on_line(struct evlog *l, evlog_line_fn fn, void *ctx);
void evlog__event(struct evlog *l, const struct jvm_event *e);
/* The totals, one "mixprof:   " line each, to f. */
void evlog__summary(const struct evlog *l, FILE *f, uint64_t lost);
/*
 * Whether [t0, t1) overlaps the time to safepoint (its start to its first
 * VM operation) of a safepoint seen so far.
 */
bool evlog__in_ttsp(const struct evlog *l, uint64_t t0, uint64_t t1);
/* Lines made so far (written to out, given to the line hook). */
uint64_t evlog__lines(const struct evlog *l);
void evlog__free(struct evlog *l);

/* HotSpot's trap request (deoptimization.hpp): reason and action. */
int evlog__trap_reason(int32_t request);
int evlog__trap_action(int32_t request);

#endif
