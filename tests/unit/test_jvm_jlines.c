/*
 * jlines.c: line number tables built with an encoder written from the
 * format (method.cpp's CompressedLineNumberWriteStream: one byte
 * bci_delta << 3 | line_delta when both fit, else 0xFF and two signed
 * UNSIGNED5 deltas; 0 ends), decoded for both UNSIGNED5 biases; garbage
 * and cut tables. The live path: tests/jvmnames against javap.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include "check.h"
#include "jvm/jlines.h"

static size_t u5_put(uint8_t *p, uint32_t v, int x)
{
	const uint32_t low = 256 - 64 - x;
	size_t i = 0;

	while (i < 4 && v >= low) {
		v -= low;
		p[i++] = x + low + (v & 63);
		v >>= 6;
	}
	p[i++] = x + v;
	return i;
}

static uint32_t sign(int32_t v)
{
	return ((uint32_t)v << 1) ^ (uint32_t)(v >> 31);
}

/* pairs[] of (bci, line) into buf, terminated: the length. */
static size_t encode(uint8_t *buf, const int (*pairs)[2], int n, int x)
{
	int bci = 0, line = 0;
	size_t len = 0;

	for (int i = 0; i < n; i++) {
		int db = pairs[i][0] - bci, dl = pairs[i][1] - line;

		if (db >= 0 && db < 32 && dl >= 0 && dl < 8 &&
		    (db << 3 | dl) != 0xff) {
			buf[len++] = db << 3 | dl;
		} else {
			buf[len++] = 0xff;
			len += u5_put(buf + len, sign(db), x);
			len += u5_put(buf + len, sign(dl), x);
		}
		bci = pairs[i][0];
		line = pairs[i][1];
	}
	buf[len++] = 0;
	return len;
}

static void test_decode(void)
{
	/* small steps, a big jump forward, a line going back (a loop's
	 * condition after its body), a bci delta of 31 and 0xff's edge */
	static const int pairs[][2] = {{0, 27},	  {4, 28},	{12, 29},
				       {50, 900}, {60, 31},	{91, 32},
				       {122, 39}, {5000, 70000}};
	uint8_t buf[128];

	for (int x = 0; x <= 1; x++) {
		size_t len = encode(buf, pairs, 8, x);

		CHECK_INT(jline__decode(buf, len, x, 0), 27);
		CHECK_INT(jline__decode(buf, len, x, -1), 27); /* entry */
		CHECK_INT(jline__decode(buf, len, x, 3), 27);
		CHECK_INT(jline__decode(buf, len, x, 4), 28);
		CHECK_INT(jline__decode(buf, len, x, 49), 29);
		CHECK_INT(jline__decode(buf, len, x, 55), 900);
		CHECK_INT(jline__decode(buf, len, x, 60), 31);
		CHECK_INT(jline__decode(buf, len, x, 121), 32);
		CHECK_INT(jline__decode(buf, len, x, 122), 39);
		CHECK_INT(jline__decode(buf, len, x, 65535), 70000);
		/* cut before its end: ask for more */
		CHECK_INT(jline__decode(buf, len - 1, x, 0), -E2BIG);
		CHECK_INT(jline__decode(buf, 3, x, 0), -E2BIG);
	}
}

static void test_garbage(void)
{
	static const int late[][2] = {{10, 5}};
	uint8_t buf[64];
	size_t len = encode(buf, late, 1, 1);

	/* the first entry after bci: no line */
	CHECK_INT(jline__decode(buf, len, 1, 3), -ENOENT);
	buf[0] = 0; /* empty: just the end */
	CHECK_INT(jline__decode(buf, 1, 1, 3), -ENOENT);
	/* lines below 1, bcis past 65535: not a table */
	buf[0] = 0xff;
	len = 1 + u5_put(buf + 1, sign(0), 1);
	len += u5_put(buf + len, sign(-4), 1);
	buf[len++] = 0;
	CHECK_INT(jline__decode(buf, len, 1, 3), -EINVAL);
	len = 1 + u5_put(buf + 1, sign(70000), 1);
	len += u5_put(buf + len, sign(1), 1);
	buf[len++] = 0;
	CHECK_INT(jline__decode(buf, len, 1, 3), -EINVAL);
	/* an excluded byte inside an escape */
	memcpy(buf, "\xff\x00\x00", 3);
	CHECK_INT(jline__decode(buf, 3, 1, 3), -EINVAL);
	/* all 0xff: escapes of five-byte values, never a terminator */
	memset(buf, 0xff, sizeof(buf));
	CHECK(jline__decode(buf, sizeof(buf), 1, 3) < 0);
	/* all one-byte entries with no terminator */
	memset(buf, 0x09, sizeof(buf));
	CHECK_INT(jline__decode(buf, sizeof(buf), 1, 3), -E2BIG);
	CHECK_INT(jline__decode(buf, 0, 1, 3), -E2BIG);
}

int main(void)
{
	test_decode();
	test_garbage();
	return check_report();
}
