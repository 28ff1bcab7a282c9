/*
 * codeblob: a pc's CodeBlob name through a fake code heap's segment map:
 * a blob found a few hops back, its name; free segments, a pc past the
 * blob's size, a map that hops too far, names that are not text, and
 * unreadable memory give errors, never a wrong name.
 */
#include <errno.h>
#include <string.h>
#include "check.h"
#include "jvm/codeblob.h"

#define LO 0x10000ULL /* the heap */
#define SEGMAP 0x1000ULL
#define NAME 0x2000ULL
#define SEG 6 /* 64-byte segments */
#define IMG 0x20000

static uint8_t img[IMG];

static int rd(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx;
	if (addr >= IMG || len > IMG - addr)
		return -EFAULT;
	memcpy(buf, img + addr, len);
	return 0;
}

static const struct hotspot_mem mem = {rd, NULL};

static struct hotspot_unwind layout(void)
{
	struct hotspot_unwind u = {.ok = true, .nheaps = 1};

	u.heap[0] = (struct hotspot_heap){LO, LO + 0x1000, SEGMAP, SEG};
	u.hb_size = 16;
	u.off_cb_size = 8;
	u.off_cb_name = 16;
	return u;
}

/* a blob in segments [first, first + n): its header after the block's */
static void put_blob(int first, int n, int32_t size, uint64_t name)
{
	uint64_t b = LO + ((uint64_t)first << SEG) + 16;

	for (int i = 0; i < n; i++)
		img[SEGMAP + first + i] = i < 254 ? i : 254;
	memcpy(img + b + 8, &size, 4);
	memcpy(img + b + 16, &name, 8);
}

int main(void)
{
	struct hotspot_unwind u = layout();
	char buf[64];

	memset(img + SEGMAP, 0xff, 64);
	strcpy((char *)img + NAME, "StubRoutines (1)");
	put_blob(2, 5, 4 * 64, NAME);
	/* the blob's first segment, and its last one within its size */
	CHECK_INT(codeblob__name(&mem, &u, LO + 2 * 64 + 40, buf, sizeof(buf)),
		  16);
	CHECK_STR(buf, "StubRoutines (1)");
	CHECK_INT(codeblob__name(&mem, &u, LO + 5 * 64 + 8, buf, sizeof(buf)),
		  16);
	/* past its size (in the block), a free segment, outside the heap */
	CHECK_INT(codeblob__name(&mem, &u, LO + 6 * 64 + 40, buf, sizeof(buf)),
		  -ENOENT);
	CHECK_INT(codeblob__name(&mem, &u, LO + 10 * 64, buf, sizeof(buf)),
		  -ENOENT);
	CHECK_INT(codeblob__name(&mem, &u, LO - 1, buf, sizeof(buf)), -ENOENT);
	/* a hop past the heap's start */
	img[SEGMAP + 12] = 13;
	CHECK_INT(codeblob__name(&mem, &u, LO + 12 * 64, buf, sizeof(buf)),
		  -ENOENT);
	/* a chain of hops longer than CODEBLOB_HOPS */
	for (int i = 0; i < 40; i++)
		img[SEGMAP + 20 + i] = 1;
	img[SEGMAP + 20] = 0;
	CHECK_INT(codeblob__name(&mem, &u, LO + 59 * 64, buf, sizeof(buf)),
		  -E2BIG);
	/* a name that is not text, a name pointer to nowhere */
	put_blob(2, 5, 4 * 64, NAME + 0x100);
	img[NAME + 0x100] = 0x01;
	CHECK_INT(codeblob__name(&mem, &u, LO + 2 * 64, buf, sizeof(buf)),
		  -EINVAL);
	put_blob(2, 5, 4 * 64, 0xdead0000ULL);
	CHECK_INT(codeblob__name(&mem, &u, LO + 2 * 64, buf, sizeof(buf)),
		  -EFAULT);
	/* a name cut to the buffer */
	put_blob(2, 5, 4 * 64, NAME);
	CHECK_INT(codeblob__name(&mem, &u, LO + 2 * 64, buf, 5), 4);
	CHECK_STR(buf, "Stub");
	/* a name that ends near the end of readable memory */
	strcpy((char *)img + IMG - 4, "abc");
	put_blob(2, 5, 4 * 64, IMG - 4);
	CHECK_INT(codeblob__name(&mem, &u, LO + 2 * 64, buf, sizeof(buf)), 3);
	CHECK_STR(buf, "abc");
	return check_report();
}
