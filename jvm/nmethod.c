// SPDX-License-Identifier: GPL-2.0
/*
 * nmethod: an nmethod's header and debug data, read and decoded (see
 * nmethod.h).
 *
 * Facts used, from HotSpot's sources (no code taken):
 *  - JDK 17 (nmethod.hpp, compiledMethod.hpp): scopes_pcs are
 *    [header + _scopes_pcs_offset, header + _dependencies_offset),
 *    scopes data [_scopes_data_begin, header + _scopes_pcs_offset),
 *    metadata [header + _metadata_offset, _scopes_data_begin).
 *  - JDK 25 (nmethod.hpp): scopes_pcs [imm + _scopes_pcs_offset,
 *    imm + _scopes_data_offset), scopes data up to the end of the
 *    immutable block (JVMCI builds put speculations after them, and JDK 26
 *    a 4-byte reference counter: a bound, not the exact end), metadata
 *    [_mutable_data + _relocation_size, _mutable_data + _mutable_data_size);
 *    code_begin = header + _code_offset, entry = code_begin + _entry_offset.
 *  - metadata_at(i) is metadata_begin[i - 1], 0 meaning null (nmethod.hpp).
 *  - a scope (scopeDesc.cpp decode_body): sender offset, metadata index of
 *    the method, bci + 1 (debugInfo.hpp read_bci: InvocationEntryBci is
 *    -1), then three offsets we skip; decode offset 0 is "serialized
 *    null" (debugInfoRec.hpp): the nmethod's method, bci -1.
 *  - the stream is UNSIGNED5 (utilities/unsigned5.hpp from JDK 21: bytes
 *    biased by X = 1 so none is zero; JDK 17 compressedStream.hpp: the
 *    same code with no bias): low bytes < L = 256 - 64 - X end a value,
 *    high bytes carry 6 more bits each, at most 5 bytes.
 *  - PcDesc lookup (nmethod.cpp find_pc_desc_internal, approximate): the
 *    first PcDesc with pc_offset >= pc - code_begin.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "nmethod.h"

/*
 * Bounds on what one nmethod's debug data may take; more is garbage, or
 * a target lying to make us read (a fake JVM whose nmethods claimed the
 * old bounds, 20 MB each, kept mixprof reading for minutes at 344 MB).
 * Measured, the largest of all nmethods of javac compiling 1,364 JDK
 * sources (java.base's util, lang, io, nio, time, net), near its end:
 * JDK 17, 5,550 nmethods: PcDescs 10,800 bytes, scopes 14,744,
 * metadata 1,448 (181 entries); JDK 25, 6,580 nmethods: 14,448, 13,976,
 * 1,512 (p99 of either: 2.7 KB, 3.4 KB, 344 bytes). HotSpot does not
 * compile methods over 8,000 bytecodes (DontCompileHugeMethods), which
 * bounds them; the limits leave 35-70 times the largest seen.
 */
#define MAX_PCS_BYTES (512u << 10)
#define MAX_SCOPES_BYTES (1u << 20)
#define MAX_META 8192
#define MAX_NM_SIZE (64u << 20)

static int opt_field(const struct vmstructs *vs, const char *t, const char *f,
		     uint32_t *out)
{
	uint64_t v;

	if (vmstructs__field(vs, t, f, &v) || v > 65535) {
		*out = NM_NONE;
		return -ENOENT;
	}
	*out = (uint32_t)v;
	return 0;
}

/* All of names[] found, each into its slot. */
#define NEED(t, f, slot) (ret |= opt_field(vs, t, f, &l->slot))

static int layout_17(struct nm_layout *l, const struct vmstructs *vs)
{
	int ret = 0;

	NEED("CompiledMethod", "_method", method);
	NEED("CompiledMethod", "_scopes_data_begin", scopes_data_begin);
	NEED("CodeBlob", "_code_begin", cb_code_begin);
	NEED("CodeBlob", "_code_end", cb_code_end);
	NEED("nmethod", "_entry_point", entry_point);
	NEED("nmethod", "_verified_entry_point", verified_entry);
	NEED("nmethod", "_dependencies_offset", dependencies_offset);
	NEED("nmethod", "_metadata_offset", metadata_offset);
	return ret;
}

