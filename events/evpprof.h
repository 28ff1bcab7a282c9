/*
 * evpprof: the --events lines as a pprof profile (--events FILE.pb.gz or
 * FILE.pprof), for tools that read pprof but not our TSV. pprof has no
 * timeline, so the events are totals by what they were: each event is a
 * sample with two values, events/count (1) and duration/nanoseconds (its
 * end minus its start), under the stack
 *   PROCESS;KIND;WHAT
 * (PROCESS becomes the sample's "process" label, as in our other pprof
 * profiles: pprof_writer__add) where WHAT is the detail without what is unique to one event:
 *   gc         the VM operation ("... full" as in the lines)
 *   safepoint  its operation, then a leaf "time to safepoint" (the wait
 *              for threads to stop) and one "operation" (the rest), so
 *              `-sample_index=duration` splits a safepoint's time so
 *   vmop       its name
 *   compile    the compiler, then "method tier=N" (and " osr"/" failed")
 *   deopt      "reason=R", then the rest as in the line ("action=A ...")
 *   classload  the class
 * A ';' in a name is made ':' (folded frames are split at ';'). The lines'
 * times stay in the TSV form only.
 */
#ifndef MIXPROF_EVPPROF_H
#define MIXPROF_EVPPROF_H

#include <stdint.h>
#include <stdio.h>

struct evpprof;

/* For the events of process (its comm: the root frame). NULL and errno. */
struct evpprof *evpprof__new(const char *process);
/* An evlog_line_fn (evlog.h): ctx is the evpprof. */
void evpprof__line(void *ctx, uint64_t start, uint64_t end, const char *kind,
		   const char *detail);
/* The profile, gzipped, to out: 0, or the first error (-errno) of a line
 * or of the write. */
int evpprof__write(struct evpprof *p, FILE *out);
void evpprof__free(struct evpprof *p);

#endif
