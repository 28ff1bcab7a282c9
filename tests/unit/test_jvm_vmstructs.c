/*
 * vmstructs.c over fake tables laid out as HotSpot exports them (in our
 * own memory, read through a memcpy "target"; then across pages of a
 * mapping with holes, read as process_vm_readv reads): fields, statics, type
 * sizes, field sizes through their C type, int and long constants; then
 * nmethod__layout_init and jline_layout__init on a JDK 17 and a JDK 25 set of
 * names, and what they refuse; perfcount__find over a fake PerfData region
 * (HotSpot's perfMemory.hpp layout) and what it refuses.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>
#include "check.h"
#include "selfmem.h"
#include "jvm/jlines.h"
#include "jvm/jnamer.h"
#include "jvm/nmethod.h"
#include "jvm/perfcount.h"
#include "jvm/vmstructs.h"

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
struct int_entry {
	const char *name;
	int32_t value;
};
struct long_entry {
	const char *name;
	uint64_t value;
};

/*
 * The tables' names are short literals that the reader reads 80 bytes
 * at a time, as process_vm_readv lets it do in a JVM: a byte copy the
 * address sanitizer does not watch, so the test also runs under it.
 */
__attribute__((no_sanitize("address"))) static int
local_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	const volatile uint8_t *p = (const volatile uint8_t *)(uintptr_t)addr;
	uint8_t *q = buf;

	(void)ctx;
	if (!addr)
		return -EFAULT;
	for (size_t i = 0; i < len; i++)
		q[i] = p[i];
	return 0;
}
static const struct hotspot_mem mem = {local_read, NULL};

static int32_t major_17 = 17, major_25 = 25;

#define F(t, f, ts, off)                                                       \
	{                                                                      \
		t, f, ts, 0, off, NULL                                         \
	}
#define END                                                                    \
	{                                                                      \
		NULL, NULL, NULL, 0, 0, NULL                                   \
	}

static struct vmstruct_entry s17[] = {
    F("CodeBlob", "_size", "int", 12),
    F("CodeBlob", "_code_begin", "address", 32),
    F("CodeBlob", "_code_end", "address", 40),
    F("CompiledMethod", "_method", "Method*", 112),
    F("CompiledMethod", "_scopes_data_begin", "address", 120),
    F("nmethod", "_entry_bci", "int", 192),
    F("nmethod", "_entry_point", "address", 216),
    F("nmethod", "_verified_entry_point", "address", 224),
    F("nmethod", "_metadata_offset", "int", 260),
    F("nmethod", "_scopes_pcs_offset", "int", 268),
    F("nmethod", "_dependencies_offset", "int", 272),
    F("nmethod", "_compile_id", "int", 304),
    F("nmethod", "_comp_level", "int", 308),
    F("nmethod", "_state", "signed char", 315),
    F("PcDesc", "_pc_offset", "int", 0),
    F("PcDesc", "_scope_decode_offset", "int", 4),
    F("PcDesc", "_obj_decode_offset", "int", 8),
    F("PcDesc", "_flags", "int", 12),
    F("Method", "_constMethod", "ConstMethod*", 8),
    F("ConstMethod", "_flags", "u2", 28),
    F("ConstMethod", "_code_size", "u2", 32),
    {"Abstract_VM_Version", "_vm_major_version", "int", 1, 0, &major_17},
    END,
};

