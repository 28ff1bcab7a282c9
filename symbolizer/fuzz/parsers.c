// SPDX-License-Identifier: GPL-2.0
/* libFuzzer entry for the symbolizer's parsers: make sym-fuzz. */
#include "parsers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	return sym_fuzz_one(data, len);
}
