/* Unit tests for agent/options.c: the option grammar and its messages. */
#include <errno.h>
#include <stdlib.h>
#include "check.h"
#include "agent/options.h"

static struct jmap_options o;
static char err[256];

static int parse(const char *text)
{
	return jmap_options__parse(text, &o, err, sizeof(err));
}

static void test_defaults(void)
{
	CHECK_INT(parse(NULL), 0);
	CHECK_STR(o.dir, "/tmp");
	CHECK(o.inline_frames && o.stubs);
	CHECK(!o.dotted && !o.sig && !o.lines && !o.jitdump && !o.help);
	CHECK_STR(err, "");
	CHECK_INT(parse(""), 0);
	CHECK(o.inline_frames);
}

static void test_good(void)
{
	CHECK_INT(parse("dotted,sig,lines,jitdump,dir=/var/tmp/x/"), 0);
	CHECK(o.dotted && o.sig && o.lines && o.jitdump);
	CHECK_STR(o.dir, "/var/tmp/x");
	CHECK_INT(parse("dir=/"), 0);
	CHECK_STR(o.dir, "/");
	CHECK_INT(parse("noinline"), 0);
	CHECK(!o.inline_frames);
	CHECK_INT(parse("inline=off,stubs=no"), 0);
	CHECK(!o.inline_frames && !o.stubs);
	CHECK_INT(parse("inline=on,dotted=1,sig=true,lines=yes"), 0);
	CHECK(o.inline_frames && o.dotted && o.sig && o.lines);
	CHECK_INT(parse("dotted=0"), 0);
	CHECK(!o.dotted);
	CHECK_INT(parse("help"), 0);
	CHECK(o.help);
}

static void test_bad(void)
{
	CHECK_INT(parse("foo"), -EINVAL);
	CHECK_STR(err, "unknown option 'foo' (try 'help')");
	/* no prefix matching: "dot" is not "dotted", "inlines" not "inline" */
	CHECK_INT(parse("dot"), -EINVAL);
	CHECK_STR(err, "unknown option 'dot' (try 'help')");
	CHECK_INT(parse("inlines=on"), -EINVAL);
	CHECK_STR(err, "unknown option 'inlines' (try 'help')");
	CHECK_INT(parse("dotted=maybe"), -EINVAL);
	CHECK_STR(err, "option 'dotted': bad value 'maybe' (want on or off)");
	CHECK_INT(parse("inline="), -EINVAL);
	CHECK_STR(err, "option 'inline': bad value '' (want on or off)");
	CHECK_INT(parse("noinline=on"), -EINVAL);
	CHECK_STR(err, "option 'noinline' takes no value");
	CHECK_INT(parse("help=1"), -EINVAL);
	CHECK_INT(parse("dir"), -EINVAL);
	CHECK_STR(err, "option 'dir' needs a path");
	CHECK_INT(parse("dir=tmp"), -EINVAL);
	CHECK_STR(err, "option 'dir': 'tmp' is not absolute");
	CHECK_INT(parse("dir=/a\nb"), -EINVAL);
	CHECK(!strchr(err, '\n'));
	CHECK_INT(parse("x\ny"), -EINVAL);
	CHECK_STR(err, "unknown option 'x?y' (try 'help')");
}

static void test_empty_and_dup(void)
{
	CHECK_INT(parse("dotted,"), -EINVAL);
	CHECK_STR(err, "empty option in 'dotted,'");
	CHECK_INT(parse(",dotted"), -EINVAL);
	CHECK_INT(parse("dotted,,sig"), -EINVAL);
	CHECK_INT(parse("dotted,dotted"), -EINVAL);
	CHECK_STR(err, "option 'dotted' given twice");
	CHECK_INT(parse("inline=on,noinline"), -EINVAL);
	CHECK_STR(err, "option 'noinline' given twice");
	CHECK_INT(parse("dir=/a,dir=/b"), -EINVAL);
}

static void test_small_err(void)
{
	char tiny[8];

	CHECK_INT(jmap_options__parse("foo", &o, tiny, sizeof(tiny)), -EINVAL);
	CHECK_STR(tiny, "unknown");
	CHECK_INT(jmap_options__parse("foo", &o, NULL, 0), -EINVAL);
}

static void test_help(void)
{
	const char *h = jmap_options__help();
	const char *keys[] = {"dir=",	"dotted",  "sig",
			      "lines",	"inline=", "noinline",
			      "stubs=", "jitdump", "help"};
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		CHECK(strstr(h, keys[i]) != NULL);
	CHECK(h[strlen(h) - 1] == '\n');
}

/* Garbage in: 0 or -EINVAL, and a one-line message on error. */
static void test_random(void)
{
	static const char *const bits[] = {
	    "dir", "=",	     ",",	 "/",	 "on", "off", "dotted",
	    "sig", "inline", "noinline", "help", "x",  "\n",  ""};
	char text[128];
	int i, j, ret, bad = 0;

	srand(1);
	for (i = 0; i < 20000; i++) {
		text[0] = '\0';
		for (j = rand() % 8; j > 0; j--)
			strcat(text, bits[rand() % 14]);
		ret = parse(text);
		if (ret != 0 && ret != -EINVAL)
			bad++;
		if (ret && (!err[0] || strchr(err, '\n')))
			bad++;
		if (!ret && o.dir[0] != '/')
			bad++;
	}
	CHECK_INT(bad, 0);
}

int main(void)
{
	test_defaults();
	test_good();
	test_bad();
	test_empty_and_dup();
	test_small_err();
	test_help();
	test_random();
	return check_report();
}
