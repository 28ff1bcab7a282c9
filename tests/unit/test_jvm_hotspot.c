/*
 * hotspot.c's pure parts: the VMStructs walk over fake tables laid out in
 * our own memory (read through a memcpy "target"), Symbol reading, and
 * frame names. The live-JVM path is covered by tests/integration/interp_*.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include "check.h"
#include "jvm/hotspot.h"

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

/*
 * The tables are read a page at a time, as process_vm_readv lets the
 * reader do in a JVM (vmstructs.c): a byte copy the address sanitizer
 * does not watch, so the test also runs under it.
 */
__attribute__((no_sanitize("address"))) static int
local_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	const volatile uint8_t *p = (const volatile uint8_t *)(uintptr_t)addr;
	uint8_t *q = buf;

	(void)ctx;
	for (size_t i = 0; i < len; i++)
		q[i] = p[i];
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
    {S("ConstMethod"), NULL, 0, 0, 0, 48},
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
	CHECK_INT(l.cm_size, 48);
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

/*
 * The unwinder's part (hotspot_unwind): a JDK 17-style table (CodeBlob
 * with _code_begin, CompiledMethod::_method, JavaThread::_osthread) and a
 * JDK 25-style one (_code_offset, _kind, Thread::_osthread), over a fake
 * code cache of two heaps and a thread list of two threads.
 */
struct fake_vs { /* VirtualSpace: _low_boundary, _high_boundary, _low */
	uint64_t low_b, high_b, low;
};
struct fake_heap { /* CodeHeap: _memory at 8, _segmap at 40, log2 at 72 */
	uint64_t pad;
	struct fake_vs memory;
	struct fake_vs segmap;
	int32_t log2;
};
static struct fake_heap heap_a = {0,
				  {0x7f0010000000ULL, 0x7f0011000000ULL,
				   0x7f0010000000ULL},
				  {0, 0, 0x7f00aa000000ULL},
				  7},
			heap_b = {0,
				  {0x7f0020000000ULL, 0x7f0022000000ULL,
				   0x7f0020000000ULL},
				  {0, 0, 0x7f00bb000000ULL},
				  6};
static struct fake_heap *heap_list[2] = {&heap_a, &heap_b};
static struct { /* GrowableArray: _len at 0, _data at 8 */
	int32_t len, max;
	struct fake_heap **data;
} heaps_ga = {2, 2, heap_list};
static void *heaps_static = &heaps_ga;

struct fake_os { /* OSThread: _thread_id at 12 */
	uint32_t pad[3];
	uint32_t tid;
};
struct fake_jt { /* JavaThread: _osthread at 0, _anchor at 8 */
	struct fake_os *os;
	uint64_t anchor[3];
};
static struct fake_os os1 = {{0}, 101}, os2 = {{0}, 102};
static struct fake_jt jt1 = {&os1, {0}}, jt2 = {&os2, {0}},
		      jt_no_os = {NULL, {0}};
static struct fake_jt *thread_arr[3] = {&jt1, &jt_no_os, &jt2};
static struct { /* ThreadsList: _length at 4, _threads at 16 */
	uint32_t pad, length;
	uint64_t pad2;
	struct fake_jt **threads;
} tlist = {0, 3, 0, thread_arr};
static void *tlist_static = &tlist;

