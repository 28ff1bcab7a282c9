/* jframe.c: which frames are C1's, and inline chains' kinds. */
#include "check.h"
#include "jvm/jframe.h"

int main(void)
{
	enum jframe_kind k[3];

	CHECK(!jframe__c1(JF_INTERPRETED, 2));
	for (int tier = 1; tier <= 3; tier++)
		CHECK(jframe__c1(JF_COMPILED, tier));
	CHECK(!jframe__c1(JF_COMPILED, 4));
	CHECK(!jframe__c1(JF_COMPILED, 0)); /* a native wrapper */
	CHECK(!jframe__c1(JF_INLINED, 1));
	jframe__chain_kinds(3, k);
	CHECK_INT(k[0], JF_INLINED);
	CHECK_INT(k[1], JF_INLINED);
	CHECK_INT(k[2], JF_COMPILED);
	jframe__chain_kinds(1, k);
	CHECK_INT(k[0], JF_COMPILED);
	return check_report();
}
