/*
 * escape: markup-safe text for names of unknown encoding.
 */
#include <stdlib.h>
#include <string.h>
#include "common/safename.h"
#include "escape.h"

/*
 * s[0..len) made safe (common/safename.h) into buf (cap bytes) or, when
 * it needs more, memory the caller frees (*heap); NULL without memory.
 * A folded line of ours is safe already, so its escapes stay as they are
 * (SAFENAME_ESCAPED); a file of another tool gets them here.
 */
static const char *safe(const char *s, size_t len, char *buf, size_t cap,
			char **heap)
{
	*heap = NULL;
	if (SAFENAME_SIZE(len) > cap) {
		cap = SAFENAME_SIZE(len);
		buf = *heap = malloc(cap);
		if (!buf)
			return NULL;
	}
	safename__copy(buf, cap, s, len, SAFENAME_ESCAPED);
	return buf;
}

void escape__xml(FILE *out, const char *s, size_t len)
{
	char buf[1024], *heap;
	const char *p = safe(s, len, buf, sizeof(buf), &heap);

	for (; p && *p; p++) {
		switch (*p) {
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '&':
			fputs("&amp;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&#39;", out);
			break;
		default:
			putc(*p, out);
		}
	}
	free(heap);
}

void escape__json(FILE *out, const char *s)
{
	char buf[1024], *heap;
	const char *p = safe(s, strlen(s), buf, sizeof(buf), &heap);

	putc('"', out);
	for (; p && *p; p++) {
		if (*p == '"' || *p == '\\') {
			putc('\\', out);
			putc(*p, out);
		} else if (*p == '<' || *p == '>' || *p == '&') {
			/* So "</script>" in a name cannot end the script. */
			fprintf(out, "\\u%04x", *p);
		} else {
			putc(*p, out);
		}
	}
	putc('"', out);
	free(heap);
}

void escape__json_key(FILE *out, const char *key, const char *val)
{
	fprintf(out, "\"%s\":", key);
	if (val)
		escape__json(out, val);
	else
		fputs("null", out);
	putc(',', out);
}
