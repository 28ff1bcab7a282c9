/*
 * hotspot_proto: the load request's bytes and the reply styles of the
 * JDKs we support. The replies were captured from real JVMs (Debian's
 * 17.0.15 and Temurin 25.0.3) except the bare-number style of older JDKs.
 */
#include <errno.h>
#include "check.h"
#include "attach/attach_proto.h"

static struct attach_reply r;

static int parse(const char *s)
{
	return attach_proto__parse_load_reply(s, strlen(s), &r);
}

static void test_request(void)
{
	static const char want[] = "1\0load\0/a/libjmap.so\0true\0dotted\0";
	char buf[4096], big[ATTACH_ARG_MAX + 2];
	int n;

	n = attach_proto__request(buf, sizeof(buf), "load", "/a/libjmap.so",
				  "true", "dotted");
	CHECK_INT(n, sizeof(want) - 1);
	CHECK(n > 0 && !memcmp(buf, want, n));

	/* no options: still three arguments, the last one empty */
	n = attach_proto__request(buf, sizeof(buf), "load", "/x.so", "true",
				  NULL);
	CHECK_INT(n, 2 + 5 + 6 + 5 + 1);
	CHECK(n > 0 && !memcmp(buf, "1\0load\0/x.so\0true\0\0", n));

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	CHECK_INT(attach_proto__request(buf, sizeof(buf), "load", "/x.so",
					"true", big),
		  -ENAMETOOLONG);
	big[ATTACH_ARG_MAX] = '\0'; /* exactly the limit is fine */
	CHECK(attach_proto__request(buf, sizeof(buf), "load", "/x.so", "true",
				    big) > ATTACH_ARG_MAX);
	CHECK_INT(attach_proto__request(buf, 10, "load", "/x.so", "true", "a"),
		  -ENOSPC);
}

static void test_agent_ran(void)
{
	/* JDK 21+ and later JDK 17 updates */
	CHECK_INT(parse("0\nreturn code: 0\n"), 0);
	CHECK(r.ran);
	CHECK_INT(r.result, 0);
	CHECK_INT(r.agent_rc, 0);
	CHECK_INT(parse("0\nreturn code: 1\n"), 0);
	CHECK(r.ran);
	CHECK_INT(r.agent_rc, 1);
	CHECK_INT(parse("0\nreturn code: -4\n"), 0);
	CHECK_INT(r.agent_rc, -4);
	CHECK_INT(parse("0\nreturn code: 2"), 0); /* no final newline */
	CHECK(r.ran);
	CHECK_INT(r.agent_rc, 2);

	/* JDK 8 to early JDK 17: the bare number */
	CHECK_INT(parse("0\n0\n"), 0);
	CHECK(r.ran);
	CHECK_INT(r.agent_rc, 0);
	CHECK_INT(parse("0\n3\n"), 0);
	CHECK(r.ran);
	CHECK_INT(r.agent_rc, 3);
}

static void test_not_loaded(void)
{
	/* JDK 17: the operation itself fails */
	CHECK_INT(parse("-1\n/x/libjmap.so was not loaded.\n"
			"/x/libjmap.so: cannot open shared object file: No "
			"such file or directory\n"),
		  0);
	CHECK(!r.ran);
	CHECK_INT(r.result, -1);
	CHECK_STR(r.msg,
		  "/x/libjmap.so was not loaded.; /x/libjmap.so: "
		  "cannot open shared object file: No such file or directory");

	/* JDK 21+: same text, but the operation "succeeds" */
	CHECK_INT(parse("0\n/x/libjmap.so was not loaded.\n"
			"/x/libjmap.so: cannot open shared object file: No "
			"such file or directory\n"),
		  0);
	CHECK(!r.ran);
	CHECK_INT(r.result, 0);
	CHECK_STR(r.msg,
		  "/x/libjmap.so was not loaded.; /x/libjmap.so: "
		  "cannot open shared object file: No such file or directory");

	CHECK_INT(parse("0\nAgent_OnAttach is not available in /x/n.so\n"), 0);
	CHECK(!r.ran);
	CHECK_STR(r.msg, "Agent_OnAttach is not available in /x/n.so");
	CHECK_INT(parse("-1\nAgent_OnAttach is not available in /x/n.so\n"), 0);
	CHECK(!r.ran);

	CHECK_INT(
	    parse("0\nDynamic agent loading is not enabled. Use "
		  "-XX:+EnableDynamicAgentLoading to launch target VM.\n"),
	    0);
	CHECK(!r.ran);

	/* the listener's own errors have no final newline */
	CHECK_INT(parse("-1\nOperation load not recognized!"), 0);
	CHECK(!r.ran);
	CHECK_STR(r.msg, "Operation load not recognized!");
	CHECK_INT(parse("-1\n"), 0);
	CHECK(!r.ran);
	CHECK_STR(r.msg, "");
}

static void test_garbage(void)
{
	CHECK_INT(parse(""), -EPROTO);
	CHECK_INT(parse("\n"), -EPROTO);
	CHECK_INT(parse("hello\n"), -EPROTO);
	CHECK_INT(parse("0x\nreturn code: 0\n"), -EPROTO);
	CHECK_INT(parse("0\n"), -EPROTO); /* nothing about the agent */
	CHECK_INT(parse("0"), -EPROTO);
	CHECK_INT(parse("99999999999\n"), -EPROTO);
	CHECK_INT(parse("0\nreturn code: \n"), 0); /* text, not a number */
	CHECK(!r.ran);
	/* not NUL-terminated: only len bytes count */
	CHECK_INT(attach_proto__parse_load_reply("0\n5\nxxxx", 4, &r), 0);
	CHECK(r.ran);
	CHECK_INT(r.agent_rc, 5);
}

int main(void)
{
	test_request();
	test_agent_ran();
	test_not_loaded();
	test_garbage();
	return check_report();
}