static struct vmstruct_entry s25[] = {
    F("CodeBlob", "_mutable_data", "address", 16),
    F("CodeBlob", "_size", "int", 24),
    F("CodeBlob", "_relocation_size", "int", 28),
    F("CodeBlob", "_code_offset", "int", 36),
    F("CodeBlob", "_data_offset", "int", 40),
    F("CodeBlob", "_mutable_data_size", "int", 48),
    F("nmethod", "_method", "Method*", 80),
    F("nmethod", "_immutable_data", "address", 96),
    F("nmethod", "_entry_offset", "uint16_t", 152),
    F("nmethod", "_verified_entry_offset", "uint16_t", 154),
    F("nmethod", "_entry_bci", "int", 156),
    F("nmethod", "_immutable_data_size", "int", 160),
    F("nmethod", "_scopes_pcs_offset", "int", 196),
    F("nmethod", "_scopes_data_offset", "int", 200),
    F("nmethod", "_compile_id", "int", 212),
    F("nmethod", "_comp_level", "CompLevel", 216),
    F("nmethod", "_state", "signed char", 219),
    F("PcDesc", "_pc_offset", "int", 0),
    F("PcDesc", "_scope_decode_offset", "int", 4),
    F("PcDesc", "_obj_decode_offset", "int", 8),
    F("PcDesc", "_flags", "int", 12),
    F("Method", "_constMethod", "ConstMethod*", 8),
    F("ConstMethod", "_flags._flags", "u4", 28),
    F("ConstMethod", "_code_size", "u2", 34),
    {"Abstract_VM_Version", "_vm_major_version", "int", 1, 0, &major_25},
    END,
};

static struct vmtype_entry types[] = {
    {"int", NULL, 0, 1, 0, 4},	   {"u2", NULL, 0, 1, 1, 2},
    {"u4", NULL, 0, 1, 1, 4},	   {"CompLevel", NULL, 0, 1, 0, 1},
    {"PcDesc", NULL, 0, 0, 0, 16}, {"ConstMethod", NULL, 0, 0, 0, 48},
    {NULL, NULL, 0, 0, 0, 0},
};
static struct int_entry ints17[] = {{"ConstMethod::_has_linenumber_table", 1},
				    {NULL, 0}};
static struct int_entry ints25[] = {
    {"ConstMethodFlags::_misc_has_linenumber_table", 1}, {NULL, 0}};
static struct long_entry longs[] = {{"markWord::hash_mask", 0x7fffffff},
				    {NULL, 0}};

/* The entry-layout variables, as libjvm.so exports them. */
static uint64_t s_type = offsetof(struct vmstruct_entry, type),
		s_field = offsetof(struct vmstruct_entry, field),
		s_tstr = offsetof(struct vmstruct_entry, type_string),
		s_static = offsetof(struct vmstruct_entry, is_static),
		s_offset = offsetof(struct vmstruct_entry, offset),
		s_address = offsetof(struct vmstruct_entry, address),
		s_stride = sizeof(struct vmstruct_entry),
		t_type = offsetof(struct vmtype_entry, type),
		t_size = offsetof(struct vmtype_entry, size),
		t_stride = sizeof(struct vmtype_entry),
		i_name = offsetof(struct int_entry, name),
		i_value = offsetof(struct int_entry, value),
		i_stride = sizeof(struct int_entry),
		l_name = offsetof(struct long_entry, name),
		l_value = offsetof(struct long_entry, value),
		l_stride = sizeof(struct long_entry);
static void *structs_p, *types_p = types, *ints_p, *longs_p = longs;

/* where the structs table's entry layout lies */
static void entry_syms(uint64_t *syms)
{
	syms[HS_S_TYPE] = (uintptr_t)&s_type;
	syms[HS_S_FIELD] = (uintptr_t)&s_field;
	syms[HS_S_STATIC] = (uintptr_t)&s_static;
	syms[HS_S_OFFSET] = (uintptr_t)&s_offset;
	syms[HS_S_ADDRESS] = (uintptr_t)&s_address;
	syms[HS_S_STRIDE] = (uintptr_t)&s_stride;
}

