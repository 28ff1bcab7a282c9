/*
 * hotspot: what a HotSpot JVM publishes about itself, read from outside.
 *
 * libjvm.so exports gHotSpotVMStructs and gHotSpotVMTypes (the tables the
 * serviceability agent reads): for each (type, field) the field's offset
 * or, for a static field, its address; for each type its size. From them
 * we take the offsets that lead from a Method* to its class and method
 * names, and where the template interpreter's code lies. No agent needed;
 * the tables are present in every HotSpot build (JDK 8 to 25 checked
 * names: see hotspot.c).
 *
 * Memory of the JVM is read through a struct hotspot_mem, so the table
 * walk is pure: hotspot__open() reads /proc/PID/mem-equivalents with
 * process_vm_readv, the unit tests read fake tables in their own memory.
 *
 * Nothing here prints; errors come back as -errno (or NULL + errno).
 */
#ifndef MIXPROF_HOTSPOT_H
#define MIXPROF_HOTSPOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Read len bytes at addr of the target: 0 or -errno (-EFAULT). */
struct hotspot_mem {
	int (*read)(void *ctx, uint64_t addr, void *buf, size_t len);
	void *ctx;
};

/* Addresses (in the target) of libjvm.so's exported table variables. */
enum hotspot_sym {
	HS_STRUCTS, /* VMStructEntry *gHotSpotVMStructs */
	HS_S_TYPE, /* uint64_t gHotSpotVMStructEntryTypeNameOffset */
	HS_S_FIELD, /* ...FieldNameOffset */
	HS_S_STATIC, /* ...IsStaticOffset */
	HS_S_OFFSET, /* ...OffsetOffset */
	HS_S_ADDRESS, /* ...AddressOffset */
	HS_S_STRIDE, /* gHotSpotVMStructEntryArrayStride */
	HS_TYPES, /* VMTypeEntry *gHotSpotVMTypes */
	HS_T_TYPE, /* gHotSpotVMTypeEntryTypeNameOffset */
	HS_T_SIZE, /* gHotSpotVMTypeEntrySizeOffset */
	HS_T_STRIDE, /* gHotSpotVMTypeEntryArrayStride */
	HS_NR_SYMS,
};
extern const char *const hotspot_sym_names[HS_NR_SYMS];

/* code heaps: 3 when segmented, else 1; the BPF walk's UNWIND_HEAPS
 * (sampler_abi.h, asserted equal in jvm/jvms.c) */
#define HOTSPOT_MAX_HEAPS 4

/* One CodeHeap: its reserved range and its segment map. */
struct hotspot_heap {
	uint64_t lo, hi; /* _memory: [_low_boundary, _high_boundary) */
	uint64_t segmap; /* _segmap._low: one byte per segment */
	uint32_t log2_seg; /* _log2_segment_size */
};

/*
 * What the BPF walk needs to unwind compiled frames (the code cache and
 * CodeBlob's frame fields) and to resume at a thread's last Java frame
 * (the frame anchor). ok is false when a field of the first group is
 * missing: frames are then walked by frame pointer only. Statics are
 * addresses in the target; heaps are read when the process is opened.
 */
struct hotspot_unwind {
	bool ok;
	bool code_is_offset; /* CodeBlob::_code_offset (int, JDK 23+),
			      * else _code_begin (a pointer) */
	bool fc16; /* _frame_complete_offset is an int16_t (with _kind) */
	uint64_t heaps_addr; /* &CodeCache::_heaps (GrowableArray*) */
	uint32_t off_ga_len, off_ga_data; /* GrowableArray _len, _data */
	uint32_t off_heap_memory, off_heap_segmap, off_heap_log2;
	uint32_t off_vs_low_b, off_vs_high_b, off_vs_low; /* VirtualSpace */
	uint32_t hb_size, off_hb_used; /* sizeof(HeapBlock), its _used */
	uint32_t off_cb_size, off_cb_frame_complete, off_cb_frame_size;
	uint32_t off_cb_code; /* _code_begin or _code_offset */
	uint32_t off_cb_name; /* const char *_name */
	uint32_t off_cb_kind; /* u1 _kind, or HOTSPOT_NO_OFF (JDK < 23) */
	/* nmethod (or CompiledMethod) fields, HOTSPOT_NO_OFF if missing */
	uint32_t off_nm_method, off_nm_compile_id, off_nm_comp_level;
	/* threads: anchors (threads_ok false when any is missing) */
	bool threads_ok;
	uint64_t threads_list_addr; /* &ThreadsSMRSupport::_java_thread_list */
	uint32_t off_tl_length, off_tl_threads; /* ThreadsList */
	uint32_t off_jt_anchor, off_jt_osthread, off_os_tid;
	/* JavaThread::_saved_exception_pc, HOTSPOT_NO_OFF if missing: the pc
	 * a poll in a loop stopped at (the safepoint handler's leaves) */
	uint32_t off_jt_saved_pc;
	uint32_t off_fa_sp, off_fa_pc, off_fa_fp; /* JavaFrameAnchor */
	uint32_t nheaps;
	struct hotspot_heap heap[HOTSPOT_MAX_HEAPS];
};

