// SPDX-License-Identifier: GPL-2.0
/* Names a target controls made safe to write (see safename.h). */
#include <string.h>
#include "safename.h"

static int cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

/*
 * The length of the valid UTF-8 character at s (n bytes left), or 0: a
 * byte to escape. Shortest forms only, no surrogates, nothing past
 * U+10FFFF (RFC 3629's table of well-formed sequences).
 */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (!cont(s[i]))
			return 0;
	return len;
}

/*
 * A CESU-8 surrogate pair at s (HotSpot's modified UTF-8 for a character
 * above U+FFFF): its code point, or 0.
 */
static unsigned int surrogate_pair(const unsigned char *s, size_t n)
{
	if (n < 6 || s[0] != 0xed || s[1] < 0xa0 || s[1] > 0xaf ||
	    !cont(s[2]) || s[3] != 0xed || s[4] < 0xb0 || s[4] > 0xbf ||
	    !cont(s[5]))
		return 0;
	return 0x10000 + (((s[1] & 0x0fu) << 16 | (s[2] & 0x3fu) << 10 |
			   (s[4] & 0x0fu) << 6 | (s[5] & 0x3fu)));
}

/*
 * What each byte is, as a mask of the flags' cases: ALWAYS bytes are
 * never kept as they are (controls, DEL, and 0x80 up: UTF-8 is checked
 * on the slow path), BACKSLASH unless SAFENAME_ESCAPED, SEMI only with
 * SAFENAME_FOLD. One load a byte: every frame of every line passes here.
 */
enum { ALWAYS = 1, BACKSLASH = 2, SEMI = 4 };
static const unsigned char kind[256] = {
    [0x00 ... 0x1f] = ALWAYS,
    [0x7f ... 0xff] = ALWAYS,
    ['\\'] = BACKSLASH,
    [';'] = SEMI,
};

static unsigned int mask(unsigned int flags)
{
	return ALWAYS | (flags & SAFENAME_ESCAPED ? 0 : BACKSLASH) |
	       (flags & SAFENAME_FOLD ? SEMI : 0);
}

/* Does ASCII byte c need a change under flags? */
static int special(unsigned char c, unsigned int flags)
{
	return kind[c] & mask(flags);
}

size_t safename__plain(const char *src, size_t len, unsigned int flags)
{
	const unsigned char *s = (const unsigned char *)src;
	unsigned int m = mask(flags);
	size_t i = 0;

	while (i < len && !(kind[s[i]] & m))
		i++;
	return i;
}

/* Output so far: what fits is written, the length counts everything. */
struct out {
	char *d;
	size_t cap, used, len; /* used: bytes in d; len: of the whole text */
	int full; /* something did not fit: write nothing more */
};

static void put(struct out *o, const void *s, size_t n)
{
	if (!o->full && o->used + n < o->cap) {
		memcpy(o->d + o->used, s, n);
		o->used += n;
	} else {
		o->full = 1;
	}
	o->len += n;
}

static void put_escape(struct out *o, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";
	char e[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};

	put(o, e, sizeof(e));
}

/* One step at s: what it is written as; returns the input bytes used. */
static size_t step(struct out *o, const unsigned char *s, size_t n,
		   unsigned int flags)
{
	unsigned int cp;
	size_t k;

	if (s[0] < 0x80) {
		if (s[0] == ';' && (flags & SAFENAME_FOLD))
			put(o, ":", 1);
		else if (special(s[0], flags))
			put_escape(o, s[0]);
		else
			put(o, s, 1);
		return 1;
	}
	if ((cp = surrogate_pair(s, n))) {
		unsigned char u[4] = {0xf0 | cp >> 18, 0x80 | (cp >> 12 & 0x3f),
				      0x80 | (cp >> 6 & 0x3f),
				      0x80 | (cp & 0x3f)};

		put(o, u, 4);
		return 6;
	}
	k = utf8_len(s, n);
	if (k == 2 && s[0] == 0xc2 && s[1] <= 0x9f) {
		/* a C1 control (U+009B is a terminal's CSI): both bytes */
		put_escape(o, s[0]);
		put_escape(o, s[1]);
		return 2;
	}
	if (!k) {
		put_escape(o, s[0]);
		return 1;
	}
	put(o, s, k);
	return k;
}

size_t safename__copy(char *dst, size_t cap, const char *src, size_t len,
		      unsigned int flags)
{
	const unsigned char *s = (const unsigned char *)src;
	struct out o = {dst, cap, 0, 0, 0};
	size_t i = safename__plain(src, len, flags);

	/* names almost always are plain ASCII: one copy, cut anywhere */
	o.used = i < cap ? i : cap ? cap - 1 : 0;
	if (o.used)
		memcpy(dst, s, o.used);
	o.len = i;
	o.full = o.used < i;
	while (i < len)
		i += step(&o, s + i, len - i, flags);
	if (cap)
		dst[o.used] = '\0';
	return o.len;
}

const char *safename__show(char *buf, size_t cap, const char *s)
{
	if (!s)
		s = "(null)";
	safename__copy(buf, cap, s, strlen(s), 0);
	return buf;
}
