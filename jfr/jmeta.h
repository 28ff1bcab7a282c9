/*
 * jmeta: the types mixprof's JFR recordings declare, and their metadata
 * event (the type descriptions every reader parses first: JMC, IntelliJ,
 * the JDK's jfr tool). Type names and field names and order are the
 * JDK's own for the standard types (jdk.ExecutionSample,
 * jdk.ObjectAllocationSample, java.lang.Thread, jdk.types.StackTrace...),
 * so tools that know those types by name read ours; the ids are ours.
 */
#ifndef MIXPROF_JMETA_H
#define MIXPROF_JMETA_H

#include "jbuf.h"

enum jtype {
	JT_METADATA = 0, /* the metadata event's type id, fixed by JFR */
	JT_CPOOL = 1, /* the checkpoint (constant pool) event's */
	JT_BOOLEAN = 4,
	JT_INT,
	JT_LONG,
	JT_STRING,
	JT_CLASS = 20,
	JT_THREAD,
	JT_THREAD_GROUP,
	JT_CLASS_LOADER,
	JT_FRAME_TYPE,
	JT_THREAD_STATE,
	JT_STACK_TRACE,
	JT_STACK_FRAME,
	JT_METHOD,
	JT_PACKAGE,
	JT_SYMBOL,
	/* events */
	JT_EXECUTION_SAMPLE = 101,
	JT_ALLOCATION_SAMPLE,
	JT_OFF_CPU, /* mixprof.OffCPU */
	JT_WALL_CLOCK, /* mixprof.WallClock */
	JT_METHOD_CALLS, /* mixprof.MethodCalls */
	/* annotations */
	JT_LABEL = 200,
	JT_CATEGORY,
	JT_CONTENT_TYPE,
	JT_TIMESTAMP,
	JT_TIMESPAN,
	JT_DATA_AMOUNT,
	JT_UNSIGNED,
};

/* Frame types, the keys of the jdk.types.FrameType pool (async-profiler's
 * keys and descriptions, which JMC and IntelliJ know). */
enum jframe_type {
	JFT_INTERPRETED,
	JFT_JIT,
	JFT_INLINED,
	JFT_NATIVE,
	JFT_CPP,
	JFT_KERNEL,
	JFT_C1,
	JFT_NR
};
extern const char *const jmeta_frame_types[JFT_NR];

/* The whole metadata event (size, type 0, time, ...) into b. */
void jmeta__write(struct pbuf *b, uint64_t start_ticks);

#endif
