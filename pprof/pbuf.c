/*
 * pbuf: protocol buffers wire format (see pbuf.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "pbuf.h"

static int reserve(struct pbuf *b, size_t n)
{
	size_t cap;
	uint8_t *p;

	if (b->err)
		return b->err;
	if (b->len + n <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 256;
	while (cap < b->len + n) {
		if (cap > SIZE_MAX / 2)
			return b->err = -ENOMEM;
		cap *= 2;
	}
	p = realloc(b->p, cap);
	if (!p)
		return b->err = -ENOMEM;
	b->p = p;
	b->cap = cap;
	return 0;
}

static void put_varint(struct pbuf *b, uint64_t v)
{
	if (reserve(b, 10))
		return;
	while (v >= 0x80) {
		b->p[b->len++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	b->p[b->len++] = (uint8_t)v;
}

static void put_tag(struct pbuf *b, uint32_t num, enum pb_wire w)
{
	put_varint(b, (uint64_t)num << 3 | w);
}

void pbuf__varint_field(struct pbuf *b, uint32_t num, uint64_t v)
{
	put_tag(b, num, PB_VARINT);
	put_varint(b, v);
}

void pbuf__bytes_field(struct pbuf *b, uint32_t num, const void *s, size_t n)
{
	put_tag(b, num, PB_LEN);
	put_varint(b, n);
	pbuf__raw(b, s, n);
}

void pbuf__raw(struct pbuf *b, const void *s, size_t n)
{
	if (n && !reserve(b, n)) {
		memcpy(b->p + b->len, s, n);
		b->len += n;
	}
}

static size_t varint_len(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

void pbuf__packed(struct pbuf *b, uint32_t num, const uint64_t *v, size_t n)
{
	size_t bytes = 0, i;

	if (!n)
		return;
	for (i = 0; i < n; i++)
		bytes += varint_len(v[i]);
	put_tag(b, num, PB_LEN);
	put_varint(b, bytes);
	for (i = 0; i < n; i++)
		put_varint(b, v[i]);
}

void pbuf__reset(struct pbuf *b)
{
	b->len = 0;
}

void pbuf__release(struct pbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

/* 0 with *v, or -EINVAL: truncated or longer than 10 bytes. */
static int get_varint(const uint8_t **pp, const uint8_t *end, uint64_t *v)
{
	const uint8_t *p = *pp;
	uint64_t x = 0;
	int shift;

	for (shift = 0; shift < 70 && p < end; shift += 7) {
		x |= (uint64_t)(*p & 0x7f) << shift;
		if (!(*p++ & 0x80)) {
			*v = x;
			*pp = p;
			return 0;
		}
	}
	return -EINVAL;
}

int pbuf__next(struct pb_reader *r, struct pb_field *f)
{
	uint64_t tag, n;

	if (r->p >= r->end)
		return 0;
	if (get_varint(&r->p, r->end, &tag) || tag >> 3 == 0 ||
	    tag >> 3 > UINT32_MAX)
		return -EINVAL;
	f->num = (uint32_t)(tag >> 3);
	f->wire = (enum pb_wire)(tag & 7);
	f->data = NULL;
	f->len = 0;
	f->v = 0;
	switch (f->wire) {
	case PB_VARINT:
		return get_varint(&r->p, r->end, &f->v) ? -EINVAL : 1;
	case PB_I64:
	case PB_I32:
		n = f->wire == PB_I64 ? 8 : 4;
		if ((size_t)(r->end - r->p) < n)
			return -EINVAL;
		memcpy(&f->v, r->p, n); /* little-endian, as the format */
		r->p += n;
		return 1;
	case PB_LEN:
		if (get_varint(&r->p, r->end, &n) ||
		    n > (uint64_t)(r->end - r->p))
			return -EINVAL;
		f->data = r->p;
		f->len = n;
		r->p += n;
		return 1;
	default: /* groups (3, 4) are not in profile.proto */
		return -EINVAL;
	}
}

int pbuf__each_varint(const struct pb_field *f,
		      int (*fn)(uint64_t v, void *ctx), void *ctx)
{
	const uint8_t *p = f->data, *end = f->data + f->len;
	uint64_t v;
	int ret;

	if (f->wire == PB_VARINT)
		return fn(f->v, ctx);
	if (f->wire != PB_LEN)
		return -EINVAL;
	while (p < end) {
		if (get_varint(&p, end, &v))
			return -EINVAL;
		ret = fn(v, ctx);
		if (ret)
			return ret;
	}
	return 0;
}
