/*
 * parse_util: the few bounded text scanners the parsers share. They never
 * read past end and never need a NUL, so they can run on a slice of a
 * file or a fuzzer's buffer.
 */
#ifndef MIXPROF_PARSE_UTIL_H
#define MIXPROF_PARSE_UTIL_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Parse hex digits at *p (an optional "0x" when allow_0x) into *out and
 * advance *p. 0, or -1 when there are no digits or more than 16.
 */
static inline int parse_util__hex(const char **p, const char *end,
				  uint64_t *out, bool allow_0x)
{
	/* digit value + 1; 0: not a hex digit (a table: kallsyms has 10^5) */
	static const uint8_t val[256] = {
	    ['0'] = 1,	['1'] = 2,  ['2'] = 3,	['3'] = 4,  ['4'] = 5,
	    ['5'] = 6,	['6'] = 7,  ['7'] = 8,	['8'] = 9,  ['9'] = 10,
	    ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15,
	    ['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14,
	    ['E'] = 15, ['F'] = 16,
	};
	const char *s = *p;
	uint64_t v = 0;
	int n = 0;

	if (allow_0x && end - s >= 2 && s[0] == '0' && (s[1] | 0x20) == 'x')
		s += 2;
	for (; s < end; s++, n++) {
		unsigned int d = val[(unsigned char)*s];

		if (!d)
			break;
		if (n == 16)
			return -1;
		v = v << 4 | (d - 1);
	}
	if (n == 0)
		return -1;
	*out = v;
	*p = s;
	return 0;
}

/* Decimal, same contract. */
static inline int parse_util__dec(const char **p, const char *end,
				  uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	int n = 0;

	for (; s < end && *s >= '0' && *s <= '9'; s++, n++) {
		if (n == 19)
			return -1;
		v = v * 10 + (*s - '0');
	}
	if (n == 0)
		return -1;
	*out = v;
	*p = s;
	return 0;
}

static inline void parse_util__skip_blanks(const char **p, const char *end)
{
	while (*p < end && (**p == ' ' || **p == '\t'))
		(*p)++;
}

#endif