static int layout_25(struct nm_layout *l, const struct vmstructs *vs)
{
	int ret = 0;

	NEED("nmethod", "_method", method);
	NEED("nmethod", "_immutable_data", immutable_data);
	NEED("nmethod", "_immutable_data_size", immutable_size);
	NEED("nmethod", "_scopes_data_offset", scopes_data_offset);
	NEED("nmethod", "_entry_offset", entry_offset);
	NEED("nmethod", "_verified_entry_offset", verified_offset);
	NEED("CodeBlob", "_code_offset", cb_code_offset);
	NEED("CodeBlob", "_data_offset", cb_data_offset);
	NEED("CodeBlob", "_mutable_data", cb_mutable_data);
	NEED("CodeBlob", "_mutable_data_size", cb_mutable_size);
	NEED("CodeBlob", "_relocation_size", cb_reloc_size);
	return ret;
}

/* The header bytes we read at once: every offset we use lies below. */
#define HDR_LEN 512

/* Every header field we read lies in the first HDR_LEN bytes. */
static bool header_fits(const struct nm_layout *l)
{
	const uint32_t *f = &l->cb_size, *end = &l->pcdesc_size;

	for (; f < end; f++)
		if (*f != NM_NONE && *f + 8 > HDR_LEN)
			return false;
	return true;
}

int nmethod__layout_init(struct nm_layout *l, const struct vmstructs *vs,
			 int major)
{
	uint64_t v;
	int ret = 0;

	memset(l, 0xff, sizeof(*l));
	if (major >= 21)
		l->u5_x = 1;
	else if (major > 0 && major <= 17)
		l->u5_x = 0;
	else
		return -ENOTSUP;
	NEED("CodeBlob", "_size", cb_size);
	NEED("nmethod", "_compile_id", compile_id);
	NEED("nmethod", "_comp_level", comp_level);
	NEED("nmethod", "_entry_bci", entry_bci);
	NEED("nmethod", "_state", state);
	NEED("nmethod", "_scopes_pcs_offset", scopes_pcs_offset);
	NEED("PcDesc", "_pc_offset", pc_offset);
	NEED("PcDesc", "_scope_decode_offset", scope_decode_offset);
	NEED("PcDesc", "_obj_decode_offset", obj_decode_offset);
	NEED("PcDesc", "_flags", pc_flags);
	if (ret)
		return -ENOENT;
	/* CompLevel: an int in JDK 17, one signed byte in JDK 25 */
	v = vmstructs__field_size(vs, "nmethod", "_comp_level");
	l->comp_level_size = v == 1 ? 1 : 4;
	l->pcdesc_size = vmstructs__type_size(vs, "PcDesc");
	if (l->pcdesc_size < 16 || l->pcdesc_size > 64)
		return -ENOENT;
	/* CodeHeap::allocate hands out the space right after a HeapBlock */
	l->hb_size = vmstructs__type_size(vs, "HeapBlock");
	if (l->hb_size < 8 || l->hb_size > 64 ||
	    opt_field(vs, "HeapBlock::Header", "_used", &l->hb_used) ||
	    l->hb_used >= l->hb_size)
		l->hb_size = l->hb_used = NM_NONE;
	l->immutable = !vmstructs__field(vs, "nmethod", "_immutable_data", &v);
	ret = l->immutable ? layout_25(l, vs) : layout_17(l, vs);
	return ret || !header_fits(l) ? -ENOENT : 0;
}

/* ---- reading ----------------------------------------------------------- */

static int rd(const struct hotspot_mem *m, uint64_t addr, void *buf, size_t len)
{
	return addr ? m->read(m->ctx, addr, buf, len) : -EFAULT;
}

static uint64_t u64_at(const uint8_t *h, uint32_t off)
{
	uint64_t v;

	memcpy(&v, h + off, 8);
	return v;
}

static int32_t i32_at(const uint8_t *h, uint32_t off)
{
	int32_t v;

	memcpy(&v, h + off, 4);
	return v;
}

static uint16_t u16_at(const uint8_t *h, uint32_t off)
{
	uint16_t v;

	memcpy(&v, h + off, 2);
	return v;
}

static int ranges_17(const struct nm_layout *l, const uint8_t *h,
		     struct nm_info *o)
{
	uint64_t nm = o->addr;

