/*
 * classfile: a class file (JVM spec chapter 4) parsed just enough to
 * rewrite method bodies: constant pool offsets, the methods and their Code
 * attributes. Everything else is kept as the original bytes, so writing a
 * parsed file with no edits gives back the identical bytes.
 *
 * Pure C (no JVMTI, no I/O). The parsed file points into the caller's
 * buffer, which must outlive it.
 */
#ifndef MIXPROF_JMAP_CLASSFILE_H
#define MIXPROF_JMAP_CLASSFILE_H

#include <stddef.h>
#include <stdint.h>
#include "strbuf.h"

#define CF_ACC_STATIC 0x0008
#define CF_ACC_NATIVE 0x0100
#define CF_ACC_ABSTRACT 0x0400

struct cf_method {
	uint16_t access, name, desc; /* constant pool indices for name/desc */
	size_t off, end; /* the method_info's bytes */
	size_t code_off, code_end; /* its Code attribute_info, or 0, 0 */
};

struct classfile {
	const uint8_t *buf;
	size_t len;
	uint16_t major;
	uint16_t cp_count; /* as in the file: entries are 1..cp_count-1 */
	uint32_t *cp_off; /* offset of each entry's tag; 0 for the unused
			     * slot after a Long/Double and for index 0 */
	size_t cp_end; /* first byte after the constant pool */
	uint16_t this_class;
	size_t methods_off; /* the methods_count u2 */
	size_t methods_end; /* first byte of the class attributes count */
	uint16_t nmethods;
	struct cf_method *methods;
};

/*
 * Parse len bytes at buf. 0, -EINVAL for a malformed or truncated file
 * (with a short reason in *why, a static string) or -ENOMEM. Release with
 * classfile__release; on error nothing needs releasing.
 */
int classfile__parse(struct classfile *cf, const uint8_t *buf, size_t len,
		     const char **why);
void classfile__release(struct classfile *cf);

/* The Utf8 entry idx: *s points into the buffer (modified UTF-8, not NUL
 * terminated). 0 or -EINVAL when idx is not a Utf8 entry. */
int classfile__utf8(const struct classfile *cf, unsigned idx, const char **s,
		    uint16_t *n);
/* True when entry idx is the Utf8 text lit (a C string). */
int classfile__utf8_is(const struct classfile *cf, unsigned idx,
		       const char *lit);

/*
 * What classfile__write changes: extra constant pool entries (already
 * encoded, counting ncp slots) appended after the existing ones, and a new
 * Code attribute_info (whole, header included) for some methods: code[i]
 * for method i, NULL to keep it. code and code_len may be NULL when no
 * method changes.
 */
struct cf_edits {
	const uint8_t *cp;
	size_t cp_len;
	uint16_t ncp;
	const struct strbuf *const *code; /* nmethods entries or NULL */
};

/* Append the edited class file to out. 0, -E2BIG when the constant pool
 * would overflow, -ENOMEM. */
int classfile__write(const struct classfile *cf, const struct cf_edits *ed,
		     struct strbuf *out);

/* Big-endian helpers shared by the rewriters. */
static inline uint16_t cf_u2(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}
static inline uint32_t cf_u4(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}
static inline void cf_put2(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}
static inline void cf_put4(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

#endif
