/*
 * strbuf: a growable byte buffer for formatting map records.
 *
 * Callbacks keep one per thread and reset it per record, so memory is only
 * allocated when a record is larger than any before it on that thread.
 * The text is kept NUL-terminated (buf[len] == 0) once anything was added.
 */
#ifndef MIXPROF_JMAP_STRBUF_H
#define MIXPROF_JMAP_STRBUF_H

#include <stddef.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t cap;
};

#define STRBUF_INIT                                                            \
	{                                                                      \
		NULL, 0, 0                                                     \
	}

/* Make room for extra more bytes (plus the NUL). 0 or -ENOMEM. */
int strbuf__grow(struct strbuf *sb, size_t extra);
/* Append n bytes of s. 0 or -ENOMEM (sb unchanged). */
int strbuf__add(struct strbuf *sb, const void *s, size_t n);
/* Append a C string. 0 or -ENOMEM. */
int strbuf__adds(struct strbuf *sb, const char *s);
/* Append printf output. 0 or -ENOMEM. */
int strbuf__addf(struct strbuf *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Forget the contents, keep the memory. */
void strbuf__reset(struct strbuf *sb);
/* Free the memory; sb is then empty and reusable. NULL allowed. */
void strbuf__release(struct strbuf *sb);

#endif
