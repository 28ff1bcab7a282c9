/*
 * maprec: format one compiled method's perf-map record: its whole-range
 * line first, then one line per inlined sub-range, all in one buffer so
 * the writer can append it with a single write().
 *
 *   7f3a1c000100 2a0 pkg/Outer.run
 *   7f3a1c000120 31 pkg/Outer.run->pkg/Inner.get
 *   7f3a1c000151 18 pkg/Outer.run->pkg/Inner.get->java/util/List.size
 *   7f3a1c000169 237 pkg/Outer.run
 *
 * After the first inline range, the rest of the method is tiled: code
 * between or after inline ranges gets a line of the method's own name, so
 * readers that take the nearest preceding start (perf, bcc) name it too.
 *
 * Addresses and sizes are lowercase hex without "0x" (perf's format). Names
 * come from a callback, asked once per distinct method of a record.
 * A struct maprec is scratch memory for one thread at a time.
 */
#ifndef MIXPROF_JMAP_MAPREC_H
#define MIXPROF_JMAP_MAPREC_H

#include <stddef.h>
#include <stdint.h>
#include <jvmti.h>
#include <jvmticmlr.h>
#include "strbuf.h"

/* Append method m's frame name to out. 0 or -ENOMEM; on lookup failures
 * it appends a placeholder itself and returns 0. */
typedef int (*maprec_name_fn)(void *arg, jmethodID m, struct strbuf *out);

struct maprec;

/* NULL on -ENOMEM. */
struct maprec *maprec__new(maprec_name_fn fn, void *arg);
void maprec__free(struct maprec *mr);

/* The inline record in CompiledMethodLoad's compile_info chain, or NULL. */
const jvmtiCompiledMethodLoadInlineRecord *
maprec__find_inline(const void *compile_info);

/*
 * Append the record of method m at [start, start + size) to out; with
 * inl (may be NULL) also its inlined sub-ranges. *nranges (may be NULL)
 * gets the number of lines after the method line. 0 or -ENOMEM.
 */
int maprec__method(struct maprec *mr, struct strbuf *out, jmethodID m,
		   uint64_t start, uint64_t size,
		   const jvmtiCompiledMethodLoadInlineRecord *inl,
		   int *nranges);

#endif
