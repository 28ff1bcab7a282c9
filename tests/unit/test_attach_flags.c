/*
 * hotspot_flags: -XX flag lookup in option text, the launcher part of a
 * command line, and string entries of hsperfdata images built here in
 * both byte orders.
 *
 * With arguments, "PID FLAG", it prints attach_flags__jvm_flag(PID, FLAG) for
 * the integration tests, which run it against real JVMs.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include "check.h"
#include "attach/attach_flags.h"

#define FLAG "PreserveFramePointer"

static int in_args(const char *s)
{
	return attach_flags__in_args(s, strlen(s), FLAG);
}

static void test_args(void)
{
	CHECK_INT(in_args(""), -ENOENT);
	CHECK_INT(in_args("-Xmx1g -XX:+UseG1GC"), -ENOENT);
	CHECK_INT(in_args("-XX:+PreserveFramePointer"), 1);
	CHECK_INT(in_args("-XX:-PreserveFramePointer"), 0);
	/* the last mention wins, as in HotSpot */
	CHECK_INT(
	    in_args(
		"-XX:+PreserveFramePointer -Xss1m -XX:-PreserveFramePointer"),
	    0);
	CHECK_INT(
	    in_args("-XX:-PreserveFramePointer\t-XX:+PreserveFramePointer"), 1);
	CHECK_INT(in_args("-XX:PreserveFramePointer=true"), 1);
	CHECK_INT(in_args("-XX:PreserveFramePointer=false"), 0);
	CHECK_INT(in_args("-XX:PreserveFramePointer=maybe"), -ENOENT);
	/* the flags file lists them without -XX: */
	CHECK_INT(in_args("+PreserveFramePointer"), 1);
	/* prefixes and longer names are other flags */
	CHECK_INT(in_args("-XX:+PreserveFramePointerX -XX:+Preserve"), -ENOENT);
	CHECK_INT(in_args("-Dx=-XX:+PreserveFramePointerish"), -ENOENT);
	/* NUL-separated, as in /proc/PID/cmdline, and len is respected */
	CHECK_INT(attach_flags__in_args("java\0-XX:+PreserveFramePointer\0", 31,
					FLAG),
		  1);
	CHECK_INT(attach_flags__in_args("-XX:+PreserveFramePointer", 10, FLAG),
		  -ENOENT);
}

static size_t vm_part(const char *s, size_t len)
{
	return attach_flags__cmdline_vm_part(s, len);
}

static void test_cmdline(void)
{
	static const char c1[] =
	    "java\0-Xmx1g\0-cp\0/a:/b\0Main\0-XX:+PreserveFramePointer";
	static const char c2[] =
	    "java\0-jar\0app.jar\0-XX:+PreserveFramePointer";
	static const char c3[] = "/opt/jdk/bin/"
				 "java\0-XX:+PreserveFramePointer\0--module-"
				 "path\0m\0-m\0mod/Main\0x";
	static const char c4[] = "java\0-XX:-PreserveFramePointer";

	/* up to the main class: its arguments are the application's */
	CHECK_INT(vm_part(c1, sizeof(c1)), 22);
	CHECK_INT(attach_flags__in_args(c1, vm_part(c1, sizeof(c1)), FLAG),
		  -ENOENT);
	CHECK_INT(attach_flags__in_args(c1, sizeof(c1), FLAG), 1);
	CHECK_INT(vm_part(c2, sizeof(c2)), 5);
	CHECK_INT(attach_flags__in_args(c3, vm_part(c3, sizeof(c3)), FLAG), 1);
	CHECK(vm_part(c3, sizeof(c3)) < sizeof(c3) - 11);
	/* only launcher options: all of it */
	CHECK_INT(vm_part(c4, sizeof(c4)), sizeof(c4));
	CHECK_INT(vm_part("", 0), 0);
}

/* An hsperfdata image with string entries, in either byte order. */
struct image {
	unsigned char buf[1024];
	size_t len;
	int big;
};

static void put32(struct image *im, size_t off, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		im->buf[off + (im->big ? i : 3 - i)] = v >> (24 - 8 * i);
}

static void image_init(struct image *im, int big)
{
	memset(im, 0, sizeof(*im));
	im->big = big;
	memcpy(im->buf, "\xca\xfe\xc0\xc0", 4);
	im->buf[4] = big ? 0 : 1;
	im->buf[5] = 2; /* version 2.0 */
	im->buf[7] = 1; /* accessible */
	put32(im, 24, 32); /* entry_offset */
	im->len = 32;
}

/* Append a 'B' (byte vector) entry holding NUL-padded text. */
static void image_add(struct image *im, const char *name, const char *text,
		      size_t vlen)
{
	size_t e = im->len, nlen = strlen(name) + 1;
	size_t doff = (20 + nlen + 7) & ~7UL, elen = (doff + vlen + 7) & ~7UL;

	put32(im, e, elen);
	put32(im, e + 4, 20);
	put32(im, e + 8, vlen);
	im->buf[e + 12] = 'B';
	put32(im, e + 16, doff);
	memcpy(im->buf + e + 20, name, nlen);
	memcpy(im->buf + e + doff, text, strlen(text));
	im->len += elen;
	put32(im, 28, (im->buf[28] | im->buf[31]) + 1); /* num_entries */
}

static void test_perfdata(int big)
{
	struct image im;
	char out[64];

	image_init(&im, big);
	image_add(&im, "sun.rt.javaCommand", "Main", 16);
	image_add(&im, "java.rt.vmArgs", "-Xmx1g -XX:+PreserveFramePointer",
		  64);
	CHECK_INT(attach_flags__perfdata_string(
		      im.buf, im.len, "java.rt.vmArgs", out, sizeof(out)),
		  0);
	CHECK_STR(out, "-Xmx1g -XX:+PreserveFramePointer");
	CHECK_INT(attach_flags__perfdata_string(
		      im.buf, im.len, "sun.rt.javaCommand", out, sizeof(out)),
		  0);
	CHECK_STR(out, "Main");
	CHECK_INT(attach_flags__perfdata_string(
		      im.buf, im.len, "java.rt.vmFlags", out, sizeof(out)),
		  -ENOENT);
	CHECK_INT(attach_flags__perfdata_string(im.buf, im.len,
						"java.rt.vmArgs", out, 7),
		  0); /* truncated */
	CHECK_STR(out, "-Xmx1g");
	/* damaged images are refused, not overrun */
	CHECK_INT(attach_flags__perfdata_string(im.buf, 20, "java.rt.vmArgs",
						out, sizeof(out)),
		  -EINVAL);
	CHECK_INT(attach_flags__perfdata_string(
		      im.buf, im.len - 8, "java.rt.vmArgs", out, sizeof(out)),
		  -EINVAL);
	put32(&im, 32 + 16, 4000); /* data_offset past the entry */
	CHECK_INT(attach_flags__perfdata_string(
		      im.buf, im.len, "sun.rt.javaCommand", out, sizeof(out)),
		  -EINVAL);
	im.buf[0] = 0;
	CHECK_INT(attach_flags__perfdata_string(
		      im.buf, im.len, "java.rt.vmArgs", out, sizeof(out)),
		  -EINVAL);
}

int main(int argc, char **argv)
{
	if (argc == 3) {
		printf("%d\n", attach_flags__jvm_flag(atoi(argv[1]), argv[2]));
		return 0;
	}
	test_args();
	test_cmdline();
	test_perfdata(0);
	test_perfdata(1);
	return check_report();
}
