/*
 * names: frame names from JVM signatures. See names.h for the forms.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include "names.h"

/* Append n bytes, replacing what a map line, a folded stack or an inline
 * chain cannot hold, and '/' by '.' when dotted. */
static int add_clean(struct strbuf *sb, const char *s, size_t n, bool dotted)
{
	size_t i;
	char *p;

	if (strbuf__grow(sb, n))
		return -ENOMEM;
	p = sb->buf + sb->len;
	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		/* "->" separates inline frames: no name may contain it */
		if (c < 0x20 || c == 0x7f || c == ';' ||
		    (c == '>' && (i	    ? s[i - 1]
				  : sb->len ? p[-1]
					    : 0) == '-'))
			c = '?';
		else if (dotted && c == '/')
			c = '.';
		p[i] = c;
	}
	sb->len += n;
	sb->buf[sb->len] = '\0';
	return 0;
}

static bool all_hex(const char *s, size_t n)
{
	size_t i;

	if (!n)
		return false;
	for (i = 0; i < n; i++)
		if (!strchr("0123456789abcdefABCDEF", s[i]))
			return false;
	return true;
}

/*
 * Length of an internal class name without a hidden class's address
 * suffix: HotSpot appends "/0x<hex>" (Class.getName) or "+0x<hex>" /
 * ".0x<hex>" (internal forms) to hidden classes, a value that changes
 * every run and would split one frame into many across runs.
 */
static size_t strip_hidden(const char *s, size_t n)
{
	size_t i;

	for (i = n; i >= 3; i--) {
		char sep = s[i - 3];

		if ((sep == '/' || sep == '+' || sep == '.') &&
		    s[i - 2] == '0' && s[i - 1] == 'x' && i - 3 > 0 &&
		    all_hex(s + i, n - i))
			return i - 3;
	}
	return n;
}

static int add_class_name(struct strbuf *sb, const char *s, size_t n,
			  bool dotted)
{
	return add_clean(sb, s, strip_hidden(s, n), dotted);
}

int jmap_name__class(struct strbuf *sb, const char *sig, bool dotted)
{
	size_t n = strlen(sig);

	if (n >= 2 && sig[0] == 'L' && sig[n - 1] == ';')
		return add_class_name(sb, sig + 1, n - 2, dotted);
	return add_class_name(sb, sig, n, dotted);
}

static const char *prim_name(char c)
{
	switch (c) {
	case 'B':
		return "byte";
	case 'C':
		return "char";
	case 'D':
		return "double";
	case 'F':
		return "float";
	case 'I':
		return "int";
	case 'J':
		return "long";
	case 'S':
		return "short";
	case 'Z':
		return "boolean";
	case 'V':
		return "void";
	default:
		return NULL;
	}
}

/*
 * Append the Java-like rendering of the field type at *p and advance *p
 * past it. -EINVAL on a malformed descriptor, -ENOMEM.
 */
static int add_type(struct strbuf *sb, const char **p, bool dotted)
{
	const char *s = *p, *end, *prim;
	int dims = 0, ret;

	while (*s == '[')
		s++, dims++;
	if (*s == 'L') {
		end = strchr(s, ';');
		if (!end)
			return -EINVAL;
		ret = add_class_name(sb, s + 1, end - s - 1, dotted);
		s = end + 1;
	} else {
		prim = prim_name(*s);
		if (!prim)
			return -EINVAL;
		ret = strbuf__adds(sb, prim);
		s++;
	}
	while (!ret && dims--)
		ret = strbuf__adds(sb, "[]");
	*p = s;
	return ret;
}

/* "(Ljava/lang/String;I)V" -> "(java/lang/String,int)"; a descriptor we
 * cannot read is shown as it is, cleaned. */
static int add_params(struct strbuf *sb, const char *msig, bool dotted)
{
	size_t mark = sb->len;
	const char *p = msig;
	int ret = 0;

	if (*p++ != '(')
		goto raw;
	if (strbuf__adds(sb, "("))
		return -ENOMEM;
	while (*p && *p != ')') {
		if (p != msig + 1 && strbuf__adds(sb, ","))
			return -ENOMEM;
		ret = add_type(sb, &p, dotted);
		if (ret == -ENOMEM)
			return ret;
		if (ret)
			goto raw;
	}
	if (*p != ')')
		goto raw;
	return strbuf__adds(sb, ")");
raw:
	sb->len = mark;
	return add_clean(sb, msig, strlen(msig), false);
}

int jmap_name__method(struct strbuf *sb, const struct jmap_method_desc *m,
		      const struct jmap_options *o)
{
	if (jmap_name__class(sb, m->class_sig, o->dotted) ||
	    strbuf__adds(sb, ".") ||
	    add_clean(sb, m->name, strlen(m->name), false))
		return -ENOMEM;
	if (o->sig && m->msig && add_params(sb, m->msig, o->dotted))
		return -ENOMEM;
	if (!o->lines || !m->source)
		return 0;
	if (strbuf__adds(sb, " (") ||
	    add_clean(sb, m->source, strlen(m->source), false))
		return -ENOMEM;
	if (m->line > 0 && strbuf__addf(sb, ":%d", m->line))
		return -ENOMEM;
	return strbuf__adds(sb, ")");
}

int jmap_name__stub(struct strbuf *sb, const char *name)
{
	return add_clean(sb, name, strlen(name), false);
}
