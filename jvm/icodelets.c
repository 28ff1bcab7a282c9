// SPDX-License-Identifier: GPL-2.0
/*
 * icodelets: the interpreter's method entries (see icodelets.h). A
 * StubQueue holds codelets back to back from _stub_buffer +
 * _queue_begin to + _queue_end, each _size bytes long (its header and
 * code); the interpreter's queue never wraps.
 */
#include "icodelets.h"
#include <errno.h>
#include <string.h>

/* more than the ~300 codelets of any interpreter we know: a bound */
#define MAX_CODELETS 4096
#define MAX_QUEUE (16u << 20)
/* what every method entry codelet's description starts with (JDK 21+
 * names the native kinds' "native method entry point (kind = ...)") */
static const char entry_desc[] = "method entry point (";
static const char native_desc[] = "native ";

static int rd(const struct hotspot_mem *m, uint64_t addr, void *buf, size_t len)
{
	return addr ? m->read(m->ctx, addr, buf, len) : -EFAULT;
}

/* Does the codelet at c describe itself as a method entry? 0 or 1; its
 * size in *size. */
static int codelet_read(const struct hotspot_mem *m,
			const struct hotspot_layout *l, uint64_t c,
			int32_t *size)
{
	char d[sizeof(native_desc) + sizeof(entry_desc)] = "";
	size_t skip = 0;
	uint64_t desc;
	int ret;

	if ((ret = rd(m, c + l->off_codelet_size, size, sizeof(*size))) ||
	    (ret = rd(m, c + l->off_codelet_desc, &desc, sizeof(desc))))
		return ret;
	if (!desc || rd(m, desc, d, sizeof(d) - 1))
		return 0; /* no description: not an entry */
	if (!memcmp(d, native_desc, sizeof(native_desc) - 1))
		skip = sizeof(native_desc) - 1;
	return !memcmp(d + skip, entry_desc, sizeof(entry_desc) - 1);
}

int icodelets__entries(const struct hotspot_mem *m,
		       const struct hotspot_layout *l, uint64_t queue,
		       uint64_t *lo, uint64_t *hi)
{
	uint64_t buf, c, end;
	int32_t qb, qe, size;
	int n, ret;

	if (l->off_queue_begin == HOTSPOT_NO_OFF ||
	    l->off_queue_end == HOTSPOT_NO_OFF ||
	    l->off_codelet_size == HOTSPOT_NO_OFF ||
	    l->off_codelet_desc == HOTSPOT_NO_OFF)
		return -ENOENT;
	if (!queue)
		return -EAGAIN;
	if ((ret = rd(m, queue + l->off_stub_buffer, &buf, sizeof(buf))) ||
	    (ret = rd(m, queue + l->off_queue_begin, &qb, sizeof(qb))) ||
	    (ret = rd(m, queue + l->off_queue_end, &qe, sizeof(qe))))
		return ret;
	if (!buf || qe <= 0)
		return -EAGAIN;
	if (qb < 0 || qb > qe || (uint32_t)qe > MAX_QUEUE)
		return -EINVAL;
	*lo = *hi = 0;
	end = buf + (uint32_t)qe;
	for (c = buf + (uint32_t)qb, n = 0; c < end && n < MAX_CODELETS;
	     c += (uint32_t)size, n++) {
		ret = codelet_read(m, l, c, &size);
		if (ret < 0)
			return ret;
		if (size <= 0 || (uint64_t)size > end - c)
			return -EINVAL;
		if (ret && !*hi)
			*lo = c;
		if (ret)
			*hi = c + (uint32_t)size;
		else if (*hi)
			break; /* the run is over: they are made together */
	}
	return *hi ? 0 : -ENOENT;
}
