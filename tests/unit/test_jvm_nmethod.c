/*
 * nmethod.c: UNSIGNED5 decoding (vectors from the format's definition,
 * both the JDK 17 and the JDK 21+ bias), the PcDesc search, the scope
 * chain, and whole nmethods in a fake memory image laid out as JDK 17 and
 * JDK 25 lay them out; garbage of every kind must give an error, never a
 * read out of bounds or a loop without end. Live JVMs: tests/jvmnames.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include "check.h"
#include "jvm/nmethod.h"

/* An UNSIGNED5 encoder written from the format (not HotSpot's code):
 * low bytes [x, x + L) end a value, high bytes carry 6 bits each. */
static size_t u5_put(uint8_t *p, uint32_t v, int x)
{
	const uint32_t low = 256 - 64 - x;
	size_t i = 0;

	while (i < 4 && v >= low) {
		v -= low;
		p[i++] = x + low + (v & 63);
		v >>= 6;
	}
	p[i++] = x + v;
	return i;
}

static void test_u5_vectors(void)
{
	/* JDK 21+ (x = 1): the largest values of 1, 2, 3 and 4 bytes
	 * (190, then each adds 254 << 6i less the low bytes' 64 << 6i
	 * unused: unsigned5.hpp's encoded_length), then one more each */
	static const struct {
		uint32_t v;
		size_t len;
	} vec[] = {{0, 1},	   {0xbe, 1},	   {0xbf, 2},	 {0x307e, 2},
		   {0x307f, 3},	   {0xc207e, 3},   {0xc207f, 4}, {0x308207e, 4},
		   {0x308207f, 5}, {UINT32_MAX, 5}};
	uint8_t b[8];

	for (size_t i = 0; i < sizeof(vec) / sizeof(vec[0]); i++) {
		size_t n = u5_put(b, vec[i].v, 1), pos = 0;
		uint32_t got = 0;

		CHECK_INT(n, vec[i].len);
		CHECK_INT(nmethod__u5_read(b, n, &pos, 1, &got), 0);
		CHECK_INT(got, vec[i].v);
		CHECK_INT(pos, n);
		for (size_t k = 0; k < n; k++)
			CHECK(b[k] != 0); /* no zero byte with the bias */
	}
	/* hand-made bytes: 191 is C0 01 with the bias, one byte 0xbf
	 * without it (JDK 17: L = 192) */
	{
		uint8_t a[] = {0xc0, 0x01}, c[] = {0xbf}, d[] = {0xc0, 0x00};
		size_t pos = 0;
		uint32_t v;

		CHECK_INT(nmethod__u5_read(a, 2, &pos, 1, &v), 0);
		CHECK_INT(v, 191);
		pos = 0;
		CHECK_INT(nmethod__u5_read(c, 1, &pos, 0, &v), 0);
		CHECK_INT(v, 191);
		pos = 0;
		CHECK_INT(nmethod__u5_read(d, 2, &pos, 0, &v), 0);
		CHECK_INT(v, 192);
	}
}

static void test_u5_roundtrip(void)
{
	uint8_t b[8];

	for (int x = 0; x <= 1; x++)
		for (uint64_t v = 0; v <= UINT32_MAX; v = v * 3 + 1) {
			size_t n = u5_put(b, (uint32_t)v, x), pos = 0;
			uint32_t got;

			CHECK(n >= 1 && n <= 5);
			CHECK_INT(nmethod__u5_read(b, n, &pos, x, &got), 0);
			CHECK_INT(got, (uint32_t)v);
		}
}