/* Where the tables of s and ints lie, as libjvm.so's symbols say. */
static void table_syms(struct vmstruct_entry *s, struct int_entry *ints,
		       uint64_t syms[HS_NR_SYMS], uint64_t c[VMC_NR_SYMS])
{

	structs_p = s;
	ints_p = ints;
	syms[HS_STRUCTS] = (uintptr_t)&structs_p;
	entry_syms(syms);
	syms[HS_TYPES] = (uintptr_t)&types_p;
	syms[HS_T_TYPE] = (uintptr_t)&t_type;
	syms[HS_T_SIZE] = (uintptr_t)&t_size;
	syms[HS_T_STRIDE] = (uintptr_t)&t_stride;
	c[VMC_INT] = (uintptr_t)&ints_p;
	c[VMC_INT_NAME] = (uintptr_t)&i_name;
	c[VMC_INT_VALUE] = (uintptr_t)&i_value;
	c[VMC_INT_STRIDE] = (uintptr_t)&i_stride;
	c[VMC_LONG] = (uintptr_t)&longs_p;
	c[VMC_LONG_NAME] = (uintptr_t)&l_name;
	c[VMC_LONG_VALUE] = (uintptr_t)&l_value;
	c[VMC_LONG_STRIDE] = (uintptr_t)&l_stride;
	c[VMC_S_TYPESTR] = (uintptr_t)&s_tstr;
}

static struct vmstructs *open_tables(struct vmstruct_entry *s,
				     struct int_entry *ints)
{
	uint64_t syms[HS_NR_SYMS], c[VMC_NR_SYMS];

	table_syms(s, ints, syms, c);
	return vmstructs__read(&mem, syms, c);
}

/* Reads of the fake JVM's memory that touch its structs table. */
static const void *counted_lo, *counted_hi;
static int table_reads;

static int counting_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	if (addr < (uintptr_t)counted_hi && addr + len > (uintptr_t)counted_lo)
		table_reads++;
	return local_read(ctx, addr, buf, len);
}

/*
 * One JVM's tables are read once: its struct hotspot keeps them and lends
 * them to each namer (jnamer, jlocks, --events' names), however many ask.
 */
static void test_read_once(void)
{
	const struct hotspot_mem cm = {counting_read, NULL};
	const struct hotspot_layout l = {0};
	uint64_t syms[HS_NR_SYMS], c[VMC_NR_SYMS];
	struct hotspot *h = hotspot__from_mem(1, &cm, &l);
	const struct vmstructs *vs;
	struct jnamer *jn;
	int first;

	counted_lo = s25;
	counted_hi = s25 + sizeof(s25) / sizeof(s25[0]);
	table_syms(s25, ints25, syms, c);
	CHECK(h != NULL);
	if (!h)
		return;
	hotspot__tables_at(h, syms, c);
	vs = hotspot__vmstructs(h);
	first = table_reads;
	CHECK(vs && first > 0);
	CHECK(hotspot__vmstructs(h) == vs);
	/* the namer borrows them, whether or not the fake has all it needs */
	for (int i = 0; i < 2; i++) {
		jn = jnamer__open(h, 1, 0);
		jnamer__free(jn);
	}
	CHECK(hotspot__vmstructs(h) == vs);
	CHECK_INT(table_reads, first);
	hotspot__free(h);
}

/*
 * A second structs table given by its own address (JVMCI's, read with
 * the entry layout of the first): its fields alone, no types.
 */
static void test_table(void)
{
	uint64_t syms[HS_NR_SYMS] = {0}, v;
	struct vmstructs *vs;

	entry_syms(syms);
	vs = vmstructs__read_table(&mem, syms, (uintptr_t)s25);
	CHECK(vs != NULL);
	if (!vs)
		return;
	CHECK_INT(vmstructs__field(vs, "nmethod", "_compile_id", &v), 0);
	CHECK_INT(v, 212);
	CHECK_INT(vmstructs__type_size(vs, "PcDesc"), 0);
	vmstructs__free(vs);
	/* no table, or one that does not read */
	CHECK(!vmstructs__read_table(&mem, syms, 0) && errno == ENOENT);
	syms[HS_S_STRIDE] = 0;
	CHECK(!vmstructs__read_table(&mem, syms, (uintptr_t)s25) &&
	      errno == EFAULT);
}

