// SPDX-License-Identifier: GPL-2.0
/*
 * cfi.c: CIEs, FDEs and their encodings (cfi.h). Each read checks the
 * section's end first: a hostile file's lengths and pointers lead
 * nowhere outside it.
 */
#include <endian.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include "cfi.h"

#define DW_CIE_ID_64 UINT64_MAX
#define PE_OMIT 0xff
#define PE_INDIRECT 0x80
#define ADDR_SIZE 8 /* x86-64 */

/* n (4 or 8, else up to 8) little-endian bytes at p */
static __u64 get_le(const __u8 *p, int n)
{
	__u32 v4;
	__u64 v = 0;

	if (n == 4) {
		memcpy(&v4, p, 4);
		return le32toh(v4);
	}
	if (n == 8) {
		memcpy(&v, p, 8);
		return le64toh(v);
	}
	while (n--)
		v = v << 8 | p[n];
	return v;
}

/*
 * The first up to cap bytes of a LEB128 number at *pp (at least one,
 * even past end, as libdw reads; none at or past hard: *bad). Returns
 * whether its last byte came within them, with the value's bits in
 * *acc, the bytes read in *n and the last byte in *last; *pp moved past.
 */
static bool leb_head(const __u8 **pp, const __u8 *end, const __u8 *hard,
		     bool *bad, size_t cap, __u64 *acc, size_t *n, __u8 *last)
{
	const __u8 *p = *pp;
	size_t max = p < end ? (size_t)(end - p) : 0, i;

	*acc = 0;
	*n = 0;
	if (p >= hard) {
		*bad = true;
		return false;
	}
	if (max > cap)
		max = cap;
	for (i = 0; i == 0 || i < max; i++) {
		*last = *p++;
		*acc |= (__u64)(*last & 0x7f) << (7 * i);
		if (!(*last & 0x80)) {
			*pp = p;
			*n = i + 1;
			return true;
		}
	}
	*pp = p;
	*n = i;
	return false;
}

__u64 cfi__uleb(const __u8 **pp, const __u8 *end, const __u8 *hard, bool *bad)
{
	const __u8 *start = *pp;
	size_t n;
	__u64 acc;
	__u8 b;

	if (leb_head(pp, end, hard, bad, 10, &acc, &n, &b))
		return acc;
	return *pp == start ? 0 : UINT64_MAX;
}

__s64 cfi__sleb(const __u8 **pp, const __u8 *end, const __u8 *hard, bool *bad)
{
	const __u8 *p, *start = *pp;
	size_t n, max;
	__u64 acc;
	__u8 b;

	/* one step less than uleb: not into the sign bit */
	if (leb_head(pp, end, hard, bad, 9, &acc, &n, &b)) {
		if (b & 0x40)
			acc |= -((__u64)1 << (7 * n));
		return (__s64)acc;
	}
	if (*pp == start)
		return 0; /* at or past hard */
	p = *pp;
	/* the head's cap, not its count: at end it read one byte anyway */
	max = start < end ? (size_t)(end - start) : 0;
	if (max > 9)
		max = 9;
	if (p == end || p >= hard) { /* libdw reads on past end, not hard */
		*bad |= p >= hard && p != end;
		return p == end ? INT64_MAX : 0;
	}
	b = *p++;
	*pp = p;
	if (b & 0x80)
		return INT64_MAX;
	return (__s64)(acc | (__u64)b << (7 * max));
}

/* The size of a pointer in encoding enc (libdw's encoded_value_size,
 * its uleb128 case included: the bytes up to the first with the high
 * bit set). */
static size_t enc_size(const struct cfi *c, __u8 enc, const __u8 *p)
{
	const __u8 *q = p;

	if (enc == PE_OMIT)
		return 0;
	switch (enc & 0x07) {
	case 0x02:
		return 2;
	case 0x03:
		return 4;
	case 0x04:
	case 0x00:
		return 8;
	case 0x01:
		if (!p)
			return 0;
		while (q < c->buf + c->size)
			if (*q++ & 0x80)
				return (size_t)(q - p);
		return 0;
	default:
		return 0;
	}
}

/* off bytes at position pos of the section: all inside it? */
static bool fits(const struct cfi *c, size_t pos, size_t n)
{
	return pos <= c->size && n <= c->size - pos;
}