#define BASE_ENTRIES                                                             \
	{S("Klass"), S("_name"), S("Symbol*"), 0, 24, NULL},                     \
	    {S("Method"), S("_constMethod"), S("ConstMethod*"), 0, 8, NULL},     \
	    {S("ConstMethod"), S("_constants"), S("ConstantPool*"), 0, 8, NULL}, \
	    {S("ConstMethod"), S("_name_index"), S("u2"), 0, 36, NULL},          \
	    {S("ConstantPool"),                                                  \
	     S("_pool_holder"),                                                  \
	     S("InstanceKlass*"),                                                \
	     0,                                                                  \
	     24,                                                                 \
	     NULL},                                                              \
	    {S("Symbol"), S("_length"), S("u2"), 0, 4, NULL},                    \
	    {S("Symbol"), S("_body"), S("u1"), 0, 6, NULL},                      \
	    {S("AbstractInterpreter"),                                           \
	     S("_code"),                                                         \
	     S("StubQueue*"),                                                    \
	     1,                                                                  \
	     0,                                                                  \
	     &interp_code},                                                      \
	    {S("StubQueue"), S("_stub_buffer"), S("address"), 0, 8, NULL},       \
	    {S("StubQueue"), S("_buffer_limit"), S("int"), 0, 16, NULL},         \
	    {S("CodeCache"), S("_heaps"), S("GrowableArray<CodeHeap*>*"), 1, 0,  \
	     &heaps_static},                                                     \
	    {S("GrowableArrayBase"), S("_len"), S("int"), 0, 0, NULL},           \
	    {S("GrowableArray<int>"), S("_data"), S("int*"), 0, 8, NULL},        \
	    {S("CodeHeap"), S("_memory"), S("VirtualSpace"), 0, 8, NULL},        \
	    {S("CodeHeap"), S("_segmap"), S("VirtualSpace"), 0, 32, NULL},       \
	    {S("CodeHeap"), S("_log2_segment_size"), S("int"), 0, 56, NULL},     \
	    {S("VirtualSpace"), S("_low_boundary"), S("char*"), 0, 0, NULL},     \
	    {S("VirtualSpace"), S("_high_boundary"), S("char*"), 0, 8, NULL},    \
	    {S("VirtualSpace"), S("_low"), S("char*"), 0, 16, NULL},             \
	    {S("HeapBlock::Header"), S("_used"), S("bool"), 0, 8, NULL},         \
	    {S("CodeBlob"), S("_size"), S("int"), 0, 12, NULL},                  \
	    {S("CodeBlob"), S("_frame_complete_offset"), S("int"), 0, 20, NULL}, \
	    {S("CodeBlob"), S("_frame_size"), S("int"), 0, 28, NULL},            \
	    {S("CodeBlob"), S("_name"), S("const char*"), 0, 96, NULL},          \
	    {S("ThreadsSMRSupport"),                                             \
	     S("_java_thread_list"),                                             \
	     S("ThreadsList*"),                                                  \
	     1,                                                                  \
	     0,                                                                  \
	     &tlist_static},                                                     \
	    {S("ThreadsList"), S("_length"), S("const uint"), 0, 4, NULL},       \
	    {S("ThreadsList"),                                                   \
	     S("_threads"),                                                      \
	     S("JavaThread*const*const"),                                        \
	     0,                                                                  \
	     16,                                                                 \
	     NULL},                                                              \
	    {S("JavaThread"), S("_anchor"), S("JavaFrameAnchor"), 0, 8, NULL},   \
	    {S("OSThread"), S("_thread_id"), S("pid_t"), 0, 12, NULL},           \
	    {S("JavaFrameAnchor"),                                               \
	     S("_last_Java_sp"),                                                 \
	     S("intptr_t*"),                                                     \
	     0,                                                                  \
	     0,                                                                  \
	     NULL},                                                              \
	    {S("JavaFrameAnchor"),                                               \
	     S("_last_Java_pc"),                                                 \
	     S("address"),                                                       \
	     0,                                                                  \
	     8,                                                                  \
	     NULL},                                                              \
	{                                                                        \
		S("JavaFrameAnchor"), S("_last_Java_fp"), S("intptr_t*"), 0,     \
		    16, NULL                                                     \
	}

