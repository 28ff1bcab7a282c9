/*
 * pattern: the method patterns users give to probes,
 *
 *     [java:]CLASS.METHOD[(SIGNATURE)]
 *
 * CLASS dotted (java.util.ArrayList) or slashed (java/util/ArrayList),
 * nested classes with '$'; METHOD a name, <init> or <clinit>; SIGNATURE a
 * JVM descriptor, "(I)V", or only its parameters "(I)" meaning any return
 * type. '*' matches any run of characters (also across '.' and '/') in
 * every part. The last '.' before the signature separates class and
 * method, so "a.b.C.m" is class a/b/C, method m.
 *
 * Pure C. Matching works on the JVM's own (slashed) names.
 */
#ifndef MIXPROF_JMAP_PATTERN_H
#define MIXPROF_JMAP_PATTERN_H

#include <stdbool.h>
#include <stddef.h>

#define PATTERN_MAX 512

struct pattern {
	char cls[PATTERN_MAX]; /* slashed glob */
	char method[PATTERN_MAX];
	char sig[PATTERN_MAX]; /* glob over the descriptor; "*" for any */
};

/* Parse text into *p. 0, or -EINVAL with a one-line reason in err naming
 * what is wrong (no prefix, no newline). */
int pattern__parse(const char *text, struct pattern *p, char *err,
		   size_t errlen);

/* Does the slashed class name (length n, not NUL terminated) match? */
bool pattern__class(const struct pattern *p, const char *cls, size_t n);
/* Does method name:desc match (both length-delimited)? */
bool pattern__method(const struct pattern *p, const char *name, size_t nlen,
		     const char *desc, size_t dlen);

/* Glob match of s[0..n) against the NUL-terminated glob g ('*' only). */
bool pattern__glob(const char *g, const char *s, size_t n);

#endif
