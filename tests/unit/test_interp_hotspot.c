/*
 * hotspot.c's pure parts: the VMStructs walk over fake tables laid out in
 * our own memory (read through a memcpy "target"), Symbol reading, and
 * frame names. The live-JVM path is covered by tests/integration/interp_*.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include "check.h"
#include "hotspot.h"

/* The entry layouts HotSpot uses (vmStructs.hpp), as a JVM would export. */
struct vmstruct_entry {
	const char *type, *field, *type_string;
	int32_t is_static;
	uint64_t offset;
	void *address;
};
struct vmtype_entry {
	const char *type, *superclass;
	int32_t is_oop, is_int, is_unsigned;
	uint64_t size;
};

static int local_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx;
	memcpy(buf, (const void *)(uintptr_t)addr, len);
	return 0;
}

/* Fake stub queue and its static owner. */
static struct {
	uint64_t pad;
	uint64_t stub_buffer;
	int32_t buffer_limit;
} queue = {0, 0x7f0000001000ULL, 0x18000};
static void *interp_code = &queue;

/*
 * The table's names as a JVM's read-only data holds them: readable well
 * past their NUL (hotspot.c reads a name in one go, as many bytes as its
 * buffer takes), so the memcpy target never reads past an object.
 */
#define S(str) ((const char[128]){str})

static struct vmstruct_entry structs[] = {
    {S("Klass"), S("_name"), S("Symbol*"), 0, 24, NULL},
    {S("Method"), S("_constMethod"), S("ConstMethod*"), 0, 8, NULL},
    {S("Method"), S("_flags"), S("u2"), 0, 40, NULL},
    {S("ConstMethod"), S("_constants"), S("ConstantPool*"), 0, 8, NULL},
    {S("ConstMethod"), S("_name_index"), S("u2"), 0, 36, NULL},
    {S("ConstantPool"), S("_pool_holder"), S("InstanceKlass*"), 0, 24, NULL},
    {S("Symbol"), S("_length"), S("u2"), 0, 4, NULL},
    {S("Symbol"), S("_body"), S("u1"), 0, 6, NULL},
    {S("AbstractInterpreter"), S("_code"), S("StubQueue*"), 1, 0, &interp_code},
    {S("StubQueue"), S("_stub_buffer"), S("address"), 0, 8, NULL},
    {S("StubQueue"), S("_buffer_limit"), S("int"), 0, 16, NULL},
    {NULL, NULL, NULL, 0, 0, NULL},
};
static struct vmtype_entry types[] = {
    {S("Method"), S("Metadata"), 0, 0, 0, 88},
    {S("ConstantPool"), S("Metadata"), 0, 0, 0, 72},
    {NULL, NULL, 0, 0, 0, 0},
};

static struct vmstruct_entry *structs_p = structs;
static struct vmtype_entry *types_p = types;
static uint64_t s_type = offsetof(struct vmstruct_entry, type),
		s_field = offsetof(struct vmstruct_entry, field),
		s_static = offsetof(struct vmstruct_entry, is_static),
		s_offset = offsetof(struct vmstruct_entry, offset),
		s_address = offsetof(struct vmstruct_entry, address),
		s_stride = sizeof(struct vmstruct_entry),
		t_type = offsetof(struct vmtype_entry, type),
		t_size = offsetof(struct vmtype_entry, size),
		t_stride = sizeof(struct vmtype_entry);

static void syms_of(uint64_t syms[HS_NR_SYMS])
{
	syms[HS_STRUCTS] = (uintptr_t)&structs_p;
	syms[HS_S_TYPE] = (uintptr_t)&s_type;
	syms[HS_S_FIELD] = (uintptr_t)&s_field;
	syms[HS_S_STATIC] = (uintptr_t)&s_static;
	syms[HS_S_OFFSET] = (uintptr_t)&s_offset;
	syms[HS_S_ADDRESS] = (uintptr_t)&s_address;
	syms[HS_S_STRIDE] = (uintptr_t)&s_stride;
	syms[HS_TYPES] = (uintptr_t)&types_p;
	syms[HS_T_TYPE] = (uintptr_t)&t_type;
	syms[HS_T_SIZE] = (uintptr_t)&t_size;
	syms[HS_T_STRIDE] = (uintptr_t)&t_stride;
}

