/*
 * evline: --events lines read back for the pictures, good and bad.
 */
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "evline.h"

static bool parse(const char *text, struct fg_evline *e)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s", text);
	return evline__parse(buf, e);
}

int main(void)
{
	struct fg_evline e;

	CHECK(parse("100\t250\tgc\tG1CollectFull full\n", &e));
	CHECK_INT(e.t0, 100);
	CHECK_INT(e.t1, 250);
	CHECK_STR(e.kind, "gc");
	CHECK_STR(e.detail, "G1CollectFull full");
	CHECK_INT(e.tier, 0);
	CHECK(parse("5\t9\tcompile\tC2 p.A.b tier=4 osr", &e));
	CHECK_INT(e.tier, 4);
	CHECK(parse("5\t5\tdeopt\treason=x action=y method=p.A.b tier=3", &e));
	CHECK_INT(e.tier, 3);
	CHECK(parse("5\t9\tcompile\tC1 p.A.b tier=?", &e) && e.tier == 0);
	/* kinds the pictures do not draw, and lines that do not parse */
	CHECK(!parse("5\t5\tclassload\tp.A", &e));
	CHECK(!parse("5\t9\tvmop\tG1CollectFull", &e));
	CHECK(!parse("9\t5\tgc\tend before start", &e));
	CHECK(!parse("x\t5\tgc\t-", &e));
	CHECK(!parse("5\t9\tgc", &e));
	CHECK(!parse("", &e));
	return check_report();
}
