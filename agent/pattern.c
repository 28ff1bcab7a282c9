/*
 * pattern: parse and match probe patterns. See pattern.h.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "pattern.h"

bool pattern__glob(const char *g, const char *s, size_t n)
{
	const char *star = NULL;
	size_t i = 0, back = 0;

	while (i < n) {
		if (*g == '*') {
			star = g++;
			back = i;
		} else if (*g && *g == s[i]) {
			g++;
			i++;
		} else if (star) {
			g = star + 1;
			i = ++back;
		} else {
			return false;
		}
	}
	while (*g == '*')
		g++;
	return !*g;
}

/* Characters a JVM name part may not hold ('.', ';', '[', '/' for
 * methods); '<' '>' only in <init>/<clinit>, checked by the JVM anyway. */
static const char *bad_char(const char *s, size_t n, const char *bad)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strchr(bad, s[i]) || (unsigned char)s[i] <= ' ')
			return s + i;
	return NULL;
}

static int fail(char *err, size_t errlen, const char *text, const char *why)
{
	snprintf(err, errlen, "bad pattern '%s': %s", text, why);
	return -EINVAL;
}

/* A JVM descriptor, possibly with '*': outside L...; only type letters. */
static bool descriptor_like(const char *s)
{
	for (; *s; s++) {
		if (*s == 'L') {
			while (*s && *s != ';' && *s != '.' && *s != ',')
				s++;
			if (*s != ';' && !(s[-1] == '*' && !*s))
				return false;
			if (!*s)
				return true;
		} else if (!strchr("BCDFIJSZV[()*", *s)) {
			return false;
		}
	}
	return true;
}

static int parse_sig(const char *text, const char *sig, struct pattern *p,
		     char *err, size_t errlen)
{
	size_t n = strlen(sig);
	const char *close = strchr(sig, ')');

	if (!close)
		return fail(err, errlen, text, "signature without ')'");
	if (!descriptor_like(sig))
		return fail(err, errlen, text,
			    "signature must be a JVM descriptor like (I)V "
			    "or (Ljava/lang/String;)");
	if (n + 2 > sizeof(p->sig))
		return fail(err, errlen, text, "too long");
	/* "(I)" means any return type */
	snprintf(p->sig, sizeof(p->sig), "%s%s", sig, close[1] ? "" : "*");
	return 0;
}

int pattern__parse(const char *text, struct pattern *p, char *err,
		   size_t errlen)
{
	const char *s = text, *paren, *dot, *c;
	size_t clen, mlen, i;

	if (!strncmp(s, "java:", 5))
		s += 5;
	paren = strchr(s, '(');
	clen = paren ? (size_t)(paren - s) : strlen(s);
	dot = NULL;
	for (c = s; c < s + clen; c++)
		if (*c == '.')
			dot = c;
	if (!dot || dot == s || dot == s + clen - 1)
		return fail(err, errlen, text, "expected CLASS.METHOD");
	mlen = (size_t)(s + clen - dot - 1);
	clen = (size_t)(dot - s);
	if (clen >= sizeof(p->cls) || mlen >= sizeof(p->method))
		return fail(err, errlen, text, "too long");
	if (bad_char(s, clen, ";[()"))
		return fail(err, errlen, text, "bad character in class name");
	if (bad_char(dot + 1, mlen, ";[/()"))
		return fail(err, errlen, text, "bad character in method name");
	for (i = 0; i < clen; i++)
		p->cls[i] = s[i] == '.' ? '/' : s[i];
	p->cls[clen] = 0;
	if (strstr(p->cls, "//") || p->cls[0] == '/' || p->cls[clen - 1] == '/')
		return fail(err, errlen, text, "empty package or class name");
	memcpy(p->method, dot + 1, mlen);
	p->method[mlen] = 0;
	if (!paren) {
		strcpy(p->sig, "*");
		return 0;
	}
	return parse_sig(text, paren, p, err, errlen);
}

bool pattern__class(const struct pattern *p, const char *cls, size_t n)
{
	return pattern__glob(p->cls, cls, n);
}

bool pattern__method(const struct pattern *p, const char *name, size_t nlen,
		     const char *desc, size_t dlen)
{
	return pattern__glob(p->method, name, nlen) &&
	       pattern__glob(p->sig, desc, dlen);
}