static void test_u5_garbage(void)
{
	uint8_t high[] = {0xff, 0xff, 0xff}, zero[] = {0x00}, five[6];
	size_t pos = 0;
	uint32_t v;

	CHECK_INT(nmethod__u5_read(high, 0, &pos, 1, &v), -EINVAL); /* empty */
	CHECK_INT(nmethod__u5_read(high, 3, &pos, 1, &v),
		  -EINVAL); /* cut short */
	CHECK_INT(pos, 0);
	CHECK_INT(nmethod__u5_read(zero, 1, &pos, 1, &v),
		  -EINVAL); /* excluded */
	pos = 2;
	CHECK_INT(nmethod__u5_read(high, 3, &pos, 1, &v),
		  -EINVAL); /* at the end */
	/* five high bytes: the fifth ends the value whatever it is */
	memset(five, 0xff, sizeof(five));
	pos = 0;
	CHECK_INT(nmethod__u5_read(five, 6, &pos, 1, &v), 0);
	CHECK_INT(pos, 5);
}

/* A layout with JDK 17's and 25's PcDesc: four ints of 16 bytes. */
static struct nm_layout pc_layout(void)
{
	struct nm_layout l;

	memset(&l, 0xff, sizeof(l));
	l.pcdesc_size = 16;
	l.pc_offset = 0;
	l.scope_decode_offset = 4;
	l.obj_decode_offset = 8;
	l.pc_flags = 12;
	l.u5_x = 1;
	return l;
}

static void put_pc(uint8_t *p, int32_t pc, int32_t scope)
{
	int32_t v[4] = {pc, scope, 0, 0};

	memcpy(p, v, sizeof(v));
}

static void test_pcdesc(void)
{
	struct nm_layout l = pc_layout();
	uint8_t pcs[5 * 16];
	struct nm_pcdesc pd;

	/* HotSpot's sentinels: pc -1 first, a large one last */
	put_pc(pcs, -1, 0);
	put_pc(pcs + 16, 0x10, 11);
	put_pc(pcs + 32, 0x20, 22);
	put_pc(pcs + 48, 0x40, 33);
	put_pc(pcs + 64, INT_MAX, 0);
	CHECK_INT(nmethod__pcdesc_find(&l, pcs, sizeof(pcs), 0x20, &pd), 0);
	CHECK_INT(pd.scope_decode_offset, 22); /* exact */
	CHECK_INT(nmethod__pcdesc_find(&l, pcs, sizeof(pcs), 0x11, &pd), 0);
	CHECK_INT(pd.pc_offset, 0x20); /* the next debug point */
	CHECK_INT(nmethod__pcdesc_find(&l, pcs, sizeof(pcs), 0, &pd), 0);
	CHECK_INT(pd.pc_offset, 0x10);
	CHECK_INT(nmethod__pcdesc_find(&l, pcs, sizeof(pcs), 0x41, &pd), 0);
	CHECK_INT(pd.pc_offset, INT_MAX);
	CHECK_INT(pd.scope_decode_offset, 0);
	CHECK_INT(nmethod__pcdesc_find(&l, pcs, 4 * 16, 0x41, &pd), -ENOENT);
	CHECK_INT(nmethod__pcdesc_find(&l, pcs, 15, 0, &pd), -EINVAL);
	CHECK_INT(nmethod__pcdesc_find(&l, pcs, 0, 0, &pd), -EINVAL);
	/* unsorted garbage: some entry, and no trouble */
	put_pc(pcs + 16, 0x7fff0000, 1);
	CHECK(nmethod__pcdesc_find(&l, pcs, sizeof(pcs), 0x30, &pd) == 0);
	/* a layout whose fields do not fit its size */
	l.pc_flags = 14;
	CHECK_INT(nmethod__pcdesc_find(&l, pcs, sizeof(pcs), 0, &pd), -EINVAL);
}

/* One scope: sender, metadata index, bci + 1, three offsets. */
static size_t put_scope(uint8_t *p, uint32_t sender, uint32_t midx, int bci,
			int x)
{
	size_t n = 0;

	n += u5_put(p + n, sender, x);
	n += u5_put(p + n, midx, x);
	n += u5_put(p + n, (uint32_t)(bci + 1), x);
	for (int i = 0; i < 3; i++)
		n += u5_put(p + n, 0, x);
	return n;
}

