// SPDX-License-Identifier: GPL-2.0
/* codeblob: a code cache pc's CodeBlob name, from outside (codeblob.h). */
#include <errno.h>
#include <string.h>
#include "codeblob.h"

/* The CodeBlob holding pc in heap h: its address, or 0 and *err. */
static uint64_t blob_of(const struct hotspot_mem *m,
			const struct hotspot_unwind *u,
			const struct hotspot_heap *h, uint64_t pc, int *err)
{
	uint64_t idx = (pc - h->lo) >> h->log2_seg;
	uint8_t b;

	for (int i = 0; i < CODEBLOB_HOPS; i++) {
		if (m->read(m->ctx, h->segmap + idx, &b, 1)) {
			*err = -EFAULT;
			return 0;
		}
		if (b == 0xff || b > idx) {
			*err = -ENOENT;
			return 0;
		}
		if (!b)
			return h->lo + (idx << h->log2_seg) + u->hb_size;
		idx -= b;
	}
	*err = -E2BIG;
	return 0;
}

int codeblob__start(const struct hotspot_mem *m, const struct hotspot_unwind *u,
		    uint64_t pc, uint64_t *blob)
{
	const struct hotspot_heap *h = NULL;
	int32_t size;
	int err = 0;

	if (!u->ok)
		return -EINVAL;
	for (uint32_t i = 0; i < u->nheaps && i < HOTSPOT_MAX_HEAPS; i++)
		if (pc >= u->heap[i].lo && pc < u->heap[i].hi)
			h = &u->heap[i];
	if (!h || h->log2_seg > 30)
		return -ENOENT;
	*blob = blob_of(m, u, h, pc, &err);
	if (!*blob)
		return err;
	if (m->read(m->ctx, *blob + u->off_cb_size, &size, sizeof(size)))
		return -EFAULT;
	return size <= 0 || pc >= *blob + (uint64_t)size ? -ENOENT : 0;
}

int codeblob__name(const struct hotspot_mem *m, const struct hotspot_unwind *u,
		   uint64_t pc, char *buf, size_t cap)
{
	uint64_t blob, name;
	size_t n;
	int ret;

	if (!u->ok || cap < 2 || u->off_cb_name == HOTSPOT_NO_OFF)
		return -EINVAL;
	ret = codeblob__start(m, u, pc, &blob);
	if (ret)
		return ret;
	if (m->read(m->ctx, blob + u->off_cb_name, &name, sizeof(name)))
		return -EFAULT;
	/* a short name, read whole or in smaller steps near a page end */
	n = cap - 1 < 64 ? cap - 1 : 64;
	while (n && m->read(m->ctx, name, buf, n))
		n /= 2;
	if (!n)
		return -EFAULT;
	buf[n] = 0;
	n = strnlen(buf, n);
	buf[n] = 0;
	for (size_t i = 0; i < n; i++)
		if (buf[i] < 0x20 || buf[i] > 0x7e || buf[i] == ';')
			return -EINVAL;
	return n ? (int)n : -EINVAL;
}
