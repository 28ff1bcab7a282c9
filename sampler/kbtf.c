// SPDX-License-Identifier: GPL-2.0
/*
 * kbtf: one struct member's offset from the kernel's BTF, in one pass
 * (see kbtf.h). The format (linux/btf.h): a header, then the type records
 * (each a struct btf_type and its kind's trailing data), then the strings,
 * each of them once. The file is read a chunk at a time, never held
 * whole: 5.5 MB in one buffer cost as many page faults as the reading.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/btf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kbtf.h"

#define CHUNK (64u << 10)

struct rd {
	int fd;
	uint64_t at, n; /* the file's [at, at + n) is in b */
	uint8_t b[CHUNK];
};

/* Make the file's [off, off + len) be in r->b: 0, -EINVAL (past its end,
 * or longer than a chunk), or -errno. */
static int need(struct rd *r, uint64_t off, uint32_t len)
{
	ssize_t k;

	if (len > CHUNK)
		return -EINVAL;
	if (off >= r->at && off + len <= r->at + r->n)
		return 0;
	r->at = off;
	r->n = 0;
	while (r->n < CHUNK) {
		k = pread(r->fd, r->b + r->n, CHUNK - r->n, off + r->n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -errno;
		if (!k)
			break;
		r->n += k;
	}
	return off + len <= r->at + r->n ? 0 : -EINVAL;
}

/* The bytes after a type record's struct btf_type for its kind, or -1. */
static int64_t trailing(const struct btf_type *t)
{
	uint32_t vlen = BTF_INFO_VLEN(t->info);

	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_DATASEC:
	case 19: /* BTF_KIND_ENUM64: struct btf_enum64, 12 bytes */
		return 12ll * vlen;
	case BTF_KIND_ENUM:
	case BTF_KIND_FUNC_PROTO:
		return 8ll * vlen;
	default:
		return -1; /* a kind we do not know: its length neither */
	}
}

/*
 * The offset of the string want in the strings at [base, base + len) of
 * the file (a string starts at the section's start or after a NUL), or
 * -ENOENT. Each chunk starts a byte before its first candidate, and the
 * next one at the first candidate whose string did not fit.
 */
static int64_t str_find(struct rd *r, uint64_t base, uint32_t len,
			const char *want)
{
	uint32_t w = strlen(want) + 1, at = 0, avail, i;
	const uint8_t *c;
	uint64_t from;
	int e;

	while (at < len) {
		from = base + at - (at ? 1 : 0);
		avail = base + len - from < CHUNK ? base + len - from : CHUNK;
		if ((e = need(r, from, avail)))
			return e;
		c = r->b + (from - r->at);
		for (i = at ? 1 : 0; i + w <= avail; i++)
			if ((!i || !c[i - 1]) && !memcmp(c + i, want, w))
				return (int64_t)(from + i - base);
		if (from + avail == base + len || avail <= w)
			break;
		at = (uint32_t)(from + avail - base) - w + 1;
	}
	return -ENOENT;
}

/* The type records at [base, base + len): struct sname's field. */
static int scan(struct rd *r, uint64_t base, uint32_t len, uint32_t sname,
		uint32_t field, uint32_t *off)
{
	struct btf_member m;
	struct btf_type t;
	uint64_t at = 0;
	int64_t more;
	int e;

	while (at < len) {
		if (len - at < sizeof(t))
			return -EINVAL;
		if ((e = need(r, base + at, sizeof(t))))
			return e;
		memcpy(&t, r->b + (base + at - r->at), sizeof(t));
		more = trailing(&t);
		if (more < 0 || (uint64_t)more > len - at - sizeof(t))
			return -EINVAL;
		at += sizeof(t);
		if (BTF_INFO_KIND(t.info) == BTF_KIND_STRUCT &&
		    t.name_off == sname) {
			if ((e = need(r, base + at, more)))
				return e;
			for (uint32_t i = 0; i < BTF_INFO_VLEN(t.info); i++) {
				memcpy(&m, r->b + (base + at - r->at) + 12 * i,
				       sizeof(m));
				if (m.name_off != field)
					continue;
				/* kind_flag: a bit field's size in bits 31-24 */
				if (BTF_INFO_KFLAG(t.info) &&
				    BTF_MEMBER_BITFIELD_SIZE(m.offset))
					return -ENOENT;
				if (BTF_INFO_KFLAG(t.info))
					m.offset =
					    BTF_MEMBER_BIT_OFFSET(m.offset);
				if (m.offset % 8)
					return -ENOENT;
				*off = m.offset / 8;
				return 0;
			}
		}
		at += more;
	}
	return -ENOENT;
}

int kbtf__member_off(const char *path, const char *sname, const char *field,
		     uint32_t *off)
{
	struct rd *r = calloc(1, sizeof(*r));
	struct btf_header h;
	int64_t so, fo;
	uint64_t base;
	int ret = -ENOMEM;

	if (!r)
		return ret;
	/* the kernel's file, never a link to follow */
	r->fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (r->fd < 0) {
		ret = -errno;
		free(r);
		return ret;
	}
	ret = need(r, 0, sizeof(h));
	if (ret)
		goto out;
	memcpy(&h, r->b, sizeof(h));
	ret = -EINVAL;
	if (h.magic != BTF_MAGIC || h.version != 1 || h.hdr_len < sizeof(h))
		goto out;
	base = h.hdr_len;
	so = str_find(r, base + h.str_off, h.str_len, sname);
	fo = so < 0 ? so : str_find(r, base + h.str_off, h.str_len, field);
	ret = fo < 0 ? (int)fo
		     : scan(r, base + h.type_off, h.type_len, (uint32_t)so,
			    (uint32_t)fo, off);
out:
	close(r->fd);
	free(r);
	return ret;
}