/* The value part of a pointer at section position *pos. */
static int pointer_value(const struct cfi *c, __u8 enc, size_t *pos, __u64 *v)
{
	const __u8 *p, *end = c->buf + c->size;
	static const __u8 width[16] = {8, 0, 2, 4, 8, 0, 0, 0,
				       0, 0, 2, 4, 8, 0, 0, 0};
	bool bad = false;
	int w = width[enc & 0x0f];

	if ((enc & 0x0f) == 0x01 || (enc & 0x0f) == 0x09) {
		if (*pos >= c->size)
			return -EINVAL;
		p = c->buf + *pos;
		*v = (enc & 0x0f) == 0x01
			 ? cfi__uleb(&p, end, end, &bad)
			 : (__u64)cfi__sleb(&p, end, end, &bad);
		*pos = (size_t)(p - c->buf);
		return bad ? -EINVAL : 0;
	}
	if (!w || !fits(c, *pos, (size_t)w))
		return -EINVAL;
	*v = get_le(c->buf + *pos, w);
	if ((enc & 0x0f) == 0x0a)
		*v = (__u64)(__s64)(__s16)*v;
	else if ((enc & 0x0f) == 0x0b)
		*v = (__u64)(__s64)(__s32)*v;
	*pos += (size_t)w;
	return 0;
}

int cfi__pointer(const struct cfi *c, __u8 enc, const __u8 **p, __u64 *out)
{
	size_t pos = (size_t)(*p - c->buf), size;
	__u64 base = 0, v, at;

	if ((enc == 0x1b || enc == 0x0b) && fits(c, pos, 4)) {
		/* GCC's pcrel sdata4 start and sdata4 length, first */
		*out = (enc == 0x1b ? c->vaddr + pos : 0) +
		       (__u64)(__s64)(__s32)get_le(*p, 4);
		*p += 4;
		return 0;
	}
	switch (enc & 0x70) {
	case 0x00: /* absptr */
	case 0x40: /* funcrel: libdw adds nothing */
		break;
	case 0x10: /* pcrel */
		base = c->vaddr + pos;
		break;
	case 0x20: /* textrel: 0 in libdw */
		break;
	case 0x30:
		base = c->datarel;
		break;
	case 0x50: /* aligned */
		size = enc_size(c, enc, *p);
		if (!size)
			return -EINVAL;
		at = (c->vaddr + pos) & (size - 1);
		if (at)
			pos += size - at;
		break;
	default:
		return -EINVAL;
	}
	if (pointer_value(c, enc, &pos, &v))
		return -EINVAL;
	*out = base + v;
	*p = c->buf + pos;
	if (!(enc & PE_INDIRECT))
		return 0;
	if (*out < c->vaddr || !fits(c, *out - c->vaddr, ADDR_SIZE))
		return -EINVAL;
	*out = get_le(c->buf + (*out - c->vaddr), ADDR_SIZE);
	return 0;
}

/* The entry at off, a CIE's contents unchecked. */
static int entry_raw(const struct cfi *c, __u64 off, struct cfi_entry *e)
{
	const __u8 *p, *lim, *id_at;
	__u64 len, id, pos;
	size_t osz = 4;

	if (off >= c->size || c->size - off <= 4)
		return 1;
	p = c->buf + off;
	lim = c->buf + c->size;
	len = get_le(p, 4);
	p += 4;
	if (len == 0xffffffff) { /* 64-bit DWARF */
		osz = 8;
		if (lim - p < 8)
			return -EINVAL;
		len = get_le(p, 8);
		p += 8;
	}
	if (!len)
		return 1; /* a terminator */
	if ((__u64)(lim - p) < len || len < osz + 1)
		return -EINVAL;
	e->off = off;
	e->next = off + (2 * osz - 4) + len;
	lim = p + len;
	id_at = p;
	id = get_le(p, (int)osz);
	p += osz;
	if (!c->eh && osz == 4 && id == 0xffffffff)
		id = DW_CIE_ID_64;
	if (c->eh && !id) {
		id = DW_CIE_ID_64;
	} else if (c->eh) { /* the distance back to the CIE */
		pos = (__u64)(id_at - c->buf);
		if (id > pos || pos <= osz)
			return -EINVAL;
		id = pos - id;
	}
	e->is_cie = id == DW_CIE_ID_64;
	e->cie_off = e->is_cie ? off : id;
	e->body = p;
	e->end = lim;
	return 0;
}

/*
 * What dwarf_next_cfi checks of a CIE: version, augmentation string,
 * factors, augmentation data. *aug: its augmentation string; *data: its
 * augmentation data; cie->insns: its initial instructions.
 */
static int cie_header(const struct cfi *c, const struct cfi_entry *e,
		      struct cfi_cie *cie, const char **aug, const __u8 **data)
{
	const __u8 *p = e->body, *lim = e->end, *hard = c->buf + c->size, *z;
	const char *ap;
	__u8 version = *p++, enc;
	bool bad = false;
	__u64 aug_size;
	size_t n;

