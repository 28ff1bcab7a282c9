/*
 * pprof: folded stacks to and from pprof's profile.proto (gzipped), the
 * format Pyroscope, Parca, `go tool pprof`, speedscope and the
 * OpenTelemetry profiling pipeline take.
 *
 * Folded lines are "process;[thread [tid];]frame;...;frame" root first
 * (mixprof's own shape). Written as pprof, the process (and with
 * per_thread the thread and tid, with per_container the container)
 * become labels of the sample, each frame
 * one Function and one Location, leaf first, from the frame's type
 * (stacks/fold.h's struct fold_type), never from its text's shape: a
 * Function's name is the frame's name (without its kind suffix "_[j]",
 * "_[i]", "_[0]", "_[1]", "_[k]" and a Java frame's ":LINE"), its
 * Location's Line the frame's line; its system_name keeps the frame as
 * folded, so reading the file back gives the same lines; the kind also
 * picks the Location's Mapping ("[kernel]", "[java]", "[native]"), so a
 * pprof viewer tells them apart.
 *
 * Reading takes any profile.proto (gzipped or not), ours or another
 * tool's: a Location's inlined Lines become frames of their own, labels
 * "process"/"container.id"/"thread"/"tid" become the root frames again. Every length is
 * checked; a file that decompresses past PPROF_MAX_BYTES is refused.
 */
#ifndef MIXPROF_PPROF_H
#define MIXPROF_PPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PPROF_MAX_BYTES (1ULL << 30) /* decompressed profile.proto */

struct pprof_meta {
	const char *type, *unit; /* the count's sample type: "samples" */
	uint64_t period_ns; /* CPU: ns per sample, a second value (cpu,
			     * nanoseconds) = count * period; 0: none */
	/* or a second value of its own (pprof_writer__add2), e.g.
	 * alloc_objects/count beside alloc_space/bytes; type stays the
	 * default sample type. NULL: none. Not with period_ns. */
	const char *events_type, *events_unit;
	uint64_t time_ns; /* wall clock (CLOCK_REALTIME) at the start */
	uint64_t duration_ns;
	bool per_thread; /* lines carry "thread [tid]" after the process */
	/* lines of processes in a container carry "[container ID]" right
	 * after the process (common/cgroup.h): labels container.id and
	 * process.linux.cgroup (OpenTelemetry's attributes), the path as
	 * cgroup_of gives it (NULL, or a NULL return: no path label) */
	bool per_container;
	const char *(*cgroup_of)(void *ctx, const char *id);
	void *cgroup_ctx;
};

struct pprof_writer;

/* NULL and errno. m's strings are copied. */
struct pprof_writer *pprof_writer__new(const struct pprof_meta *m);
void pprof_writer__free(struct pprof_writer *w);
/*
 * One line of n frames (root first, typed: stacks/fold.h's
 * fold__each_frames) with its count and its events_type value (0
 * without events_type): the process, container and thread frames become
 * labels by their kinds, the rest Locations. 0, -EINVAL (no frame) or
 * -ENOMEM.
 */
struct fold_frame;
int pprof_writer__add_frames(struct pprof_writer *w,
			     const struct fold_frame *fr, uint32_t n,
			     uint64_t count, uint64_t events);
/*
 * One line given as text (len bytes, no count: tests, fixtures),
 * typed as fold.h reads text (fold_line__parse), with its count.
 */
int pprof_writer__add(struct pprof_writer *w, const char *line, size_t len,
		      uint64_t count);
/* The same with the events_type value. */
int pprof_writer__add2(struct pprof_writer *w, const char *line, size_t len,
		       uint64_t count, uint64_t events);
/* The whole profile, gzipped, to out. 0 or -errno. */
int pprof_writer__write(struct pprof_writer *w, FILE *out);

/* A gzip stream starts so (RFC 1952); profile.proto files always are. */
bool pprof__is_gzip(const void *buf, size_t len);

/*
 * Each sample of the profile in buf (len bytes, gzipped or plain) as a
 * folded line (NUL-terminated, no count) and its count (the default
 * sample type's value: default_sample_type, else the first whose unit is
 * "count", else the last). Stops at fn's non-zero return and returns it;
 * else 0, or -EINVAL (not a profile: *why says what), -EFBIG, -ENOMEM.
 */
int pprof__read(const void *buf, size_t len,
		int (*fn)(const char *line, size_t len, uint64_t count,
			  void *ctx),
		void *ctx, const char **why);

#endif
