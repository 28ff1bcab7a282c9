/*
 * options: parse the agent's option string. See options.h for the grammar.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "options.h"

/* Which keys were seen, to refuse duplicates ("inline" and "noinline" share
 * a slot so "inline=on,noinline" is refused too). */
enum opt_key {
	K_DIR,
	K_DOTTED,
	K_SIG,
	K_LINES,
	K_INLINE,
	K_STUBS,
	K_JITDUMP,
	K_PROBES,
	K_HELP,
	K_COUNT
};

struct opt_desc {
	const char *name;
	enum opt_key key;
	bool is_bool;
	size_t field; /* offsetof the bool in struct jmap_options */
};

static const struct opt_desc opt_descs[] = {
    {"dir", K_DIR, false, 0},
    {"dotted", K_DOTTED, true, offsetof(struct jmap_options, dotted)},
    {"sig", K_SIG, true, offsetof(struct jmap_options, sig)},
    {"lines", K_LINES, true, offsetof(struct jmap_options, lines)},
    {"inline", K_INLINE, true, offsetof(struct jmap_options, inline_frames)},
    {"noinline", K_INLINE, false, 0},
    {"stubs", K_STUBS, true, offsetof(struct jmap_options, stubs)},
    {"jitdump", K_JITDUMP, true, offsetof(struct jmap_options, jitdump)},
    {"probes", K_PROBES, true, offsetof(struct jmap_options, probes)},
    {"help", K_HELP, false, 0},
};

static const char help_text[] =
    "libjmap.so options, comma-separated key[=value]:\n"
    "  dir=PATH       absolute directory for perf-PID.map (default /tmp)\n"
    "  dotted         dotted class names: java.lang.String.indexOf\n"
    "  sig            add parameter types: pkg/C.m(int,java/lang/String)\n"
    "  lines          add the source position: pkg/C.m (C.java:42)\n"
    "  inline=on|off  write inlined sub-ranges as outer->inner (default on)\n"
    "  noinline       same as inline=off\n"
    "  stubs=on|off   write JVM stubs: Interpreter, adapters (default on)\n"
    "  jitdump        also write jit-PID.dump for perf inject --jit\n"
    "  probes=on|off  serve method entry probes on DIR/.mixprof-jmap-PID (on)\n"
    "  help           print this list; the agent does not start\n"
    "Boolean values: on|off|yes|no|true|false|1|0 (bare key means on).\n";

const char *jmap_options__help(void)
{
	return help_text;
}

void jmap_options__defaults(struct jmap_options *out)
{
	memset(out, 0, sizeof(*out));
	strcpy(out->dir, "/tmp");
	out->inline_frames = true;
	out->stubs = true;
	out->probes = true;
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
		/* the value is the user's text: keep the message one line */
		for (; *err; err++)
			if ((unsigned char)*err < 0x20)
				*err = '?';
	}
	return -EINVAL;
}

/* Strings compared by length: items are not NUL-terminated in text. */
static bool span_is(const char *s, size_t n, const char *word)
{
	return strlen(word) == n && !memcmp(s, word, n);
}

static int parse_bool(const char *v, size_t n, bool *out)
{
	static const char *const yes[] = {"on", "yes", "true", "1"};
	static const char *const no[] = {"off", "no", "false", "0"};
	size_t i;

	for (i = 0; i < 4; i++) {
		if (span_is(v, n, yes[i]))
			return *out = true, 0;
		if (span_is(v, n, no[i]))
			return *out = false, 0;
	}
	return -EINVAL;
}

/* dir must be absolute so it means the same on attach as at launch. */
static int parse_dir(const char *v, size_t n, struct jmap_options *out,
		     char *err, size_t errlen)
{
	if (!n)
		return fail(err, errlen, "option 'dir' needs a path");
	if (v[0] != '/')
		return fail(err, errlen, "option 'dir': '%.*s' is not absolute",
			    (int)n, v);
	if (n >= sizeof(out->dir))
		return fail(err, errlen, "option 'dir': path too long");
	if (memchr(v, '\n', n))
		return fail(err, errlen, "option 'dir': newline in path");
	memcpy(out->dir, v, n);
	while (n > 1 && out->dir[n - 1] == '/')
		n--;
	out->dir[n] = '\0';
	return 0;
}

static const struct opt_desc *find_desc(const char *k, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(opt_descs) / sizeof(opt_descs[0]); i++)
		if (span_is(k, n, opt_descs[i].name))
			return &opt_descs[i];
	return NULL;
}

/* One item "key" or "key=value" of length n. */
static int parse_item(const char *item, size_t n, struct jmap_options *out,
		      bool *seen, char *err, size_t errlen)
{
	const char *eq = memchr(item, '=', n);
	size_t klen = eq ? (size_t)(eq - item) : n;
	const char *v = eq ? eq + 1 : NULL;
	size_t vlen = eq ? n - klen - 1 : 0;
	const struct opt_desc *d = find_desc(item, klen);
	bool b = true;

	if (!d)
		return fail(err, errlen, "unknown option '%.*s' (try 'help')",
			    (int)klen, item);
	if (seen[d->key])
		return fail(err, errlen, "option '%.*s' given twice", (int)klen,
			    item);
	seen[d->key] = true;
	if (d->key == K_DIR)
		return parse_dir(v ? v : "", vlen, out, err, errlen);
	if (v && !d->is_bool)
		return fail(err, errlen, "option '%s' takes no value", d->name);
	if (v && parse_bool(v, vlen, &b))
		return fail(err, errlen,
			    "option '%s': bad value '%.*s' (want on or off)",
			    d->name, (int)vlen, v);
	if (d->key == K_HELP)
		out->help = true;
	else if (!d->is_bool) /* noinline */
		out->inline_frames = false;
	else
		*(bool *)((char *)out + d->field) = b;
	return 0;
}

int jmap_options__parse(const char *text, struct jmap_options *out, char *err,
			size_t errlen)
{
	bool seen[K_COUNT] = {false};
	const char *p = text, *end;
	int ret;

	jmap_options__defaults(out);
	if (errlen)
		err[0] = '\0';
	if (!text || !*text)
		return 0;
	for (;;) {
		end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		if (end == p)
			return fail(err, errlen, "empty option in '%s'", text);
		ret = parse_item(p, end - p, out, seen, err, errlen);
		if (ret)
			return ret;
		if (!*end)
			return 0;
		p = end + 1;
	}
}
