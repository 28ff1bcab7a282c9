/*
 * jthreads: the whole names of a HotSpot JVM's Java threads, by tid, read
 * from the JVM's memory (the kernel's comm keeps only 15 bytes of them).
 *
 * The walk: ThreadsSMRSupport::_java_thread_list -> ThreadsList
 * (_length, _threads) -> each JavaThread: its OSThread's _thread_id (the
 * tid) and its _threadObj (an OopHandle: a slot holding the
 * java.lang.Thread oop) -> the Thread's `name` field (a String) -> the
 * String's `value` (byte[]) and `coder` (0 LATIN1, 1 UTF16). Field
 * offsets come from the classes' own field tables (JDK 17: an Array<u2>
 * of 6-slot FieldInfos; JDK 21+: an UNSIGNED5 FieldInfo stream), oops
 * are decoded with the JVM's compressed oop and class pointer bases and
 * shifts, and the JVM's flags say which are compressed.
 *
 * The pure decoders (field tables, string bytes) take memory and are
 * bounded; the walk takes a struct hotspot_mem. Nothing here prints.
 */
#ifndef MIXPROF_JTHREADS_H
#define MIXPROF_JTHREADS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "hotspot.h"
#include "vmstructs.h"

/* ---- pure decoders ----------------------------------------------------- */

struct jfield {
	uint16_t name_index, sig_index; /* constant pool indexes */
	uint32_t offset; /* in the object */
};

/* Bits of FieldInfo::FieldFlags (JDK 21+) that add an item to a field. */
struct jfield_flags {
	int initialized, generic, contended; /* bit numbers */
};

/*
 * The Java fields (not the injected ones) of a JDK 21+ FieldInfo stream
 * buf[0..len) into out[0..max): their count, or -EINVAL (garbage, or more
 * than max).
 */
int jthreads__fields_stream(const uint8_t *buf, size_t len, int x,
			    const struct jfield_flags *ff, struct jfield *out,
			    int max);
/*
 * The same from a JDK 17 Array<u2> of n slots holding java_count fields
 * of `slots` u2s each (FieldInfo::field_slots), name, signature, low and
 * high offset at the given slot indexes; the packed offset's low
 * tag_size bits must equal tag_offset. Count, or -EINVAL.
 */
struct jfield_u2 {
	int slots, name, sig, low, high, tag_size, tag_offset;
};
int jthreads__fields_u2(const uint16_t *a, size_t n, int java_count,
			const struct jfield_u2 *f, struct jfield *out, int max);

/*
 * A java.lang.String's value bytes (coder 0: LATIN1, 1: UTF16 little
 * endian) as UTF-8 into out (NUL-terminated): its length, -ENOSPC (cut
 * at cap - 1, at a character boundary, still NUL-terminated), -EINVAL
 * (odd UTF16 length, or a coder we do not know).
 */
int jthreads__string_utf8(const uint8_t *b, size_t len, int coder, char *out,
			  size_t cap);

/* ---- a live JVM -------------------------------------------------------- */

/* How a JVM stores oops and class pointers in its objects. */
struct jencoding {
	bool coops, ccp; /* compressed oops, compressed class pointers */
	uint64_t oop_base, klass_base; /* narrow value -> base + (v << shift) */
	int oop_shift, klass_shift;
	uint32_t oop_klass; /* the class pointer's offset in an object */
};

/*
 * From the JVM's flags and its CompressedOops/CompressedKlassPointers
 * statics (JDK 17 or 25 names): 0, -ENOENT (a flag or static not
 * published), -ENOTSUP (compact object headers: the class pointer is
 * in the mark word).
 */
int jencoding__read(const struct hotspot_mem *m, const struct vmstructs *vs,
		    struct jencoding *e);

struct jthreads;

/* NULL and errno: ENOENT (a field or flag we need is not published),
 * ENOTSUP (compact object headers), EFAULT, ENOMEM. */
struct jthreads *jthreads__new(const struct hotspot_mem *m,
			       const struct hotspot_layout *hl,
			       const struct vmstructs *vs, int major);
/*
 * Calls fn(arg, tid, name) for each Java thread alive now whose name is
 * readable; stops when fn returns non-zero. The number of threads named,
 * or -EFAULT (the thread list unreadable).
 */
int jthreads__each(struct jthreads *t,
		   int (*fn)(void *arg, int32_t tid, const char *name),
		   void *arg);
void jthreads__free(struct jthreads *t);

#endif
