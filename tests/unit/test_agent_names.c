/* Unit tests for agent/names.c: JVM signatures to frame names. */
#include <stdlib.h>
#include "check.h"
#include "agent/names.h"

static struct strbuf sb = STRBUF_INIT;

static const char *method(const char *csig, const char *name, const char *msig,
			  const char *src, int line, const char *opts)
{
	struct jmap_options o;
	struct jmap_method_desc d = {csig, name, msig, src, line};

	jmap_options__parse(opts, &o, NULL, 0);
	strbuf__reset(&sb);
	if (jmap_name__method(&sb, &d, &o))
		return NULL;
	return sb.buf;
}

static const char *klass(const char *csig, int dotted)
{
	strbuf__reset(&sb);
	if (jmap_name__class(&sb, csig, dotted))
		return NULL;
	return sb.buf;
}

static void test_plain(void)
{
	CHECK_STR(method("Ljava/lang/String;", "indexOf", "(I)I", NULL, 0, ""),
		  "java/lang/String.indexOf");
	CHECK_STR(
	    method("Ljava/lang/String;", "indexOf", "(I)I", NULL, 0, "dotted"),
	    "java.lang.String.indexOf");
	CHECK_STR(method("LMain;", "<init>", "()V", NULL, 0, ""),
		  "Main.<init>");
	CHECK_STR(method("Lp/Outer$Inner;", "run", "()V", NULL, 0, "dotted"),
		  "p.Outer$Inner.run");
}

static void test_hidden(void)
{
	CHECK_STR(klass("Lp/Foo$$Lambda$14+0x0000000800c01234;", 0),
		  "p/Foo$$Lambda$14");
	CHECK_STR(klass("Lp/Foo$$Lambda/0x0000000801001a00;", 0),
		  "p/Foo$$Lambda");
	CHECK_STR(klass("Lp/Foo$$Lambda.0x0000000801001a00;", 1),
		  "p.Foo$$Lambda");
	CHECK_STR(
	    klass("Ljava/lang/invoke/LambdaForm$MH+0x00007f0012345678;", 1),
	    "java.lang.invoke.LambdaForm$MH");
	/* not a hidden suffix: kept */
	CHECK_STR(klass("Lp/Ox0;", 0), "p/Ox0");
	CHECK_STR(klass("Lp/A/0xzz;", 0), "p/A/0xzz");
	CHECK_STR(klass("L/0x12;", 0), "/0x12");
	CHECK_STR(klass("Lp/A$0x1;", 0), "p/A$0x1");
	CHECK_STR(klass("[I", 0), "[I");
}

static void test_sig(void)
{
	CHECK_STR(
	    method("Lp/C;", "m", "(ILjava/lang/String;[[J)V", NULL, 0, "sig"),
	    "p/C.m(int,java/lang/String,long[][])");
	CHECK_STR(method("Lp/C;", "m", "(ILjava/lang/String;[[J)V", NULL, 0,
			 "sig,dotted"),
		  "p.C.m(int,java.lang.String,long[][])");
	CHECK_STR(method("Lp/C;", "m", "()V", NULL, 0, "sig"), "p/C.m()");
	CHECK_STR(method("Lp/C;", "m", "(ZBCSFD[Lp/X$$Lambda+0x1f;)Z", NULL, 0,
			 "sig"),
		  "p/C.m(boolean,byte,char,short,float,double,p/X$$Lambda[])");
	/* unreadable descriptors are shown raw, with ';' made harmless */
	CHECK_STR(method("Lp/C;", "m", "(Q)V", NULL, 0, "sig"), "p/C.m(Q)V");
	CHECK_STR(method("Lp/C;", "m", "(Ljava/lang;", NULL, 0, "sig"),
		  "p/C.m(Ljava/lang?");
	CHECK_STR(method("Lp/C;", "m", NULL, NULL, 0, "sig"), "p/C.m");
}

static void test_lines(void)
{
	CHECK_STR(method("Lp/C;", "m", "()V", "C.java", 42, "lines"),
		  "p/C.m (C.java:42)");
	CHECK_STR(method("Lp/C;", "m", "()V", "C.java", 0, "lines"),
		  "p/C.m (C.java)");
	CHECK_STR(method("Lp/C;", "m", "()V", NULL, 42, "lines"), "p/C.m");
	CHECK_STR(method("Lp/C;", "m", "(I)V", "C.java", 7, "lines,sig"),
		  "p/C.m(int) (C.java:7)");
	CHECK_STR(method("Lp/C;", "m", "()V", "C.java", 42, ""), "p/C.m");
}

static void test_sanitise(void)
{
	CHECK_STR(method("Lp/C\n;", "m\r\tx", "()V", "a\nb", 1, "lines"),
		  "p/C?.m??x (a?b:1)");
	strbuf__reset(&sb);
	CHECK_INT(jmap_name__stub(&sb, "I2C/C2I adapters\n;x"), 0);
	CHECK_STR(sb.buf, "I2C/C2I adapters??x");
	/* "->" is reserved for inline chains, also across pieces */
	CHECK_STR(method("Lp/A->B;", "m", "()V", NULL, 0, ""), "p/A-?B.m");
	CHECK_STR(method("Lp/A-;", ">m", "()V", NULL, 0, ""), "p/A-.>m");
	strbuf__reset(&sb);
	strbuf__adds(&sb, "x-");
	jmap_name__stub(&sb, ">y");
	CHECK_STR(sb.buf, "x-?y");
}

/* Garbage in: whatever JVMTI hands over, a name stays one clean frame. */
static void test_random(void)
{
	static const char alpha[] = "L;[/().$->\n\r0x+IJZVab";
	char in[4][24];
	int i, j, k, bad = 0;

	srand(1);
	for (i = 0; i < 20000; i++) {
		const char *got, *opts[] = {"", "dotted", "sig", "sig,lines"};

		for (k = 0; k < 4; k++) {
			int n = rand() % 23;

			for (j = 0; j < n; j++)
				in[k][j] = alpha[rand() % (sizeof(alpha) - 1)];
			in[k][n] = '\0';
		}
		got =
		    method(in[0], in[1], in[2], in[3], rand() % 3, opts[i % 4]);
		if (!got || strpbrk(got, "\n\r;") || strstr(got, "->"))
			bad++;
	}
	CHECK_INT(bad, 0);
}

int main(void)
{
	test_plain();
	test_hidden();
	test_sig();
	test_lines();
	test_sanitise();
	test_random();
	strbuf__release(&sb);
	return check_report();
}
