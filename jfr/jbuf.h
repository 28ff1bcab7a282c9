/*
 * jbuf: the byte-level encoding of a JFR chunk. Integers in events are
 * "compressed": 7 bits a byte, low bits first, the eighth byte's top bit
 * saying more follows and a ninth byte, if any, holding 8 bits whole (so
 * a negative long takes 9 bytes); the chunk header is big-endian. The
 * encoder appends to pprof's growable buffer (pprof/pbuf.h: its first
 * error, -ENOMEM, sticks and is read once at the end); the decoder reads a byte range, every
 * length checked against it: a hostile file makes it fail (err set,
 * zeros returned), never read out of bounds.
 */
#ifndef MIXPROF_JBUF_H
#define MIXPROF_JBUF_H

#include <stddef.h>
#include <stdint.h>
#include "pprof/pbuf.h"

/* String encodings (jdk.jfr.internal: StringParser) */
enum jstr {
	JSTR_NULL,
	JSTR_EMPTY,
	JSTR_POOL,
	JSTR_UTF8,
	JSTR_CHARS,
	JSTR_LATIN1
};

void jbuf__u8(struct pbuf *b, uint8_t v);
void jbuf__be(struct pbuf *b, uint64_t v, int bytes); /* big-endian */
void jbuf__var(struct pbuf *b, uint64_t v); /* compressed */
/* A UTF-8 string (encoding 3), or null (0) when s is NULL. */
void jbuf__str(struct pbuf *b, const char *s, size_t n);
/* Overwrite 8 bytes at off big-endian (the header's patched fields). */
void jbuf__put_be64(struct pbuf *b, size_t off, uint64_t v);

/* An event's size field counts itself: the size of an event of body
 * bytes, which is how many bytes its size field plus body take. */
uint64_t jbuf__event_size(size_t body);

struct jreader {
	const uint8_t *p, *end;
	int err; /* -EINVAL once anything was out of range */
};

uint8_t jr__u8(struct jreader *r);
uint64_t jr__be(struct jreader *r, int bytes);
uint64_t jr__var(struct jreader *r);
/*
 * A string: *s and *n for UTF-8 and Latin-1 bytes (in the file), or for
 * encoding JSTR_POOL *ref (its constant pool id); char arrays (UTF-16
 * units as varints) are converted into scratch (cap bytes, truncated).
 * Returns the encoding, or -1 (r->err set).
 */
int jr__str(struct jreader *r, const char **s, size_t *n, uint64_t *ref,
	    char *scratch, size_t cap);
void jr__skip(struct jreader *r, uint64_t n);

#endif