static uint64_t meta[3] = {0x1000, 0x2000, 0};

/* scopes: [0] unused (serialized null), outer at 1, inner after it,
 * an innermost one deeper still. */
static struct nm_debug chain_debug(uint8_t *buf, int x, uint32_t *inner,
				   uint32_t *deepest)
{
	struct nm_debug d;
	size_t n = 1;

	memset(&d, 0, sizeof(d));
	buf[0] = x;
	n += put_scope(buf + n, 0, 1, 5, x); /* outer: meta 1, bci 5 */
	*inner = n;
	n += put_scope(buf + n, 1, 2, 300, x); /* inlined: meta 2, bci 300 */
	*deepest = n;
	n += put_scope(buf + n, *inner, 1, -1, x); /* recursion at entry */
	d.info.method = 0x1000;
	d.scopes = buf;
	d.scopes_len = n;
	d.meta = meta;
	d.nmeta = 2;
	return d;
}

static void test_scope_chain(void)
{
	uint8_t buf[128];
	struct nm_scope s[NM_MAX_SCOPES];
	uint32_t inner, deepest;

	for (int x = 0; x <= 1; x++) {
		struct nm_debug d = chain_debug(buf, x, &inner, &deepest);

		CHECK_INT(
		    nmethod__scope_chain(&d, x, deepest, s, NM_MAX_SCOPES), 3);
		CHECK_INT(s[0].method, 0x1000);
		CHECK_INT(s[0].bci, -1);
		CHECK_INT(s[1].method, 0x2000);
		CHECK_INT(s[1].bci, 300);
		CHECK_INT(s[2].method, 0x1000);
		CHECK_INT(s[2].bci, 5);
		/* serialized null: the nmethod's own method at its entry */
		CHECK_INT(nmethod__scope_chain(&d, x, 0, s, NM_MAX_SCOPES), 1);
		CHECK_INT(s[0].method, 0x1000);
		CHECK_INT(s[0].bci, -1);
		/* too small an output */
		CHECK_INT(nmethod__scope_chain(&d, x, deepest, s, 2), -EINVAL);
		CHECK_INT(nmethod__scope_chain(&d, x, -5, s, NM_MAX_SCOPES),
			  -EINVAL);
		CHECK_INT(
		    nmethod__scope_chain(&d, x, d.scopes_len, s, NM_MAX_SCOPES),
		    -EINVAL);
		/* cut short: the last scope loses its tail */
		d.scopes_len = deepest + 2;
		CHECK_INT(
		    nmethod__scope_chain(&d, x, deepest, s, NM_MAX_SCOPES),
		    -EINVAL);
	}
}

static void test_scope_garbage(void)
{
	uint8_t buf[64];
	struct nm_scope s[NM_MAX_SCOPES];
	struct nm_debug d;
	size_t n;

	memset(&d, 0, sizeof(d));
	d.scopes = buf;
	d.meta = meta;
	d.nmeta = 2;
	/* a metadata index past the table, and index 0 (null) */
	n = 1 + put_scope(buf + 1, 0, 3, 0, 1);
	d.scopes_len = n;
	CHECK_INT(nmethod__scope_chain(&d, 1, 1, s, NM_MAX_SCOPES), -EINVAL);
	put_scope(buf + 1, 0, 0, 0, 1);
	CHECK_INT(nmethod__scope_chain(&d, 1, 1, s, NM_MAX_SCOPES), -EINVAL);
	/* a null Method* in the table */
	d.nmeta = 3;
	put_scope(buf + 1, 0, 3, 0, 1);
	CHECK_INT(nmethod__scope_chain(&d, 1, 1, s, NM_MAX_SCOPES), -EINVAL);
	/* a scope that is its own sender: a cycle ends at the limit */
	d.nmeta = 2;
	n = 1 + put_scope(buf + 1, 1, 1, 0, 1);
	d.scopes_len = n;
	CHECK_INT(nmethod__scope_chain(&d, 1, 1, s, NM_MAX_SCOPES), -EINVAL);
	/* all 0xff: five-byte values, then out of bounds */
	memset(buf, 0xff, sizeof(buf));
	d.scopes_len = sizeof(buf);
	CHECK(nmethod__scope_chain(&d, 1, 1, s, NM_MAX_SCOPES) < 0);
	/* all zero bytes are excluded with the JDK 21+ bias */
	memset(buf, 0, sizeof(buf));
	CHECK_INT(nmethod__scope_chain(&d, 1, 1, s, NM_MAX_SCOPES), -EINVAL);
}

