/*
 * icodelets: the interpreter's method entries from a fake StubQueue of
 * codelets: the run of "method entry point" codelets (JDK 21+'s "native
 * method entry point" ones in it), the first run only; a layout without
 * the codelet fields, a queue not made yet, a codelet out of its queue,
 * no entry at all and unreadable memory give errors, never a range.
 */
#include <errno.h>
#include <string.h>
#include "check.h"
#include "jvm/icodelets.h"
#include "selfmem.h"

/* the fake's parts, as offsets in img: read through our own memory */
#define QUEUE 0x100 /* the StubQueue */
#define BUF 0x1000 /* its _stub_buffer */
#define DESC 0x8000 /* the descriptions */
#define IMG 0x10000

static uint8_t img[IMG];
#define AT(off) ((uint64_t)(uintptr_t)img + (off))

static const struct hotspot_mem mem = {self_read, NULL};

/* StubQueue's and InterpreterCodelet's fields where the fake has them */
static const struct hotspot_layout fake_layout = {
    .off_stub_buffer = 0,
    .off_queue_begin = 8,
    .off_queue_end = 12,
    .off_codelet_size = 0,
    .off_codelet_desc = 8,
};

static const char *const descs[] = {
    "error exits",
    "method entry point (kind = zerolocals)",
    "native method entry point (kind = native)",
    "bytecode",
    "method entry point (kind = empty)",
};

/* codelet i of n at BUF + 0x100 * i, described by descs[d[i]] */
static void put_queue(int n, const int *d)
{
	uint64_t buf = AT(BUF), desc;
	int32_t begin = 0, end = n * 0x100, size = 0x100;

	memcpy(img + QUEUE, &buf, 8);
	memcpy(img + QUEUE + 8, &begin, 4);
	memcpy(img + QUEUE + 12, &end, 4);
	for (int i = 0; i < n; i++) {
		desc = d[i] < 0 ? 0 : AT(DESC + 0x100 * d[i]);
		memcpy(img + BUF + 0x100 * i, &size, 4);
		memcpy(img + BUF + 0x100 * i + 8, &desc, 8);
	}
}

int main(void)
{
	struct hotspot_layout l = fake_layout;
	const int run[] = {0, 3, 1, 1, 2, 3, 4};
	uint64_t lo = 0, hi = 0;
	int32_t big = 0x10000;

	for (size_t i = 0; i < sizeof(descs) / sizeof(descs[0]); i++)
		strcpy((char *)img + DESC + 0x100 * i, descs[i]);
	put_queue(7, run);
	/* codelets 2 to 4: the first run, the native entry in it */
	CHECK_INT(icodelets__entries(&mem, &l, AT(QUEUE), &lo, &hi), 0);
	CHECK(lo == AT(BUF + 0x200));
	CHECK(hi == AT(BUF + 0x500));
	/* no description is no entry */
	put_queue(3, (const int[]){-1, 1, -1});
	CHECK_INT(icodelets__entries(&mem, &l, AT(QUEUE), &lo, &hi), 0);
	CHECK(lo == AT(BUF + 0x100) && hi == AT(BUF + 0x200));
	/* no entry at all */
	put_queue(2, (const int[]){0, 3});
	CHECK_INT(icodelets__entries(&mem, &l, AT(QUEUE), &lo, &hi), -ENOENT);
	/* a codelet longer than its queue */
	put_queue(2, (const int[]){0, 1});
	memcpy(img + BUF + 0x100, &big, 4);
	CHECK_INT(icodelets__entries(&mem, &l, AT(QUEUE), &lo, &hi), -EINVAL);
	/* not made yet, unreadable, a layout without the fields */
	CHECK_INT(icodelets__entries(&mem, &l, 0, &lo, &hi), -EAGAIN);
	CHECK_INT(icodelets__entries(&mem, &l, 64, &lo, &hi), -EFAULT);
	l.off_codelet_desc = HOTSPOT_NO_OFF;
	CHECK_INT(icodelets__entries(&mem, &l, AT(QUEUE), &lo, &hi), -ENOENT);
	return check_report();
}
