/*
 * jchunk: one chunk of a JFR recording, read by the types its own
 * metadata declares, so a chunk of any JDK (or of mixprof) reads alike:
 * its header, its metadata (types and their fields, in order), its
 * constant pools indexed as (type, id) -> where the value starts, and
 * values decoded field by field when asked for. A chunk is untrusted
 * input: every read is checked against it, and the first thing wrong is
 * said in *why (-EINVAL).
 */
#ifndef MIXPROF_JCHUNK_H
#define MIXPROF_JCHUNK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/u64map.h"
#include "jbuf.h"

#define JCHUNK_HEADER_SIZE 68 /* events start after it */

enum prim { P_NONE, P_BYTE, P_VAR, P_F4, P_F8, P_STRING };

struct rfield {
	const char *name;
	uint64_t type;
	bool cpool, array;
};

struct rtype {
	uint64_t id;
	const char *name;
	enum prim prim;
	struct rfield *f;
	size_t nf;
	struct u64map pool; /* constant id + 1 -> offset in chunk + 1 */
	uint64_t last; /* the same for id UINT64_MAX (the JDK uses -1) */
};

struct jchunk {
	const uint8_t *base; /* the chunk */
	uint64_t size, tps; /* its bytes, its ticks per second */
	struct rtype *types;
	size_t ntypes;
	struct u64map type_ids; /* id + 1 -> index + 1 */
	uint64_t string; /* java.lang.String's type id + 1; 0: none */
	bool ours; /* written by mixprof (declares mixprof.OffCPU) */
	struct strpool *names; /* the caller's: metadata strings kept */
	char scratch[4096]; /* strings converted (char arrays) */
	const char **why; /* the caller's: what was wrong first */
};

/*
 * The chunk at buf[0..len) (its size in *size): header and metadata, and
 * with pools its constant pools. 0, -EINVAL (*why), -ENOMEM. What an
 * earlier chunk held is released first.
 */
int jchunk__open(struct jchunk *c, const uint8_t *buf, uint64_t len, bool pools,
		 uint64_t *size);
void jchunk__release(struct jchunk *c);
/* -EINVAL, with why kept in *c->why if it is the first. */
int jchunk__fail(struct jchunk *c, const char *why);

/* The type of id, or NULL. */
const struct rtype *jchunk__type(const struct jchunk *c, uint64_t id);
/* An event's head at r (start: where it begins): its type; r is cut to
 * the event's size (r->err set when it does not fit). */
uint64_t jchunk__event_head(struct jreader *r, const uint8_t *start);
/* Skip one value of type, or of field f (an array: all of it). */
int jchunk__skip_value(struct jchunk *c, struct jreader *r, uint64_t type,
		       int depth);
int jchunk__skip_field(struct jchunk *c, struct jreader *r,
		       const struct rfield *f, int depth);
/* A reader at constant id of type (false: absent, as null is). */
bool jchunk__constant(const struct jchunk *c, uint64_t type, uint64_t id,
		      struct jreader *out);
/*
 * Move r (at a value of type) to its field name, or to the value it
 * refers to (cpool); *f the field. false: no such field or value.
 */
bool jchunk__field(struct jchunk *c, struct jreader *r, uint64_t type,
		   const char *name, const struct rfield **f);
/* A number field of a value (0 when absent). */
uint64_t jchunk__number(struct jchunk *c, struct jreader r, uint64_t type,
			const char *name);
/*
 * A string field of a value: a String (inline or pooled) or a value whose
 * "string" field is one (a Symbol), path the field names to follow, each
 * from the value the last one reached ("name", "string"). Its length,
 * *s into the chunk or scratch; 0 and *s NULL when absent.
 */
size_t jchunk__text(struct jchunk *c, struct jreader r, uint64_t type,
		    const char *const *path, const char **s);

#endif
