/*
 * unwindcheck.c: check mode's difference codes (sampler_abi.h) named for
 * the summary and the folded stacks.
 */
#include "unwindcheck.h"
#include <stdio.h>
#include <linux/types.h>
#include "sampler/sampler_abi.h"

static const char *const whys[CHECK_WHYS] = {
    [CHECK_SKIP] = "oracle skipped one frame",
    [CHECK_ANCHOR] = "oracle stopped in native code without frame "
		     "pointers, HotSpot walk went on at the frame anchor",
    [CHECK_BROKE] = "HotSpot walk broke, oracle went on",
    [CHECK_CALLER] = "different callers",
    [CHECK_FP_END] = "oracle ended first",
    [CHECK_HS_END] = "HotSpot walk ended first, unmarked",
};

static const char *const kinds[CHECK_KINDS][2] = {
    [CHECK_INTERP] = {"an interpreted frame", "an interpreted leaf"},
    [CHECK_COMPILED] = {"a compiled frame", "a compiled leaf"},
    [CHECK_EDGE] = {"a compiled frame",
		    "a compiled leaf in its prologue or epilogue"},
    [CHECK_RTSTUB] = {"a runtime stub with a frame size",
		      "a runtime stub leaf with a frame size"},
    [CHECK_STUB] = {"a stub without frame size",
		    "a stub leaf without frame size"},
    [CHECK_NATIVE] = {"a native frame", "a native leaf"},
    [CHECK_IENTRY] = {"an interpreted frame",
		      "an interpreted leaf in its method's entry, before "
		      "its frame"},
    [CHECK_ITAIL] = {"an interpreted frame",
		     "an interpreted leaf in its return, past its frame"},
};

/* one string per code, built once: the callers keep the pointer */
static char names[CHECK_CODES][128];

const char *unwindcheck__why(uint32_t code)
{
	uint32_t leaf = code & 1, kind = (code >> 1) % CHECK_KINDS,
		 why = (code >> 1) / CHECK_KINDS;

	if (code >= CHECK_CODES)
		return "?";
	if (!names[code][0])
		snprintf(names[code], sizeof(names[code]), "%s after %s",
			 whys[why], kinds[kind][leaf]);
	return names[code];
}

bool unwindcheck__blind(uint32_t code)
{
	uint32_t leaf = code & 1, kind = (code >> 1) % CHECK_KINDS,
		 why = (code >> 1) / CHECK_KINDS;

	if (code >= CHECK_CODES)
		return false;
	/* the leaf keeps no frame record (yet, or any more): the oracle
	 * skips its caller */
	if (why == CHECK_SKIP && leaf &&
	    (kind == CHECK_EDGE || kind == CHECK_STUB || kind == CHECK_IENTRY ||
	     kind == CHECK_ITAIL))
		return true;
	/* HotSpot's blobs that build a frame without a frame pointer */
	if (why == CHECK_SKIP && kind == CHECK_RTSTUB)
		return true;
	return why == CHECK_ANCHOR;
}