	o->code_begin = u64_at(h, l->cb_code_begin);
	o->code_end = u64_at(h, l->cb_code_end);
	o->entry = u64_at(h, l->entry_point);
	o->verified_entry = u64_at(h, l->verified_entry);
	o->pcs_begin = nm + (uint32_t)i32_at(h, l->scopes_pcs_offset);
	o->pcs_end = nm + (uint32_t)i32_at(h, l->dependencies_offset);
	o->scopes_begin = u64_at(h, l->scopes_data_begin);
	o->scopes_end = o->pcs_begin;
	o->meta_begin = nm + (uint32_t)i32_at(h, l->metadata_offset);
	o->meta_end = o->scopes_begin;
	return 0;
}

static int ranges_25(const struct nm_layout *l, const uint8_t *h,
		     struct nm_info *o)
{
	uint64_t imm = u64_at(h, l->immutable_data),
		 mut = u64_at(h, l->cb_mutable_data);
	int32_t imm_size = i32_at(h, l->immutable_size),
		mut_size = i32_at(h, l->cb_mutable_size),
		reloc = i32_at(h, l->cb_reloc_size);

	if (imm_size < 0 || mut_size < 0 || reloc < 0 || reloc > mut_size)
		return -EINVAL;
	o->code_begin = o->addr + (uint32_t)i32_at(h, l->cb_code_offset);
	o->code_end = o->addr + (uint32_t)i32_at(h, l->cb_data_offset);
	o->entry = o->code_begin + u16_at(h, l->entry_offset);
	o->verified_entry = o->code_begin + u16_at(h, l->verified_offset);
	o->pcs_begin = imm + (uint32_t)i32_at(h, l->scopes_pcs_offset);
	o->pcs_end = imm + (uint32_t)i32_at(h, l->scopes_data_offset);
	o->scopes_begin = o->pcs_end;
	o->scopes_end = imm + imm_size;
	o->meta_begin = mut + reloc;
	o->meta_end = mut + mut_size;
	return 0;
}

/* [b, e) can be a section: ordered, bounded, empty or not at address 0. */
static bool range_ok(uint64_t b, uint64_t e, uint64_t max)
{
	return e >= b && e - b <= max && (b || e == b);
}

int nmethod__read(const struct hotspot_mem *m, const struct nm_layout *l,
		  uint64_t nm, struct nm_info *o)
{
	uint8_t h[HDR_LEN];
	int ret;

	if (rd(m, nm, h, sizeof(h)))
		return -EFAULT;
	memset(o, 0, sizeof(*o));
	o->addr = nm;
	o->method = u64_at(h, l->method);
	o->compile_id = i32_at(h, l->compile_id);
	o->entry_bci = i32_at(h, l->entry_bci);
	o->comp_level = l->comp_level_size == 1
			    ? (int8_t)h[l->comp_level]
			    : (int8_t)i32_at(h, l->comp_level);
	o->state = (int8_t)h[l->state];
	o->size = (uint32_t)i32_at(h, l->cb_size);
	ret = l->immutable ? ranges_25(l, h, o) : ranges_17(l, h, o);
	if (ret)
		return ret;
	if (o->size < HDR_LEN / 4 || o->size > MAX_NM_SIZE ||
	    o->code_begin < nm || o->code_end > nm + o->size ||
	    !range_ok(o->code_begin, o->code_end, MAX_NM_SIZE) ||
	    !range_ok(o->pcs_begin, o->pcs_end, MAX_PCS_BYTES) ||
	    !range_ok(o->scopes_begin, o->scopes_end, MAX_SCOPES_BYTES) ||
	    !range_ok(o->meta_begin, o->meta_end, MAX_META * 8ull) ||
	    o->comp_level < 0 || o->comp_level > 4)
		return -EINVAL;
	return 0;
}

int nmethod__same(const struct hotspot_mem *m, const struct nm_layout *l,
		  uint64_t nm, int32_t cid, uint64_t method)
{
	/* b holds the target from the HeapBlock on (at: the nmethod's
	 * place in b); one read from the first field to the last, since
	 * this check follows every naming and a read costs microseconds */
	bool hb = l->hb_size != NM_NONE;
	uint32_t at = hb ? l->hb_size : 0, /* <= 64: nmethod__layout_init */
	    cid_at = at + l->compile_id, m_at = at + l->method,
		 lo = hb ? l->hb_used : (cid_at < m_at ? cid_at : m_at),
		 hi = cid_at + 4 > m_at + 8 ? cid_at + 4 : m_at + 8;
	uint8_t b[64 + HDR_LEN + 8];

	if (rd(m, nm - at + lo, b + lo, hi - lo))
		return -EFAULT;
	return i32_at(b, cid_at) == cid &&
	       (!method || u64_at(b, m_at) == method) && (!hb || b[l->hb_used]);
}