static void test_dictionary(void)
{
	struct vmstructs *vs = open_tables(s25, ints25);
	uint64_t v;
	int64_t c;

	CHECK(vs != NULL);
	if (!vs)
		return;
	CHECK_INT(vmstructs__field(vs, "nmethod", "_compile_id", &v), 0);
	CHECK_INT(v, 212);
	CHECK_INT(vmstructs__field(vs, "Abstract_VM_Version",
				   "_vm_major_version", &v),
		  0);
	CHECK_INT(v, (uintptr_t)&major_25); /* a static: its address */
	CHECK_INT(vmstructs__field(vs, "nmethod", "_nope", &v), -ENOENT);
	CHECK_INT(vmstructs__field(vs, "nmethodX", "_compile_id", &v), -ENOENT);
	CHECK_INT(vmstructs__type_size(vs, "PcDesc"), 16);
	CHECK_INT(vmstructs__type_size(vs, "Nope"), 0);
	CHECK_INT(vmstructs__field_size(vs, "nmethod", "_comp_level"), 1);
	CHECK_INT(vmstructs__field_size(vs, "nmethod", "_compile_id"), 4);
	CHECK_INT(vmstructs__field_size(vs, "nmethod", "_method"), 0);
	CHECK_INT(vmstructs__constant(
		      vs, "ConstMethodFlags::_misc_has_linenumber_table", &c),
		  0);
	CHECK_INT(c, 1);
	CHECK_INT(vmstructs__constant(vs, "markWord::hash_mask", &c), 0);
	CHECK_INT(c, 0x7fffffff);
	CHECK_INT(vmstructs__constant(vs, "nope", &c), -ENOENT);
	CHECK_INT(vmstructs__jdk_major(vs, &mem), 25);
	vmstructs__free(vs);
	vmstructs__free(NULL);
}

static void test_layouts(void)
{
	struct vmstructs *vs = open_tables(s17, ints17);
	struct nm_layout l;
	struct jline_layout jl;

	CHECK(vs != NULL);
	if (!vs)
		return;
	CHECK_INT(nmethod__layout_init(&l, vs, 17), 0);
	CHECK_INT(l.immutable, 0);
	CHECK_INT(l.u5_x, 0);
	CHECK_INT(l.comp_level_size, 4);
	CHECK_INT(l.metadata_offset, 260);
	CHECK_INT(l.immutable_data, NM_NONE);
	CHECK_INT(nmethod__layout_init(&l, vs, 19), -ENOTSUP);
	CHECK_INT(jline_layout__init(&jl, vs, 0), 0);
	CHECK_INT(jl.flags_size, 2);
	CHECK_INT(jl.off_code_size, 32);
	CHECK_INT(jl.cm_size, 48);
	vmstructs__free(vs);

	vs = open_tables(s25, ints25);
	CHECK(vs != NULL);
	if (!vs)
		return;
	CHECK_INT(nmethod__layout_init(&l, vs, 25), 0);
	CHECK_INT(l.immutable, 1);
	CHECK_INT(l.u5_x, 1);
	CHECK_INT(l.comp_level_size, 1);
	CHECK_INT(l.scopes_data_offset, 200);
	CHECK_INT(l.pcdesc_size, 16);
	CHECK_INT(jline_layout__init(&jl, vs, 1), 0);
	CHECK_INT(jl.flags_size, 4);
	vmstructs__free(vs);

	/* a JDK 25 table without its line-number constant, and one field
	 * missing: refused, not guessed */
	vs = open_tables(s25, ints17);
	CHECK(vs && jline_layout__init(&jl, vs, 1) == -ENOENT);
	vmstructs__free(vs);
	s25[12].field = "_scopes_pcs_offsetX";
	vs = open_tables(s25, ints25);
	CHECK(vs && nmethod__layout_init(&l, vs, 25) == -ENOENT);
	vmstructs__free(vs);
	s25[12].field = "_scopes_pcs_offset";
}