/* What naming an interpreted frame needs. */
struct hotspot_layout {
	uint64_t interp_start, interp_end; /* the interpreter's code */
	uint32_t off_const_method; /* Method::_constMethod */
	uint32_t off_constants; /* ConstMethod::_constants */
	uint32_t off_name_index; /* ConstMethod::_name_index */
	uint32_t off_pool_holder; /* ConstantPool::_pool_holder */
	uint32_t cp_size; /* sizeof(ConstantPool): its slots follow */
	uint32_t
	    cm_size; /* sizeof(ConstMethod), bytecodes follow; 0: unknown */
	uint32_t off_klass_name; /* Klass::_name */
	uint32_t off_sym_length; /* Symbol::_length (u2) */
	uint32_t off_sym_body; /* Symbol::_body */
	/* Symbol::_hash_and_refcount, or HOTSPOT_NO_OFF: a random 16-bit
	 * identity hash in the upper half, new for each Symbol created */
	uint32_t off_sym_hash;
	/* where to find the interpreter (it is generated at start-up) */
	uint64_t interp_code_addr; /* &AbstractInterpreter::_code */
	uint32_t off_stub_buffer; /* StubQueue::_stub_buffer */
	uint32_t off_buffer_limit; /* StubQueue::_buffer_limit */
	/* the codelets in it (icodelets.h), or HOTSPOT_NO_OFF */
	uint32_t off_queue_begin, off_queue_end; /* StubQueue's, ints */
	uint32_t off_codelet_size; /* InterpreterCodelet::_size (int) */
	uint32_t off_codelet_desc; /* InterpreterCodelet::_description */
	struct hotspot_unwind u; /* what unwinding compiled frames needs */
};
/* no such field; sampler_abi.h's INTERP_NO_OFF (asserted equal) */
#define HOTSPOT_NO_OFF 0xffffffffu

/*
 * Fill *out from the tables, syms[] giving the variables' addresses: the
 * tables are read by vmstructs__read() (vmstructs.h), the one reader of
 * them, and the fields above taken from its dictionary.
 * 0; -ENOENT when a field we need is missing (not HotSpot, or a layout we
 * do not know); -EAGAIN when the interpreter is not generated yet (the
 * JVM is starting: ask again later); -EFAULT on unreadable memory.
 */
int hotspot__layout_read(const struct hotspot_mem *m,
			 const uint64_t syms[HS_NR_SYMS],
			 struct hotspot_layout *out);

/*
 * The code heaps of the JVM, from CodeCache::_heaps, into u->heap (the
 * offsets in u already read). 0; -EAGAIN when there are none yet; -EFAULT
 * on unreadable memory; -E2BIG with more heaps than HOTSPOT_MAX_HEAPS.
 */
int hotspot__heaps_read(const struct hotspot_mem *m, struct hotspot_unwind *u);

/*
 * A ThreadsList longer than this is junk, not a JVM's (each Java thread
 * costs the JVM a stack and the kernel a task: 100,000 is past what a
 * host runs; the threads-max of a 64 GB machine is ~500,000 for all its
 * processes). Readers refuse such a list; how many of a sane list's
 * threads get frame anchors is the sampler's JAVA_THREADS_PER_JVM.
 */
#define HOTSPOT_MAX_THREADS 100000

/* One Java thread: its kernel tid and its JavaThread*. */
struct hotspot_thread {
	uint32_t tid;
	uint64_t thread;
};

/*
 * The JVM's Java threads now (ThreadsSMRSupport::_java_thread_list), at
 * most cap of them into out, each JavaThread once: how many, or -EFAULT,
 * -ENOENT (no thread layout), -ENOMEM. Threads whose OSThread is
 * unreadable are skipped.
 */
int hotspot__threads_read(const struct hotspot_mem *m,
			  const struct hotspot_unwind *u,
			  struct hotspot_thread *out, int cap);
/* The distinct non-zero values of a[0..n), sorted, moved to its front:
 * how many (a thread list's JavaThreads, each once). */
uint32_t hotspot__distinct(uint64_t *a, uint32_t n);

/*
 * The text of Symbol* sym into buf (NUL-terminated, at most cap - 1
 * bytes): its length, or -EFAULT (unreadable), -EINVAL (empty, longer
 * than cap - 1, or holding control characters: not a Symbol). *hash
 * (when hash is not NULL) gets its identity hash, -1 when the layout has
 * none. The one reader of Symbols.
 */
int hotspot__symbol(const struct hotspot_mem *m, const struct hotspot_layout *l,
		    uint64_t sym, char *buf, size_t cap, int32_t *hash);

/*
 * "pkg/Class.method" from a class and a method name, the way the agent
 * names compiled code, so interpreted and compiled frames of one method
 * fold together: a hidden class's "/0x...", "+0x..." or ".0x..." suffix
 * is dropped. The length written, or -ENOSPC.
 */
int hotspot__frame_name(char *out, size_t cap, const char *klass,
			const char *method);