static struct vmstruct_entry structs17[] = {
    BASE_ENTRIES,
    {S("CodeBlob"), S("_code_begin"), S("address"), 0, 32, NULL},
    {S("CompiledMethod"), S("_method"), S("Method*"), 0, 112, NULL},
    {S("nmethod"), S("_compile_id"), S("int"), 0, 304, NULL},
    {S("JavaThread"), S("_osthread"), S("OSThread*"), 0, 0, NULL},
    {NULL, NULL, NULL, 0, 0, NULL},
};
static struct vmstruct_entry structs25[] = {
    BASE_ENTRIES,
    {S("CodeBlob"), S("_code_offset"), S("int"), 0, 36, NULL},
    {S("CodeBlob"), S("_kind"), S("CodeBlobKind"), 0, 56, NULL},
    {S("nmethod"), S("_method"), S("Method*"), 0, 80, NULL},
    {S("Thread"), S("_osthread"), S("OSThread*"), 0, 0, NULL},
    {NULL, NULL, NULL, 0, 0, NULL},
};
static struct vmtype_entry types_u[] = {
    {S("ConstantPool"), S("Metadata"), 0, 0, 0, 72},
    {S("HeapBlock"), NULL, 0, 0, 0, 16},
    {NULL, NULL, 0, 0, 0, 0},
};

static void test_unwind(void)
{
	struct hotspot_mem m = {local_read, NULL};
	struct hotspot_layout l = {};
	struct hotspot_thread t[4];
	uint64_t syms[HS_NR_SYMS];

	syms_of(syms);
	types_p = types_u;
	structs_p = structs17;
	CHECK_INT(hotspot__layout_read(&m, syms, &l), 0);
	CHECK_INT(l.cm_size,
		  0); /* no ConstMethod type: no lines, still a JVM */
	CHECK(l.u.ok);
	CHECK(!l.u.code_is_offset && !l.u.fc16);
	CHECK_INT(l.u.off_cb_code, 32);
	CHECK_INT(l.u.off_cb_frame_size, 28);
	CHECK_INT(l.u.off_cb_frame_complete, 20);
	CHECK_INT(l.u.off_nm_method, 112);
	CHECK_INT(l.u.off_nm_comp_level, HOTSPOT_NO_OFF);
	CHECK_INT(l.u.hb_size, 16);
	CHECK(l.u.threads_ok);
	CHECK_INT(l.u.off_jt_anchor, 8);
	CHECK_INT(hotspot__heaps_read(&m, &l.u), 0);
	CHECK_INT(l.u.nheaps, 2);
	CHECK(l.u.heap[0].lo == 0x7f0010000000ULL);
	CHECK(l.u.heap[0].hi == 0x7f0011000000ULL);
	CHECK(l.u.heap[0].segmap == 0x7f00aa000000ULL);
	CHECK_INT(l.u.heap[0].log2_seg, 7);
	CHECK_INT(l.u.heap[1].log2_seg, 6);
	/* the thread without an OSThread is skipped */
	CHECK_INT(hotspot__threads_read(&m, &l.u, t, 4), 2);
	/* in no particular order (each JavaThread once) */
	CHECK((t[0].tid == 101 && t[0].thread == (uintptr_t)&jt1 &&
	       t[1].tid == 102) ||
	      (t[1].tid == 101 && t[1].thread == (uintptr_t)&jt1 &&
	       t[0].tid == 102));
	CHECK_INT(hotspot__threads_read(&m, &l.u, t, 1), 1);

	/* JDK 23+: code offset, _kind, a 16-bit frame-complete offset */
	structs_p = structs25;
	CHECK_INT(hotspot__layout_read(&m, syms, &l), 0);
	CHECK(l.u.ok && l.u.code_is_offset && l.u.fc16);
	CHECK_INT(l.u.off_cb_code, 36);
	CHECK_INT(l.u.off_cb_kind, 56);
	CHECK_INT(l.u.off_nm_method, 80);
	CHECK(l.u.threads_ok);

	/* a bad heap (log2 out of range) or too many: no heaps */
	heap_b.log2 = 40;
	CHECK_INT(hotspot__heaps_read(&m, &l.u), -EFAULT);
	heap_b.log2 = 6;
	heaps_ga.len = HOTSPOT_MAX_HEAPS + 1;
	CHECK_INT(hotspot__heaps_read(&m, &l.u), -E2BIG);
	heaps_ga.len = 0; /* not created yet */
	CHECK_INT(hotspot__heaps_read(&m, &l.u), -EAGAIN);
	heaps_ga.len = 2;

	/* no code begin at all: a layout the unwinder does not know, yet
	 * interpreted frames are still named */
	structs25[sizeof(structs25) / sizeof(structs25[0]) - 5].field =
	    S("_renamed");
	CHECK_INT(hotspot__layout_read(&m, syms, &l), 0);
	CHECK(!l.u.ok);
	structs_p = structs;
	types_p = types;
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

	CHECK_INT(
	    hotspot__symbol(&m, &l, (uintptr_t)&s, buf, sizeof(buf), NULL), 9);
	CHECK_STR(buf, "java/Foo;");
	CHECK_INT(hotspot__symbol(&m, &l, (uintptr_t)&s, buf, 9, NULL),
		  -EINVAL);
	CHECK_INT(
	    hotspot__symbol(&m, &l, (uintptr_t)&bad, buf, sizeof(buf), NULL),
	    -EINVAL);
	CHECK_INT(
	    hotspot__symbol(&m, &l, (uintptr_t)&empty, buf, sizeof(buf), NULL),
	    -EINVAL);
	CHECK_INT(hotspot__symbol(&m, &l, 0, buf, sizeof(buf), NULL), -EFAULT);
}