/* ---- whole nmethods in a fake image ------------------------------------ */

static uint8_t img[16384] __attribute__((aligned(64)));

static int img_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	uint64_t lo = (uintptr_t)img, hi = lo + sizeof(img);

	(void)ctx;
	if (addr < lo || addr > hi || len > hi - addr)
		return -EFAULT;
	memcpy(buf, (void *)(uintptr_t)addr, len);
	return 0;
}

static const struct hotspot_mem mem = {img_read, NULL};

static void put64(size_t off, uint64_t v)
{
	memcpy(img + off, &v, 8);
}
static void put32(size_t off, uint32_t v)
{
	memcpy(img + off, &v, 4);
}
static void put16(size_t off, uint16_t v)
{
	memcpy(img + off, &v, 2);
}
static uint64_t at(size_t off)
{
	return (uintptr_t)img + off;
}

/* JDK 17's offsets, as its VMStructs gives them. */
static struct nm_layout layout_17(void)
{
	struct nm_layout l = pc_layout();

	l.immutable = 0;
	l.u5_x = 0;
	l.cb_size = 12;
	l.cb_code_begin = 32;
	l.cb_code_end = 40;
	l.method = 112;
	l.scopes_data_begin = 120;
	l.entry_bci = 192;
	l.entry_point = 216;
	l.verified_entry = 224;
	l.metadata_offset = 260;
	l.scopes_pcs_offset = 268;
	l.dependencies_offset = 272;
	l.compile_id = 304;
	l.comp_level = 308;
	l.comp_level_size = 4;
	l.state = 315;
	l.hb_size = 16;
	l.hb_used = 8;
	return l;
}

/* JDK 25's. */
static struct nm_layout layout_25(void)
{
	struct nm_layout l = pc_layout();

	l.immutable = 1;
	l.u5_x = 1;
	l.cb_mutable_data = 16;
	l.cb_size = 24;
	l.cb_reloc_size = 28;
	l.cb_code_offset = 36;
	l.cb_data_offset = 40;
	l.cb_mutable_size = 48;
	l.method = 80;
	l.immutable_data = 96;
	l.entry_offset = 152;
	l.verified_offset = 154;
	l.entry_bci = 156;
	l.immutable_size = 160;
	l.scopes_pcs_offset = 196;
	l.scopes_data_offset = 200;
	l.compile_id = 212;
	l.comp_level = 216;
	l.comp_level_size = 1;
	l.state = 219;
	l.hb_size = 8;
	l.hb_used = 4;
	return l;
}

/* Debug data for both: pcs at P (3 descs), scopes at S, metadata at M. */
static void put_debug(size_t p, size_t s, size_t m, int x, size_t *slen)
{
	uint32_t inner, deepest;
	struct nm_debug d = chain_debug(img + s, x, &inner, &deepest);

	*slen = d.scopes_len;
	put64(m, 0x1000);
	put64(m + 8, 0x2000);
	put_pc(img + p, -1, 0);
	put_pc(img + p + 16, 0x10, deepest); /* code + 0x10: 3 deep */
	put_pc(img + p + 32, INT_MAX, 0);
}