static void test_garbage(void)
{
	uint64_t syms[HS_NR_SYMS] = {}, c[VMC_NR_SYMS] = {};
	static uint64_t huge = 1 << 20;

	/* unreadable variables */
	CHECK(!vmstructs__read(&mem, syms, c) && errno == EFAULT);
	/* a stride no table has */
	vmstructs__free(open_tables(s25, ints25)); /* sets the pointers */
	syms[HS_STRUCTS] = (uintptr_t)&structs_p;
	syms[HS_S_TYPE] = (uintptr_t)&s_type;
	syms[HS_S_FIELD] = (uintptr_t)&s_field;
	syms[HS_S_STATIC] = (uintptr_t)&s_static;
	syms[HS_S_OFFSET] = (uintptr_t)&s_offset;
	syms[HS_S_ADDRESS] = (uintptr_t)&s_address;
	syms[HS_S_STRIDE] = (uintptr_t)&huge;
	CHECK(!vmstructs__read(&mem, syms, c) && errno == ENOENT);
}

/*
 * The reader goes a page at a time: pages A B C between two unmapped
 * ones. A structs entry crosses A|B, a type name crosses B|C, a field
 * name ends where C does (the unmapped page right after it): all read.
 */
static void test_pages(void)
{
	const struct hotspot_mem m = {self_read, NULL};
	long pg = sysconf(_SC_PAGESIZE);
	uint8_t *map = mmap(NULL, 5 * pg, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t syms[HS_NR_SYMS], v;
	struct vmstruct_entry *e;
	struct vmtype_entry *t;
	struct vmstructs *vs;
	char *straddle, *tail;
	void *sp, *tp;

	CHECK(map != MAP_FAILED);
	if (map == MAP_FAILED)
		return;
	mprotect(map, pg, PROT_NONE);
	mprotect(map + 4 * pg, pg, PROT_NONE);
	straddle = (char *)map + 3 * pg - 4; /* "Straddle" crosses B|C */
	memcpy(straddle, "Straddle", 9);
	tail = (char *)map + 4 * pg - 6; /* "_tail" ends with C */
	memcpy(tail, "_tail", 6);
	e = (struct vmstruct_entry *)(map + 2 * pg - 8) - 1; /* e[1]: A|B */
	memset(e, 0, 4 * sizeof(*e));
	e[0] = (struct vmstruct_entry){straddle, "_a", NULL, 0, 8, NULL};
	e[1] = (struct vmstruct_entry){straddle, tail, NULL, 0, 16, NULL};
	e[2] = (struct vmstruct_entry){"Other", "_b", NULL, 0, 24, NULL};
	t = (struct vmtype_entry *)(map + 2 * pg + 512);
	memset(t, 0, 2 * sizeof(*t));
	t[0] = (struct vmtype_entry){straddle, NULL, 0, 0, 0, 40};
	sp = e;
	tp = t;
	syms[HS_STRUCTS] = (uintptr_t)&sp;
	entry_syms(syms);
	syms[HS_TYPES] = (uintptr_t)&tp;
	syms[HS_T_TYPE] = (uintptr_t)&t_type;
	syms[HS_T_SIZE] = (uintptr_t)&t_size;
	syms[HS_T_STRIDE] = (uintptr_t)&t_stride;
	vs = vmstructs__read(&m, syms, NULL);
	CHECK(vs != NULL);
	CHECK(vs && !vmstructs__field(vs, "Straddle", "_a", &v) && v == 8);
	CHECK(vs && !vmstructs__field(vs, "Straddle", "_tail", &v) && v == 16);
	CHECK(vs && !vmstructs__field(vs, "Other", "_b", &v) && v == 24);
	CHECK(vs && vmstructs__type_size(vs, "Straddle") == 40);
	vmstructs__free(vs);
	/* a table running into the unmapped page: refused, not overrun */
	memset(map + 4 * pg - 128, 0xff, 128);
	e = (struct vmstruct_entry *)(map + 4 * pg - 16) - 1;
	*e = (struct vmstruct_entry){"Other", "_b", NULL, 0, 24, NULL};
	sp = e;
	CHECK(!vmstructs__read(&m, syms, NULL) && errno == EFAULT);
	munmap(map, 5 * pg);
}

/* PerfData's region: a prologue, then entries (perfMemory.hpp) */
static uint8_t perf[512] __attribute__((aligned(8)));
static void *perf_p = perf;
static struct vmstruct_entry sperf[] = {
    {"PerfMemory", "_prologue", "PerfDataPrologue*", 1, 0, &perf_p},
    F("PerfDataPrologue", "used", "jint", 8),
    F("PerfDataPrologue", "entry_offset", "jint", 24),
    F("PerfDataPrologue", "num_entries", "jint", 28),
    F("PerfDataEntry", "entry_length", "jint", 0),
    F("PerfDataEntry", "name_offset", "jint", 4),
    F("PerfDataEntry", "vector_length", "jint", 8),
    F("PerfDataEntry", "data_type", "jbyte", 12),
    F("PerfDataEntry", "data_offset", "jint", 16),
    END,
};

static void put32(uint32_t off, int32_t v)
{
	memcpy(perf + off, &v, sizeof(v));
}

/* An entry at off: name, a vector of vlen or a scalar, of type; its
 * length back (20 bytes of header, the name, the 8-aligned data). */
static uint32_t perf_entry(uint32_t off, const char *name, int32_t vlen,
			   char type)
{
	uint32_t n = strlen(name) + 1, data = (20 + n + 7) & ~7u;

	put32(off + 0, data + 8);
	put32(off + 4, 20);
	put32(off + 8, vlen);
	perf[off + 12] = (uint8_t)type;
	put32(off + 16, data);
	memcpy(perf + off + 20, name, n);
	return data + 8;
}

static void test_perfcount(void)
{
	struct vmstructs *vs = open_tables(sperf, ints25);
	uint32_t off = 32, want;
	uint64_t a = 0;

	CHECK(vs != NULL);
	if (!vs)
		return;
	off += perf_entry(off, "sun.os.hrt.frequency", 0, 'J');
	/* a vector of that name is not the counter */
	off += perf_entry(off, "java.cls.unloadedClasses", 4, 'J');
	want = off;
	off += perf_entry(off, "java.cls.unloadedClasses", 0, 'J');
	put32(8, off); /* used */
	put32(24, 32); /* entry_offset */
	put32(28, 3); /* num_entries */
	CHECK_INT(perfcount__find(vs, &mem, "java.cls.unloadedClasses", &a), 0);
	CHECK(a == (uintptr_t)perf + want + 48);
	CHECK_INT(perfcount__find(vs, &mem, "java.cls.loadedClasses", &a),
		  -ENOENT);
	/* a region that does not read as HotSpot lays it out */
	put32(28, 2); /* fewer entries than the counter's */
	CHECK_INT(perfcount__find(vs, &mem, "java.cls.unloadedClasses", &a),
		  -ENOENT);
	put32(28, 3);
	put32(want, 1 << 20); /* an entry past the region */
	CHECK_INT(perfcount__find(vs, &mem, "java.cls.unloadedClasses", &a),
		  -ENOENT);
	put32(8, -1); /* used */
	CHECK_INT(perfcount__find(vs, &mem, "java.cls.unloadedClasses", &a),
		  -ENOENT);
	vmstructs__free(vs);
	/* no PerfData (no _prologue published) */
	vs = open_tables(s25, ints25);
	CHECK(vs && perfcount__find(vs, &mem, "java.cls.unloadedClasses", &a) ==
			-ENOENT);
	vmstructs__free(vs);
}

int main(void)
{
	test_perfcount();
	test_pages();
	test_dictionary();
	test_layouts();
	test_garbage();
	test_table();
	test_read_once();
	return check_report();
}
