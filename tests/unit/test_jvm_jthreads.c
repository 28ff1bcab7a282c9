/*
 * jthreads.c's pure decoders: JDK 21+ FieldInfo streams and JDK 17
 * FieldInfo arrays built from their documented layouts, String bytes in
 * both coders; garbage. The live walk: tests/jvmnames on both JDKs.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include "check.h"
#include "jvm/jthreads.h"

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

/* JDK 25's FieldFlags bit numbers (its VMStructs constants). */
static const struct jfield_flags ff = {0, 2, 4};

static size_t put_field(uint8_t *p, uint32_t name, uint32_t sig, uint32_t off,
			uint32_t flags)
{
	size_t n = 0;

	n += u5_put(p + n, name, 1);
	n += u5_put(p + n, sig, 1);
	n += u5_put(p + n, off, 1);
	n += u5_put(p + n, 0x42, 1); /* access flags */
	n += u5_put(p + n, flags, 1);
	for (int b = 0; b < 5; b++)
		if ((flags & 1u << b) && (b == 0 || b == 2 || b == 4))
			n += u5_put(p + n, 1000 + b, 1); /* the extra items */
	return n;
}

static void test_stream(void)
{
	uint8_t buf[128];
	struct jfield f[8];
	size_t n = 0;

	n += u5_put(buf + n, 3, 1); /* java fields */
	n += u5_put(buf + n, 1, 1); /* injected */
	n += put_field(buf + n, 12, 13, 16, 0);
	/* initialized, generic and contended: three extra items */
	n += put_field(buf + n, 300, 301, 20, 1 | 4 | 16 | 8);
	n += put_field(buf + n, 14, 15, 24, 2 /* injected bit: no item */);
	n += put_field(buf + n, 99, 98, 28, 0); /* the injected one */
	CHECK_INT(jthreads__fields_stream(buf, n, 1, &ff, f, 8), 3);
	CHECK_INT(f[0].name_index, 12);
	CHECK_INT(f[0].offset, 16);
	CHECK_INT(f[1].name_index, 300);
	CHECK_INT(f[1].sig_index, 301);
	CHECK_INT(f[1].offset, 20);
	CHECK_INT(f[2].name_index, 14);
	CHECK_INT(f[2].offset, 24);
	/* more fields than room, a cut stream, zero bytes, 0xff bytes */
	CHECK_INT(jthreads__fields_stream(buf, n, 1, &ff, f, 2), -EINVAL);
	CHECK_INT(jthreads__fields_stream(buf, 10, 1, &ff, f, 8), -EINVAL);
	memset(buf, 0, sizeof(buf));
	CHECK_INT(jthreads__fields_stream(buf, sizeof(buf), 1, &ff, f, 8),
		  -EINVAL);
	memset(buf, 0xff, sizeof(buf));
	CHECK_INT(jthreads__fields_stream(buf, sizeof(buf), 1, &ff, f, 8),
		  -EINVAL);
	CHECK_INT(jthreads__fields_stream(buf, 0, 1, &ff, f, 8), -EINVAL);
}

static void test_u2(void)
{
	/* JDK 17: 6 slots (access, name, sig, initval, low, high), the
	 * offset packed << 2 with tag 1 (FIELDINFO_TAG_OFFSET) */
	static const struct jfield_u2 l = {6, 1, 2, 4, 5, 2, 1};
	uint16_t a[] = {
	    0x2,
	    20,
	    21,
	    0,
	    (12 << 2 | 1),
	    0,
	    0x2,
	    22,
	    23,
	    0,
	    (uint16_t)(0x12345 << 2 | 1),
	    0x12345 >> 14,
	    0x0,
	    99,
	    98,
	    0,
	    0,
	    0, /* an injected field past java_count */
	};
	struct jfield f[4];

	CHECK_INT(jthreads__fields_u2(a, 18, 2, &l, f, 4), 2);
	CHECK_INT(f[0].name_index, 20);
	CHECK_INT(f[0].offset, 12);
	CHECK_INT(f[1].sig_index, 23);
	CHECK_INT(f[1].offset, 0x12345);
	CHECK_INT(jthreads__fields_u2(a, 11, 2, &l, f, 4),
		  -EINVAL); /* too short */
	CHECK_INT(jthreads__fields_u2(a, 18, 3, &l, f, 4), -EINVAL); /* tag 0 */
	CHECK_INT(jthreads__fields_u2(a, 18, 2, &l, f, 1),
		  -EINVAL); /* no room */
	CHECK_INT(jthreads__fields_u2(a, 18, -1, &l, f, 4), -EINVAL);
}

static void test_string(void)
{
	char out[32];
	const uint8_t latin1[] = "http-nio-8080-exec-10\xe9";
	/* "Gr\u00fc\u00dfe-\u6f22-" and U+1F600 as a surrogate pair */
	const uint8_t utf16[] = {'G', 0,   'r',	 0,    0xfc, 0,	   0xdf,
				 0,   'e', 0,	 '-',  0,    0x22, 0x6f,
				 '-', 0,   0x3d, 0xd8, 0x00, 0xde};

	CHECK_INT(jthreads__string_utf8(latin1, sizeof(latin1) - 1, 0, out,
					sizeof(out)),
		  23);
	CHECK_STR(out, "http-nio-8080-exec-10\xc3\xa9");
	CHECK_INT(
	    jthreads__string_utf8(utf16, sizeof(utf16), 1, out, sizeof(out)),
	    16);
	CHECK_STR(out, "Gr\xc3\xbc\xc3\x9f"
		       "e-\xe6\xbc\xa2-\xf0\x9f\x98\x80");
	/* a lone surrogate, an odd length, an unknown coder */
	CHECK_INT(jthreads__string_utf8(utf16 + 16, 2, 1, out, sizeof(out)), 3);
	CHECK_STR(out, "\xef\xbf\xbd");
	CHECK_INT(jthreads__string_utf8(utf16, 3, 1, out, sizeof(out)),
		  -EINVAL);
	CHECK_INT(jthreads__string_utf8(utf16, 2, 2, out, sizeof(out)),
		  -EINVAL);
	/* cut at a character boundary */
	CHECK_INT(jthreads__string_utf8(utf16, sizeof(utf16), 1, out, 5),
		  -ENOSPC);
	CHECK_STR(out, "Gr\xc3\xbc");
	CHECK_INT(jthreads__string_utf8(latin1, 0, 0, out, sizeof(out)), 0);
	CHECK_STR(out, "");
}

int main(void)
{
	test_stream();
	test_u2();
	test_string();
	return check_report();
}
