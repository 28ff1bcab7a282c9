/*
 * One fuzz step over every text parser of the symbolizer: JIT map lines
 * (through jitmap, fed in two pieces so partial lines are exercised, then
 * looked up), kallsyms, /proc/PID/maps, stat and status
 * (common/procfs), ELF from memory, and the bytes a
 * JVM's memory gives the Java namer (debug streams, PcDescs, line tables,
 * field tables, String bytes), and the JVM readers that walk a target's
 * memory (nmethods, code heaps, thread lists, Symbols, CodeBlob names)
 * over the bytes as that memory, through the struct hotspot_mem seam.
 * Shared by
 * the libFuzzer target (fuzz/parsers.c) and the seeded unit test.
 * Returns 0; a crash or sanitizer report is the failure.
 */
#ifndef MIXPROF_SYM_FUZZ_PARSERS_H
#define MIXPROF_SYM_FUZZ_PARSERS_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "symbolizer/elf_syms.h"
#include "symbolizer/jitmap.h"
#include "jvm/codeblob.h"
#include "jvm/hotspot.h"
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

		while (!nmethod__u5_read(data, len, &pos, x, &v))
			;
		for (size_t i = 0; i < len && i < 32; i++)
			nmethod__scope_chain(&d, x, (int32_t)i, s, 8);
		jline__decode(data, len, x, len ? data[0] : 0);
		jthreads__fields_stream(data, len, x, &ff, f, 16);
	}
	nmethod__pcdesc_find(&l, data, len, len ? (int8_t)data[0] : 0, &pd);
	jthreads__fields_u2((const uint16_t *)data, len / 2,
			    len ? data[0] % 4 : 0, &fu2, f, 16);
	jthreads__string_utf8(data, len, len & 1, out, sizeof(out));
}

/* The bytes as a target's memory at FUZZ_BASE; anything else faults. */
#define FUZZ_BASE 0x100000ull

struct sym_fuzz_mem {
	const uint8_t *data;
	size_t len;
};

static inline int sym_fuzz_read(void *ctx, uint64_t addr, void *buf, size_t n)
{
	const struct sym_fuzz_mem *f = ctx;

	if (addr < FUZZ_BASE || addr - FUZZ_BASE > f->len ||
	    n > f->len - (addr - FUZZ_BASE))
		return -EFAULT;
	memcpy(buf, f->data + (addr - FUZZ_BASE), n);
	return 0;
}

/* Plausible JDK 17 layouts (tests/hostile/fakejvm.c publishes the same
 * shape): what the walks read of the memory is then up to the bytes. */
static inline void sym_fuzz_layouts(struct hotspot_layout *hl,
				    struct nm_layout *l)
{
	struct hotspot_unwind *u = &hl->u;

	memset(hl, 0, sizeof(*hl));
	hl->off_const_method = 8;
	hl->off_constants = 8;
	hl->off_name_index = 32;
	hl->off_pool_holder = 16;
	hl->off_klass_name = 16;
	hl->off_sym_length = 0;
	hl->off_sym_body = 6;
	hl->off_sym_hash = HOTSPOT_NO_OFF;
	hl->cp_size = 64;
	*u = (struct hotspot_unwind){
	    .ok = true,
	    .heaps_addr = FUZZ_BASE + 16,
	    .off_ga_data = 8,
	    .off_heap_segmap = 64,
	    .off_heap_log2 = 128,
	    .off_vs_high_b = 8,
	    .off_vs_low = 16,
	    .hb_size = 16,
	    .off_hb_used = 8,
	    .off_cb_size = 8,
	    .off_cb_frame_complete = 12,
	    .off_cb_frame_size = 16,
	    .off_cb_code = 32,
	    .off_cb_name = 24,
	    .off_cb_kind = HOTSPOT_NO_OFF,
	    .threads_ok = true,
	    .threads_list_addr = FUZZ_BASE + 8,
	    .off_tl_length = 8,
	    .off_tl_threads = 16,
	    .off_jt_osthread = 64,
	    .off_os_tid = 8,
	    .nheaps = 1,
	};
	u->heap[0] = (struct hotspot_heap){FUZZ_BASE, FUZZ_BASE + 65536,
					   FUZZ_BASE + 256, 6};
	*l = (struct nm_layout){
	    .immutable = 0,
	    .u5_x = 0,
	    .cb_size = 8,
	    .cb_code_begin = 32,
	    .cb_code_end = 40,
	    .cb_code_offset = NM_NONE,
	    .cb_data_offset = NM_NONE,
	    .cb_mutable_data = NM_NONE,
	    .cb_mutable_size = NM_NONE,
	    .cb_reloc_size = NM_NONE,
	    .method = 48,
	    .compile_id = 56,
	    .comp_level = 60,
	    .comp_level_size = 4,
	    .entry_bci = 64,
	    .state = 68,
	    .entry_point = 96,
	    .verified_entry = 104,
	    .entry_offset = NM_NONE,
	    .verified_offset = NM_NONE,
	    .scopes_pcs_offset = 72,
	    .dependencies_offset = 76,
	    .metadata_offset = 80,
	    .scopes_data_begin = 88,
	    .immutable_data = NM_NONE,
	    .immutable_size = NM_NONE,
	    .scopes_data_offset = NM_NONE,
	    .pcdesc_size = 16,
	    .pc_offset = 0,
	    .scope_decode_offset = 4,
	    .obj_decode_offset = 8,
	    .pc_flags = 12,
	    .hb_size = 16,
	    .hb_used = 8,
	};
}

/* The readers over the bytes as memory, at addresses the bytes give. */
static inline void sym_fuzz_jvm_mem(const uint8_t *data, size_t len)
{
	struct sym_fuzz_mem f = {data, len};
	const struct hotspot_mem m = {sym_fuzz_read, &f};
	struct hotspot_thread t[8];
	struct hotspot_layout hl;
	struct nm_layout l;
	struct nm_scope s[8];
	struct nm_debug d;
	char buf[128];

	sym_fuzz_layouts(&hl, &l);
	hotspot__threads_read(&m, &hl.u, t, 8);
	for (size_t i = 0; i + 8 <= len && i < 64; i += 8) {
		uint64_t a;

		memcpy(&a, data + i, 8);
		a = FUZZ_BASE + a % (len + 1); /* most land in the memory */
		codeblob__name(&m, &hl.u, a, buf, sizeof(buf));
		hotspot__symbol(&m, &hl, a, buf, sizeof(buf), NULL);
		hotspot__method_name(&m, &hl, a, buf, sizeof(buf));
		nmethod__same(&m, &l, a, 1, 0);
		if (nmethod__load(&m, &l, a, &d))
			continue;
		nmethod__chain_at(&l, &d, d.info.code_begin + i, s, 8);
		nmethod__chain_at_return(&l, &d, d.info.code_begin + i, s, 8);
		nmethod__debug_release(&d);
	}
	{
		struct hotspot_unwind u = hl.u;

		hotspot__heaps_read(&m, &u);
	}
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
	sym_fuzz_jvm_mem(data, len);
	return 0;
}

#endif
