/*
 * jitmap: the JIT code of one process as its map file told it, over time.
 *
 * Entries are kept in file order with two times: stamp, the refresh that
 * read them, and lower, the refresh before it (0 for the first read of a
 * file). The entry's line was written in (lower, stamp]. The code it
 * names usually appeared shortly before its line, but HotSpot writes the
 * line from a service thread after installing the code, and a busy machine
 * can hold that thread back for hundreds of milliseconds.
 *
 * The resolution rule (see symbolizer.h): for address ip at time when,
 * among entries covering ip whose lower < when + slack, the one written
 * last in the file wins. So:
 *  - a sub-range line (inlined code) written after its method's line
 *    overrides the method for that sub-range;
 *  - code reusing an address after class unloading names only samples
 *    taken after the refresh before the one that read it (minus slack);
 *    older samples keep the old name;
 *  - code compiled just before a sample but read at the next poll is
 *    eligible: its lower is the poll before, earlier than the sample.
 * Covering entries none of which is eligible give no JIT name at all: a
 * wrong name would be worse than none (the drain waits long enough for
 * late lines to be read, see profiler/profile.c GUARD_NS).
 *
 * Input is fed as raw bytes (jitmap__feed), so a test or fuzzer can drive
 * it without files; a line cut by the end of a read is kept until its
 * '\n' arrives.
 */
#ifndef MIXPROF_JITMAP_H
#define MIXPROF_JITMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "symbolizer.h"

struct jitmap;

/*
 * Names live in the map's own pool: valid until jitmap__free, or until
 * jitmap__expire drops or moves them. NULL+errno.
 */
struct jitmap *jitmap__new(bool no_inline);
void jitmap__free(struct jitmap *m);

/*
 * The most entries one map holds. A real JVM's map is a line per compiled
 * blob (plus the agent's inline ranges), and lines of replaced code are
 * expired: bench/names_rss.sh's 100k nmethods, the most we measured, fit
 * 2.5 times. Each entry costs ~150 bytes with its name and index slot, so
 * one map holds at most ~40 MB: a process writing a perf map of millions
 * of lines (a test's, a hostile one: 1.5 GB of heap for 31 M lines
 * measured in a host-wide soak) no longer takes mixprof's memory with it.
 * Lines past the cap are skipped (the newest code unnamed) until expiry
 * makes room.
 */
#define JITMAP_MAX_LINES (1u << 18)

/*
 * Feed the next len bytes of the map, read at stamp_ns; lower_ns is the
 * earliest time these lines can have been written (see above). Malformed
 * lines are skipped and counted in *bad, lines past JITMAP_MAX_LINES in
 * jitmap__over. 0 or -ENOMEM.
 */
int jitmap__feed(struct jitmap *m, const char *buf, size_t len,
		 uint64_t lower_ns, uint64_t stamp_ns, uint64_t *bad);
/* Forget a partial line (the file was replaced or truncated). */
void jitmap__drop_partial(struct jitmap *m);

/*
 * Frames naming ip at when_ns, outermost first, at most max (an inline
 * chain longer than max is cut at its innermost end). 0 when no eligible
 * entry covers ip.
 */
int jitmap__find(struct jitmap *m, uint64_t ip, uint64_t when_ns,
		 uint64_t slack_ns, struct frame *out, int max);
/* Entries held (lines read, less those expired). */
size_t jitmap__count(const struct jitmap *m);
/* Lines skipped so far: the map held JITMAP_MAX_LINES then. */
uint64_t jitmap__over(const struct jitmap *m);
/*
 * How many lines of the file, in file order, are eligible under limit
 * (when + slack): they are a prefix, as each refresh's lower is the
 * refresh before. SIZE_MAX when they are not (a file read again from its
 * start). Lookups under two limits with the same count name every address
 * alike. Counted in lines read, expired ones included, so a count means
 * the same before and after jitmap__expire (for limits >= its cutoff).
 */
size_t jitmap__eligible(const struct jitmap *m, uint64_t limit);
/*
 * Does an entry among the file's from-th to to-th (exclusive) line cover
 * ip? 1 or 0 (-ENOMEM). A lookup of ip at eligible counts from and to
 * gives the same answer unless one does.
 */
int jitmap__covered(struct jitmap *m, uint64_t ip, size_t from, size_t to);

/*
 * No lookup will come for a time before cutoff (when + slack >= cutoff):
 * drop the entries none of those can return, the ones whose whole range
 * is covered by entries written later in the file that are eligible for
 * all of them (lower < cutoff): code freed and replaced at its address.
 * The names kept move to a new pool (frames handed out before are void).
 * Returns how many were dropped, or -ENOMEM (nothing changed). A map read
 * again from its start (eligible SIZE_MAX) is left alone.
 */
long jitmap__expire(struct jitmap *m, uint64_t cutoff);

#endif
