/*
 * safename: the one way a name that a target controls becomes text we
 * write (a process's comm, ELF and kernel symbols, Java Symbols and thread
 * names, perf-map lines, a command line or path shown in a message), for
 * every sink: the terminal, the folded file, pprof, flame graphs.
 *
 * The rule, byte by byte:
 * - bytes below 0x20 (tab and newline too), DEL (0x7f), the UTF-8 of the
 *   C1 controls (U+0080-U+009F: C2 80..C2 9F) and every byte that is not
 *   part of valid UTF-8 (a lone 0x80-0xff, overlong forms, UTF-16
 *   surrogates, past U+10FFFF) are written "\xNN", lowercase hex, one
 *   escape per byte of the input ("\x1b", "\xc2\x9b");
 * - a backslash is written "\x5c", so every backslash in the output
 *   starts an escape and none can be forged by a name that holds the
 *   text "\x1b" (except with SAFENAME_ESCAPED, below);
 * - a surrogate pair as HotSpot's modified UTF-8 writes a character above
 *   U+FFFF (ED A0-AF xx ED B0-BF xx) becomes that character's UTF-8;
 * - every other valid UTF-8 character (é, 中) is kept as it is.
 * So the output holds no byte below 0x20, no 0x7f, no C1 control and only
 * valid UTF-8, and unescaping every "\xNN" gives the input back (but for
 * the surrogate pairs and the flags' substitutions).
 */
#ifndef MIXPROF_SAFENAME_H
#define MIXPROF_SAFENAME_H

#include <stddef.h>

/* ';' becomes ':': one frame of a folded line, where ';' splits frames */
#define SAFENAME_FOLD 1u
/*
 * The text was made safe before (a folded file read back): a backslash
 * stays one, so escapes are not escaped twice; the rest of the rule holds.
 */
#define SAFENAME_ESCAPED 2u

/* Bytes that always hold len bytes of input made safe, NUL included. */
#define SAFENAME_SIZE(len) (4 * (size_t)(len) + 1)

/*
 * src[0..len) made safe into dst (cap bytes, always NUL-terminated when
 * cap > 0; cut before an escape or character that does not fit). Returns
 * the length of the whole safe text, without the NUL, as snprintf does:
 * a return >= cap means dst was cut.
 */
size_t safename__copy(char *dst, size_t cap, const char *src, size_t len,
		      unsigned int flags);

/*
 * The length of src's leading run that safename__copy keeps as it is
 * (plain ASCII): len when the whole name needs no change, the common case.
 */
size_t safename__plain(const char *src, size_t len, unsigned int flags);

/*
 * For messages: NUL-terminated s made safe into buf (cap bytes, cut to
 * fit); returns buf. "(null)" for a NULL s.
 */
const char *safename__show(char *buf, size_t cap, const char *s);

#endif
