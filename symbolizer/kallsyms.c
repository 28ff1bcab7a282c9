// SPDX-License-Identifier: GPL-2.0
/* /proc/kallsyms text -> symtab of kernel and module text symbols. */
#include <errno.h>
#include <string.h>
#include "kallsyms.h"
#include "parse_util.h"

/* Kernel functions are small; a gap this big means "not a symbol". */
#define KSYM_MAX_GAP (64 * 1024)

static bool is_text_type(char c)
{
	return c == 't' || c == 'T' || c == 'w' || c == 'W';
}

/* One line "addr type name[\t[module]]"; 1 kept, 0 skipped, -1 bad. */
static int parse_line(struct symtab *t, const char *p, const char *end)
{
	const char *name, *name_end;
	uint64_t addr;
	char type;

	if (pu_hex(&p, end, &addr, false) || p >= end || *p != ' ')
		return -1;
	p++;
	if (p + 2 > end || p[1] != ' ')
		return -1;
	type = p[0];
	name = p + 2;
	name_end = name;
	while (name_end < end && *name_end != '\t' && *name_end != ' ')
		name_end++;
	if (name_end == name)
		return -1;
	if (!is_text_type(type) || addr == 0)
		return 0;
	if (symtab__add(t, addr, addr, name, name_end - name, false))
		return -2;
	return 1;
}

struct symtab *kallsyms__parse(const char *text, size_t len, uint64_t *bad)
{
	const char *p = text, *end = text + len;
	struct symtab *t = symtab__new();

	if (!t)
		return NULL;
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *le = nl ? nl : end;
		int r = le > p ? parse_line(t, p, le) : 0;

		if (r == -2)
			goto fail;
		if (r == -1 && bad)
			(*bad)++;
		p = le + 1;
	}
	if (symtab__finish(t, KSYM_MAX_GAP))
		goto fail;
	return t;
fail:
	symtab__free(t);
	errno = ENOMEM;
	return NULL;
}
