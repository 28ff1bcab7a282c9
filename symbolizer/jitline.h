/*
 * jitline: one line of a JIT map (/tmp/perf-PID.map) and what its name is.
 *
 * Line formats accepted, "START SIZE NAME" with any run of blanks between:
 *   ours, perf-map-agent, node:  "7f3c0010 1a0 name"   (hex, no 0x)
 *   jcmd PID Compiler.perfmap:   "0x00007f3c0010 0x01a0 name" (0x-prefixed)
 * A line is bad (skipped and counted by the caller) when START or SIZE is
 * not hex, SIZE is 0 or over JITLINE_MAX_SIZE, START+SIZE overflows, or
 * NAME is empty. Trailing blanks and '\r' are not part of NAME.
 *
 * Names are classified and normalised per inline part ("a->b->c"), using
 * the first part's class for the whole chain:
 *   node ("LazyCompile:", "Function:", "JS:", "Script:", "Eval:",
 *         "InterpretedFunction:" prefixes)   -> FRAME_JAVA, kept as written;
 *   other node prefixes ("Builtin:", "Stub:", "BytecodeHandler:", ...)
 *                                            -> FRAME_STUB, kept;
 *   perf-map-agent "Lpkg/Class;::m[(sig)]"   -> FRAME_JAVA "pkg/Class.m";
 *   a Java method: the word right before the first '(' (or the whole name
 *     when there is no '('), made only of identifier characters, '/', '$',
 *     '<', '>' and '.', with a non-empty class and method either side of
 *     its last '.', or of "::" when the class has a package ('.' or '/')
 *     or a '(' signature follows. So JDK 17's "int java.lang.String.hashCode()"
 *     and later JDKs' "java.lang.String::hashCode()I [c1]" both give
 *     FRAME_JAVA "java.lang.String.hashCode", ours "pkg/Class.method" stays;
 *   anything else (Interpreter, StubRoutines (1), I2C/C2I adapters,
 *     vtable stub, StubRoutines::call_stub, ...)  -> FRAME_STUB, kept.
 */
#ifndef MIXPROF_JITLINE_H
#define MIXPROF_JITLINE_H

#include <stddef.h>
#include <stdint.h>
#include "symbolizer.h"

#define JITLINE_MAX_SIZE (1ULL << 30)

struct jitline {
	uint64_t start, size;
	const char *name; /* points into the line; not NUL-terminated */
	size_t name_len;
};

/* Parse line[0..len) (no '\n'). 0, or -EINVAL for a bad line. */
int jitline__parse(const char *line, size_t len, struct jitline *out);

/*
 * Normalise name[0..len) into out (room for len + 1 bytes; the result is
 * never longer) and return its class: FRAME_JAVA or FRAME_STUB. Inline
 * parts stay joined by "->" in out.
 */
enum frame_kind jitline__name(const char *name, size_t len, char *out);

#endif
