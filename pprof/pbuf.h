/*
 * pbuf: the protocol buffers wire format, as much of it as profile.proto
 * needs. An encoder appends fields to a growable buffer (its first error,
 * -ENOMEM, sticks and is read once at the end); a decoder walks the fields
 * of one message in a byte range, every length checked against the range,
 * so a hostile file can make it fail but never read out of bounds.
 */
#ifndef MIXPROF_PBUF_H
#define MIXPROF_PBUF_H

#include <stddef.h>
#include <stdint.h>

enum pb_wire { PB_VARINT = 0, PB_I64 = 1, PB_LEN = 2, PB_I32 = 5 };

struct pbuf {
	uint8_t *p;
	size_t len, cap;
	int err; /* 0 or the first -errno */
};

/* Field writers; a zero varint is still written (explicit is harmless). */
void pbuf__varint_field(struct pbuf *b, uint32_t num, uint64_t v);
void pbuf__bytes_field(struct pbuf *b, uint32_t num, const void *s, size_t n);
/* A packed repeated varint field (no field at all when n is 0). */
void pbuf__packed(struct pbuf *b, uint32_t num, const uint64_t *v, size_t n);
/* Bytes already in the wire format (fields encoded elsewhere). */
void pbuf__raw(struct pbuf *b, const void *s, size_t n);
/* Drop the contents, keep the memory. */
void pbuf__reset(struct pbuf *b);
void pbuf__release(struct pbuf *b);

/* One field as read: v for varints and fixed ints, data/len for LEN. */
struct pb_field {
	uint32_t num;
	enum pb_wire wire;
	uint64_t v;
	const uint8_t *data;
	size_t len;
};

struct pb_reader {
	const uint8_t *p, *end;
};

/* 1 with *f filled, 0 at the end of the range, -EINVAL on bad input. */
int pbuf__next(struct pb_reader *r, struct pb_field *f);
/*
 * The values of a repeated varint field, packed (a LEN field) or not (one
 * varint): calls fn for each; stops at fn's non-zero return and returns
 * it, or -EINVAL on a bad varint.
 */
int pbuf__each_varint(const struct pb_field *f,
		      int (*fn)(uint64_t v, void *ctx), void *ctx);

#endif