/*
 * A class's internal name (a Klass's Symbol: "[[I", "[Ljava/lang/String;",
 * "java/util/HashMap$Node") as Java writes it ("int[][]",
 * "java.lang.String[]", "java.util.HashMap$Node"). The length written,
 * or -ENOSPC.
 */
int hotspot__java_class_name(char *out, size_t cap, const char *in);

/* One JVM process: libjvm.so found, its tables read. */
struct hotspot;

/*
 * NULL and errno: ENOENT (no libjvm.so mapped: not a JVM, or not yet),
 * EAGAIN (starting), ESRCH (gone), ENOMEM, or what layout_read says.
 */
struct hotspot *hotspot__open(uint32_t pid);
const struct hotspot_layout *hotspot__layout(const struct hotspot *h);
/*
 * The interpreter's code range read again now (the layout keeps the one
 * read at open): JDK 22+ frees the unused tail of the interpreter's
 * buffer once it is generated, and later stubs are made in it. 0, or
 * -EFAULT / -EAGAIN.
 */
int hotspot__interp_range(struct hotspot *h, uint64_t *start, uint64_t *end);
/*
 * The interpreter's method entries, [*lo, *hi) (icodelets.h): 0, or
 * -ENOENT (none found, or the layout has no codelet fields), -EAGAIN,
 * -EFAULT.
 */
int hotspot__interp_entries(struct hotspot *h, uint64_t *lo, uint64_t *hi);
/*
 * Method* -> the Symbol*s of its holder's name and its own name, read now
 * (the chain the BPF walk reads at sample time). 0 or -EFAULT.
 */
int hotspot__method_symbols(struct hotspot *h, uint64_t method,
			    uint64_t *klass_sym, uint64_t *name_sym);
/*
 * The internal name of the class at Klass* klass ("java/lang/String",
 * "[I"), read now: its length, or what hotspot__symbol() says.
 */
int hotspot__klass_name(struct hotspot *h, uint64_t klass, char *buf,
			size_t cap);
/* The unwinder's offsets and heaps, one line into buf: its length. */
int hotspot__unwind_describe(const struct hotspot_unwind *u, char *buf,
			     size_t cap);

void hotspot__free(struct hotspot *h);
/*
 * The JVM's whole self-description (vmstructs.h: fields, types,
 * constants), read once per JVM and lent to its namers (jnamer.h,
 * jlocks.h): kept from hotspot__open's read of the layout, else read
 * on the first call. Owned by h (valid until hotspot__free); NULL and
 * errno as vmstructs__open, asked again next time.
 */
struct vmstructs;
struct vmstructs *hotspot__vmstructs(struct hotspot *h);
/*
 * Where a JVM made by hotspot__from_mem has its tables: syms[] as for
 * hotspot__layout_read, csyms[] vmstructs.h's VMC_NR_SYMS (the tests').
 */
void hotspot__tables_at(struct hotspot *h, const uint64_t syms[HS_NR_SYMS],
			const uint64_t *csyms);
/*
 * A JVM whose layout was read already, reading memory through m (copied;
 * its ctx must outlive h): what jvms.h's open_jvm gives the naming
 * tests. NULL and errno (ENOMEM).
 */
struct hotspot *hotspot__from_mem(uint32_t pid, const struct hotspot_mem *m,
				  const struct hotspot_layout *l);

/*
 * The path (as pid sees it) of the libjvm.so pid maps, into path: 0,
 * -ENOENT (none mapped) or -ESRCH.
 */
int hotspot__libjvm(uint32_t pid, char *path, size_t cap);

/* ---- appended: what the compiled-code namer needs of a live JVM ---- */

/* The reader of h's memory (process_vm_readv), valid while h lives. */
const struct hotspot_mem *hotspot__mem(const struct hotspot *h);
/*
 * The addresses in pid of libjvm.so's variables names[0..n-1] (exported,
 * or local ones its .symtab names)
 * into vals[]: 0, -ENOENT (no libjvm.so, or a name it does not export),
 * -ESRCH, or -errno of opening the library.
 */
int hotspot__jvm_syms(uint32_t pid, const char *const *names, int n,
		      uint64_t *vals);

/* A set of names to look up in libjvm.so, and what it gave. */
struct hotspot_syms {
	const char *const *names;
	int n;
	uint64_t *vals; /* n: addresses in the target, 0 where missing */
	int err; /* 0, or -ENOENT: a name of the set missing */
};
/*
 * hotspot__jvm_syms for several sets at once: libjvm.so opened and its
 * symbols read once. 0 (each set's err says whether it is whole),
 * -ENOENT (no libjvm.so), -ESRCH, -ENOMEM, or -errno of opening it.
 */
int hotspot__jvm_sym_sets(uint32_t pid, struct hotspot_syms *sets, int nsets);

/*
 * "pkg/Class.method" of Method* method (hotspot__frame_name's form), read
 * now: its length, -EFAULT, -EINVAL (not Symbols), or -ENOSPC.
 */
int hotspot__method_name(const struct hotspot_mem *m,
			 const struct hotspot_layout *l, uint64_t method,
			 char *buf, size_t cap);

#endif
