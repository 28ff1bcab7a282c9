// SPDX-License-Identifier: GPL-2.0
/*
 * fakejvm: a process that poses as a HotSpot JVM with tables and memory
 * of its own choosing, run by the hostile-JVM tests as an unprivileged
 * user (tests/integration/hostile_jvm.sh). mixprof reads every JVM it
 * samples; whatever a hostile local user puts in its own memory must not
 * hang it, bloat it or spoil another process's profile.
 *
 * It maps a libjvm.so of its own (libjvm.c: the exported VMStructs
 * variables, nothing else), fills gHotSpotVMStructs, gHotSpotVMTypes and
 * the constant tables with a plausible JDK 17 layout (offsets of our
 * choosing: mixprof reads them from the tables), builds one 4 MB code
 * heap of 1 KB segments whose first block holds a spin loop, and runs a
 * thread in that loop (so it is sampled as a compiled Java frame) with
 * its stack pointer on records of the mode's choosing. Then the mode
 * twists what mixprof will read:
 *
 *   base     nothing more: a plausible JVM (the leaf names Fake.spin)
 *   nmethods (issue 29, case 1) NM nmethods (default 24) whose headers
 *            claim maximum-size debug data spanning ~20 MB of an
 *            untouched anonymous mapping, the stack a chain of 16-byte
 *            {fp, nm + 600} records: return pcs outside each blob's
 *            code, so every resolve fails
 *   threads  (case 2) a ThreadsList of 100,000 entries all pointing at
 *            one JavaThread whose thread object's class has `_fields`
 *            an Array of length 1 << 20 and `_super` itself
 *   churn    the thread list's length, the nmethods' debug offsets and
 *            the class's field count rewritten every few ms (values
 *            that change between reads)
 *   strings  strings that run to the end of a mapping: a class name
 *            Symbol of 65,535 bytes with 10 readable, the Java thread's
 *            name a byte[] of 2^31 - 1 bytes with 100 readable
 *   manythreads  100,000 distinct threads, each of its own class with a
 *            chain of 40 supers: millions of small reads per walk
 *
 *   reuse    a return address whose code is freed and given again,
 *            in turn, with other frame sizes (setup_reuse): the walk's
 *            memos must never take the old code for the new
 *
 *   steal PID  case 4: the thread ids of process PID (a real JVM) in its
 *            list, listed and dropped every 70 ms: with the sampler's
 *            map keyed by tid alone, that replaced and deleted the real
 *            JVM's entries
 *
 * A mode is a setup (once, before the spin starts) and an optional tick
 * (every TICK_MS from the main thread), one entry in modes[].
 *
 * Usage: fakejvm MODE [ARGS...] (nmethods: ARGS the number of nmethods,
 * 24 by default; a mode reads its own from f->args); prints "ready PID"
 * on stdout once the tables
 * are filled and the spin runs, then runs until killed.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* libjvm.so's statics: HotSpot's live in libjvm's data, and mixprof
 * keeps their addresses relative to the library's load address */
static uint64_t *statics;

#define HEAP_SIZE (4u << 20)
#define LOG2_SEG 10 /* 1 KB segments */
#define SEG (1u << LOG2_SEG)
#define HB_SIZE 16 /* sizeof(HeapBlock): the blob follows it */
#define DEBUG_SIZE (21u << 20) /* untouched: debug data "lies" here */
#define TICK_MS 5

/* ---- the layout we publish (JDK 17 names) ------------------------------ */

/* statics: slots of fakejvm_statics */
enum {
	S_INTERP_CODE, /* AbstractInterpreter::_code: StubQueue* */
	S_HEAPS, /* CodeCache::_heaps: GrowableArray<CodeHeap*>* */
	S_THREAD_LIST, /* ThreadsSMRSupport::_java_thread_list */
	S_MAJOR, /* Abstract_VM_Version::_vm_major_version (int) */
	S_FLAGS, /* JVMFlag::flags: JVMFlag* */
	S_NUM_FLAGS, /* JVMFlag::numFlags: size_t */
	S_FALSE, /* a bool flag's value */
};

