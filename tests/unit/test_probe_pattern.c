/* pattern: parsing (dotted, slashed, signatures, errors) and matching. */
#include <errno.h>
#include "check.h"
#include "agent/pattern.h"

static struct pattern p;
static char err[256];

static int parse(const char *s)
{
	err[0] = 0;
	return pattern__parse(s, &p, err, sizeof(err));
}

#define M(name, desc)                                                          \
	pattern__method(&p, name, strlen(name), desc, strlen(desc))
#define C(cls) pattern__class(&p, cls, strlen(cls))

int main(void)
{
	CHECK_INT(parse("java:java.net.SocketOutputStream.write"), 0);
	CHECK_STR(p.cls, "java/net/SocketOutputStream");
	CHECK_STR(p.method, "write");
	CHECK_STR(p.sig, "*");
	CHECK(C("java/net/SocketOutputStream"));
	CHECK(!C("java/net/SocketOutputStreamX"));
	CHECK(M("write", "([BII)V"));
	CHECK(!M("writeX", "()V"));

	CHECK_INT(parse("java:com.acme.*.handle*"), 0);
	CHECK(C("com/acme/web/Server"));
	CHECK(C("com/acme/a/b/C$Inner"));
	CHECK(!C("com/acmex/Server"));
	CHECK(M("handle", "()V") && M("handleGet", "(I)I"));
	CHECK(!M("xhandle", "()V"));

	CHECK_INT(parse("java/util/ArrayList.add(Ljava/lang/Object;)Z"), 0);
	CHECK_STR(p.cls, "java/util/ArrayList");
	CHECK(M("add", "(Ljava/lang/Object;)Z"));
	CHECK(!M("add", "(ILjava/lang/Object;)V"));

	CHECK_INT(parse("Busy.work(I)"), 0);
	CHECK_STR(p.sig, "(I)*");
	CHECK(M("work", "(I)J") && !M("work", "(J)J"));

	CHECK_INT(parse("java:Odd*.*"), 0);
	CHECK(C("OddTypes$OddChild") && M("<init>", "(ILjava/lang/String;)V"));
	CHECK(!C("Other"));
	CHECK_INT(parse("*.<init>"), 0);
	CHECK(M("<init>", "()V") && !M("init", "()V"));

	CHECK(pattern__glob("a*b*c", "axxbyyc", 7));
	CHECK(!pattern__glob("a*b*c", "axxbyy", 6));
	CHECK(pattern__glob("*", "", 0));
	CHECK(pattern__glob("**x", "abx", 3));

	CHECK_INT(parse("java:Foo"), -EINVAL);
	CHECK_STR(err, "bad pattern 'java:Foo': expected CLASS.METHOD");
	CHECK_INT(parse("Foo."), -EINVAL);
	CHECK_INT(parse(".foo"), -EINVAL);
	CHECK_INT(parse(""), -EINVAL);
	CHECK_INT(parse("a..b.m"), -EINVAL);
	CHECK_STR(err, "bad pattern 'a..b.m': empty package or class name");
	CHECK_INT(parse("Foo.bar(int)"), -EINVAL);
	CHECK_INT(parse("Foo.bar(I"), -EINVAL);
	CHECK_STR(err, "bad pattern 'Foo.bar(I': signature without ')'");
	CHECK_INT(parse("Foo.b ar"), -EINVAL);
	CHECK_STR(err, "bad pattern 'Foo.b ar': bad character in method name");
	CHECK_INT(parse("Foo.bar(java.lang.String)V"), -EINVAL);
	return check_report();
}
