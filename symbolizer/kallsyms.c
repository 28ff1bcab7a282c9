// SPDX-License-Identifier: GPL-2.0
/* /proc/kallsyms text -> symtab of kernel and module text symbols. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kallsyms.h"
#include "common/parse_util.h"

/* Kernel functions are small; a gap this big means "not a symbol". */
#define KSYM_MAX_GAP (64 * 1024)
#define KSYM_CHUNK (64 * 1024)
#define KSYM_RESERVE (256 * 1024) /* symbols; distro kernels have ~150k */

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

	if (parse_util__hex(&p, end, &addr, false) || p >= end || *p != ' ')
		return -1;
	p++;
	if (p + 2 > end || p[1] != ' ')
		return -1;
	type = p[0];
	name = p + 2;
	/* "name\t[module]", or just "name"; memchr: 10^5 lines */
	name_end = memchr(name, '\t', end - name);
	if (!name_end)
		name_end = end;
	p = memchr(name, ' ', name_end - name);
	if (p)
		name_end = p;
	if (name_end == name)
		return -1;
	if (!is_text_type(type) || addr == 0)
		return 0;
	if (symtab__add(t, addr, addr, name, name_end - name, false))
		return -2;
	return 1;
}

/* Add every line of text; a last line without '\n' counts as whole. */
static int parse_lines(struct symtab *t, const char *text, size_t len,
		       uint64_t *bad)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *le = nl ? nl : end;
		int r = le > p ? parse_line(t, p, le) : 0;

		if (r == -2)
			return -ENOMEM;
		if (r == -1 && bad)
			(*bad)++;
		p = le + 1;
	}
	return 0;
}

static struct symtab *finish(struct symtab *t, int err)
{
	if (!err)
		err = symtab__finish(t, KSYM_MAX_GAP);
	if (!err)
		return t;
	symtab__free(t);
	errno = -err;
	return NULL;
}

struct symtab *kallsyms__parse(const char *text, size_t len, uint64_t *bad)
{
	struct symtab *t = symtab__new();

	if (!t)
		return NULL;
	return finish(t, parse_lines(t, text, len, bad));
}

/*
 * The file is ~10 MB of text on a big kernel: read it a chunk at a time,
 * so only the table, never the text, is held in memory.
 */
struct symtab *kallsyms__read_fd(int fd, uint64_t *bad)
{
	char *buf = malloc(KSYM_CHUNK);
	struct symtab *t = symtab__new();
	size_t have = 0;
	int err = 0;

	/* room for a big kernel up front: address space, not memory, and
	 * no regrowth copying a table of 10^5 symbols */
	if (!buf || !t || symtab__reserve(t, KSYM_RESERVE, KSYM_RESERVE * 32)) {
		free(buf);
		symtab__free(t);
		errno = ENOMEM;
		return NULL;
	}
	for (;;) {
		ssize_t r = read(fd, buf + have, KSYM_CHUNK - have);
		const char *nl;
		size_t whole;

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = -errno;
			break;
		}
		have += r;
		if (r == 0) { /* the end: a last line without '\n' */
			err = parse_lines(t, buf, have, bad);
			break;
		}
		nl = memrchr(buf, '\n', have);
		/* no newline in a full chunk: one absurd line, counted bad */
		whole = nl		     ? (size_t)(nl - buf) + 1
			: have == KSYM_CHUNK ? have
					     : 0;
		if (!nl && whole && bad)
			(*bad)++;
		else if (whole)
			err = parse_lines(t, buf, whole, bad);
		if (err)
			break;
		memmove(buf, buf + whole, have - whole);
		have -= whole;
	}
	free(buf);
	return finish(t, err);
}