/* field offsets: each object is a zeroed 4 KB page, fields where we say */
enum {
	O_M_CONST_METHOD = 8, /* Method */
	O_CM_CONSTANTS = 8, /* ConstMethod */
	O_CM_NAME_INDEX = 32, /* u2 */
	O_CP_HOLDER = 16, /* ConstantPool; sizeof 64 */
	O_K_NAME = 16, /* Klass */
	O_K_SUPER = 24,
	O_IK_CONSTANTS = 64, /* InstanceKlass */
	O_IK_FIELDS = 72, /* Array<u2>* */
	O_IK_JAVA_COUNT = 80, /* u2 */
	O_SYM_LENGTH = 0, /* Symbol: u2 length, body at 6 */
	O_SYM_BODY = 6,
	O_SQ_BUFFER = 0, /* StubQueue */
	O_SQ_LIMIT = 8, /* int */
	O_GA_LEN = 0, /* GrowableArray */
	O_GA_DATA = 8,
	O_HEAP_MEMORY = 0, /* CodeHeap: two VirtualSpaces and an int */
	O_HEAP_SEGMAP = 64,
	O_HEAP_LOG2 = 128,
	O_VS_LOW_B = 0, /* VirtualSpace */
	O_VS_HIGH_B = 8,
	O_VS_LOW = 16,
	O_HB_USED = 8, /* HeapBlock::Header */
	/* CodeBlob, then CompiledMethod and nmethod */
	O_CB_SIZE = 8,
	O_CB_FRAME_COMPLETE = 12,
	O_CB_FRAME_SIZE = 16,
	O_CB_NAME = 24,
	O_CB_CODE_BEGIN = 32,
	O_CB_CODE_END = 40,
	O_NM_METHOD = 48,
	O_NM_COMPILE_ID = 56,
	O_NM_COMP_LEVEL = 60,
	O_NM_ENTRY_BCI = 64,
	O_NM_STATE = 68,
	O_NM_PCS_OFF = 72,
	O_NM_DEPS_OFF = 76,
	O_NM_META_OFF = 80,
	O_NM_SCOPES_BEGIN = 88,
	O_NM_ENTRY = 96,
	O_NM_VERIFIED = 104,
	O_TL_LENGTH = 8, /* ThreadsList */
	O_TL_THREADS = 16,
	O_JT_ANCHOR = 32, /* JavaThread */
	O_JT_OSTHREAD = 64,
	O_JT_OBJ = 72,
	O_OS_TID = 8, /* OSThread */
	O_FLAG_ADDR = 0, /* JVMFlag; sizeof 32 */
	O_FLAG_NAME = 8,
	O_OOP_KLASS = 8, /* oopDesc::_metadata */
	O_ARR_U2_DATA = 4, /* Array<u2> */
};

struct sentry {
	const char *type, *field, *type_string;
	int32_t is_static;
	uint64_t offset;
	void *address;
};

#define F(t, f, o)                                                             \
	{                                                                      \
		t, f, NULL, 0, o, NULL                                         \
	}
/* a static: its slot of statics[] here, its address once loaded */
#define S(t, f, slot)                                                          \
	{                                                                      \
		t, f, NULL, 1, slot, NULL                                      \
	}

static struct sentry structs[] = {
    F("Method", "_constMethod", O_M_CONST_METHOD),
    F("ConstMethod", "_constants", O_CM_CONSTANTS),
    F("ConstMethod", "_name_index", O_CM_NAME_INDEX),
    F("ConstantPool", "_pool_holder", O_CP_HOLDER),
    F("Klass", "_name", O_K_NAME),
    F("Klass", "_super", O_K_SUPER),
    F("InstanceKlass", "_constants", O_IK_CONSTANTS),
    F("InstanceKlass", "_fields", O_IK_FIELDS),
    F("InstanceKlass", "_java_fields_count", O_IK_JAVA_COUNT),
    F("Symbol", "_length", O_SYM_LENGTH),
    F("Symbol", "_body", O_SYM_BODY),
    S("AbstractInterpreter", "_code", S_INTERP_CODE),
    F("StubQueue", "_stub_buffer", O_SQ_BUFFER),
    F("StubQueue", "_buffer_limit", O_SQ_LIMIT),
    S("CodeCache", "_heaps", S_HEAPS),
    F("GrowableArrayBase", "_len", O_GA_LEN),
    F("GrowableArray<int>", "_data", O_GA_DATA),
    F("CodeHeap", "_memory", O_HEAP_MEMORY),
    F("CodeHeap", "_segmap", O_HEAP_SEGMAP),
    F("CodeHeap", "_log2_segment_size", O_HEAP_LOG2),
    F("VirtualSpace", "_low_boundary", O_VS_LOW_B),
    F("VirtualSpace", "_high_boundary", O_VS_HIGH_B),
    F("VirtualSpace", "_low", O_VS_LOW),
    F("HeapBlock::Header", "_used", O_HB_USED),
    F("CodeBlob", "_size", O_CB_SIZE),
    F("CodeBlob", "_frame_complete_offset", O_CB_FRAME_COMPLETE),
    F("CodeBlob", "_frame_size", O_CB_FRAME_SIZE),
    F("CodeBlob", "_name", O_CB_NAME),
    F("CodeBlob", "_code_begin", O_CB_CODE_BEGIN),
    F("CodeBlob", "_code_end", O_CB_CODE_END),
    F("CompiledMethod", "_method", O_NM_METHOD),
    F("CompiledMethod", "_scopes_data_begin", O_NM_SCOPES_BEGIN),
    F("nmethod", "_compile_id", O_NM_COMPILE_ID),
    F("nmethod", "_comp_level", O_NM_COMP_LEVEL),
    F("nmethod", "_entry_bci", O_NM_ENTRY_BCI),
    F("nmethod", "_state", O_NM_STATE),
    F("nmethod", "_scopes_pcs_offset", O_NM_PCS_OFF),
    F("nmethod", "_dependencies_offset", O_NM_DEPS_OFF),
    F("nmethod", "_metadata_offset", O_NM_META_OFF),
    F("nmethod", "_entry_point", O_NM_ENTRY),
    F("nmethod", "_verified_entry_point", O_NM_VERIFIED),
    F("PcDesc", "_pc_offset", 0),
    F("PcDesc", "_scope_decode_offset", 4),
    F("PcDesc", "_obj_decode_offset", 8),
    F("PcDesc", "_flags", 12),
    S("ThreadsSMRSupport", "_java_thread_list", S_THREAD_LIST),
    F("ThreadsList", "_length", O_TL_LENGTH),
    F("ThreadsList", "_threads", O_TL_THREADS),
    F("JavaThread", "_anchor", O_JT_ANCHOR),
    F("JavaThread", "_osthread", O_JT_OSTHREAD),
    F("JavaThread", "_threadObj", O_JT_OBJ),
    F("OSThread", "_thread_id", O_OS_TID),
    F("OopHandle", "_obj", 0),
    F("JavaFrameAnchor", "_last_Java_sp", 0),
    F("JavaFrameAnchor", "_last_Java_pc", 8),
    F("JavaFrameAnchor", "_last_Java_fp", 16),
    F("oopDesc", "_metadata._compressed_klass", O_OOP_KLASS),
    F("Array<u2>", "_data", O_ARR_U2_DATA),
    S("Abstract_VM_Version", "_vm_major_version", S_MAJOR),
    S("JVMFlag", "flags", S_FLAGS),
    S("JVMFlag", "numFlags", S_NUM_FLAGS),
    F("JVMFlag", "_addr", O_FLAG_ADDR),
    F("JVMFlag", "_name", O_FLAG_NAME),
    {NULL, NULL, NULL, 0, 0, NULL},
};

