/*
 * strbuf: growable buffer. Doubles its capacity so a thread that formats
 * many records settles on one allocation.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "strbuf.h"

int strbuf__grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1, cap = sb->cap ? sb->cap : 256;
	char *p;

	if (need < sb->len)
		return -ENOMEM;
	if (need <= sb->cap)
		return 0;
	while (cap < need)
		cap *= 2;
	p = realloc(sb->buf, cap);
	if (!p)
		return -ENOMEM;
	sb->buf = p;
	sb->cap = cap;
	return 0;
}

int strbuf__add(struct strbuf *sb, const void *s, size_t n)
{
	if (strbuf__grow(sb, n))
		return -ENOMEM;
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
	return 0;
}

int strbuf__adds(struct strbuf *sb, const char *s)
{
	return strbuf__add(sb, s, strlen(s));
}

int strbuf__addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		size_t room = sb->cap > sb->len ? sb->cap - sb->len : 0;

		va_start(ap, fmt);
		n = vsnprintf(room ? sb->buf + sb->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0)
			return -EINVAL;
		if ((size_t)n < room) {
			sb->len += n;
			return 0;
		}
		if (strbuf__grow(sb, n)) {
			/* vsnprintf may have overwritten the old NUL */
			if (sb->cap)
				sb->buf[sb->len] = '\0';
			return -ENOMEM;
		}
	}
}

void strbuf__reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void strbuf__release(struct strbuf *sb)
{
	if (!sb)
		return;
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}
