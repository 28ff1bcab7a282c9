/*
 * One fuzz step over every text parser of the symbolizer: JIT map lines
 * (through jitmap, fed in two pieces so partial lines are exercised, then
 * looked up), kallsyms, /proc/PID/maps, stat and status
 * (common/procfs), ELF from memory, and the bytes a
 * JVM's memory gives the Java namer (debug streams, PcDescs, line tables,
 * field tables, String bytes). Shared by
 * the libFuzzer target (fuzz/parsers.c) and the seeded unit test.
 * Returns 0; a crash or sanitizer report is the failure.
 */
#ifndef MIXPROF_SYM_FUZZ_PARSERS_H
#define MIXPROF_SYM_FUZZ_PARSERS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "symbolizer/elf_syms.h"
#include "symbolizer/jitmap.h"
#include "jvm/jlines.h"
#include "jvm/jthreads.h"
#include "jvm/nmethod.h"
#include "symbolizer/kallsyms.h"
#include "symbolizer/procmaps.h"
#include "common/procfs.h"
#include "common/strpool.h"

/* The Java namer's decoders over the same bytes, both UNSIGNED5 biases. */
static inline void sym_fuzz_java(const uint8_t *data, size_t len)
{
	static const struct jfield_flags ff = {0, 2, 4};
	static const struct jfield_u2 fu2 = {6, 1, 2, 4, 5, 2, 1};
	struct nm_layout l;
	struct nm_debug d;
	struct nm_scope s[8];
	struct nm_pcdesc pd;
	struct jfield f[16];
	uint64_t meta[2] = {0x1000, 0x2000};
	char out[64];

	memset(&l, 0xff, sizeof(l));
	l.pcdesc_size = 16;
	l.pc_offset = 0;
	l.scope_decode_offset = 4;
	l.obj_decode_offset = 8;
	l.pc_flags = 12;
	memset(&d, 0, sizeof(d));
	d.info.method = 0x1000;
	d.scopes = (uint8_t *)data;
	d.scopes_len = len;
	d.meta = meta;
	d.nmeta = 2;
	for (int x = 0; x <= 1; x++) {
		size_t pos = 0;
		uint32_t v;

		while (!u5_read(data, len, &pos, x, &v))
			;
		for (size_t i = 0; i < len && i < 32; i++)
			nm_scope_chain(&d, x, (int32_t)i, s, 8);
		jline_decode(data, len, x, len ? data[0] : 0);
		jfields_stream(data, len, x, &ff, f, 16);
	}
	nm_pcdesc_find(&l, data, len, len ? (int8_t)data[0] : 0, &pd);
	jfields_u2((const uint16_t *)data, len / 2, len ? data[0] % 4 : 0, &fu2,
		   f, 16);
	jstring_utf8(data, len, len & 1, out, sizeof(out));
}

static inline int sym_fuzz_one(const uint8_t *data, size_t len)
{
	const char *t = (const char *)data;
	struct strpool *pool = strpool__new();
	struct jitmap *m = pool ? jitmap__new(len & 1) : NULL;
	struct frame f[4];
	struct procfs_status pss;
	struct procfs_stat pst;
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
	procfs__parse_stat(t, len, &pst);
	procfs__parse_status(t, len, &pss);
	e = elfsyms__from_mem(data, len);
	if (e && !elfsyms__finish(e))
		elfsyms__find(e, len);
	elfsyms__free(e);
	sym_fuzz_java(data, len);
	return 0;
}

#endif