struct tentry {
	const char *type;
	uint64_t size;
};

static struct tentry types[] = {
    {"ConstantPool", 64},
    {"HeapBlock", HB_SIZE},
    {"PcDesc", 16},
    {"JVMFlag", 32},
    {NULL, 0},
};

struct ientry {
	const char *name;
	int32_t value;
};

/* JDK 17's FieldInfo: 6 u2 slots, the offset packed with a 2-bit tag */
static struct ientry ints[] = {
    {"FieldInfo::field_slots", 6},
    {"FieldInfo::name_index_offset", 1},
    {"FieldInfo::signature_index_offset", 2},
    {"FieldInfo::low_packed_offset", 4},
    {"FieldInfo::high_packed_offset", 5},
    {"FIELDINFO_TAG_SIZE", 2},
    {"FIELDINFO_TAG_OFFSET", 1},
    {NULL, 0},
};

struct lentry {
	const char *name;
	int64_t value;
};

static struct lentry longs[] = {{NULL, 0}};

/*
 * libjvm.so is opened, not linked: an executable linked to it would get
 * copy relocations of its variables, and the library's own copies, which
 * mixprof finds through its .dynsym, would stay zero.
 */
static void *lib;

static void set(const char *name, uint64_t v)
{
	uint64_t *p = dlsym(lib, name);

	if (!p) {
		fprintf(stderr, "fakejvm: %s: %s\n", name, dlerror());
		exit(1);
	}
	*p = v;
}

static void open_lib(const char *self)
{
	char path[4096];
	const char *slash = strrchr(self, '/');

	snprintf(path, sizeof(path), "%.*slibjvm.so",
		 slash ? (int)(slash - self + 1) : 2, slash ? self : "./");
	lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	statics = lib ? dlsym(lib, "fakejvm_statics") : NULL;
	if (!statics) {
		fprintf(stderr, "fakejvm: %s: %s\n", path, dlerror());
		exit(1);
	}
}

#define SET(name, v) set(#name, (uint64_t)(v))

static void publish_tables(void)
{
	for (struct sentry *e = structs; e->type; e++)
		if (e->is_static)
			e->address = &statics[e->offset];
	SET(gHotSpotVMStructs, structs);
	SET(gHotSpotVMStructEntryTypeNameOffset, offsetof(struct sentry, type));
	SET(gHotSpotVMStructEntryFieldNameOffset,
	    offsetof(struct sentry, field));
	SET(gHotSpotVMStructEntryTypeStringOffset,
	    offsetof(struct sentry, type_string));
	SET(gHotSpotVMStructEntryIsStaticOffset,
	    offsetof(struct sentry, is_static));
	SET(gHotSpotVMStructEntryOffsetOffset, offsetof(struct sentry, offset));
	SET(gHotSpotVMStructEntryAddressOffset,
	    offsetof(struct sentry, address));
	SET(gHotSpotVMStructEntryArrayStride, sizeof(struct sentry));
	SET(gHotSpotVMTypes, types);
	SET(gHotSpotVMTypeEntryTypeNameOffset, offsetof(struct tentry, type));
	SET(gHotSpotVMTypeEntrySizeOffset, offsetof(struct tentry, size));
	SET(gHotSpotVMTypeEntryArrayStride, sizeof(struct tentry));
	SET(gHotSpotVMIntConstants, ints);
	SET(gHotSpotVMIntConstantEntryNameOffset,
	    offsetof(struct ientry, name));
	SET(gHotSpotVMIntConstantEntryValueOffset,
	    offsetof(struct ientry, value));
	SET(gHotSpotVMIntConstantEntryArrayStride, sizeof(struct ientry));
	SET(gHotSpotVMLongConstants, longs);
	SET(gHotSpotVMLongConstantEntryNameOffset,
	    offsetof(struct lentry, name));
	SET(gHotSpotVMLongConstantEntryValueOffset,
	    offsetof(struct lentry, value));
	SET(gHotSpotVMLongConstantEntryArrayStride, sizeof(struct lentry));
}

