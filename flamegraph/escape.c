/*
 * escape: markup-safe text for names of unknown encoding.
 */
#include "escape.h"

size_t fg_utf8_len(const unsigned char *s, size_t left)
{
	size_t n, i;
	unsigned int c = s[0];

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (n > left)
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* Overlong three- and four-byte forms, surrogates, > U+10FFFF. */
	if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) ||
	    (c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] > 0x8f))
		return 0;
	return n;
}

void fg_put_xml(FILE *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *e = p + len;
	size_t n;

	while (p < e) {
		n = fg_utf8_len(p, e - p);
		if (n > 1) {
			fwrite(p, 1, n, out);
			p += n;
			continue;
		}
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
			putc(n && *p >= 0x20 && *p != 0x7f ? *p : '?', out);
		}
		p++;
	}
}

void fg_put_json(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t left = 0, n;

	while (p[left])
		left++;
	putc('"', out);
	while (*p) {
		n = fg_utf8_len(p, left);
		if (n > 1) {
			fwrite(p, 1, n, out);
		} else if (!n || *p < 0x20 || *p == 0x7f) {
			putc('?', out);
			n = 1;
		} else if (*p == '"' || *p == '\\') {
			putc('\\', out);
			putc(*p, out);
		} else if (*p == '<' || *p == '>' || *p == '&') {
			/* So "</script>" in a name cannot end the script. */
			fprintf(out, "\\u%04x", *p);
		} else {
			putc(*p, out);
		}
		p += n;
		left -= n;
	}
	putc('"', out);
}

void fg_put_json_key(FILE *out, const char *key, const char *val)
{
	fprintf(out, "\"%s\":", key);
	if (val)
		fg_put_json(out, val);
	else
		fputs("null", out);
	putc(',', out);
}
