// SPDX-License-Identifier: GPL-2.0
/*
 * hsprobes: HotSpot's probe points mixprof reads (hsprobes.h).
 */
#include "jvm/hsprobes.h"

/*
 * The arguments each program reads are jevents.bpf.h's (its JEV_USDT
 * lines): HotSpot's dtrace probes (hotspot.d, hs_private.d) pass a
 * name as a (pointer, length) pair.
 */
static const struct hsprobe_usdt usdt[] = {
    {"hotspot", "gc__begin", "jev_gc_begin"},
    {"hotspot", "gc__end", "jev_gc_end"},
    {"hs_private", "safepoint__begin", "jev_sp_begin"},
    {"hs_private", "safepoint__end", "jev_sp_end"},
    {"hotspot", "vmops__begin", "jev_vmop_begin"},
    {"hotspot", "vmops__end", "jev_vmop_end"},
    {"hotspot", "method__compile__begin", "jev_compile_begin"},
    {"hotspot", "method__compile__end", "jev_compile_end"},
    {"hotspot", "class__loaded", "jev_class_loaded"},
};

const struct hsprobe_usdt *hsprobes__usdt(size_t *n)
{
	*n = sizeof(usdt) / sizeof(usdt[0]);
	return usdt;
}