/* ---- the fake JVM's memory ---------------------------------------------- */

struct fake {
	uint8_t *heap; /* the code heap; debug data "lies" after it */
	uint8_t *segmap;
	uint8_t *method, *klass, *cp;
	uint64_t *recs; /* the spinning thread's stack: {fp, pc} records */
	int nrecs;
	uint8_t **nms; /* blob k at segment k, 0 the spin loop */
	int nnm;
	uint8_t *tlist, *jt, *tklass;
	char **args; /* the mode's arguments, after its name (NULL-ended) */
};

static void *page(void)
{
	void *p = calloc(1, 4096);

	if (!p) {
		perror("fakejvm: calloc");
		exit(1);
	}
	return p;
}

static void put64(uint8_t *o, uint32_t off, uint64_t v)
{
	memcpy(o + off, &v, 8);
}

static void put32(uint8_t *o, uint32_t off, uint32_t v)
{
	memcpy(o + off, &v, 4);
}

static void put16(uint8_t *o, uint32_t off, uint16_t v)
{
	memcpy(o + off, &v, 2);
}

static uint8_t *symbol(const char *s)
{
	uint8_t *p = page();

	put16(p, O_SYM_LENGTH, strlen(s));
	memcpy(p + O_SYM_BODY, s, strlen(s));
	return p;
}

/* Method Fake.spin: Method -> ConstMethod -> ConstantPool -> Klass. */
static void make_method(struct fake *f)
{
	uint8_t *cm = page();

	f->method = page();
	f->cp = page();
	f->klass = page();
	put64(f->method, O_M_CONST_METHOD, (uintptr_t)cm);
	put64(cm, O_CM_CONSTANTS, (uintptr_t)f->cp);
	put16(cm, O_CM_NAME_INDEX, 1);
	put64(f->cp, O_CP_HOLDER, (uintptr_t)f->klass);
	put64(f->cp, 64 + 1 * 8, (uintptr_t)symbol("spin"));
	put64(f->klass, O_K_NAME, (uintptr_t)symbol("Fake"));
	put64(f->klass, O_IK_CONSTANTS, (uintptr_t)f->cp);
}

static const char *flag_names[] = {"UseCompressedOops",
				   "UseCompressedClassPointers"};

static void make_statics(struct fake *f)
{
	uint8_t *sq = page(), *ga = page(), *ch = page(), *flags = page();
	uint8_t *interp = page();

	put64(sq, O_SQ_BUFFER, (uintptr_t)interp);
	put32(sq, O_SQ_LIMIT, 4096);
	statics[S_INTERP_CODE] = (uintptr_t)sq;
	put64(ch, O_HEAP_MEMORY + O_VS_LOW_B, (uintptr_t)f->heap);
	put64(ch, O_HEAP_MEMORY + O_VS_HIGH_B, (uintptr_t)f->heap + HEAP_SIZE);
	put64(ch, O_HEAP_SEGMAP + O_VS_LOW, (uintptr_t)f->segmap);
	put32(ch, O_HEAP_LOG2, LOG2_SEG);
	put32(ga, O_GA_LEN, 1);
	put64(ga, O_GA_DATA, (uintptr_t)(ga + 512));
	put64(ga, 512, (uintptr_t)ch);
	statics[S_HEAPS] = (uintptr_t)ga;
	statics[S_MAJOR] = 17;
	/* no compressed oops or class pointers: no bases to publish */
	for (int i = 0; i < 2; i++) {
		put64(flags, i * 32 + O_FLAG_ADDR,
		      (uintptr_t)&statics[S_FALSE]);
		put64(flags, i * 32 + O_FLAG_NAME, (uintptr_t)flag_names[i]);
	}
	statics[S_FLAGS] = (uintptr_t)flags;
	statics[S_NUM_FLAGS] = 2;
	f->tlist = page(); /* empty: length 0 */
	statics[S_THREAD_LIST] = (uintptr_t)f->tlist;
}

/*
 * Blob k: a used heap block at segment k, its nmethod header right after
 * the block header; code [nm + 100, nm + 300), no debug data.
 */
