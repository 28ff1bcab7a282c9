/*
 * safename: controls, DEL, C1, invalid UTF-8 and backslashes escaped as
 * "\xNN"; valid UTF-8 kept; modified UTF-8's surrogate pairs joined; the
 * folded format's ';'; cutting to a buffer; already escaped text.
 */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "common/safename.h"

static char out[256];

static const char *safe(const char *s, size_t len, unsigned int flags)
{
	size_t n = safename__copy(out, sizeof(out), s, len, flags);

	CHECK(n == strlen(out));
	return out;
}

#define SAFE(lit, flags) safe(lit, sizeof(lit) - 1, flags)

/* No byte below 0x20, no 0x7f, no C1, only valid UTF-8. */
static int clean(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p; p++) {
		if (*p < 0x20 || *p == 0x7f ||
		    (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
			return 0;
	}
	return 1;
}

static void test_plain(void)
{
	CHECK_STR(SAFE("java.lang.String.hashCode", 0),
		  "java.lang.String.hashCode");
	CHECK_STR(SAFE("std::vector<int>::push_back", SAFENAME_FOLD),
		  "std::vector<int>::push_back");
	CHECK_INT(safename__plain("abc", 3, 0), 3);
	CHECK_INT(safename__plain("ab\x1b", 3, 0), 2);
	CHECK_INT(safename__plain("a;b", 3, 0), 3);
	CHECK_INT(safename__plain("a;b", 3, SAFENAME_FOLD), 1);
	CHECK_INT(safename__plain("a\\b", 3, 0), 1);
	CHECK_INT(safename__plain("a\\b", 3, SAFENAME_ESCAPED), 3);
	CHECK_INT(safename__plain("a\xc3\xa9", 3, 0), 1);
}

static void test_controls(void)
{
	/* the comm of the issue: retitle, clear the screen, a new line */
	CHECK_STR(SAFE("\e]0;OWN\a\e[2J;x\n", 0),
		  "\\x1b]0;OWN\\x07\\x1b[2J;x\\x0a");
	CHECK_STR(SAFE("\e]0;OWN\a\e[2J;x\n", SAFENAME_FOLD),
		  "\\x1b]0:OWN\\x07\\x1b[2J:x\\x0a");
	CHECK_STR(SAFE("a\tb\rc\x7f", 0), "a\\x09b\\x0dc\\x7f");
	CHECK_STR(safe("a\0b", 3, 0), "a\\x00b");
	CHECK_STR(SAFE("\x01\x1f", 0), "\\x01\\x1f");
	/* U+009B, a CSI on terminals that read C1; U+0080; U+00A0 kept */
	CHECK_STR(SAFE("t\xc2\x9b"
		       "2J",
		       0),
		  "t\\xc2\\x9b2J");
	CHECK_STR(SAFE("\xc2\x80\xc2\xa0", 0), "\\xc2\\x80\xc2\xa0");
	/* a raw C1 byte, not UTF-8 */
	CHECK_STR(SAFE("a\x9b"
		       "b",
		       0),
		  "a\\x9bb");
}

static void test_backslash(void)
{
	/* a name cannot pass for an escaped one */
	CHECK_STR(SAFE("\\x1b", 0), "\\x5cx1b");
	CHECK_STR(SAFE("a\\b", SAFENAME_FOLD), "a\\x5cb");
	/* text made safe before stays as it was */
	CHECK_STR(SAFE("\\x1b]0:OWN", SAFENAME_ESCAPED), "\\x1b]0:OWN");
	CHECK_STR(SAFE("\\x1b\e", SAFENAME_ESCAPED), "\\x1b\\x1b");
}

static void test_utf8(void)
{
	CHECK_STR(SAFE("caf\xc3\xa9;\xe4\xb8\xad", 0),
		  "caf\xc3\xa9;\xe4\xb8\xad"); /* é, 中 */
	CHECK_STR(SAFE("\xf0\x9f\x94\xa5", 0), "\xf0\x9f\x94\xa5"); /* 🔥 */
	CHECK_STR(SAFE("\xef\xbf\xbf", 0), "\xef\xbf\xbf"); /* U+FFFF */
	CHECK_STR(SAFE("\xf4\x8f\xbf\xbf", 0), "\xf4\x8f\xbf\xbf");
	/* cut short, lone continuation, overlong, past U+10FFFF, 0xff */
	CHECK_STR(SAFE("\xe4\xb8", 0), "\\xe4\\xb8");
	CHECK_STR(SAFE("\xe4\xb8x", 0), "\\xe4\\xb8x");
	CHECK_STR(SAFE("\x80", 0), "\\x80");
	CHECK_STR(SAFE("\xc0\xaf", 0), "\\xc0\\xaf");
	CHECK_STR(SAFE("\xe0\x80\xaf", 0), "\\xe0\\x80\\xaf");
	CHECK_STR(SAFE("\xf4\x90\x80\x80", 0), "\\xf4\\x90\\x80\\x80");
	CHECK_STR(SAFE("\xf8\xff", 0), "\\xf8\\xff");
	/* modified UTF-8: its NUL stays escaped, a pair is the character */
	CHECK_STR(SAFE("a\xc0\x80"
		       "b",
		       0),
		  "a\\xc0\\x80b");
	CHECK_STR(SAFE("\xed\xa0\xbd\xed\xb4\xa5", 0), "\xf0\x9f\x94\xa5");
	/* a lone surrogate is not UTF-8 */
	CHECK_STR(SAFE("\xed\xa0\xbdx", 0), "\\xed\\xa0\\xbdx");
	CHECK_STR(SAFE("\xed\xb4\xa5", 0), "\\xed\\xb4\\xa5");
}

static void test_cut(void)
{
	char b[8];

	/* like snprintf: the whole length, what fits, always a NUL */
	CHECK_INT(safename__copy(b, sizeof(b), "abcdefghij", 10, 0), 10);
	CHECK_STR(b, "abcdefg");
	/* never half an escape or half a character */
	CHECK_INT(safename__copy(b, sizeof(b), "abcde\e", 6, 0), 9);
	CHECK_STR(b, "abcde");
	CHECK_INT(safename__copy(b, sizeof(b), "abcde\xe4\xb8\xad", 8, 0), 8);
	CHECK_STR(b, "abcde");
	CHECK_INT(safename__copy(b, 1, "\e", 1, 0), 4);
	CHECK_STR(b, "");
	CHECK_INT(safename__copy(NULL, 0, "\e", 1, 0), 4);
	CHECK_STR(safename__show(b, sizeof(b), "\e[2J"), "\\x1b[2J");
	CHECK_STR(safename__show(b, sizeof(b), NULL), "(null)");
}

/* Every byte string of up to 3 bytes comes out clean, within its size. */
static void test_all_short(void)
{
	unsigned char in[3];
	char o[SAFENAME_SIZE(3)];
	int bad = 0;

	for (unsigned long v = 0; v < (1ul << 24); v += 7) {
		size_t n;

		in[0] = v, in[1] = v >> 8, in[2] = v >> 16;
		n = safename__copy(o, sizeof(o), (char *)in, 3, SAFENAME_FOLD);
		if (n >= sizeof(o) || !clean(o) || strchr(o, ';'))
			bad++;
	}
	CHECK_INT(bad, 0);
}

/*
 * Random names of the bytes that matter, cut to every size: what is
 * written is clean and a prefix of the whole, and never past the buffer.
 */
static void test_random_cuts(void)
{
	static const unsigned char pick[] = {
	    'a',  ';',	'\\', 0x1b, 0x7f, 0x80, 0x9b, 0xc2, 0xc3, 0xa9,
	    0xe4, 0xb8, 0xad, 0xed, 0xa0, 0xb0, 0xf0, 0x9f, 0xff, 0};
	char in[16], whole[SAFENAME_SIZE(16)], cut[SAFENAME_SIZE(16) + 1];
	unsigned int seed = 29;
	int bad = 0;

	for (int round = 0; round < 20000; round++) {
		size_t len = rand_r(&seed) % sizeof(in), n;

		for (size_t i = 0; i < len; i++)
			in[i] = pick[rand_r(&seed) % sizeof(pick)];
		n = safename__copy(whole, sizeof(whole), in, len, 0);
		for (size_t cap = 1; cap <= n + 1; cap++) {
			cut[cap] = 'Z';
			safename__copy(cut, cap, in, len, 0);
			if (cut[cap] != 'Z' || strlen(cut) >= cap ||
			    strncmp(cut, whole, strlen(cut)) || !clean(cut))
				bad++;
		}
	}
	CHECK_INT(bad, 0);
}

int main(void)
{
	test_plain();
	test_controls();
	test_backslash();
	test_utf8();
	test_cut();
	test_all_short();
	test_random_cuts();
	return check_report();
}