void nmethod__debug_release(struct nm_debug *d)
{
	if (!d)
		return;
	free(d->mem);
	d->mem = d->pcs = d->scopes = NULL;
	d->meta = NULL;
}

/* One section of the debug data: where it is in the target, where its
 * copy goes. */
struct nm_part {
	uint64_t b, e;
	uint8_t **to;
};

/*
 * Copy the parts, in this order, into one buffer: a run of parts that
 * follow each other in the target is one read (JDK 17 keeps all three
 * together, JDK 25 two of them), as a read costs microseconds.
 */
static int copy_parts(const struct hotspot_mem *m, struct nm_part *p, int n,
		      struct nm_debug *d)
{
	size_t len = 0, off = 0, run = 0;
	uint8_t *buf;

	for (int i = 0; i < n; i++)
		len += p[i].e - p[i].b;
	d->mem = buf = malloc(len ? len : 1);
	if (!buf)
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		size_t l = p[i].e - p[i].b;

		*p[i].to = buf + off;
		off += l;
		run += l;
		if (i + 1 < n && p[i + 1].b == p[i].e)
			continue; /* the next part goes on from here */
		if (run && rd(m, p[i].e - run, buf + off - run, run))
			return -EFAULT;
		run = 0;
	}
	return 0;
}

int nmethod__load(const struct hotspot_mem *m, const struct nm_layout *l,
		  uint64_t nm, struct nm_debug *d)
{
	struct nm_info *i = &d->info;
	struct nm_part p[3];
	int ret;

	memset(d, 0, sizeof(*d));
	ret = nmethod__read(m, l, nm, i);
	if (ret)
		return ret;
	d->pcs_len = i->pcs_end - i->pcs_begin;
	d->scopes_len = i->scopes_end - i->scopes_begin;
	d->nmeta = (i->meta_end - i->meta_begin) / 8;
	/* the table first, so it is aligned; then the other two in the
	 * target's order */
	p[0] = (struct nm_part){i->meta_begin, i->meta_begin + d->nmeta * 8,
				(uint8_t **)&d->meta};
	p[1] = (struct nm_part){i->pcs_begin, i->pcs_end, &d->pcs};
	p[2] = (struct nm_part){i->scopes_begin, i->scopes_end, &d->scopes};
	if (p[2].b < p[1].b) {
		struct nm_part t = p[1];

		p[1] = p[2];
		p[2] = t;
	}
	ret = copy_parts(m, p, 3, d);
	if (ret)
		nmethod__debug_release(d);
	return ret;
}

/* ---- decoding ---------------------------------------------------------- */

int nmethod__u5_read(const uint8_t *buf, size_t len, size_t *pos, int x,
		     uint32_t *v)
{
	const uint32_t lg_h = 6, low = 256 - 64 - (uint32_t)x;
	uint32_t sum = 0, b;
	size_t p = *pos;

	for (int i = 0; i < 5; i++) {
		if (p + i >= len)
			return -EINVAL;
		b = buf[p + i];
		if (b < (uint32_t)x)
			return -EINVAL;
		sum += (b - x) << (lg_h * i);
		if (b - x < low || i == 4) {
			*v = sum;
			*pos = p + i + 1;
			return 0;
		}
	}
	return -EINVAL; /* not reached: i == 4 returns */
}

static struct nm_pcdesc pcdesc_at(const struct nm_layout *l, const uint8_t *pcs,
				  size_t i)
{
	const uint8_t *p = pcs + i * l->pcdesc_size;

	return (struct nm_pcdesc){
	    i32_at(p, l->pc_offset),
	    i32_at(p, l->scope_decode_offset),
	    i32_at(p, l->obj_decode_offset),
	    i32_at(p, l->pc_flags),
	};
}