static uint8_t *make_nmethod(struct fake *f, int k)
{
	uint8_t *b = f->heap + (size_t)k * SEG, *nm = b + HB_SIZE;

	put64(b, 0, 1); /* length in segments */
	b[O_HB_USED] = 1;
	f->segmap[k] = 0;
	put32(nm, O_CB_SIZE, SEG - HB_SIZE);
	put32(nm, O_CB_FRAME_COMPLETE, 0);
	put32(nm, O_CB_FRAME_SIZE, 2); /* words: {fp, return pc} */
	put64(nm, O_CB_NAME, (uintptr_t) "nmethod");
	put64(nm, O_CB_CODE_BEGIN, (uintptr_t)nm + 100);
	put64(nm, O_CB_CODE_END, (uintptr_t)nm + 300);
	put64(nm, O_NM_METHOD, (uintptr_t)f->method);
	put32(nm, O_NM_COMPILE_ID, 1000 + k);
	put32(nm, O_NM_COMP_LEVEL, 4);
	put32(nm, O_NM_ENTRY_BCI, (uint32_t)-1);
	put32(nm, O_NM_PCS_OFF, 400);
	put32(nm, O_NM_DEPS_OFF, 400);
	put32(nm, O_NM_META_OFF, 400);
	put64(nm, O_NM_SCOPES_BEGIN, (uintptr_t)nm + 400);
	put64(nm, O_NM_ENTRY, (uintptr_t)nm + 100);
	put64(nm, O_NM_VERIFIED, (uintptr_t)nm + 100);
	return nm;
}

static void make_heap(struct fake *f, int nnm)
{
	/* the heap and, after it, the untouched debug data region */
	f->heap = mmap(NULL, HEAP_SIZE + DEBUG_SIZE,
		       PROT_READ | PROT_WRITE | PROT_EXEC,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	f->segmap = malloc(HEAP_SIZE / SEG);
	f->nms = calloc(nnm + 1, sizeof(*f->nms));
	if (f->heap == MAP_FAILED || !f->segmap || !f->nms) {
		perror("fakejvm: heap");
		exit(1);
	}
	memset(f->segmap, 0xff, HEAP_SIZE / SEG); /* free */
	f->nnm = nnm;
	for (int k = 0; k <= nnm; k++)
		f->nms[k] = make_nmethod(f, k);
	/* the spin loop: 1: pause; jmp 1b */
	memcpy(f->nms[0] + 100, "\xf3\x90\xeb\xfc", 4);
	/* the stack: one record ending the walk, unless the mode says */
	f->recs = calloc(2 * (nnm + 2), sizeof(*f->recs));
	if (!f->recs) {
		perror("fakejvm: calloc");
		exit(1);
	}
}

/* ---- modes -------------------------------------------------------------- */

/* Case 1: every nmethod but the spin loop claims the most debug data
 * mixprof accepted (4 MB of PcDescs, 16 MB of scopes, 512 KB of
 * metadata), all in the untouched region after the heap; the stack
 * returns into each at nm + 600, outside its code. */
static void setup_nmethods(struct fake *f)
{
	uint8_t *meta = f->heap + HEAP_SIZE, *scopes = meta + (512u << 10),
		*pcs = scopes + (16u << 20), *pcs_end = pcs + (4u << 20);

	for (int k = 1; k <= f->nnm; k++) {
		uint8_t *nm = f->nms[k];

		put32(nm, O_NM_META_OFF, meta - nm);
		put64(nm, O_NM_SCOPES_BEGIN, (uintptr_t)scopes);
		put32(nm, O_NM_PCS_OFF, pcs - nm);
		put32(nm, O_NM_DEPS_OFF, pcs_end - nm);
	}
	for (int k = 1; k <= f->nnm; k++) {
		f->recs[2 * (k - 1)] = (uintptr_t)&f->recs[2 * k];
		f->recs[2 * (k - 1) + 1] = (uintptr_t)f->nms[k] + 600;
	}
}

/* Case 2: 100,000 list entries, one JavaThread, its class's fields an
 * Array of 1 << 20 u2s (2 MB, untouched but its length) and _super
 * pointing at itself. */
static void setup_threads(struct fake *f)
{
	size_t n = 100000, arr_size = 8 + (2u << 20);
	uint64_t *list = malloc(n * 8);
	uint8_t *os = page(), *handle = page(), *obj = page(), *arr;

	arr = mmap(NULL, arr_size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!list || arr == MAP_FAILED) {
		perror("fakejvm: threads");
		exit(1);
	}
	put32(arr, 0, 1u << 20);
	f->jt = page();
	f->tklass = page();
	put64(f->tklass, O_K_NAME, (uintptr_t)symbol("java/lang/Thread"));
	put64(f->tklass, O_K_SUPER, (uintptr_t)f->tklass);
	put64(f->tklass, O_IK_CONSTANTS, (uintptr_t)f->cp);
	put64(f->tklass, O_IK_FIELDS, (uintptr_t)arr);
	put16(f->tklass, O_IK_JAVA_COUNT, 0);
	put64(obj, O_OOP_KLASS, (uintptr_t)f->tklass);
	put64(handle, 0, (uintptr_t)obj);
	put64(f->jt, O_JT_OBJ, (uintptr_t)handle);
	put64(f->jt, O_JT_OSTHREAD, (uintptr_t)os);
	put32(os, O_OS_TID, (uint32_t)getpid());
	for (size_t i = 0; i < n; i++)
		list[i] = (uintptr_t)f->jt;
	put32(f->tlist, O_TL_LENGTH, n);
	put64(f->tlist, O_TL_THREADS, (uintptr_t)list);
}

/* n bytes at the very end of a fresh mapping: what follows faults. */
static uint8_t *at_map_end(size_t n)
{
	uint8_t *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("fakejvm: mmap");
		exit(1);
	}
	munmap(p + 4096, 4096);
	return p + 4096 - n;
}