/* The identity hash is the upper half of _hash_and_refcount. */
static void test_symbol_hash(void)
{
	struct hotspot_mem m = {local_read, NULL};
	struct hotspot_layout l = {.off_sym_length = 4, .off_sym_body = 6};
	struct fake_symbol s = {0xbeef0003, 3, "Foo"};
	char buf[16];
	int32_t hash = 7;

	CHECK_INT(
	    hotspot__symbol(&m, &l, (uintptr_t)&s, buf, sizeof(buf), &hash), 3);
	CHECK_INT(hash, 0xbeef);
	s.hash = 0xbeef0fff; /* the refcount half changes nothing */
	hotspot__symbol(&m, &l, (uintptr_t)&s, buf, sizeof(buf), &hash);
	CHECK_INT(hash, 0xbeef);
	l.off_sym_hash = HOTSPOT_NO_OFF;
	CHECK_INT(
	    hotspot__symbol(&m, &l, (uintptr_t)&s, buf, sizeof(buf), &hash), 3);
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

/* Klass names as --alloc's leaf shows them */
static void test_class_names(void)
{
	char out[64];

	CHECK_INT(hotspot__java_class_name(out, sizeof(out), "[B"), 6);
	CHECK_STR(out, "byte[]");
	hotspot__java_class_name(out, sizeof(out), "[[J");
	CHECK_STR(out, "long[][]");
	hotspot__java_class_name(out, sizeof(out), "[Ljava/lang/String;");
	CHECK_STR(out, "java.lang.String[]");
	hotspot__java_class_name(out, sizeof(out), "java/util/HashMap$Node");
	CHECK_STR(out, "java.util.HashMap$Node");
	hotspot__java_class_name(out, sizeof(out), "[Z");
	CHECK_STR(out, "boolean[]");
	CHECK_INT(hotspot__java_class_name(out, 4, "java/lang/Object"),
		  -ENOSPC);
	CHECK_INT(hotspot__java_class_name(out, 8, "[[[[[[I"), -ENOSPC);
}

int main(void)
{
	test_layout();
	test_unwind();
	test_symbol();
	test_symbol_hash();
	test_names();
	test_class_names();
	printf("%d checks, %d failed\n", check_count, check_failed);
	return check_failed != 0;
}
