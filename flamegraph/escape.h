/*
 * escape: writing frame names into markup. Names come from symbol tables
 * and may hold any byte; these writers always produce well-formed output:
 * invalid UTF-8 and control characters become "\xNN" (common/safename.h;
 * text made safe before, as mixprof's folded lines are, is kept as it
 * is), and the markup's special characters are escaped. They return nothing: the caller checks
 * ferror() once at the end.
 */
#ifndef MIXPROF_FG_ESCAPE_H
#define MIXPROF_FG_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/* len bytes of s as XML/HTML text or attribute content. */
void escape__xml(FILE *out, const char *s, size_t len);
/* s as a JSON string, quotes included, safe inside an HTML <script>. */
void escape__json(FILE *out, const char *s);
/* "key":"val", (or "key":null, when val is NULL), trailing comma included. */
void escape__json_key(FILE *out, const char *key, const char *val);

#endif
