/*
 * status: the start line and the live status line (see status.h).
 */
#include <inttypes.h>
#include "common/nsec.h"
#include "status.h"

#define STATUS_EVERY_NS NSEC_PER_SEC

void status__init(struct status *s, FILE *out, bool quiet, bool live)
{
	*s = (struct status){.out = out, .quiet = quiet, .live = live};
}

/* "30 s", "0.5 s", "2 min" */
static void put_duration(FILE *out, uint64_t ns)
{
	if (ns >= 120 * NSEC_PER_SEC && ns % (60 * NSEC_PER_SEC) == 0)
		fprintf(out, "%" PRIu64 " min", ns / (60 * NSEC_PER_SEC));
	else if (ns % NSEC_PER_SEC == 0)
		fprintf(out, "%" PRIu64 " s", ns / NSEC_PER_SEC);
	else
		fprintf(out, "%.1f s", ns / 1e9);
}

void status__start(struct status *s, const char *what, uint64_t hz,
		   uint64_t duration_ns, bool ends_alone)
{
	if (s->quiet)
		return;
	if (hz)
		fprintf(s->out, "mixprof: profiling %s at %" PRIu64 " Hz ",
			what, hz);
	else /* --off-cpu, --alloc: what says what is counted */
		fprintf(s->out, "mixprof: profiling %s ", what);
	if (duration_ns) {
		fputs("for ", s->out);
		put_duration(s->out, duration_ns);
	} else {
		fputs(ends_alone ? "until it ends" : "until stopped", s->out);
	}
	fputs("; Ctrl-C to stop\n", s->out);
	fflush(s->out);
}

void status__tick(struct status *s, uint64_t elapsed_ns, uint64_t samples,
		  uint64_t lost)
{
	if (s->quiet || !s->live)
		return;
	if (s->shown && elapsed_ns - s->last_ns < STATUS_EVERY_NS)
		return;
	/* \r and erase-to-end: one line, drawn over itself */
	fprintf(s->out, "\r\033[K%.0f s, %" PRIu64 " samples", elapsed_ns / 1e9,
		samples);
	if (lost)
		fprintf(s->out, ", %" PRIu64 " lost", lost);
	fflush(s->out);
	s->shown = true;
	s->last_ns = elapsed_ns;
}

void status__clear(struct status *s)
{
	if (!s->shown)
		return;
	fputs("\r\033[K", s->out);
	fflush(s->out);
	s->shown = false;
}