static void check_nmethod(const struct nm_layout *l, uint64_t nm)
{
	struct nm_debug d;
	struct nm_scope s[NM_MAX_SCOPES];

	CHECK_INT(nmethod__load(&mem, l, nm, &d), 0);
	CHECK_INT(d.info.method, 0x1000);
	CHECK_INT(d.info.compile_id, 77);
	CHECK_INT(d.info.comp_level, 4);
	CHECK_INT(d.info.entry_bci, -1);
	CHECK_INT(d.info.code_begin, nm + 0x200);
	CHECK_INT(d.info.verified_entry, nm + 0x220);
	CHECK_INT(d.pcs_len, 48);
	CHECK_INT(d.nmeta, 2);
	CHECK_INT(nmethod__chain_at(l, &d, nm + 0x200 + 0x08, s, NM_MAX_SCOPES),
		  3);
	CHECK_INT(s[1].method, 0x2000);
	CHECK_INT(s[1].bci, 300);
	CHECK_INT(nmethod__chain_at(l, &d, nm + 0x200 + 0x11, s, NM_MAX_SCOPES),
		  1);
	CHECK_INT(nmethod__chain_at(l, &d, nm + 0x10, s, NM_MAX_SCOPES),
		  -ERANGE);
	/* a return address: its own PcDesc (code + 0x10) or the method */
	CHECK_INT(nmethod__chain_at_return(l, &d, nm + 0x200 + 0x10, s,
					   NM_MAX_SCOPES),
		  3);
	CHECK_INT(nmethod__chain_at_return(l, &d, nm + 0x200 + 0x08, s,
					   NM_MAX_SCOPES),
		  1);
	CHECK_INT(s[0].method, 0x1000);
	CHECK_INT(s[0].bci, -1);
	CHECK_INT(nmethod__chain_at_return(l, &d, nm + 0x10, s, NM_MAX_SCOPES),
		  -ERANGE);
	CHECK_INT(nmethod__same(&mem, l, nm, 77, 0x1000), 1);
	CHECK_INT(nmethod__same(&mem, l, nm, 78, 0x1000), 0);
	CHECK_INT(nmethod__same(&mem, l, nm, 77, 0x3000), 0);
	CHECK_INT(nmethod__same(&mem, l, 16, 77, 0), -EFAULT);
	/* its code heap block freed: gone, whatever the header says */
	img[nm - (uintptr_t)img - l->hb_size + l->hb_used] = 0;
	CHECK_INT(nmethod__same(&mem, l, nm, 77, 0x1000), 0);
	nmethod__debug_release(&d);
	nmethod__debug_release(NULL);
}

static void test_nmethod_17(void)
{
	struct nm_layout l = layout_17();
	size_t nm = 0x1000, slen;
	struct nm_info i;

	memset(img, 0, sizeof(img));
	img[nm - l.hb_size + l.hb_used] = 1;
	put32(nm + l.cb_size, 0x800);
	put64(nm + l.cb_code_begin, at(nm + 0x200));
	put64(nm + l.cb_code_end, at(nm + 0x400));
	put64(nm + l.method, 0x1000);
	put64(nm + l.entry_point, at(nm + 0x200));
	put64(nm + l.verified_entry, at(nm + 0x220));
	put32(nm + l.entry_bci, (uint32_t)-1);
	put32(nm + l.compile_id, 77);
	put32(nm + l.comp_level, 4);
	/* metadata 0x400, scopes 0x410, pcs 0x500 - 0x530 */
	put32(nm + l.metadata_offset, 0x400);
	put64(nm + l.scopes_data_begin, at(nm + 0x410));
	put32(nm + l.scopes_pcs_offset, 0x500);
	put32(nm + l.dependencies_offset, 0x530);
	put_debug(nm + 0x500, nm + 0x410, nm + 0x400, 0, &slen);
	check_nmethod(&l, at(nm));
	/* garbage: a huge size, code outside the blob, a bad tier */
	put32(nm + l.cb_size, 0x7fffffff);
	CHECK_INT(nmethod__read(&mem, &l, at(nm), &i), -EINVAL);
	put32(nm + l.cb_size, 0x800);
	put64(nm + l.cb_code_end, at(nm + 0x900));
	CHECK_INT(nmethod__read(&mem, &l, at(nm), &i), -EINVAL);
	put64(nm + l.cb_code_end, at(nm + 0x400));
	put32(nm + l.comp_level, 9);
	CHECK_INT(nmethod__read(&mem, &l, at(nm), &i), -EINVAL);
	put32(nm + l.comp_level, 4);
	put32(nm + l.dependencies_offset, 0x4f0); /* pcs end before begin */
	CHECK_INT(nmethod__read(&mem, &l, at(nm), &i), -EINVAL);
	put32(nm + l.dependencies_offset, 0x530);
	put32(nm + l.scopes_pcs_offset, 0x5000); /* out of the image */
	put32(nm + l.dependencies_offset, 0x5030);
	CHECK_INT(nmethod__load(&mem, &l, at(nm), &(struct nm_debug){}),
		  -EFAULT);
	/* the header itself unreadable */
	CHECK_INT(nmethod__read(&mem, &l, at(sizeof(img) - 100), &i), -EFAULT);
}

