#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "events/evpprof.h"
#include "pprof/pprof.h"

#define EV_LINE_MAX 1024

struct evpprof {
	struct pprof_writer *w;
	char process[64];
	int err; /* the first line's error */
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
	free(p);
}

/* Append ";" and n bytes of s (';' made ':') to line at *len. */
static void push(char *line, size_t *len, const char *s, size_t n)
{
	if (*len + 1 + n >= EV_LINE_MAX)
		n = *len + 1 < EV_LINE_MAX - 1 ? EV_LINE_MAX - 2 - *len : 0;
	line[(*len)++] = ';';
	for (size_t i = 0; i < n; i++)
		line[(*len)++] = s[i] == ';' ? ':' : s[i];
	line[*len] = 0;
}

static void add(struct evpprof *p, const char *line, size_t len,
		uint64_t count, uint64_t ns)
{
	int ret = pprof_writer__add2(p->w, line, len, count, ns);

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
	char line[EV_LINE_MAX];
	size_t len, head;
	uint64_t ns = end > start ? end - start : 0, ttsp;
	const char *sp;

	len = strlen(p->process);
	memcpy(line, p->process, len + 1);
	push(line, &len, kind, strlen(kind));
	if (!strcmp(kind, "safepoint")) {
		detail = safepoint_op(detail, &ttsp);
		push(line, &len, detail, strlen(detail));
		head = len;
		ttsp = ttsp < ns ? ttsp : ns;
		push(line, &len, "time to safepoint", 17);
		add(p, line, len, 0, ttsp);
		len = head;
		push(line, &len, "operation", 9);
		add(p, line, len, 1, ns - ttsp);
		return;
	}
	if (!strcmp(kind, "compile") || !strcmp(kind, "deopt")) {
		sp = strchr(detail, ' ');
		if (sp) {
			push(line, &len, detail, (size_t)(sp - detail));
			detail = sp + 1;
		}
	}
	push(line, &len, detail, strlen(detail));
	add(p, line, len, 1, ns);
}

int evpprof__write(struct evpprof *p, FILE *out)
{
	if (p->err)
		return p->err;
	return pprof_writer__write(p->w, out);
}
