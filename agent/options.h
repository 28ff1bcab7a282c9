/*
 * options: the agent's option string, "key[=value]" items separated by
 * commas, as given after "=" in -agentpath:libjmap.so=OPTIONS or passed to
 * `mixprof attach PID OPTIONS`.
 *
 * Pure C (no JVMTI, no I/O): mixprof links options.o to reject bad options
 * before it attaches, so the user sees the same message either way.
 *
 * Grammar: an empty or NULL string gives the defaults. Otherwise every item
 * must be a known key; a key may appear once; empty items ("a,,b", a
 * trailing comma) are errors. Boolean keys take no value ("dotted") or one
 * of on|off|yes|no|true|false|1|0. "noinline" is "inline=off".
 *
 *   dir=PATH      absolute directory for perf-PID.map and jit-PID.dump
 *                 (default /tmp, where perf looks)
 *   dotted        java.lang.String.indexOf instead of java/lang/String...
 *   sig           append parameter types: pkg/C.m(int,java/lang/String)
 *   lines         append the source position: pkg/C.m (C.java:42)
 *   inline=on|off also write the inlined sub-ranges "outer->inner" (on)
 *   stubs=on|off  also write JVM stubs: Interpreter, adapters... (on)
 *   jitdump       also write perf's jitdump file for `perf inject --jit`
 *   probes=on|off serve Java method entry probes (on; see probes.h)
 *   help          list the options; the agent does not start
 */
#ifndef MIXPROF_JMAP_OPTIONS_H
#define MIXPROF_JMAP_OPTIONS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

struct jmap_options {
	char dir[PATH_MAX]; /* no trailing slash except for "/" */
	bool dotted;
	bool sig;
	bool lines;
	bool inline_frames;
	bool stubs;
	bool jitdump;
	bool probes;
	bool help;
};

/* Fill *out with the defaults (what an empty option string gives). */
void jmap_options__defaults(struct jmap_options *out);

/*
 * Parse text (NULL allowed) into *out, starting from the defaults.
 * Returns 0, or -EINVAL with a one-line message in err (no prefix, no
 * newline, naming the bad key or value, e.g. "unknown option 'foo' (try
 * 'help')"); *out is then unspecified. err may be NULL when errlen is 0.
 */
int jmap_options__parse(const char *text, struct jmap_options *out, char *err,
			size_t errlen);

/* The option list shown for "help": static, several lines, ends in '\n'. */
const char *jmap_options__help(void);

#endif