static void test_nmethod_25(void)
{
	struct nm_layout l = layout_25();
	size_t nm = 0x2000, imm = 0x3000, mut = 0x3800, slen;

	memset(img, 0, sizeof(img));
	img[nm - l.hb_size + l.hb_used] = 1;
	put32(nm + l.cb_size, 0x800);
	put32(nm + l.cb_code_offset, 0x200);
	put32(nm + l.cb_data_offset, 0x400);
	put64(nm + l.method, 0x1000);
	put16(nm + l.entry_offset, 0);
	put16(nm + l.verified_offset, 0x20);
	put32(nm + l.entry_bci, (uint32_t)-1);
	put32(nm + l.compile_id, 77);
	img[nm + l.comp_level] = 4;
	/* immutable: pcs at +0x10 (3 descs), scopes at +0x40 */
	put64(nm + l.immutable_data, at(imm));
	put32(nm + l.scopes_pcs_offset, 0x10);
	put32(nm + l.scopes_data_offset, 0x40);
	/* mutable: 0x18 bytes of relocations, then two Metadata* */
	put64(nm + l.cb_mutable_data, at(mut));
	put32(nm + l.cb_reloc_size, 0x18);
	put32(nm + l.cb_mutable_size, 0x28);
	put_debug(imm + 0x10, imm + 0x40, mut + 0x18, 1, &slen);
	put32(nm + l.immutable_size, 0x40 + slen);
	check_nmethod(&l, at(nm));
	/* a native wrapper: no debug data at all, its method alone */
	put64(nm + l.immutable_data, 0);
	put32(nm + l.scopes_pcs_offset, 0);
	put32(nm + l.scopes_data_offset, 0);
	put32(nm + l.immutable_size, 0);
	{
		struct nm_debug d;
		struct nm_scope s[2];

		CHECK_INT(nmethod__load(&mem, &l, at(nm), &d), 0);
		CHECK_INT(nmethod__chain_at(&l, &d, at(nm + 0x210), s, 2), 1);
		CHECK_INT(s[0].method, 0x1000);
		CHECK_INT(s[0].bci, -1);
		nmethod__debug_release(&d);
	}
	/* relocations larger than the block */
	img[nm - l.hb_size + l.hb_used] = 1;
	put32(nm + l.cb_reloc_size, 0x30);
	CHECK_INT(nmethod__load(&mem, &l, at(nm), &(struct nm_debug){}),
		  -EINVAL);
}

int main(void)
{
	test_u5_vectors();
	test_u5_roundtrip();
	test_u5_garbage();
	test_pcdesc();
	test_scope_chain();
	test_scope_garbage();
	test_nmethod_17();
	test_nmethod_25();
	return check_report();
}
