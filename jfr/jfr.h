/*
 * jfr: folded stacks to and from JFR recordings (.jfr), the format JDK
 * Mission Control, IntelliJ IDEA's profiler and the JDK's `jfr` tool open.
 *
 * Folded lines are "process;[[container ID];]thread [tid];frame;...;frame"
 * root first
 * (mixprof's shape with --per-thread; a line without the thread frame
 * gets a thread named after its process, tid 0). Written as JFR, each
 * line becomes events of a standard type where one fits (jmeta.h):
 *
 *	CPU samples	jdk.ExecutionSample, one event per sample
 *	--alloc		jdk.ObjectAllocationSample, one per line: weight
 *			the bytes, objectClass the line's leaf (the class)
 *	--off-cpu	mixprof.OffCPU, one per line: duration the time
 *	--wall		mixprof.WallClock, the same
 *	-e probes	mixprof.MethodCalls, one per line: calls the count
 *
 * Each frame is a jdk.types.Method of a java.lang.Class with a frame
 * type, as async-profiler's recordings have them, all from the frame's
 * type (stacks/fold.h), not its text's shape: a Java frame "pkg/Cls.m"
 * (folded "pkg/Cls.m_[j]") is method m of class pkg/Cls, "JIT compiled";
 * C1's "C1 compiled", interpreted "Interpreted", inlined "Inlined",
 * kernel "Kernel" (class ""), others "Native" (or "C++" when the name
 * has "::"), class "". A Java frame's line is its line number.
 * Signatures are unknown: "()L;". The thread
 * is a java.lang.Thread: osName and javaName the name, osThreadId and
 * javaThreadId the tid (javaName only for threads with Java frames),
 * its group a jdk.types.ThreadGroup named after the process (with
 * --per-container, the "[container ID]" frame after the process is a
 * group of its own, under the process's).
 * Samples carry no time of their own (mixprof counts stacks in the
 * kernel): a file's samples are spread over its span (meta time and
 * duration; -i gives finer spans).
 *
 * Reading takes any recording (every chunk), ours or the JDK's: the
 * events of one type (the first present of jdk.ExecutionSample,
 * jdk.ObjectAllocationSample, mixprof.OffCPU, mixprof.WallClock,
 * mixprof.MethodCalls) become folded lines again, "process;thread
 * [tid];frames" with the count each event weighs (1 a sample; bytes,
 * microseconds, calls); a JDK recording's process frame is "java" and its
 * allocation samples get their class as the leaf as ours do. Our own
 * files read back as the lines written. Every offset and length is
 * checked; a file over JFR_MAX_BYTES is refused.
 */
#ifndef MIXPROF_JFR_H
#define MIXPROF_JFR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JFR_MAX_BYTES (1ULL << 30)

enum jfr_kind { JFR_CPU, JFR_ALLOC, JFR_OFF_CPU, JFR_WALL, JFR_CALLS };

struct jfr_meta {
	enum jfr_kind kind;
	uint64_t time_ns; /* wall clock (CLOCK_REALTIME) at the start */
	uint64_t duration_ns;
};

struct jfr_writer;

/* NULL and errno. */
struct jfr_writer *jfr_writer__new(const struct jfr_meta *m);
void jfr_writer__free(struct jfr_writer *w);
/*
 * One line of n frames (root first, typed: stacks/fold.h's
 * fold__each_frames) with its count: the process, container and thread
 * frames by their kinds, each other frame's class, method, line and frame
 * type from its type. 0, -EINVAL (no frame) or -ENOMEM.
 */
struct fold_frame;
int jfr_writer__add_frames(struct jfr_writer *w, const struct fold_frame *fr,
			   uint32_t n, uint64_t count);
/*
 * One line given as text (len bytes, no count: tests), typed as fold.h
 * reads text (fold_line__parse), with its count.
 */
int jfr_writer__add(struct jfr_writer *w, const char *line, size_t len,
		    uint64_t count);
/* The whole recording (one chunk) to out. 0 or -errno. */
int jfr_writer__write(struct jfr_writer *w, FILE *out);

/* A recording starts so ("FLR\0"). */
bool jfr__is_jfr(const void *buf, size_t len);

/*
 * Each event of the recording in buf (len bytes) as a folded line
 * (NUL-terminated, no count) and its count. Stops at fn's non-zero
 * return and returns it; else 0, or -EINVAL (not a recording we can
 * read: *why says what), -ENOMEM.
 */
int jfr__read(const void *buf, size_t len,
	      int (*fn)(const char *line, size_t len, uint64_t count,
			void *ctx),
	      void *ctx, const char **why);

#endif
