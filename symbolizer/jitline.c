// SPDX-License-Identifier: GPL-2.0
/* JIT map lines: parse "START SIZE NAME", classify and normalise NAME. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include "common/parse_util.h"
#include "jitline.h"

int jitline__parse(const char *p, size_t len, struct jitline *out)
{
	const char *end = p + len, *name;

	parse_util__skip_blanks(&p, end);
	if (parse_util__hex(&p, end, &out->start, true) || p >= end ||
	    (*p != ' ' && *p != '\t'))
		return -EINVAL;
	parse_util__skip_blanks(&p, end);
	if (parse_util__hex(&p, end, &out->size, true) || p >= end ||
	    (*p != ' ' && *p != '\t'))
		return -EINVAL;
	parse_util__skip_blanks(&p, end);
	name = p;
	while (end > name &&
	       (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	if (end == name || out->size == 0 || out->size > JITLINE_MAX_SIZE ||
	    out->start + out->size < out->start)
		return -EINVAL;
	if (memchr(name, '\0', end - name))
		return -EINVAL;
	out->name = name;
	out->name_len = end - name;
	return 0;
}

static bool has_prefix(const char *s, size_t len, const char *pre)
{
	size_t n = strlen(pre);

	return len >= n && !memcmp(s, pre, n);
}

/* V8's --perf-basic-prof tags: which mean "a JavaScript function". */
static int node_kind(const char *s, size_t len)
{
	static const char *const js[] = {
	    "LazyCompile:", "Function:", "JS:",
	    "Script:",	    "Eval:",	 "InterpretedFunction:",
	};
	static const char *const stub[] = {
	    "Builtin:",	     "Stub:",	      "BytecodeHandler:",
	    "Handler:",	     "RegExp:",	      "KeyedLoadIC:",
	    "KeyedStoreIC:", "LoadIC:",	      "StoreIC:",
	    "CallIC:",	     "LoadGlobalIC:", "StoreInArrayLiteralIC:",
	};

	for (size_t i = 0; i < sizeof(js) / sizeof(js[0]); i++)
		if (has_prefix(s, len, js[i]))
			return FRAME_JAVA;
	for (size_t i = 0; i < sizeof(stub) / sizeof(stub[0]); i++)
		if (has_prefix(s, len, stub[i]))
			return FRAME_STUB;
	return -1;
}

static bool ident_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '<' ||
	       c == '>' || c >= 0x80;
}

/*
 * Is w[0..n) "class.method" or "class::method"? Writes the normalised
 * "class.method" to out and returns its length, or 0 when not Java.
 */
static size_t java_word(const char *w, size_t n, bool has_sig, char *out)
{
	const char *dc = NULL, *dot = NULL;
	bool pkg = false;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = w[i];

		if (c == ':' && i + 1 < n && w[i + 1] == ':' && !dc) {
			dc = w + i;
			i++;
		} else if (c == '.' || c == '/') {
			if (c == '.')
				dot = w + i;
			if (!dc)
				pkg = true;
		} else if (!ident_char(c)) {
			return 0;
		}
	}
	if (dc) {
		size_t cl = dc - w, ml = n - cl - 2;

		if (!cl || !ml || memchr(dc + 2, '.', ml) || !(pkg || has_sig))
			return 0;
		memcpy(out, w, cl);
		out[cl] = '.';
		memcpy(out + cl + 1, dc + 2, ml);
		return n - 1;
	}
	if (!dot || dot == w || dot == w + n - 1 || w[n - 1] == '/')
		return 0;
	if (dot[-1] == '/' || dot[-1] == '.')
		return 0;
	memcpy(out, w, n);
	return n;
}

/* perf-map-agent's "Lpkg/Class;::method[(sig)]" -> "pkg/Class.method". */
static size_t pma_word(const char *s, size_t n, char *out)
{
	const char *semi, *m, *e;
	size_t cl, ml;

	if (n < 5 || s[0] != 'L')
		return 0;
	semi = memchr(s, ';', n);
	if (!semi || s + n - semi < 4 || semi[1] != ':' || semi[2] != ':')
		return 0;
	m = semi + 3;
	e = memchr(m, '(', s + n - m);
	if (!e)
		e = s + n;
	cl = semi - s - 1;
	ml = e - m;
	if (!cl || !ml)
		return 0;
	memcpy(out, s + 1, cl);
	out[cl] = '.';
	memcpy(out + cl + 1, m, ml);
	return cl + 1 + ml;
}

/* One inline part: its normalised form in out (length *olen), its kind. */
static enum frame_kind part_name(const char *s, size_t n, char *out,
				 size_t *olen)
{
	const char *paren = memchr(s, '(', n), *w, *we;
	size_t r;

	r = pma_word(s, n, out);
	if (r) {
		*olen = r;
		return FRAME_JAVA;
	}
	we = paren ? paren : s + n;
	w = we;
	while (w > s && w[-1] != ' ' && w[-1] != '\t')
		w--;
	if (we > w) {
		r = java_word(w, we - w, paren != NULL, out);
		if (r) {
			*olen = r;
			return FRAME_JAVA;
		}
	}
	memcpy(out, s, n);
	*olen = n;
	return FRAME_STUB;
}

static const char *find_arrow(const char *s, const char *end)
{
	for (; s + 1 < end; s++)
		if (s[0] == '-' && s[1] == '>')
			return s;
	return NULL;
}

enum frame_kind jitline__name(const char *name, size_t len, char *out)
{
	const char *p = name, *end = name + len;
	enum frame_kind kind = FRAME_STUB;
	size_t o = 0;
	int nk = node_kind(name, len);

	if (nk >= 0) {
		memcpy(out, name, len);
		out[len] = '\0';
		return nk;
	}
	for (int part = 0;; part++) {
		const char *a = find_arrow(p, end);
		const char *pe = a ? a : end;
		enum frame_kind k;
		size_t n;

		k = part_name(p, pe - p, out + o, &n);
		if (part == 0) {
			kind = k;
			if (k != FRAME_JAVA) {
				/* only Java methods inline: keep it whole */
				memcpy(out, name, len);
				o = len;
				break;
			}
		}
		o += n;
		if (!a)
			break;
		memcpy(out + o, "->", 2);
		o += 2;
		p = a + 2;
	}
	out[o] = '\0';
	return kind;
}
