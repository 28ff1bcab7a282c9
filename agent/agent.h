/*
 * agent: the state of one running copy of libjmap.so, shared by the files
 * that talk to JVMTI (agent.c sets it up, events.c writes records,
 * jvmti_names.c names methods). Created once per successful start and
 * never freed: compiler threads may still be in a callback at shutdown,
 * so files are closed (writes then fail quietly) but memory stays.
 */
#ifndef MIXPROF_JMAP_AGENT_H
#define MIXPROF_JMAP_AGENT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <jvmti.h>
#include "options.h"

struct perfmap;
struct jitdump;

/* One-time log flags: each kind of runtime error is reported once. */
enum jmap_once {
	ONCE_WRITE, /* map write failed */
	ONCE_JITDUMP, /* jitdump write failed */
	ONCE_NOMEM, /* out of memory formatting a record */
	ONCE_NAME, /* a JVMTI lookup for a name failed */
	ONCE_DEALLOC, /* Deallocate failed */
	ONCE_COUNT
};

struct jmap_agent {
	jvmtiEnv *jvmti;
	struct jmap_options opts;
	struct perfmap *map;
	struct jitdump *jd; /* NULL without the jitdump option */
	pthread_key_t scratch; /* per-thread struct jmap_scratch */
	int once[ONCE_COUNT];
};

/* Log "jmap: what: JVMTI_ERROR_..." naming err with GetErrorName. */
void jmap_log_jvmti(jvmtiEnv *jvmti, jvmtiError err, const char *what);

/* True the first time it is called for kind (thread-safe). */
bool jmap_agent__first(struct jmap_agent *a, enum jmap_once kind);

/* events.c: install the callbacks and enable the events; on attach also
 * replay what exists. 0 or a JMAP_ERR_* status (already logged). */
int jmap_events__start(struct jmap_agent *a, bool attach);
/* Per-thread scratch destructor for pthread_key_create. */
void jmap_events__free_scratch(void *scratch);

/* Deallocate JVMTI memory p (NULL allowed); a failure is logged once. */
void jmap_dealloc(struct jmap_agent *a, void *p);
/* Log a failed JVMTI lookup, once per run (what names the call). */
void jmap_lookup_failed(struct jmap_agent *a, jvmtiError err, const char *what);

/* jvmti_names.c: maprec_name_fn for jmethodIDs (arg is the agent). */
struct strbuf;
int jmap_jvmti_name(void *arg, jmethodID m, struct strbuf *out);

/* jvmti_lines.c: per-thread buffers for jitdump line entries. */
#include <jvmticmlr.h>
#include "strbuf.h"
struct jmap_lines_buf {
	struct strbuf entries; /* encoded struct jitdump_debug_entry list */
	uint64_t nr;
	struct strbuf file; /* scratch: current method's file */
	struct strbuf last_file;
};
/* Fill lb with the line entries of code [start, end) from its inline
 * record. 0 or -ENOMEM; methods without debug information give none. */
int jmap_jvmti_lines(struct jmap_agent *a,
		     const jvmtiCompiledMethodLoadInlineRecord *inl,
		     uint64_t start, uint64_t end, struct jmap_lines_buf *lb);

#endif
