// SPDX-License-Identifier: GPL-2.0
/*
 * jlines: bci -> source line from a method's compressed line number
 * table (see jlines.h). Flags and names: JDK 17 ConstMethod::_flags (u2)
 * with ConstMethod::_has_linenumber_table; JDK 21+ ConstMethod::
 * _flags._flags (u4) with ConstMethodFlags::_misc_has_linenumber_table.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "jlines.h"
#include "nmethod.h"

static int32_t decode_sign(uint32_t v)
{
	return (int32_t)(v >> 1) ^ -(int32_t)(v & 1);
}

/* A failed escape: the buffer ended inside it (-E2BIG: read more), or it
 * holds an excluded byte (-EINVAL). */
static int cut_short(const uint8_t *buf, size_t len, size_t from, int x)
{
	for (size_t i = from; i < len; i++)
		if (buf[i] < x)
			return -EINVAL;
	return -E2BIG;
}

int jline__decode(const uint8_t *buf, size_t len, int x, int bci)
{
	int64_t cur_bci = 0, cur_line = 0;
	int line = -ENOENT;
	size_t pos = 0;
	uint32_t a, b;

	if (bci < 0)
		bci = 0;
	/* each pass eats at least one byte: at most len passes */
	while (pos < len) {
		uint8_t next = buf[pos++];

		if (!next)
			return line;
		if (next == 0xff) {
			size_t esc = pos;

			if (nmethod__u5_read(buf, len, &pos, x, &a) ||
			    nmethod__u5_read(buf, len, &pos, x, &b))
				return cut_short(buf, len, esc, x);
			cur_bci += decode_sign(a);
			cur_line += decode_sign(b);
		} else {
			cur_bci += next >> 3;
			cur_line += next & 7;
		}
		if (cur_bci < 0 || cur_bci > 65535 || cur_line <= 0 ||
		    cur_line > INT32_MAX)
			return -EINVAL;
		if (cur_bci <= bci)
			line = (int)cur_line; /* entries are in bci order */
	}
	return -E2BIG;
}

static int need(const struct vmstructs *vs, const char *t, const char *f,
		uint32_t *out)
{
	uint64_t v;

	if (vmstructs__field(vs, t, f, &v) || v > 4096)
		return -ENOENT;
	*out = (uint32_t)v;
	return 0;
}

int jline_layout__init(struct jline_layout *jl, const struct vmstructs *vs,
		       int u5_x)
{
	int64_t bit;

	memset(jl, 0, sizeof(*jl));
	jl->x = u5_x;
	jl->cm_size = vmstructs__type_size(vs, "ConstMethod");
	if (need(vs, "Method", "_constMethod", &jl->off_const_method) ||
	    need(vs, "ConstMethod", "_code_size", &jl->off_code_size) ||
	    !jl->cm_size || jl->cm_size > 4096)
		return -ENOENT;
	if (!need(vs, "ConstMethod", "_flags._flags", &jl->off_flags)) {
		jl->flags_size = 4;
		if (vmstructs__constant(
			vs, "ConstMethodFlags::_misc_has_linenumber_table",
			&bit))
			return -ENOENT;
	} else if (!need(vs, "ConstMethod", "_flags", &jl->off_flags)) {
		jl->flags_size = 2;
		if (vmstructs__constant(
			vs, "ConstMethod::_has_linenumber_table", &bit))
			return -ENOENT;
	} else {
		return -ENOENT;
	}
	if (bit <= 0 || bit > 0xffff)
		return -ENOENT;
	jl->has_table = (uint32_t)bit;
	return 0;
}

/* Read [addr, addr + len), or as much of it as lies in its first pages. */
static int rd_some(const struct hotspot_mem *m, uint64_t addr, uint8_t *buf,
		   size_t *len)
{
	size_t page_left = 4096 - (addr & 4095);

	if (!m->read(m->ctx, addr, buf, *len))
		return 0;
	if (page_left >= *len || m->read(m->ctx, addr, buf, page_left))
		return -EFAULT;
	*len = page_left;
	return 0;
}

int jline__at(const struct hotspot_mem *m, const struct jline_layout *jl,
	      uint64_t method, int bci)
{
	static const size_t tries[] = {256, 4096, 65536};
	uint8_t hdr[4096], *buf = NULL;
	uint64_t cm;
	uint32_t flags = 0;
	uint16_t code_size;
	int ret = -EINVAL;

	if (!method || m->read(m->ctx, method + jl->off_const_method, &cm, 8) ||
	    !cm || m->read(m->ctx, cm, hdr, jl->cm_size))
		return -EFAULT;
	memcpy(&flags, hdr + jl->off_flags, jl->flags_size);
	if (!(flags & jl->has_table))
		return -ENOENT;
	memcpy(&code_size, hdr + jl->off_code_size, 2);
	for (size_t i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		size_t len = tries[i];
		uint8_t *p = i ? (buf = realloc(buf, len)) : hdr;

		if (!p) {
			ret = -ENOMEM;
			break;
		}
		if (rd_some(m, cm + jl->cm_size + code_size, p, &len)) {
			ret = -EFAULT;
			break;
		}
		ret = jline__decode(p, len, jl->x, bci);
		if (ret != -E2BIG || len < tries[i])
			break;
	}
	free(buf);
	return ret;
}
