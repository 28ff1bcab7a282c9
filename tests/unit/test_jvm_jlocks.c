/*
 * jlocks.c's search of vmClasses::_klasses for AbstractOwnableSynchronizer
 * over fake Klasses and Symbols in our own memory, read as
 * process_vm_readv reads a JVM's (an unmapped page ends the array's
 * neighbourhood); the owner and class marks of lock.h. The live JVM
 * parts: tests/integration/lock_split.sh on both JDKs.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>
#include "check.h"
#include "selfmem.h"
#include "jvm/jlocks.h"

#define AOS "java/util/concurrent/locks/AbstractOwnableSynchronizer"

struct fake_symbol {
	uint16_t len;
	uint8_t pad[6];
	char body[120];
};

struct fake_klass {
	uint64_t other;
	uint64_t name; /* Klass::_name */
};

static void set_symbol(struct fake_symbol *s, const char *text)
{
	s->len = (uint16_t)strlen(text);
	memcpy(s->body, text, s->len);
}

static void test_aos(void)
{
	const struct hotspot_mem m = {self_read, NULL};
	struct hotspot_layout hl = {
	    .off_klass_name = 8,
	    .off_sym_length = 0,
	    .off_sym_body = 8,
	    .off_sym_hash = HOTSPOT_NO_OFF,
	};
	long pg = sysconf(_SC_PAGESIZE);
	uint8_t *map = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	static struct fake_symbol obj, longer, aos;
	static struct fake_klass k_obj, k_longer, k_aos, k_bad;
	uint64_t *klasses;

	CHECK(map != MAP_FAILED);
	if (map == MAP_FAILED)
		return;
	mprotect(map + pg, pg, PROT_NONE);
	set_symbol(&obj, "java/lang/Object");
	set_symbol(&longer, AOS "X");
	set_symbol(&aos, AOS);
	k_obj.name = (uintptr_t)&obj;
	k_longer.name = (uintptr_t)&longer;
	k_aos.name = (uintptr_t)&aos;
	k_bad.name = 8; /* unreadable: skipped */
	/* the array's last words before the unmapped page */
	klasses = (uint64_t *)(map + pg) - 6;
	klasses[0] = (uintptr_t)&k_obj;
	klasses[1] = 0; /* not loaded */
	klasses[2] = (uintptr_t)&k_bad;
	klasses[3] = (uintptr_t)&k_longer;
	klasses[4] = 12345; /* not a Klass */
	klasses[5] = (uintptr_t)&k_aos;
	CHECK(jlocks__aos_klass(&m, &hl, (uintptr_t)klasses) ==
	      (uintptr_t)&k_aos);
	/* not loaded yet: the search ends at the unmapped page, none */
	klasses[5] = 0;
	CHECK_INT(jlocks__aos_klass(&m, &hl, (uintptr_t)klasses), 0);
	CHECK_INT(jlocks__aos_klass(&m, &hl, 0), 0);
	munmap(map, 2 * pg);
}

static void test_marks(void)
{
	uint64_t k = 0x7f0012345678ULL;
	uint64_t c = LOCK_MARK(LOCK_CLASS_BASE, k),
		 o = LOCK_MARK(LOCK_OWNER_ID_BASE, 42);

	CHECK(LOCK_IS(LOCK_CLASS_BASE, c) && LOCK_VALUE(c) == k);
	CHECK(!LOCK_IS(LOCK_OWNER_BASE, c));
	CHECK(LOCK_IS(LOCK_OWNER_ID_BASE, o) && LOCK_VALUE(o) == 42);
	/* never a user or kernel address */
	CHECK(c >> 47 != 0 && c >> 47 != 0x1ffff);
}

int main(void)
{
	test_aos();
	test_marks();
	return check_report();
}
