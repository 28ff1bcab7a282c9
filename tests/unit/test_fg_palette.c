/* Unit tests of flamegraph/palette.c: each java rule, stability, diff. */
#include "check.h"
#include "flamegraph/palette.h"

static int red(uint32_t c)
{
	return c >> 16;
}
static int green(uint32_t c)
{
	return c >> 8 & 0xff;
}
static int blue(uint32_t c)
{
	return c & 0xff;
}

int main(void)
{
	uint32_t c;

	CHECK_INT(palette__classify("com/example/App.run_[j]"), FG_KIND_JIT);
	CHECK_INT(palette__classify("Interpreter_[j]"), FG_KIND_JIT);
	CHECK_INT(palette__classify("java/lang/String.hashCode_[i]"),
		  FG_KIND_INLINED);
	CHECK_INT(palette__classify("do_syscall_64_[k]"), FG_KIND_KERNEL);
	CHECK_INT(palette__classify("JavaThread::run"), FG_KIND_CPP);
	CHECK_INT(palette__classify("java/util/HashMap.get"), FG_KIND_JIT);
	CHECK_INT(palette__classify("javax.crypto.Cipher.doFinal"),
		  FG_KIND_JIT);
	CHECK_INT(palette__classify("Ljava/lang/Object;"), FG_KIND_JIT);
	CHECK_INT(palette__classify("jdk/internal/misc/Unsafe.park"),
		  FG_KIND_JIT);
	CHECK_INT(palette__classify("sun/nio/ch/IOUtil.read"), FG_KIND_JIT);
	CHECK_INT(palette__classify("org.apache.Foo.bar"), FG_KIND_JIT);
	CHECK_INT(palette__classify("net/x.y"), FG_KIND_JIT);
	CHECK_INT(palette__classify("io.netty.Channel.read"), FG_KIND_JIT);
	CHECK_INT(palette__classify("compile_method"), FG_KIND_NATIVE);
	CHECK_INT(palette__classify("javaCalls"), FG_KIND_NATIVE); /* no '/' */
	CHECK_INT(palette__classify("-"), FG_KIND_DELIM);
	CHECK_INT(palette__classify("memcpy"), FG_KIND_NATIVE);
	/* The annotation wins over the "::" guess. */
	CHECK_INT(palette__classify("Foo::bar_[k]"), FG_KIND_KERNEL);

	/* tiers as async-profiler writes them: interpreted, C1 */
	CHECK_INT(palette__classify("pkg/A.run_[0]"), FG_KIND_INTERP);
	CHECK_INT(palette__classify("java/lang/A.run_[1]"), FG_KIND_C1);
	CHECK_INT(palette__strip_len("a_[0]"), 1);
	CHECK_INT(palette__strip_len("a_[1]"), 1);
	CHECK_INT(palette__strip_len("a_[j]"), 1);
	CHECK_INT(palette__strip_len("a_[x]"), 5);

	/* Families: green, aqua, orange, yellow, red, grey. */
	c = palette__color(FG_SCHEME_JAVA, "com/example/App.run_[j]");
	CHECK(green(c) > red(c) && green(c) > blue(c));
	c = palette__color(FG_SCHEME_JAVA, "java/lang/String.hashCode_[i]");
	CHECK(green(c) > red(c) && blue(c) > red(c));
	c = palette__color(FG_SCHEME_JAVA, "do_syscall_64_[k]");
	CHECK(red(c) > green(c) && green(c) > blue(c));
	c = palette__color(FG_SCHEME_JAVA, "JavaThread::run");
	CHECK(red(c) > blue(c) + 60 && green(c) > blue(c) + 60);
	c = palette__color(FG_SCHEME_JAVA, "memcpy");
	CHECK(red(c) > green(c) + 40 && red(c) > blue(c) + 40);
	c = palette__color(FG_SCHEME_JAVA, "-");
	CHECK(red(c) == green(c) && green(c) == blue(c));
	/* the tiers: greens, apart from C2's and from each other (the
	 * same name, so the same shade) */
	{
		uint32_t j = palette__color(FG_SCHEME_JAVA, "pkg/A.f_[j]");
		uint32_t i0 = palette__color(FG_SCHEME_JAVA, "pkg/A.f_[0]");
		uint32_t c1 = palette__color(FG_SCHEME_JAVA, "pkg/A.f_[1]");

		CHECK(green(i0) > blue(i0) && green(c1) > blue(c1));
		CHECK(j != i0 && j != c1 && i0 != c1);
		CHECK(red(i0) > red(j) && red(c1) > red(j));
	}

	/* Stable: same name, same colour; different names usually differ. */
	CHECK_INT(palette__color(FG_SCHEME_JAVA, "a/B.c_[j]"),
		  palette__color(FG_SCHEME_JAVA, "a/B.c_[j]"));
	CHECK(palette__color(FG_SCHEME_JAVA, "a/B.c_[j]") !=
	      palette__color(FG_SCHEME_JAVA, "a/B.d_[j]"));
	CHECK_INT(palette__color(FG_SCHEME_HOT, "x"),
		  palette__color(FG_SCHEME_HOT, "x"));
	c = palette__color(FG_SCHEME_HOT, "anything");
	CHECK(red(c) >= 205 && blue(c) <= 55);

	CHECK_INT(palette__scheme_parse("java"), FG_SCHEME_JAVA);
	CHECK_INT(palette__scheme_parse("hot"), FG_SCHEME_HOT);
	CHECK(palette__scheme_parse("nope") < 0);

	/* Diff: growth red, reduction blue, unchanged white, stronger with
	 * a bigger delta, saturating at max. */
	CHECK_INT(palette__diff_color(0, 10), 0xffffff);
	c = palette__diff_color(10, 10);
	CHECK(red(c) == 255 && green(c) < 40 && blue(c) < 40);
	c = palette__diff_color(-10, 10);
	CHECK(blue(c) == 255 && red(c) < 40 && green(c) < 40);
	CHECK(green(palette__diff_color(2, 10)) >
	      green(palette__diff_color(8, 10)));
	CHECK(red(palette__diff_color(-2, 10)) >
	      red(palette__diff_color(-8, 10)));
	CHECK_INT(palette__diff_color(50, 10), palette__diff_color(10, 10));
	return check_report();
}