/* A JDK 17 field table of one field at klass k: name and signature as
 * constant pool indexes of f->cp, its offset in the object. */
static void one_field(struct fake *f, uint8_t *k, int name, int sig,
		      uint16_t off)
{
	uint8_t *arr = page();
	uint16_t slots[6] = {0, name, sig, 0, (uint16_t)(off << 2 | 1), 0};

	put32(arr, 0, 6);
	memcpy(arr + O_ARR_U2_DATA, slots, sizeof(slots));
	put64(k, O_IK_FIELDS, (uintptr_t)arr);
	put16(k, O_IK_JAVA_COUNT, 1);
	put64(k, O_IK_CONSTANTS, (uintptr_t)f->cp);
}

/* Strings that run to the end of a mapping: the class name a Symbol of
 * 65,535 bytes with 10 readable, the one Java thread's name a byte[] of
 * 2^31 - 1 bytes with 100 readable. */
static void setup_strings(struct fake *f)
{
	static const char *cp_syms[] = {
	    "name", "Ljava/lang/String;", "value", "[B", "coder", "B"};
	uint8_t *sym = at_map_end(O_SYM_BODY + 10), *list = page();
	uint8_t *os = page(), *handle = page(), *obj = page(), *str = page();
	uint8_t *sk = page(), *arr = at_map_end(24 + 100);

	put16(sym, O_SYM_LENGTH, 65535);
	memset(sym + O_SYM_BODY, 'A', 10);
	put64(f->klass, O_K_NAME, (uintptr_t)sym);
	for (int i = 0; i < 6; i++)
		put64(f->cp, 64 + (2 + i) * 8, (uintptr_t)symbol(cp_syms[i]));
	f->tklass = page();
	one_field(f, f->tklass, 2, 3, 16);
	one_field(f, sk, 4, 5, 16);
	/* coder: a second field of String's, at 24 */
	put32(*(uint8_t **)(sk + O_IK_FIELDS), 0, 12);
	memcpy(*(uint8_t **)(sk + O_IK_FIELDS) + O_ARR_U2_DATA + 12,
	       (uint16_t[6]){0, 6, 7, 0, 24 << 2 | 1, 0}, 12);
	put16(sk, O_IK_JAVA_COUNT, 2);
	put64(arr, O_OOP_KLASS, (uintptr_t)sk); /* any klass */
	put32(arr, 16, 0x7fffffff);
	memset(arr + 24, 'x', 100);
	put64(str, O_OOP_KLASS, (uintptr_t)sk);
	put64(str, 16, (uintptr_t)arr);
	put64(obj, O_OOP_KLASS, (uintptr_t)f->tklass);
	put64(obj, 16, (uintptr_t)str);
	put64(handle, 0, (uintptr_t)obj);
	f->jt = page();
	put64(f->jt, O_JT_OBJ, (uintptr_t)handle);
	put64(f->jt, O_JT_OSTHREAD, (uintptr_t)os);
	put32(os, O_OS_TID, (uint32_t)getpid());
	put64(list, 0, (uintptr_t)f->jt);
	put32(f->tlist, O_TL_LENGTH, 1);
	put64(f->tlist, O_TL_THREADS, (uintptr_t)list);
}

/* Slots of one calloc'd array: 100,000 of anything costs one call. */
static uint8_t *slots(size_t n, size_t size)
{
	uint8_t *p = calloc(n, size);

	if (!p) {
		perror("fakejvm: calloc");
		exit(1);
	}
	return p;
}

/*
 * Many small reads: 100,000 distinct JavaThreads, each object of its own
 * class, each class the first of a chain of 40 distinct supers with no
 * fields: ~100 reads of a few bytes per thread, 10 million per walk of
 * the list, under any byte budget.
 */
static void setup_manythreads(struct fake *f)
{
	size_t n = 100000, chain = 40, kn = n + chain;
	uint8_t *jts = slots(n, 128), *objs = slots(n, 32),
		*ks = slots(kn, 128);
	uint8_t *os = page(), *fields = page();
	uint64_t *list = (uint64_t *)slots(n, 8);

	put32(fields, 0, 0); /* an Array<u2> of length 0 */
	put32(os, O_OS_TID, (uint32_t)getpid());
	for (size_t i = 0; i < kn; i++) {
		uint8_t *k = ks + i * 128;

		put64(k, O_IK_FIELDS, (uintptr_t)fields);
		put64(k, O_IK_CONSTANTS, (uintptr_t)f->cp);
		if (i + 1 < kn)
			put64(k, O_K_SUPER, (uintptr_t)(k + 128));
	}
	for (size_t i = 0; i < n; i++) {
		uint8_t *jt = jts + i * 128, *obj = objs + i * 32;

		put64(obj, O_OOP_KLASS, (uintptr_t)(ks + i * 128));
		put64(jt, 120, (uintptr_t)obj); /* the handle's slot */
		put64(jt, O_JT_OBJ, (uintptr_t)(jt + 120));
		put64(jt, O_JT_OSTHREAD, (uintptr_t)os);
		list[i] = (uintptr_t)jt;
	}
	put32(f->tlist, O_TL_LENGTH, n);
	put64(f->tlist, O_TL_THREADS, (uintptr_t)list);
}