static void test_layout(void)
{
	static const char renamed[128] = "_name_renamed";
	const char *name = structs[0].field;
	struct hotspot_mem m = {local_read, NULL};
	struct hotspot_layout l = {};
	uint64_t syms[HS_NR_SYMS];

	syms_of(syms);
	CHECK_INT(hotspot__layout_read(&m, syms, &l), 0);
	CHECK_INT(l.off_const_method, 8);
	CHECK_INT(l.off_constants, 8);
	CHECK_INT(l.off_name_index, 36);
	CHECK_INT(l.off_pool_holder, 24);
	CHECK_INT(l.off_klass_name, 24);
	CHECK_INT(l.off_sym_length, 4);
	CHECK_INT(l.off_sym_body, 6);
	CHECK_INT(l.cp_size, 72);
	CHECK(l.interp_start == 0x7f0000001000ULL);
	CHECK(l.interp_end == 0x7f0000001000ULL + 0x18000);

	/* a JVM still starting: no interpreter yet */
	interp_code = NULL;
	CHECK_INT(hotspot__layout_read(&m, syms, &l), -EAGAIN);
	interp_code = &queue;

	/* a field we need is missing: not a layout we know */
	structs[0].field = renamed;
	CHECK_INT(hotspot__layout_read(&m, syms, &l), -ENOENT);
	structs[0].field = name;
}

/* A Symbol as HotSpot lays it out: u4 hash/refcount, u2 length, body. */
struct fake_symbol {
	uint32_t hash;
	uint16_t length;
	char body[32];
} __attribute__((packed));

static void test_symbol(void)
{
	struct hotspot_mem m = {local_read, NULL};
	struct hotspot_layout l = {.off_sym_length = 4, .off_sym_body = 6};
	struct fake_symbol s = {1, 9, "java/Foo;junk"}, bad = {1, 3, "a\nb"},
			   empty = {1, 0, ""};
	char buf[16];

	CHECK_INT(hotspot__symbol(&m, &l, (uintptr_t)&s, buf, sizeof(buf)), 9);
	CHECK_STR(buf, "java/Foo;");
	CHECK_INT(hotspot__symbol(&m, &l, (uintptr_t)&s, buf, 9), -EINVAL);
	CHECK_INT(hotspot__symbol(&m, &l, (uintptr_t)&bad, buf, sizeof(buf)),
		  -EINVAL);
	CHECK_INT(hotspot__symbol(&m, &l, (uintptr_t)&empty, buf, sizeof(buf)),
		  -EINVAL);
	CHECK_INT(hotspot__symbol(&m, &l, 0, buf, sizeof(buf)), -EFAULT);
}

/* The identity hash is the upper half of _hash_and_refcount. */
static void test_symbol_hash(void)
{
	struct hotspot_mem m = {local_read, NULL};
	struct hotspot_layout l = {.off_sym_length = 4, .off_sym_body = 6};
	struct fake_symbol s = {0xbeef0003, 3, "Foo"};
	char buf[16];
	int32_t hash = 7;

	CHECK_INT(hotspot__symbol_hash(&m, &l, (uintptr_t)&s, buf, sizeof(buf),
				       &hash),
		  3);
	CHECK_INT(hash, 0xbeef);
	s.hash = 0xbeef0fff; /* the refcount half changes nothing */
	hotspot__symbol_hash(&m, &l, (uintptr_t)&s, buf, sizeof(buf), &hash);
	CHECK_INT(hash, 0xbeef);
	l.off_sym_hash = HOTSPOT_NO_OFF;
	CHECK_INT(hotspot__symbol_hash(&m, &l, (uintptr_t)&s, buf, sizeof(buf),
				       &hash),
		  3);
	CHECK_INT(hash, -1);
}

static void test_names(void)
{
	char out[64];

	CHECK_INT(hotspot__frame_name(out, sizeof(out), "java/lang/String",
				      "hashCode"),
		  25);
	CHECK_STR(out, "java/lang/String.hashCode");
	/* hidden classes lose their address, as the agent's names do */
	hotspot__frame_name(out, sizeof(out),
			    "Ratio$$Lambda$14+0x0000000800c01234", "run");
	CHECK_STR(out, "Ratio$$Lambda$14.run");
	hotspot__frame_name(out, sizeof(out), "Foo$$Lambda/0x00007f00", "get");
	CHECK_STR(out, "Foo$$Lambda.get");
	hotspot__frame_name(out, sizeof(out), "p/Outer$Inner", "<init>");
	CHECK_STR(out, "p/Outer$Inner.<init>");
	/* "0x" that is not a hidden-class suffix stays */
	hotspot__frame_name(out, sizeof(out), "p/A0x", "m");
	CHECK_STR(out, "p/A0x.m");
	CHECK_INT(hotspot__frame_name(out, 8, "p/Long", "method"), -ENOSPC);
}

int main(void)
{
	test_layout();
	test_symbol();
	test_symbol_hash();
	test_names();
	printf("%d checks, %d failed\n", check_count, check_failed);
	return check_failed != 0;
}