	if (version != 1 && (version < 3 || version > 4))
		return -EINVAL;
	*aug = ap = (const char *)p;
	z = memchr(p, 0, (size_t)(lim - p));
	if (!z)
		return -EINVAL;
	p = z + 1;
	if (version >= 4) {
		if (lim - p < 5 || p[0] != ADDR_SIZE || p[1] != 0)
			return -EINVAL;
		p += 2;
	}
	if (ap[0] == 'e' && ap[1] == 'h') { /* g++ 2's pointer first */
		ap += 2;
		p += lim - p < ADDR_SIZE ? lim - p : ADDR_SIZE;
	}
	if (p >= lim)
		return -EINVAL;
	cie->code_align = cfi__uleb(&p, lim, hard, &bad);
	if (p >= lim)
		return -EINVAL;
	cie->data_align = cfi__sleb(&p, lim, hard, &bad);
	if (p >= lim || bad)
		return -EINVAL;
	if (version >= 3)
		cfi__uleb(&p, lim, hard, &bad); /* the return address column */
	else
		p++;
	*data = p;
	cie->insns = p;
	cie->insns_end = lim;
	if (*ap != 'z')
		return bad || p > lim ? -EINVAL : 0;
	if (p >= lim)
		return -EINVAL;
	aug_size = cfi__uleb(&p, lim, hard, &bad);
	if (bad || p > lim || (__u64)(lim - p) < aug_size)
		return -EINVAL;
	*data = p;
	z = p + aug_size;
	cie->insns = z;
	for (ap++; *ap; ap++) { /* what it says must lie in the data */
		if (*ap == 'S')
			continue;
		if (*ap != 'L' && *ap != 'R' && *ap != 'P')
			break;
		if (p >= z)
			return -EINVAL;
		enc = *p++;
		n = *ap == 'P' ? enc_size(c, enc, p) : 0;
		if (n > (size_t)(z - p))
			return -EINVAL;
		p += n;
	}
	return 0;
}

int cfi__entry(const struct cfi *c, __u64 off, struct cfi_entry *e)
{
	struct cfi_cie cie;
	const char *aug;
	const __u8 *data;
	int r = entry_raw(c, off, e);

	if (!r && e->is_cie && cie_header(c, e, &cie, &aug, &data))
		return -EINVAL;
	return r;
}

int cfi__cie(const struct cfi *c, __u64 off, struct cfi_cie *cie)
{
	struct cfi_entry e;
	const char *ap;
	const __u8 *data, *lim;
	size_t n;
	__u8 enc;

	if (entry_raw(c, off, &e) || !e.is_cie ||
	    cie_header(c, &e, cie, &ap, &data))
		return -EINVAL;
	lim = e.end;
	cie->fde_aug_size = 0;
	cie->sized_aug = cie->signal = false;
	cie->fde_enc = 0; /* absptr */
	/* libdw's reading of the whole string ('eh' too) over the data */
	for (; *ap; ap++) {
		switch (*ap) {
		case 'z':
			cie->sized_aug = true;
			continue;
		case 'S':
			cie->signal = true;
			continue;
		case 'L':
		case 'R':
		case 'P':
			if (data >= lim)
				return -EINVAL;
			enc = *data++;
			if (*ap == 'L' && !cie->sized_aug)
				cie->fde_aug_size += enc_size(c, enc, NULL);
			else if (*ap == 'R')
				cie->fde_enc = enc;
			n = *ap == 'P' ? enc_size(c, enc, data) : 0;
			if (n > (size_t)(lim - data))
				return -EINVAL;
			data += n;
			continue;
		default:
			if (cie->sized_aug)
				continue;
		}
		break;
	}
	if ((cie->fde_enc & 0x0f) == 0)
		cie->fde_enc |= 0x04; /* absptr: 8 bytes on x86-64 */
	return 0;
}

int cfi__fde(const struct cfi *c, const struct cfi_entry *e, struct cfi_fde *f)
{
	const __u8 *p = e->body, *hard = c->buf + c->size;
	__u64 len;
	bool bad = false;

	if (e->is_cie)
		return -ENOENT;
	if (f->cie_off != e->cie_off) {
		f->cie_off = UINT64_MAX;
		if (cfi__cie(c, e->cie_off, &f->cie))
			return -ENOENT;
		f->cie_off = e->cie_off;
	}
	if (cfi__pointer(c, f->cie.fde_enc, &p, &f->start) ||
	    cfi__pointer(c, f->cie.fde_enc & 0x0f, &p, &len))
		return -EINVAL;
	f->end = f->start + len;
	if (f->start >= f->end)
		return -ENOENT;
	f->off = e->off;
	f->insns_end = e->end;
	if (f->cie.sized_aug) {
		len = cfi__uleb(&p, e->end, hard, &bad);
		if (bad)
			return -EINVAL;
		if (p <= e->end && (__u64)(e->end - p) < len)
			return -EINVAL;
	} else {
		len = f->cie.fde_aug_size;
	}
	/* past the entry's end (libdw lets it): no instructions */
	f->insns = p < e->end && len < (__u64)(e->end - p) ? p + len : e->end;
	return 0;
}
