/*
 * strpool: strings that never move. Names handed out in struct frame must
 * stay valid until symbolizer__free(), so they live in fixed chunks that
 * are never reallocated. strpool__intern() also dedupes, for names made
 * per mapping ("[libc.so.6]") that would otherwise pile up on re-reads.
 */
#ifndef MIXPROF_STRPOOL_H
#define MIXPROF_STRPOOL_H

#include <stddef.h>

struct strpool;

struct strpool *strpool__new(void); /* NULL and errno on failure */
void strpool__free(struct strpool *p);
/* A NUL-terminated copy of s[0..len), or NULL (ENOMEM). */
char *strpool__add(struct strpool *p, const char *s, size_t len);
/* Like __add, but equal strings share one copy. */
const char *strpool__intern(struct strpool *p, const char *s, size_t len);

#endif
