// SPDX-License-Identifier: GPL-2.0
/* perfcount: a HotSpot PerfData counter's address (perfcount.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "perfcount.h"

/* PerfData's region: 64 KB by default (-XX:PerfDataMemorySize) */
#define PERF_MAX_BYTES (1u << 20)
#define PERF_MAX_ENTRIES 10000

/* a PerfData scalar long: data_type 'J', vector_length 0 */
#define PERF_TYPE_LONG 'J'

/* The offsets of the prologue and entry fields perfcount reads. */
struct perf_offs {
	uint64_t used, entry_offset, num_entries;
	uint64_t entry_length, name_offset, vector_length, data_type,
	    data_offset;
};

static int offs_of(const struct vmstructs *vs, struct perf_offs *o)
{
	const struct {
		const char *type, *field;
		uint64_t *out;
	} f[] = {
	    {"PerfDataPrologue", "used", &o->used},
	    {"PerfDataPrologue", "entry_offset", &o->entry_offset},
	    {"PerfDataPrologue", "num_entries", &o->num_entries},
	    {"PerfDataEntry", "entry_length", &o->entry_length},
	    {"PerfDataEntry", "name_offset", &o->name_offset},
	    {"PerfDataEntry", "vector_length", &o->vector_length},
	    {"PerfDataEntry", "data_type", &o->data_type},
	    {"PerfDataEntry", "data_offset", &o->data_offset},
	};

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (vmstructs__field(vs, f[i].type, f[i].field, f[i].out))
			return -ENOENT;
	return 0;
}

/* A jint at off of buf (len bytes), or -1 when it lies outside. */
static int32_t s32_at(const uint8_t *buf, uint64_t len, uint64_t off)
{
	int32_t v;

	if (off > len || len - off < sizeof(v))
		return -1;
	memcpy(&v, buf + off, sizeof(v));
	return v;
}

/* The entry at e of the region buf (len): its data's offset in buf if it
 * is the scalar long name, else 0. */
static uint64_t entry_match(const uint8_t *buf, uint64_t len, uint64_t e,
			    int32_t elen, const struct perf_offs *o,
			    const char *name)
{
	size_t n = strlen(name);
	int32_t no = s32_at(buf, len, e + o->name_offset);
	int32_t vl = s32_at(buf, len, e + o->vector_length);
	int32_t dof = s32_at(buf, len, e + o->data_offset);

	if (no <= 0 || dof <= 0 || vl != 0 ||
	    (uint64_t)no + n + 1 > (uint64_t)elen ||
	    (uint64_t)dof + 8 > (uint64_t)elen || e + o->data_type >= len ||
	    buf[e + o->data_type] != PERF_TYPE_LONG)
		return 0;
	if (memcmp(buf + e + no, name, n + 1))
		return 0;
	return e + (uint64_t)dof;
}

int perfcount__find(const struct vmstructs *vs, const struct hotspot_mem *m,
		    const char *name, uint64_t *addr)
{
	struct perf_offs o;
	uint64_t pa, pro, off, at = 0;
	int32_t used, first, num, elen;
	uint8_t *buf, head[64];

	if (offs_of(vs, &o) ||
	    vmstructs__field(vs, "PerfMemory", "_prologue", &pa) ||
	    m->read(m->ctx, pa, &pro, sizeof(pro)) || !pro ||
	    m->read(m->ctx, pro, head, sizeof(head)))
		return -ENOENT;
	used = s32_at(head, sizeof(head), o.used);
	first = s32_at(head, sizeof(head), o.entry_offset);
	num = s32_at(head, sizeof(head), o.num_entries);
	if (used <= 0 || (uint32_t)used > PERF_MAX_BYTES || first <= 0 ||
	    first >= used || num <= 0 || num > PERF_MAX_ENTRIES)
		return -ENOENT;
	buf = malloc(used);
	if (!buf)
		return -ENOMEM;
	if (m->read(m->ctx, pro, buf, used)) {
		free(buf);
		return -ENOENT;
	}
	off = first;
	for (int32_t i = 0; i < num && !at; i++) {
		elen = s32_at(buf, used, off + o.entry_length);
		if (elen <= 0 || (uint64_t)elen > used - off)
			break;
		at = entry_match(buf, used, off, elen, &o, name);
		off += elen;
	}
	free(buf);
	if (!at)
		return -ENOENT;
	*addr = pro + at;
	return 0;
}