static void setup_churn(struct fake *f)
{
	setup_nmethods(f);
	setup_threads(f);
}

/* Values that change between reads: lengths, offsets and counts
 * rewritten at random, all the time. */
static void tick_churn(struct fake *f)
{
	for (int i = 0; i < 1000; i++) {
		uint8_t *nm = f->nms[1 + rand() % f->nnm];

		put32(f->tlist, O_TL_LENGTH, rand() % 200000);
		put32(nm, O_NM_DEPS_OFF, rand());
		put32(nm, O_CB_SIZE, rand() % 4096);
		put16(f->tklass, O_IK_JAVA_COUNT, rand());
	}
}

/* Case 4: a JavaThread (with its OSThread) per thread of process args[0]. */
static uint64_t *stolen;
static uint32_t nstolen;

static void setup_steal(struct fake *f)
{
	char path[64];
	struct dirent *e;
	DIR *d;

	if (!f->args[0]) {
		fprintf(stderr, "fakejvm: steal PID\n");
		exit(2);
	}
	snprintf(path, sizeof(path), "/proc/%s/task", f->args[0]);
	d = opendir(path);
	if (!d) {
		perror(path);
		exit(1);
	}
	stolen = (uint64_t *)slots(1024, 8);
	while ((e = readdir(d)) && nstolen < 1024) {
		int tid = atoi(e->d_name);
		uint8_t *jt, *os;

		if (tid <= 0)
			continue;
		jt = page();
		os = page();
		put64(jt, O_JT_OSTHREAD, (uintptr_t)os);
		put32(os, O_OS_TID, (uint32_t)tid);
		stolen[nstolen++] = (uintptr_t)jt;
	}
	closedir(d);
	put32(f->tlist, O_TL_LENGTH, nstolen);
	put64(f->tlist, O_TL_THREADS, (uintptr_t)stolen);
}

/* the list full, then empty, every 70 ms */
static void tick_steal(struct fake *f)
{
	static unsigned int n;

	if (++n % (70 / TICK_MS) == 0)
		put32(f->tlist, O_TL_LENGTH,
		      (n / (70 / TICK_MS)) % 2 ? 0 : nstolen);
}

/*
 * reuse: a return address whose code is freed and given again, as
 * HotSpot's code cache does (heap.cpp: a freed block's header marked
 * free, new blocks cut from a free block's end; a compile id never
 * reused). The frame returning to P (in segment 6) belongs, in turn, to
 *   X  a block at segment 4 of 4 segments, frame size REUSE_F1 words
 *   Y  segment 4's block freed (2 segments left free), P's code a new
 *      block at segment 6, frame size REUSE_F2: segment 4's header says
 *      free, its compile id unchanged
 *   Z  a new block at segment 4, its header as X's, frame size REUSE_F2
 *      and a new compile id
 * each with a new compile id, in that order, every REUSE_MS. Its
 * caller's slot for the right frame size returns into the stub
 * "RightCaller", the other one's into "WrongCaller": a walk that took
 * an earlier phase's blob for P lists WrongCaller. The switch is made
 * in three steps 1 ms apart (both slots right; the code; the other slot
 * wrong), so no walk, a few microseconds, sees a slot of another phase
 * than the code it read.
 */
#define REUSE_MS 40
#define REUSE_F1 2
#define REUSE_F2 4
#define REUSE_AT 4 /* the moving blocks' first segment */
#define REUSE_RIGHT 10 /* the two callers' stub blobs: segments */
#define REUSE_WRONG 11

static uint8_t *reuse_pc(struct fake *f)
{
	return f->heap + (REUSE_AT + 2) * SEG + 100;
}

/* a block of len segments at segment k holding an nmethod with frame
 * size fs and compile id cid; 0 in the segment map last */
static void reuse_block(struct fake *f, int k, int len, int fs, uint32_t cid)
{
	uint8_t *b = f->heap + (size_t)k * SEG, *nm = b + HB_SIZE;

	put32(nm, O_CB_SIZE, len * SEG - HB_SIZE);
	put32(nm, O_CB_FRAME_SIZE, fs);
	put64(nm, O_CB_CODE_BEGIN, (uintptr_t)nm + 64);
	put64(nm, O_CB_CODE_END, (uintptr_t)b + len * SEG);
	put64(nm, O_CB_NAME, (uintptr_t) "nmethod");
	put64(nm, O_NM_METHOD, (uintptr_t)f->method);
	put32(nm, O_NM_COMPILE_ID, cid);
	put64(b, 0, len);
	b[O_HB_USED] = 1;
	for (int i = len - 1; i >= 0; i--)
		f->segmap[k + i] = (uint8_t)i;
}

