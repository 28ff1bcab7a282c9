/* jitline: line formats, bad lines, name classes and normalisation. */
#include <errno.h>
#include "check.h"
#include "symbolizer/jitline.h"
#include "test_sym_util.h"

static int parse(const char *line, struct jitline *pl)
{
	return jitline__parse(line, strlen(line), pl);
}

static void test_lines(void)
{
	struct jitline pl;

	CHECK_INT(parse("7f3c0010 1a0 pkg/A.m", &pl), 0);
	CHECK_INT(pl.start, 0x7f3c0010);
	CHECK_INT(pl.size, 0x1a0);
	CHECK(pl.name_len == 7 && !memcmp(pl.name, "pkg/A.m", 7));
	CHECK_INT(
	    parse("0x00007f5f40ec7600 0x0000000000000058 int Spin.f(int)", &pl),
	    0);
	CHECK_INT(pl.start, 0x7f5f40ec7600);
	CHECK_INT(pl.size, 0x58);
	CHECK(pl.name_len == 15 && !memcmp(pl.name, "int Spin.f(int)", 15));
	/* blanks around, CRLF, tabs */
	CHECK_INT(parse("  10\t20 \t name with spaces \r", &pl), 0);
	CHECK(pl.name_len == 16 && !memcmp(pl.name, "name with spaces", 16));
	CHECK_INT(parse("3ef414c0 398 LazyCompile:~foo /x.js:1", &pl), 0);
	/* bad */
	CHECK_INT(parse("", &pl), -EINVAL);
	CHECK_INT(parse("10 20", &pl), -EINVAL);
	CHECK_INT(parse("10 20   ", &pl), -EINVAL);
	CHECK_INT(parse("10 0 zero", &pl), -EINVAL);
	CHECK_INT(parse("zz 10 a", &pl), -EINVAL);
	CHECK_INT(parse("10 zz a", &pl), -EINVAL);
	CHECK_INT(parse("10x 20 a", &pl), -EINVAL);
	CHECK_INT(parse("11111111111111111 20 a", &pl), -EINVAL);
	CHECK_INT(parse("ffffffffffffffff 20 wrap", &pl), -EINVAL);
	CHECK_INT(parse("10 7fffffff huge", &pl), -EINVAL);
	CHECK_INT(parse("0x 20 a", &pl), -EINVAL);
}

static void check_name(const char *raw, const char *want, enum frame_kind k)
{
	char out[256];
	enum frame_kind got = jitline__name(raw, strlen(raw), out);

	CHECK_STR(out, want);
	if (got != k)
		fprintf(stderr, "kind of '%s': %d, want %d\n", raw, got, k);
	CHECK_INT(got, k);
}

static void test_names(void)
{
	/* ours */
	check_name("pkg/Class.method", "pkg/Class.method", FRAME_JAVA);
	check_name("Spin.f", "Spin.f", FRAME_JAVA);
	check_name("pkg/Outer$Inner.<init>", "pkg/Outer$Inner.<init>",
		   FRAME_JAVA);
	check_name("a/B.m->c/D.n->e/F.o", "a/B.m->c/D.n->e/F.o", FRAME_JAVA);
	check_name("pkg/Foo$$Lambda$14/0x0000000800c03000.run",
		   "pkg/Foo$$Lambda$14/0x0000000800c03000.run", FRAME_JAVA);
	/* perf-map-agent, plain, with signature, unfolded */
	check_name("Ljava/lang/String;::hashCode", "java/lang/String.hashCode",
		   FRAME_JAVA);
	check_name("Lpkg/A;::m(I)V", "pkg/A.m", FRAME_JAVA);
	check_name("Lpkg/A;::outer->Lpkg/B;::inner", "pkg/A.outer->pkg/B.inner",
		   FRAME_JAVA);
	/* JDK 17 jcmd Compiler.perfmap, later JDKs */
	check_name("int java.lang.String.hashCode()",
		   "java.lang.String.hashCode", FRAME_JAVA);
	check_name("void Spin.main(java.lang.String[])", "Spin.main",
		   FRAME_JAVA);
	check_name(
	    "java.lang.Object jdk.internal.misc.Unsafe.getReferenceVolatile"
	    "(java.lang.Object, long)",
	    "jdk.internal.misc.Unsafe.getReferenceVolatile", FRAME_JAVA);
	check_name("java.lang.String::hashCode()I [c1]",
		   "java.lang.String.hashCode", FRAME_JAVA);
	check_name("Main::run()V [c2]", "Main.run", FRAME_JAVA);
	/* node */
	check_name("LazyCompile:~foo /x.js:1", "LazyCompile:~foo /x.js:1",
		   FRAME_JAVA);
	check_name("JS:*bar /y.js:2:3", "JS:*bar /y.js:2:3", FRAME_JAVA);
	check_name("Builtin:ArgumentsAdaptorTrampoline",
		   "Builtin:ArgumentsAdaptorTrampoline", FRAME_STUB);
	/* JVM stubs stay stubs, "Interpreter" included */
	check_name("Interpreter", "Interpreter", FRAME_STUB);
	check_name("StubRoutines (1)", "StubRoutines (1)", FRAME_STUB);
	check_name("StubRoutines::call_stub", "StubRoutines::call_stub",
		   FRAME_STUB);
	check_name("I2C/C2I adapters", "I2C/C2I adapters", FRAME_STUB);
	check_name("vtable stub", "vtable stub", FRAME_STUB);
	check_name("VM_Version stub", "VM_Version stub", FRAME_STUB);
	check_name("flush_icache_stub", "flush_icache_stub", FRAME_STUB);
	check_name("new_instance Runtime1 stub", "new_instance Runtime1 stub",
		   FRAME_STUB);
	check_name("Interpreter->x", "Interpreter->x", FRAME_STUB);
	check_name("a..b", "a..b", FRAME_STUB);
	check_name("a.", "a.", FRAME_STUB);
	check_name(".a", ".a", FRAME_STUB);
	check_name("pkg/", "pkg/", FRAME_STUB);
	check_name("->", "->", FRAME_STUB);
}

int main(void)
{
	test_lines();
	test_names();
	return check_report();
}
