/*
 * One fuzz step over every text parser of the symbolizer: JIT map lines
 * (through jitmap, fed in two pieces so partial lines are exercised, then
 * looked up), kallsyms, /proc/PID/maps, and ELF from memory. Shared by
 * the libFuzzer target (fuzz/parsers.c) and the seeded unit test.
 * Returns 0; a crash or sanitizer report is the failure.
 */
#ifndef MIXPROF_SYM_FUZZ_PARSERS_H
#define MIXPROF_SYM_FUZZ_PARSERS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "elf_syms.h"
#include "jitmap.h"
#include "kallsyms.h"
#include "procmaps.h"
#include "strpool.h"

static inline int sym_fuzz_one(const uint8_t *data, size_t len)
{
	const char *t = (const char *)data;
	struct strpool *pool = strpool__new();
	struct jitmap *m = pool ? jitmap__new(len & 1) : NULL;
	struct frame f[4];
	struct procmaps *pm;
	struct symtab *ks;
	struct elfsyms *e;
	uint64_t bad = 0;

	if (m) {
		size_t cut = len ? data[0] % (len + 1) : 0;

		jitmap__feed(m, t, cut, 0, 1, &bad);
		jitmap__feed(m, t + cut, len - cut, 1, 2, &bad);
		for (size_t i = 0; i + 8 <= len && i < 64; i += 8) {
			uint64_t ip;

			memcpy(&ip, data + i, 8);
			jitmap__find(m, ip, ip >> 3, 0, f, 4);
			jitmap__find(m, ip & 0xffff, 2, 0, f, 4);
		}
		/* expiry keeps what later lookups can return */
		jitmap__expire(m, len & 2);
		jitmap__find(m, len, 2, 0, f, 4);
	}
	jitmap__free(m);
	strpool__free(pool);
	ks = kallsyms__parse(t, len, &bad);
	if (ks && len >= 8) {
		uint64_t ip;

		memcpy(&ip, data, 8);
		symtab__find(ks, ip);
	}
	symtab__free(ks);
	pm = procmaps__parse(t, len);
	if (pm && len >= 8) {
		uint64_t ip;

		memcpy(&ip, data + len - 8, 8);
		procmaps__find(pm, ip);
	}
	procmaps__free(pm);
	e = elfsyms__from_mem(data, len);
	if (e && !elfsyms__finish(e))
		elfsyms__find(e, len);
	elfsyms__free(e);
	return 0;
}

#endif
