#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "events/evpprof.h"
#include "pprof/pprof.h"
#include "stacks/fold.h"

#define EV_PART_MAX 1024 /* a part of a detail, as one frame */

struct evpprof {
	struct pprof_writer *w;
	char process[64];
	int err; /* the first line's error */
	struct fold_line line; /* an event's frames, typed */
	struct fold_frame *fr;
	size_t cap;
};

struct evpprof *evpprof__new(const char *process)
{
	struct pprof_meta m = {
	    .type = "events",
	    .unit = "count",
	    .events_type = "duration",
	    .events_unit = "nanoseconds",
	};
	struct evpprof *p = calloc(1, sizeof(*p));
	struct timespec ts;

	if (!p)
		return NULL;
	if (!clock_gettime(CLOCK_REALTIME, &ts))
		m.time_ns = (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
	p->w = pprof_writer__new(&m);
	if (!p->w) {
		free(p);
		return NULL;
	}
	snprintf(p->process, sizeof(p->process), "%s", process);
	return p;
}

void evpprof__free(struct evpprof *p)
{
	if (!p)
		return;
	pprof_writer__free(p->w);
	fold_line__release(&p->line);
	free(p->fr);
	free(p);
}

/* n bytes of s as one more frame (made safe by fold.c: ';' as ':'). */
static void push(struct evpprof *p, const char *s, size_t n)
{
	char part[EV_PART_MAX];
	int ret;

	snprintf(part, sizeof(part), "%.*s", (int)n, s);
	ret = fold_line__push_name(&p->line, part);
	if (ret && !p->err)
		p->err = ret;
}

/* The line so far as a sample of count events lasting ns. */
static void add(struct evpprof *p, uint64_t count, uint64_t ns)
{
	int n = fold_line__as_frames(&p->line, &p->fr, &p->cap);
	int ret =
	    n < 0 ? n : pprof_writer__add_frames(p->w, p->fr, n, count, ns);

	if (ret && !p->err)
		p->err = ret;
}

/* "ttsp_ns=N op=NAME": NAME, and N in *ttsp (0 if not that shape). */
static const char *safepoint_op(const char *d, uint64_t *ttsp)
{
	const char *op = strstr(d, "op=");
	char *end;

	*ttsp = 0;
	if (!strncmp(d, "ttsp_ns=", 8))
		*ttsp = strtoull(d + 8, &end, 10);
	return op ? op + 3 : d;
}

void evpprof__line(void *ctx, uint64_t start, uint64_t end, const char *kind,
		   const char *detail)
{
	struct evpprof *p = ctx;
	const struct fold_type process = {.kind = FOLD_PROCESS};
	uint64_t ns = end > start ? end - start : 0, ttsp;
	uint32_t head;
	const char *sp;

	fold_line__reset(&p->line);
	if (fold_line__push_role(&p->line, p->process, &process) && !p->err)
		p->err = -ENOMEM;
	push(p, kind, strlen(kind));
	if (!strcmp(kind, "safepoint")) {
		detail = safepoint_op(detail, &ttsp);
		push(p, detail, strlen(detail));
		head = p->line.n;
		ttsp = ttsp < ns ? ttsp : ns;
		push(p, "time to safepoint", 17);
		add(p, 0, ttsp);
		fold_line__truncate(&p->line, head);
		push(p, "operation", 9);
		add(p, 1, ns - ttsp);
		return;
	}
	if (!strcmp(kind, "compile") || !strcmp(kind, "deopt")) {
		sp = strchr(detail, ' ');
		if (sp) {
			push(p, detail, (size_t)(sp - detail));
			detail = sp + 1;
		}
	}
	push(p, detail, strlen(detail));
	add(p, 1, ns);
}

int evpprof__write(struct evpprof *p, FILE *out)
{
	if (p->err)
		return p->err;
	return pprof_writer__write(p->w, out);
}