static void reuse_stub(struct fake *f, int k, const char *name)
{
	uint8_t *nm = f->nms[k];

	put32(nm, O_CB_FRAME_SIZE, 0);
	put64(nm, O_CB_NAME, (uintptr_t)name);
	put32(nm, O_NM_COMPILE_ID, 0);
}

/* the caller slots: {fp 0, pc} records past P's frame of each size */
static void reuse_slots(struct fake *f, int right_fs, int wrong_fs)
{
	uint64_t *r = &f->recs[2]; /* P's frame's sp */

	r[right_fs - 1] = (uintptr_t)f->nms[REUSE_RIGHT] + 150;
	if (wrong_fs)
		r[wrong_fs - 1] = (uintptr_t)f->nms[REUSE_WRONG] + 150;
}

static void setup_reuse(struct fake *f)
{
	if (f->nnm <= REUSE_WRONG) {
		fprintf(stderr, "fakejvm: reuse needs %d blobs\n", REUSE_WRONG);
		exit(2);
	}
	reuse_stub(f, REUSE_RIGHT, "RightCaller");
	reuse_stub(f, REUSE_WRONG, "WrongCaller");
	reuse_block(f, REUSE_AT, 4, REUSE_F1, 1);
	f->recs[0] = 0;
	f->recs[1] = (uintptr_t)reuse_pc(f);
	for (int i = 2; i < 2 + REUSE_F2; i++)
		f->recs[i] = 0; /* the saved fps: the walk ends */
	reuse_slots(f, REUSE_F1, REUSE_F2);
}

static void reuse_sleep(void)
{
	struct timespec ts = {0, 1000000L};

	nanosleep(&ts, NULL);
}

static void tick_reuse(struct fake *f)
{
	static unsigned int n, phase;
	static uint32_t cid = 1;
	uint8_t *at = f->heap + REUSE_AT * SEG;
	int next = (phase + 1) % 3 ? REUSE_F2 : REUSE_F1; /* X: F1 */

	if (++n % (REUSE_MS / TICK_MS))
		return;
	reuse_slots(f, REUSE_F1, 0);
	reuse_slots(f, REUSE_F2, 0);
	reuse_sleep();
	phase = (phase + 1) % 3;
	cid++;
	if (phase == 1) { /* Y: the tail of the freed block given again */
		reuse_block(f, REUSE_AT + 2, 2, REUSE_F2, cid);
		put64(at, 0, 2); /* what is left free */
		at[O_HB_USED] = 0;
	} else { /* Z, then X: a whole new block at the same start */
		put32(at + HB_SIZE, O_NM_COMPILE_ID, cid);
		reuse_block(f, REUSE_AT, 4, next, cid);
		memset(at + 2 * SEG, 0, HB_SIZE); /* Y's header overwritten */
	}
	reuse_sleep();
	reuse_slots(f, next, next == REUSE_F1 ? REUSE_F2 : REUSE_F1);
}

struct mode {
	const char *name;
	void (*setup)(struct fake *f);
	void (*tick)(struct fake *f); /* or NULL */
};

static const struct mode modes[] = {
    {"base", NULL, NULL},
    {"nmethods", setup_nmethods, NULL},
    {"threads", setup_threads, NULL},
    {"churn", setup_churn, tick_churn},
    {"strings", setup_strings, NULL},
    {"manythreads", setup_manythreads, NULL},
    {"steal", setup_steal, tick_steal},
    {"reuse", setup_reuse, tick_reuse},
};

/* ---- running ------------------------------------------------------------ */

static struct fake fake;

/* Jump into the code heap with the stack pointer on the records: the
 * sampled thread looks like compiled Java code called from the blobs the
 * records name. Never returns. */
static void *spin(void *arg)
{
	struct fake *f = arg;

	__asm__ volatile("mov %0, %%rsp\n\tjmp *%1"
			 :
			 : "r"(f->recs), "r"(f->nms[0] + 100)
			 : "memory");
	__builtin_unreachable();
}

int main(int argc, char **argv)
{
	const struct mode *m = NULL;
	int nnm = argc > 2 && !strcmp(argv[1], "nmethods") ? atoi(argv[2]) : 24;
	pthread_t t;

	for (size_t i = 0; argc > 1 && i < sizeof(modes) / sizeof(*modes); i++)
		if (!strcmp(argv[1], modes[i].name))
			m = &modes[i];
	if (!m || nnm < 1 || nnm > 1000) {
		fprintf(stderr, "usage: fakejvm base|nmethods|threads|churn|"
				"strings|manythreads|reuse [NMETHODS] | "
				"steal PID\n");
		return 2;
	}
	fake.args = argv + 2;
	open_lib(argv[0]);
	make_method(&fake); /* the nmethods' method */
	make_heap(&fake, nnm);
	make_statics(&fake);
	if (m->setup)
		m->setup(&fake);
	publish_tables();
	if (pthread_create(&t, NULL, spin, &fake)) {
		perror("fakejvm: pthread_create");
		return 1;
	}
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	for (;;) {
		struct timespec ts = {0, TICK_MS * 1000000L};

		if (m->tick)
			m->tick(&fake);
		nanosleep(&ts, NULL);
	}
}
