// SPDX-License-Identifier: GPL-2.0
/* C++ demangling through libstdc++'s __cxa_demangle, then shortening. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "demangle.h"

/* libstdc++ exports this with C linkage; declaring it spares a C++ file. */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

/*
 * Cut the parameter list: find the '(' that opens it at template and
 * parenthesis depth 0, scanning from the end so return types with
 * function-pointer parentheses earlier in the name do not confuse us.
 * "(anonymous namespace)" is a scope, not parameters, so it is skipped.
 */
static void strip_params(char *s)
{
	size_t len = strlen(s);
	int depth = 0;

	if (len == 0 || (s[len - 1] != ')' && !strstr(s, ") const")))
		return;
	for (size_t i = len; i-- > 0;) {
		char c = s[i];

		if (c == ')' || c == '>' || c == ']')
			depth++;
		else if (c == '<' || c == '[')
			depth--;
		else if (c == '(' && --depth == 0) {
			if (!strncmp(s + i, "(anonymous namespace)", 21))
				continue;
			if (i > 0) {
				s[i] = '\0';
				return;
			}
		}
	}
}

/*
 * Template functions demangle with their return type first ("int
 * ns::twice<int>"); drop it: cut at the last blank outside brackets,
 * except the one in "operator new" and friends.
 */
static void strip_return_type(char *s)
{
	int depth = 0;
	char *cut = NULL;

	for (char *p = s; *p; p++) {
		if (*p == '<' || *p == '(' || *p == '[')
			depth++;
		else if ((*p == '>' || *p == ')' || *p == ']') && depth > 0)
			depth--;
		else if (*p == ' ' && depth == 0 &&
			 !(p - s >= 8 && !strncmp(p - 8, "operator", 8)))
			cut = p;
	}
	if (cut)
		memmove(s, cut + 1, strlen(cut + 1) + 1);
}

/*
 * GCC's clones of a function (".constprop.N", ".isra.N", ".part.N",
 * ".cold", ...) demangle as "f(int) [clone .cold] [clone .isra.0]"; they
 * are parts of f, so they are named f, one box in a flame graph. Left
 * there, the blank before "[clone" made the return-type cut below keep
 * only "[clone .cold]".
 */
static void strip_clones(char *s)
{
	char *c = strstr(s, " [clone .");

	if (c)
		*c = '\0';
}

char *demangle__name(const char *mangled)
{
	int status = 0;
	char *s;

	if (!mangled || strncmp(mangled, "_Z", 2)) {
		errno = EINVAL;
		return NULL;
	}
	s = __cxa_demangle(mangled, NULL, NULL, &status);
	if (!s || status) {
		free(s);
		errno = status == -1 ? ENOMEM : EINVAL;
		return NULL;
	}
	strip_clones(s);
	strip_params(s);
	strip_return_type(s);
	return s;
}