int nmethod__pcdesc_find(const struct nm_layout *l, const uint8_t *pcs,
			 size_t len, int32_t pc_off, struct nm_pcdesc *out)
{
	size_t n, lo = 0, hi;

	if (l->pcdesc_size < 16 || l->pc_offset + 4 > l->pcdesc_size ||
	    l->scope_decode_offset + 4 > l->pcdesc_size ||
	    l->obj_decode_offset + 4 > l->pcdesc_size ||
	    l->pc_flags + 4 > l->pcdesc_size)
		return -EINVAL;
	n = len / l->pcdesc_size;
	if (!n)
		return -EINVAL;
	hi = n;
	/* first index whose pc_offset >= pc_off, in [lo, hi] */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pcdesc_at(l, pcs, mid).pc_offset < pc_off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == n)
		return -ENOENT;
	*out = pcdesc_at(l, pcs, lo);
	return 0;
}

/* One scope's header at off: its sender, method and bci. */
static int scope_at(const struct nm_debug *d, int x, uint32_t off,
		    uint32_t *sender, struct nm_scope *s)
{
	size_t pos = off;
	uint32_t midx, bci;

	if (off >= d->scopes_len ||
	    nmethod__u5_read(d->scopes, d->scopes_len, &pos, x, sender) ||
	    nmethod__u5_read(d->scopes, d->scopes_len, &pos, x, &midx) ||
	    nmethod__u5_read(d->scopes, d->scopes_len, &pos, x, &bci))
		return -EINVAL;
	if (!midx || midx > d->nmeta)
		return -EINVAL; /* a Java scope always names its method */
	s->method = d->meta[midx - 1];
	s->bci = (int32_t)bci - 1;
	return s->method ? 0 : -EINVAL;
}

int nmethod__scope_chain(const struct nm_debug *d, int x, int32_t decode_off,
			 struct nm_scope *out, int max)
{
	uint32_t off = (uint32_t)decode_off, sender;
	int n = 0;

	if (decode_off < 0 || max <= 0)
		return -EINVAL;
	if (!off) {
		out[0] = (struct nm_scope){d->info.method, -1};
		return 1;
	}
	while (off) {
		if (n == max || scope_at(d, x, off, &sender, &out[n]))
			return -EINVAL;
		n++;
		off = sender;
	}
	return n;
}

int nmethod__chain_at(const struct nm_layout *l, const struct nm_debug *d,
		      uint64_t pc, struct nm_scope *out, int max)
{
	struct nm_pcdesc pd;
	int ret;

	if (pc < d->info.code_begin || pc >= d->info.code_end)
		return -ERANGE;
	/* no debug data (a native wrapper): the method itself */
	if (!d->pcs_len && !d->scopes_len) {
		if (max < 1 || !d->info.method)
			return -EINVAL;
		out[0] = (struct nm_scope){d->info.method, -1};
		return 1;
	}
	ret = nmethod__pcdesc_find(l, d->pcs, d->pcs_len,
				   (int32_t)(pc - d->info.code_begin), &pd);
	if (ret)
		return ret;
	return nmethod__scope_chain(d, l->u5_x, pd.scope_decode_offset, out,
				    max);
}

int nmethod__chain_at_return(const struct nm_layout *l,
			     const struct nm_debug *d, uint64_t ret_pc,
			     struct nm_scope *out, int max)
{
	struct nm_pcdesc pd;

	if (ret_pc < d->info.code_begin || ret_pc >= d->info.code_end)
		return -ERANGE;
	if ((d->pcs_len || d->scopes_len) &&
	    !nmethod__pcdesc_find(l, d->pcs, d->pcs_len,
				  (int32_t)(ret_pc - d->info.code_begin),
				  &pd) &&
	    pd.pc_offset == (int32_t)(ret_pc - d->info.code_begin))
		return nmethod__scope_chain(d, l->u5_x, pd.scope_decode_offset,
					    out, max);
	/* no PcDesc of its own: a call without debug info (a leaf runtime
	 * call, an intrinsic's stub), whose scope is not recorded; the
	 * next PcDesc may be another inlined method's (a bimorphic call's
	 * other branch): the nmethod's method alone is sure */
	if (max < 1 || !d->info.method)
		return -EINVAL;
	out[0] = (struct nm_scope){d->info.method, -1};
	return 1;
}
