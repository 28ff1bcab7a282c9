/*
 * jbuf: JFR's integer and string encodings (see jbuf.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "jbuf.h"

void jbuf__u8(struct pbuf *b, uint8_t v)
{
	pbuf__raw(b, &v, 1);
}

void jbuf__be(struct pbuf *b, uint64_t v, int bytes)
{
	uint8_t t[8];

	for (int i = 0; i < bytes; i++)
		t[i] = v >> (8 * (bytes - 1 - i));
	pbuf__raw(b, t, bytes);
}

void jbuf__put_be64(struct pbuf *b, size_t off, uint64_t v)
{
	if (b->err || off + 8 > b->len)
		return;
	for (int i = 0; i < 8; i++)
		b->p[off + i] = v >> (8 * (7 - i));
}

/* The bytes of v compressed into t (9 at most); their number. */
static int var_bytes(uint64_t v, uint8_t *t)
{
	int n = 0;

	while (n < 8 && v > 0x7f) {
		t[n++] = (v & 0x7f) | 0x80;
		v >>= 7;
	}
	t[n++] = v; /* the ninth byte holds 8 bits */
	return n;
}

void jbuf__var(struct pbuf *b, uint64_t v)
{
	uint8_t t[9];

	pbuf__raw(b, t, var_bytes(v, t));
}

void jbuf__str(struct pbuf *b, const char *s, size_t n)
{
	if (!s) {
		jbuf__u8(b, JSTR_NULL);
		return;
	}
	jbuf__u8(b, JSTR_UTF8);
	jbuf__var(b, n);
	pbuf__raw(b, s, n);
}

uint64_t jbuf__event_size(size_t body)
{
	uint8_t t[9];
	uint64_t n = body + 1;

	while ((uint64_t)var_bytes(n, t) + body != n)
		n = var_bytes(n, t) + body;
	return n;
}

static int bad(struct jreader *r)
{
	r->err = -EINVAL;
	r->p = r->end;
	return 0;
}

uint8_t jr__u8(struct jreader *r)
{
	if (r->p >= r->end)
		return bad(r);
	return *r->p++;
}

uint64_t jr__be(struct jreader *r, int bytes)
{
	uint64_t v = 0;

	if (r->end - r->p < bytes)
		return bad(r);
	while (bytes--)
		v = v << 8 | *r->p++;
	return v;
}

uint64_t jr__var(struct jreader *r)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++) {
		uint8_t c = jr__u8(r);

		v |= (uint64_t)(c & 0x7f) << (7 * i);
		if (!(c & 0x80))
			return v;
	}
	return v | (uint64_t)jr__u8(r) << 56;
}

void jr__skip(struct jreader *r, uint64_t n)
{
	if ((uint64_t)(r->end - r->p) < n)
		bad(r);
	else
		r->p += n;
}

/* n UTF-16 units as varints into scratch as UTF-8 (BMP; the rest '?'). */
static size_t chars_to_utf8(struct jreader *r, uint64_t n, char *out,
			    size_t cap)
{
	size_t k = 0;

	while (n-- && !r->err) {
		uint64_t c = jr__var(r);

		if (c < 0x80 && k + 1 <= cap) {
			out[k++] = c;
		} else if (c < 0x800 && k + 2 <= cap) {
			out[k++] = 0xc0 | c >> 6;
			out[k++] = 0x80 | (c & 0x3f);
		} else if (c < 0x10000 && (c < 0xd800 || c > 0xdfff) &&
			   k + 3 <= cap) {
			out[k++] = 0xe0 | c >> 12;
			out[k++] = 0x80 | ((c >> 6) & 0x3f);
			out[k++] = 0x80 | (c & 0x3f);
		} else if (k + 1 <= cap) {
			out[k++] = '?';
		}
	}
	return k;
}

int jr__str(struct jreader *r, const char **s, size_t *n, uint64_t *ref,
	    char *scratch, size_t cap)
{
	uint8_t enc = jr__u8(r);
	uint64_t len;

	*s = NULL;
	*n = 0;
	switch (enc) {
	case JSTR_NULL:
	case JSTR_EMPTY:
		*s = enc == JSTR_EMPTY ? "" : NULL;
		break;
	case JSTR_POOL:
		*ref = jr__var(r);
		break;
	case JSTR_UTF8:
	case JSTR_LATIN1:
		len = jr__var(r);
		*s = (const char *)r->p;
		jr__skip(r, len);
		*n = r->err ? 0 : len;
		break;
	case JSTR_CHARS:
		len = jr__var(r);
		*n = chars_to_utf8(r, len, scratch, cap);
		*s = scratch;
		break;
	default:
		bad(r);
	}
	return r->err ? -1 : enc;
}
