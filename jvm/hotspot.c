// SPDX-License-Identifier: GPL-2.0
/*
 * hotspot: HotSpot's VMStructs tables, read from outside (see hotspot.h).
 *
 * Field names used (vmStructs.cpp, the same in JDK 17 and 25):
 * Method::_constMethod, ConstMethod::_constants, ConstMethod::_name_index,
 * ConstantPool::_pool_holder, Klass::_name, Symbol::_length,
 * Symbol::_body, AbstractInterpreter::_code (static StubQueue*),
 * StubQueue::_stub_buffer, StubQueue::_buffer_limit; type ConstantPool.
 * For the unwinder (all or none; JDK 17 and 25 checked): CodeCache::_heaps
 * (static), GrowableArrayBase::_len, GrowableArray<int>::_data,
 * CodeHeap::_memory/_segmap/_log2_segment_size, VirtualSpace::
 * _low_boundary/_high_boundary/_low, HeapBlock::Header::_used,
 * CodeBlob::_size/_frame_complete_offset/_frame_size/_name and
 * _code_begin (JDK < 23) or _code_offset, optional _kind; nmethod (or
 * CompiledMethod) ::_method, _compile_id, _comp_level; type HeapBlock.
 * For frame anchors: ThreadsSMRSupport::_java_thread_list (static),
 * ThreadsList::_length/_threads, JavaThread::_anchor, JavaThread:: or
 * Thread::_osthread, OSThread::_thread_id, JavaFrameAnchor::
 * _last_Java_sp/_pc/_fp. For the interpreter's method entries
 * (optional): StubQueue::_queue_begin/_queue_end, InterpreterCodelet::
 * _size/_description.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include "common/procfs.h"
#include "common/safefile.h"
#include "common/stop.h"
#include "hotspot.h"
#include "icodelets.h"
#include "vthread.h"
#include "vmstructs.h"

const char *const hotspot_sym_names[HS_NR_SYMS] = {
    [HS_STRUCTS] = "gHotSpotVMStructs",
    [HS_S_TYPE] = "gHotSpotVMStructEntryTypeNameOffset",
    [HS_S_FIELD] = "gHotSpotVMStructEntryFieldNameOffset",
    [HS_S_STATIC] = "gHotSpotVMStructEntryIsStaticOffset",
    [HS_S_OFFSET] = "gHotSpotVMStructEntryOffsetOffset",
    [HS_S_ADDRESS] = "gHotSpotVMStructEntryAddressOffset",
    [HS_S_STRIDE] = "gHotSpotVMStructEntryArrayStride",
    [HS_TYPES] = "gHotSpotVMTypes",
    [HS_T_TYPE] = "gHotSpotVMTypeEntryTypeNameOffset",
    [HS_T_SIZE] = "gHotSpotVMTypeEntrySizeOffset",
    [HS_T_STRIDE] = "gHotSpotVMTypeEntryArrayStride",
};

/* libjvm.so under the process's root: opened as what the target
 * controls (safefile.h), so a planted FIFO cannot hang us */
static const struct safe_in libjvm_file = {.uid = SAFE_ANY_UID,
					   .max_size = 4ULL << 30};

/* The fields we want: where each lands, and whether it was found. */
enum want {
	W_CONST_METHOD,
	W_CONSTANTS,
	W_NAME_INDEX,
	W_POOL_HOLDER,
	W_KLASS_NAME,
	W_SYM_LENGTH,
	W_SYM_BODY,
	W_SYM_HASH, /* optional */
	W_INTERP_CODE, /* static: an address */
	W_STUB_BUFFER,
	W_BUFFER_LIMIT,
	/* the unwinder's (optional as a whole: hotspot_unwind.ok) */
	W_CC_HEAPS, /* static */
	W_GA_LEN,
	W_GA_DATA,
	W_HEAP_MEMORY,
	W_HEAP_SEGMAP,
	W_HEAP_LOG2,
	W_VS_LOW_B,
	W_VS_HIGH_B,
	W_VS_LOW,
	W_HB_USED,
	W_CB_SIZE,
	W_CB_FRAME_COMPLETE,
	W_CB_FRAME_SIZE,
	W_CB_NAME,
	W_UNWIND_LAST = W_CB_NAME,
	W_CB_CODE_BEGIN, /* JDK < 23 */
	W_CB_CODE_OFFSET, /* JDK 23+ */
	W_CB_KIND, /* JDK 23+ */
	W_NM_METHOD, /* JDK 23+; before, CompiledMethod's */
	W_CM_METHOD,
	W_NM_COMPILE_ID,
	W_NM_COMP_LEVEL,
	/* frame anchors (optional as a whole: threads_ok) */
	W_TL_LIST, /* static */
	W_TL_LENGTH,
	W_TL_THREADS,
	W_JT_ANCHOR,
	W_JT_SAVED_PC, /* optional */
	W_JT_OSTHREAD, /* JDK < 21; later Thread's */
	W_T_OSTHREAD,
	W_OS_TID,
	W_FA_SP,
	W_FA_PC,
	W_FA_FP,
	/* the interpreter's codelets (optional: icodelets.h) */
	W_QUEUE_BEGIN,
	W_QUEUE_END,
	W_CODELET_SIZE,
	W_CODELET_DESC,
	W_NR,
};

static const struct {
	const char *type, *field;
} wanted[W_NR] = {
    [W_CONST_METHOD] = {"Method", "_constMethod"},
    [W_CONSTANTS] = {"ConstMethod", "_constants"},
    [W_NAME_INDEX] = {"ConstMethod", "_name_index"},
    [W_POOL_HOLDER] = {"ConstantPool", "_pool_holder"},
    [W_KLASS_NAME] = {"Klass", "_name"},
    [W_SYM_LENGTH] = {"Symbol", "_length"},
    [W_SYM_BODY] = {"Symbol", "_body"},
    [W_SYM_HASH] = {"Symbol", "_hash_and_refcount"},
    [W_INTERP_CODE] = {"AbstractInterpreter", "_code"},
    [W_STUB_BUFFER] = {"StubQueue", "_stub_buffer"},
    [W_BUFFER_LIMIT] = {"StubQueue", "_buffer_limit"},
    [W_CC_HEAPS] = {"CodeCache", "_heaps"},
    [W_GA_LEN] = {"GrowableArrayBase", "_len"},
    [W_GA_DATA] = {"GrowableArray<int>", "_data"},
    [W_HEAP_MEMORY] = {"CodeHeap", "_memory"},
    [W_HEAP_SEGMAP] = {"CodeHeap", "_segmap"},
    [W_HEAP_LOG2] = {"CodeHeap", "_log2_segment_size"},
    [W_VS_LOW_B] = {"VirtualSpace", "_low_boundary"},
    [W_VS_HIGH_B] = {"VirtualSpace", "_high_boundary"},
    [W_VS_LOW] = {"VirtualSpace", "_low"},
    [W_HB_USED] = {"HeapBlock::Header", "_used"},
    [W_CB_SIZE] = {"CodeBlob", "_size"},
    [W_CB_FRAME_COMPLETE] = {"CodeBlob", "_frame_complete_offset"},
    [W_CB_FRAME_SIZE] = {"CodeBlob", "_frame_size"},
    [W_CB_NAME] = {"CodeBlob", "_name"},
    [W_CB_CODE_BEGIN] = {"CodeBlob", "_code_begin"},
    [W_CB_CODE_OFFSET] = {"CodeBlob", "_code_offset"},
    [W_CB_KIND] = {"CodeBlob", "_kind"},
    [W_NM_METHOD] = {"nmethod", "_method"},
    [W_CM_METHOD] = {"CompiledMethod", "_method"},
    [W_NM_COMPILE_ID] = {"nmethod", "_compile_id"},
    [W_NM_COMP_LEVEL] = {"nmethod", "_comp_level"},
    [W_TL_LIST] = {"ThreadsSMRSupport", "_java_thread_list"},
    [W_TL_LENGTH] = {"ThreadsList", "_length"},
    [W_TL_THREADS] = {"ThreadsList", "_threads"},
    [W_JT_ANCHOR] = {"JavaThread", "_anchor"},
    [W_JT_SAVED_PC] = {"JavaThread", "_saved_exception_pc"},
    [W_JT_OSTHREAD] = {"JavaThread", "_osthread"},
    [W_T_OSTHREAD] = {"Thread", "_osthread"},
    [W_OS_TID] = {"OSThread", "_thread_id"},
    [W_FA_SP] = {"JavaFrameAnchor", "_last_Java_sp"},
    [W_FA_PC] = {"JavaFrameAnchor", "_last_Java_pc"},
    [W_FA_FP] = {"JavaFrameAnchor", "_last_Java_fp"},
    [W_QUEUE_BEGIN] = {"StubQueue", "_queue_begin"},
    [W_QUEUE_END] = {"StubQueue", "_queue_end"},
    [W_CODELET_SIZE] = {"InterpreterCodelet", "_size"},
    [W_CODELET_DESC] = {"InterpreterCodelet", "_description"},
};

static int rd(const struct hotspot_mem *m, uint64_t addr, void *buf, size_t len)
{
	return addr ? m->read(m->ctx, addr, buf, len) : -EFAULT;
}

static int rd_u64(const struct hotspot_mem *m, uint64_t addr, uint64_t *v)
{
	return rd(m, addr, v, sizeof(*v));
}

/* Each wanted field's offset (or address, for statics) in val[], found[]
 * saying which the JVM publishes. */
static void wanted_fields(const struct vmstructs *vs, uint64_t val[W_NR],
			  bool found[W_NR])
{
	for (int i = 0; i < W_NR; i++)
		found[i] = !vmstructs__field(vs, wanted[i].type,
					     wanted[i].field, &val[i]);
}

/* A found field's value, or HOTSPOT_NO_OFF. */
static uint32_t opt_off(const uint64_t *val, const bool *found, int w)
{
	return found[w] ? (uint32_t)val[w] : HOTSPOT_NO_OFF;
}

/* Anchors: the thread list, each thread's tid and frame anchor. */
static void unwind_threads(const uint64_t *val, const bool *found,
			   struct hotspot_unwind *u)
{
	int os = found[W_JT_OSTHREAD] ? W_JT_OSTHREAD : W_T_OSTHREAD;

	u->threads_ok = found[W_TL_LIST] && found[W_TL_LENGTH] &&
			found[W_TL_THREADS] && found[W_JT_ANCHOR] &&
			found[os] && found[W_OS_TID] && found[W_FA_SP] &&
			found[W_FA_PC] && found[W_FA_FP];
	if (!u->threads_ok)
		return;
	u->threads_list_addr = val[W_TL_LIST];
	u->off_tl_length = val[W_TL_LENGTH];
	u->off_tl_threads = val[W_TL_THREADS];
	u->off_jt_anchor = val[W_JT_ANCHOR];
	u->off_jt_saved_pc = opt_off(val, found, W_JT_SAVED_PC);
	u->off_jt_osthread = val[os];
	u->off_os_tid = val[W_OS_TID];
	u->off_fa_sp = val[W_FA_SP];
	u->off_fa_pc = val[W_FA_PC];
	u->off_fa_fp = val[W_FA_FP];
}

/*
 * The unwinder's offsets. JDK 23 turned CodeBlob's code pointers into
 * int offsets from the blob, added _kind and narrowed
 * _frame_complete_offset to an int16_t: _kind tells the layouts apart.
 */
static void unwind_offsets(const struct vmstructs *vs, const uint64_t *val,
			   const bool *found, struct hotspot_unwind *u)
{
	int i;

	memset(u, 0, sizeof(*u));
	for (i = W_CC_HEAPS; i <= W_UNWIND_LAST; i++)
		if (!found[i])
			return;
	if (found[W_CB_CODE_OFFSET] == found[W_CB_CODE_BEGIN])
		return;
	u->code_is_offset = found[W_CB_CODE_OFFSET];
	u->fc16 = found[W_CB_KIND];
	u->heaps_addr = val[W_CC_HEAPS];
	u->off_ga_len = val[W_GA_LEN];
	u->off_ga_data = val[W_GA_DATA];
	u->off_heap_memory = val[W_HEAP_MEMORY];
	u->off_heap_segmap = val[W_HEAP_SEGMAP];
	u->off_heap_log2 = val[W_HEAP_LOG2];
	u->off_vs_low_b = val[W_VS_LOW_B];
	u->off_vs_high_b = val[W_VS_HIGH_B];
	u->off_vs_low = val[W_VS_LOW];
	u->off_hb_used = val[W_HB_USED];
	u->off_cb_size = val[W_CB_SIZE];
	u->off_cb_frame_complete = val[W_CB_FRAME_COMPLETE];
	u->off_cb_frame_size = val[W_CB_FRAME_SIZE];
	u->off_cb_name = val[W_CB_NAME];
	u->off_cb_code =
	    val[u->code_is_offset ? W_CB_CODE_OFFSET : W_CB_CODE_BEGIN];
	u->off_cb_kind = opt_off(val, found, W_CB_KIND);
	u->off_nm_method = found[W_NM_METHOD]
			       ? (uint32_t)val[W_NM_METHOD]
			       : opt_off(val, found, W_CM_METHOD);
	u->off_nm_compile_id = opt_off(val, found, W_NM_COMPILE_ID);
	u->off_nm_comp_level = opt_off(val, found, W_NM_COMP_LEVEL);
	u->hb_size = vmstructs__type_size(vs, "HeapBlock");
	unwind_threads(val, found, u);
	u->ok = u->hb_size > 0 && u->hb_size <= 64;
}

/* The offsets interpreted-frame naming and the unwinder need. */
static int layout_from(const struct vmstructs *vs, struct hotspot_layout *out)
{
	uint64_t val[W_NR] = {};
	bool found[W_NR] = {};

	wanted_fields(vs, val, found);
	for (int i = 0; i < W_CC_HEAPS; i++)
		if (!found[i] && i != W_SYM_HASH)
			return -ENOENT;
	out->off_const_method = val[W_CONST_METHOD];
	out->off_constants = val[W_CONSTANTS];
	out->off_name_index = val[W_NAME_INDEX];
	out->off_pool_holder = val[W_POOL_HOLDER];
	out->off_klass_name = val[W_KLASS_NAME];
	out->off_sym_length = val[W_SYM_LENGTH];
	out->off_sym_body = val[W_SYM_BODY];
	out->off_sym_hash =
	    found[W_SYM_HASH] ? val[W_SYM_HASH] : HOTSPOT_NO_OFF;
	out->interp_code_addr = val[W_INTERP_CODE];
	out->off_stub_buffer = val[W_STUB_BUFFER];
	out->off_buffer_limit = val[W_BUFFER_LIMIT];
	out->off_queue_begin = opt_off(val, found, W_QUEUE_BEGIN);
	out->off_queue_end = opt_off(val, found, W_QUEUE_END);
	out->off_codelet_size = opt_off(val, found, W_CODELET_SIZE);
	out->off_codelet_desc = opt_off(val, found, W_CODELET_DESC);
	out->cp_size = vmstructs__type_size(vs, "ConstantPool");
	/* for --lines only: not required */
	out->cm_size = (uint32_t)vmstructs__type_size(vs, "ConstMethod");
	if (out->cm_size > 4096)
		out->cm_size = 0;
	unwind_offsets(vs, val, found, &out->u);
	return out->cp_size ? 0 : -ENOENT;
}

/*
 * The field offsets of the tables (one libjvm.so build's constants),
 * through the one reader of the tables (vmstructs.h).
 */
static int layout_offsets(const struct hotspot_mem *m,
			  const uint64_t syms[HS_NR_SYMS],
			  struct hotspot_layout *out)
{
	struct vmstructs *vs = vmstructs__read(m, syms, NULL);
	int ret;

	if (!vs)
		return -errno;
	ret = layout_from(vs, out);
	vmstructs__free(vs);
	return ret;
}

/* The interpreter's code range, once the JVM has generated it. */
static int locate_interp(const struct hotspot_mem *m,
			 struct hotspot_layout *out)
{
	uint64_t queue, buf;
	int32_t limit;

	if (rd_u64(m, out->interp_code_addr, &queue))
		return -EFAULT;
	if (!queue)
		return -EAGAIN;
	if (rd_u64(m, queue + out->off_stub_buffer, &buf) ||
	    rd(m, queue + out->off_buffer_limit, &limit, sizeof(limit)))
		return -EFAULT;
	if (!buf || limit <= 0)
		return -EAGAIN;
	out->interp_start = buf;
	out->interp_end = buf + limit;
	return 0;
}

#define MAX_LOG2_SEG 16 /* CodeCacheSegmentSize: 64 or 128 in practice */

/* One CodeHeap at addr into *out. */
static int heap_read(const struct hotspot_mem *m,
		     const struct hotspot_unwind *u, uint64_t addr,
		     struct hotspot_heap *out)
{
	uint64_t mem = addr + u->off_heap_memory;
	int32_t log2 = 0;

	if (rd_u64(m, mem + u->off_vs_low_b, &out->lo) ||
	    rd_u64(m, mem + u->off_vs_high_b, &out->hi) ||
	    rd_u64(m, addr + u->off_heap_segmap + u->off_vs_low,
		   &out->segmap) ||
	    rd(m, addr + u->off_heap_log2, &log2, sizeof(log2)))
		return -EFAULT;
	if (!out->lo || out->hi <= out->lo || !out->segmap || log2 < 4 ||
	    log2 > MAX_LOG2_SEG)
		return -EFAULT;
	out->log2_seg = log2;
	return 0;
}

int hotspot__heaps_read(const struct hotspot_mem *m, struct hotspot_unwind *u)
{
	uint64_t ga, data, heap;
	int32_t len;
	int ret;

	u->nheaps = 0;
	if (rd_u64(m, u->heaps_addr, &ga))
		return -EFAULT;
	if (!ga)
		return -EAGAIN;
	if (rd(m, ga + u->off_ga_len, &len, sizeof(len)) ||
	    rd_u64(m, ga + u->off_ga_data, &data))
		return -EFAULT;
	if (len <= 0)
		return -EAGAIN;
	if (len > HOTSPOT_MAX_HEAPS)
		return -E2BIG;
	for (int i = 0; i < len; i++) {
		if (rd_u64(m, data + 8 * i, &heap))
			return -EFAULT;
		ret = heap_read(m, u, heap, &u->heap[i]);
		if (ret)
			return ret;
	}
	u->nheaps = len;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

uint32_t hotspot__distinct(uint64_t *a, uint32_t n)
{
	uint32_t k = 0;

	qsort(a, n, sizeof(*a), cmp_u64);
	for (uint32_t i = 0; i < n; i++)
		if (a[i] && (!k || a[i] != a[k - 1]))
			a[k++] = a[i];
	return k;
}

/*
 * The list's entries in one read (it is read every tick: one read per
 * entry was 300,000 system calls a tick for a forged list of 100,000),
 * each JavaThread once.
 */
int hotspot__threads_read(const struct hotspot_mem *m,
			  const struct hotspot_unwind *u,
			  struct hotspot_thread *out, int cap)
{
	uint64_t list, threads, *jts, os;
	uint32_t len, tid;
	int n = 0;

	if (!u->threads_ok)
		return -ENOENT;
	if (rd_u64(m, u->threads_list_addr, &list) || !list ||
	    rd(m, list + u->off_tl_length, &len, sizeof(len)) ||
	    rd_u64(m, list + u->off_tl_threads, &threads))
		return -EFAULT;
	if (len > HOTSPOT_MAX_THREADS)
		return -EFAULT;
	jts = malloc(len ? len * 8ul : 1);
	if (!jts)
		return -ENOMEM;
	if (len && rd(m, threads, jts, len * 8ul)) {
		free(jts);
		return -EFAULT;
	}
	len = hotspot__distinct(jts, len);
	for (uint32_t i = 0; i < len && n < cap; i++) {
		if (rd_u64(m, jts[i] + u->off_jt_osthread, &os) || !os ||
		    rd(m, os + u->off_os_tid, &tid, sizeof(tid)) || !tid)
			continue;
		out[n].tid = tid;
		out[n].thread = jts[i];
		n++;
	}
	free(jts);
	return n;
}

int hotspot__layout_read(const struct hotspot_mem *m,
			 const uint64_t syms[HS_NR_SYMS],
			 struct hotspot_layout *out)
{
	int ret = layout_offsets(m, syms, out);

	return ret ? ret : locate_interp(m, out);
}

/*
 * A Symbol's header and the start of its body in one read when they lie
 * in one page (a read within a page cannot fail halfway): names are read
 * again and again, so this halves the reads. 0 when buf holds it all.
 */
static int symbol_one_read(const struct hotspot_mem *m,
			   const struct hotspot_layout *l, uint64_t sym,
			   char *buf, size_t cap, uint16_t *len, uint32_t *hr)
{
	uint8_t tmp[256];
	size_t want = l->off_sym_body + cap - 1,
	       page_left = 4096 - (sym & 4095);

	if (want > page_left)
		want = page_left;
	if (want > sizeof(tmp))
		want = sizeof(tmp);
	if (want < l->off_sym_body || l->off_sym_length + 2 > want ||
	    (l->off_sym_hash != HOTSPOT_NO_OFF && l->off_sym_hash + 4 > want) ||
	    rd(m, sym, tmp, want))
		return -EAGAIN;
	memcpy(len, tmp + l->off_sym_length, sizeof(*len));
	if (!*len || *len >= cap || l->off_sym_body + *len > want)
		return -EAGAIN;
	if (l->off_sym_hash != HOTSPOT_NO_OFF)
		memcpy(hr, tmp + l->off_sym_hash, sizeof(*hr));
	memcpy(buf, tmp + l->off_sym_body, *len);
	return 0;
}

int hotspot__symbol(const struct hotspot_mem *m, const struct hotspot_layout *l,
		    uint64_t sym, char *buf, size_t cap, int32_t *hash)
{
	uint32_t hr = 0;
	uint16_t len;

	if (!sym)
		return -EFAULT;
	if (symbol_one_read(m, l, sym, buf, cap, &len, &hr)) {
		if (rd(m, sym + l->off_sym_length, &len, sizeof(len)))
			return -EFAULT;
		if (!len || len >= cap)
			return -EINVAL;
		if (rd(m, sym + l->off_sym_body, buf, len) ||
		    (l->off_sym_hash != HOTSPOT_NO_OFF &&
		     rd(m, sym + l->off_sym_hash, &hr, sizeof(hr))))
			return -EFAULT;
	}
	buf[len] = '\0';
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f)
			return -EINVAL;
	if (hash)
		*hash = l->off_sym_hash == HOTSPOT_NO_OFF ? -1
							  : (int32_t)(hr >> 16);
	return len;
}

static bool all_hex(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!strchr("0123456789abcdefABCDEF", s[i]))
			return false;
	return true;
}

/* The agent's rule: drop a trailing "/0x<hex>", "+0x<hex>", ".0x<hex>". */
static size_t strip_hidden(const char *s, size_t n)
{
	for (size_t i = n; i >= 4; i--) {
		char sep = s[i - 3];

		if ((sep == '/' || sep == '+' || sep == '.') &&
		    s[i - 2] == '0' && s[i - 1] == 'x' && all_hex(s + i, n - i))
			return i - 3;
	}
	return n;
}

int hotspot__frame_name(char *out, size_t cap, const char *klass,
			const char *method)
{
	size_t kn = strip_hidden(klass, strlen(klass));
	int n = snprintf(out, cap, "%.*s.%s", (int)kn, klass, method);

	return n < 0 || (size_t)n >= cap ? -ENOSPC : n;
}

/* ---- a live process ----------------------------------------------------- */

struct hotspot {
	uint32_t pid;
	struct hotspot_mem mem;
	struct hotspot_layout layout;
	/* the JVM's tables, read once on the first ask and lent
	 * (hotspot__vmstructs) */
	struct vmstructs *vs;
	/* where they lie, when known (hotspot__tables_at: the layout's
	 * lookup, or a fake JVM's) */
	bool at_set;
	uint64_t syms[HS_NR_SYMS], csyms[VMC_NR_SYMS];
};

static int vm_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct hotspot *h = ctx;
	struct iovec local = {buf, len}, remote = {(void *)addr, len};
	ssize_t n;

	/* told to stop, past the grace: every loop reading the target
	 * (tables, threads, methods) fails at once, the run writes */
	if (stop__hurry())
		return -EINTR;
	n = process_vm_readv(h->pid, &local, 1, &remote, 1, 0);
	if (n == (ssize_t)len)
		return 0;
	return n < 0 && errno == ESRCH ? -ESRCH : -EFAULT;
}

/*
 * libjvm.so in /proc/PID/maps: its path and the start of the mapping of
 * file offset 0. 0, -ENOENT, or -ESRCH.
 */
static int find_libjvm(uint32_t pid, char *path, size_t cap, uint64_t *start)
{
	const char *p, *end;
	struct procfs_map m;
	size_t len;
	char *buf;
	int ret, r;

	if (procfs__read_pid(pid, "maps", PROCFS_MAPS_MAX, &buf, &len))
		return -ESRCH;
	ret = -ENOENT;
	/* r < 0: a line that does not parse, skipped */
	for (p = buf, end = buf + len;
	     ret && (r = procfs__maps_next(&p, end, &m));) {
		/* the file read by path: not one shown " (deleted)" */
		if (r < 0 || m.offset || m.path_len < 10 ||
		    memcmp(m.path + m.path_len - 10, "/libjvm.so", 10))
			continue;
		snprintf(path, cap, "%.*s", (int)m.path_len, m.path);
		*start = m.start;
		ret = 0;
	}
	free(buf);
	return ret;
}

int hotspot__java_class_name(char *out, size_t cap, const char *in)
{
	static const char prim[] = "BCDFIJSZ";
	static const char *const pname[] = {"byte",  "char",   "double",
					    "float", "int",    "long",
					    "short", "boolean"};
	int dims = 0, n;
	const char *p;

	while (in[dims] == '[')
		dims++;
	in += dims;
	if (dims && *in == 'L') {
		in++;
		n = snprintf(out, cap, "%.*s", (int)strcspn(in, ";"), in);
	} else if (dims && in[0] && !in[1] && (p = strchr(prim, in[0]))) {
		n = snprintf(out, cap, "%s", pname[p - prim]);
	} else {
		n = snprintf(out, cap, "%s", in);
	}
	for (char *c = out; *c; c++)
		if (*c == '/')
			*c = '.';
	if (n < 0 || (size_t)n + 2 * dims >= cap)
		return -ENOSPC; /* never a shortened name */
	while (dims-- > 0)
		n += snprintf(out + n, cap - n, "[]");
	return n;
}

int hotspot__libjvm(uint32_t pid, char *path, size_t cap)
{
	uint64_t start;

	return find_libjvm(pid, path, cap, &start);
}

/* the most names one elf_lookup_names takes (a few tens are asked) */
#define NAMES_MAX 4096

/*
 * A name's hash for elf_lookup_names (FNV-1a), of at most cap bytes;
 * *ended false when no NUL came within them (a truncated string table).
 */
static uint32_t name_hash(const char *s, size_t cap, bool *ended)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < cap && s[i]; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	*ended = i < cap;
	return h;
}

/*
 * One table's symbols against names[] (slot[] their indexes by hash, an
 * open-addressed table of mask + 1 entries, -1 empty): each variable's
 * name hashed once, where a strcmp against each name cost libjvm.so's
 * 57,000 to 70,000 symbols tens of strcmps each.
 */
static int lookup_table(Elf *e, Elf_Scn *scn, const GElf_Shdr *sh,
			const char *const *names, const uint32_t *hashes,
			const int16_t *slot, uint32_t mask, uint64_t *vals,
			int left)
{
	Elf_Scn *strscn = elf_getscn(e, sh->sh_link);
	Elf_Data *d = elf_getdata(scn, NULL), *str;
	const char *strs;
	size_t i;

	if (!d || !strscn || !(str = elf_getdata(strscn, NULL)) ||
	    !str->d_buf || !str->d_size)
		return left;
	strs = str->d_buf;
	for (i = 0; i < sh->sh_size / sh->sh_entsize && left; i++) {
		GElf_Sym s;
		uint32_t h, at;
		bool ended;

		/* variables only (hotspot.h): a function's name, most of the
		 * table's, is not read at all */
		if (!gelf_getsym(d, i, &s) || !s.st_value ||
		    GELF_ST_TYPE(s.st_info) == STT_FUNC ||
		    s.st_name >= str->d_size)
			continue;
		h = name_hash(strs + s.st_name, str->d_size - s.st_name,
			      &ended);
		if (!ended)
			continue;
		for (at = h & mask; slot[at] >= 0; at = (at + 1) & mask) {
			int k = slot[at];

			if (hashes[k] == h && !vals[k] &&
			    !strcmp(strs + s.st_name, names[k])) {
				vals[k] = s.st_value;
				left--; /* a name asked twice: each filled */
			}
		}
	}
	return left;
}

/*
 * names[] in the ELF's .dynsym, else its .symtab (local variables): vals[] (zeroed by the caller) get their
 * link-time values, *load0 the vaddr of the PT_LOAD at file offset 0.
 */
static int elf_lookup_names(int fd, const char *const *names, int n,
			    uint64_t *vals, uint64_t *load0)
{
	uint32_t mask = 15, *hashes = NULL;
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	Elf_Scn *scn = NULL;
	int16_t *slot = NULL;
	size_t nph, i;
	bool ended;
	int left = n;
	GElf_Phdr ph;

	*load0 = UINT64_MAX;
	if (!e)
		return -ENOEXEC;
	if (!elf_getphdrnum(e, &nph))
		for (i = 0; i < nph; i++)
			if (gelf_getphdr(e, i, &ph) && ph.p_type == PT_LOAD &&
			    ph.p_offset == 0)
				*load0 = ph.p_vaddr;
	while (mask < 2u * n)
		mask = 2 * mask + 1;
	hashes = n <= NAMES_MAX ? calloc(n, sizeof(*hashes)) : NULL;
	slot = hashes ? malloc((mask + 1) * sizeof(*slot)) : NULL;
	if (!slot) {
		elf_end(e);
		free(hashes);
		return -ENOMEM;
	}
	memset(slot, 0xff, (mask + 1) * sizeof(*slot));
	for (int k = 0; k < n; k++) {
		uint32_t at;

		hashes[k] = name_hash(names[k], SIZE_MAX, &ended);
		for (at = hashes[k] & mask; slot[at] >= 0; at = (at + 1) & mask)
			;
		slot[at] = k;
	}
	while ((scn = elf_nextscn(e, scn)) && left) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) &&
		    (sh.sh_type == SHT_DYNSYM || sh.sh_type == SHT_SYMTAB) &&
		    sh.sh_entsize)
			left = lookup_table(e, scn, &sh, names, hashes, slot,
					    mask, vals, left);
	}
	elf_end(e);
	free(hashes);
	free(slot);
	return left || *load0 == UINT64_MAX ? -ENOENT : 0;
}

/* The table variables' addresses in the target. */
/*
 * Offsets belong to a libjvm.so build, not to a process: they are kept
 * per file (device, inode), with the interpreter's static relative to
 * the library's load address. A host's second JVM, and each new try of
 * a JVM still starting, then skips the table walk (thousands of reads).
 */
#define LAYOUT_CACHE 8
static struct layout_cache {
	dev_t dev;
	ino_t ino;
	struct hotspot_layout l; /* interp_code_addr relative to start */
} cache[LAYOUT_CACHE];
static unsigned int ncache;

static struct layout_cache *cache_find(const struct stat *st)
{
	for (unsigned int i = 0; i < ncache && i < LAYOUT_CACHE; i++)
		if (cache[i].dev == st->st_dev && cache[i].ino == st->st_ino)
			return &cache[i];
	return NULL;
}

static void cache_put(const struct stat *st, const struct hotspot_layout *l,
		      uint64_t start)
{
	struct layout_cache *c = &cache[ncache++ % LAYOUT_CACHE];

	c->dev = st->st_dev;
	c->ino = st->st_ino;
	c->l = *l;
	c->l.interp_code_addr -= start;
	c->l.u.heaps_addr -= start;
	c->l.u.threads_list_addr -= start;
}

/*
 * pid's libjvm.so opened through the process's root (a container's
 * libjvm is its own): its fd, *start the address of its mapping of file
 * offset 0; -ENOENT (none mapped), -ESRCH, or the open's -errno.
 */
static int libjvm_open(uint32_t pid, uint64_t *start)
{
	char path[4096], fn[4200];
	int ret = find_libjvm(pid, path, sizeof(path), start);

	if (ret)
		return ret;
	snprintf(fn, sizeof(fn), "/proc/%u/root%s", pid, path);
	return safefile__open_in(AT_FDCWD, fn, &libjvm_file);
}

/*
 * The symbols found in libjvm.so files, per file: a host's JVMs of one
 * JDK share it, and each JVM asks for its layout's, its virtual threads',
 * its locks' symbols, each a pass over the file's 57,000-70,000 symbols
 * and their names (6-9 ms of CPU, tens of ms at load: the pages of a
 * string table of megabytes). Names are the callers' static tables: kept
 * by pointer, compared by text. A file not in the cache is looked up
 * again, never named wrongly: (device, inode, size, mtime) say it is the
 * same.
 */
#define SYM_FILES 8
struct sym_val {
	const char *name;
	uint64_t val; /* link-time value; 0: not in the file */
};
static struct sym_file {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
	uint64_t load0;
	size_t n, cap;
	struct sym_val *v;
} sym_files[SYM_FILES];
static unsigned int nsym_files;

/* fd's entry, found or a slot taken (its names dropped); NULL: none */
static struct sym_file *sym_file_of(int fd)
{
	struct sym_file *f;
	struct stat st;

	if (fstat(fd, &st))
		return NULL;
	for (unsigned int i = 0; i < nsym_files && i < SYM_FILES; i++) {
		f = &sym_files[i];
		if (f->dev == st.st_dev && f->ino == st.st_ino &&
		    f->size == st.st_size &&
		    f->mtime.tv_sec == st.st_mtim.tv_sec &&
		    f->mtime.tv_nsec == st.st_mtim.tv_nsec)
			return f;
	}
	f = &sym_files[nsym_files++ % SYM_FILES];
	free(f->v);
	memset(f, 0, sizeof(*f));
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	f->size = st.st_size;
	f->mtime = st.st_mtim;
	f->load0 = UINT64_MAX;
	return f;
}

/* name's link-time value in f: 1 found (*val, 0 when not in the file) */
static int sym_file_find(const struct sym_file *f, const char *name,
			 uint64_t *val)
{
	for (size_t i = 0; f && i < f->n; i++)
		if (f->v[i].name == name || !strcmp(f->v[i].name, name)) {
			*val = f->v[i].val;
			return 1;
		}
	return 0;
}

/* names[0..n) looked up in the file: kept in f (what fits in memory) */
static void sym_file_add(struct sym_file *f, const char *const *names,
			 const uint64_t *vals, int n, uint64_t load0)
{
	struct sym_val *v;

	if (f->n + n > f->cap) {
		v = realloc(f->v, (f->n + n) * sizeof(*v));
		if (!v)
			return;
		f->v = v;
		f->cap = f->n + n;
	}
	f->load0 = load0;
	for (int k = 0; k < n; k++)
		f->v[f->n++] = (struct sym_val){names[k], vals[k]};
}

/*
 * names[0..n) in the open libjvm.so fd mapped at start: vals[] their
 * addresses in the target, 0 for those it lacks (then -ENOENT). Only the
 * names its file's entry lacks are looked for in the file.
 */
static int libjvm_lookup(int fd, uint64_t start, const char *const *names,
			 int n, uint64_t *vals)
{
	struct sym_file *f = sym_file_of(fd);
	const char **miss = calloc(n, sizeof(*miss));
	uint64_t *mvals = calloc(n, sizeof(*mvals)), load0;
	int nmiss = 0, ret = 0, at = 0;

	memset(vals, 0, n * sizeof(*vals));
	if (!miss || !mvals) {
		ret = -ENOMEM;
		goto out;
	}
	for (int k = 0; k < n; k++)
		if (!sym_file_find(f, names[k], &vals[k]))
			miss[nmiss++] = names[k];
	load0 = f ? f->load0 : UINT64_MAX;
	if (nmiss) {
		elf_version(EV_CURRENT);
		ret = elf_lookup_names(fd, miss, nmiss, mvals, &load0);
		if (ret && ret != -ENOENT)
			goto out; /* not an answer to keep */
		if (load0 == UINT64_MAX)
			memset(mvals, 0, nmiss * sizeof(*mvals));
		if (f)
			sym_file_add(f, miss, mvals, nmiss, load0);
	}
	for (int k = 0; k < n; k++) {
		if (at < nmiss && miss[at] == names[k])
			vals[k] = mvals[at++];
		if (vals[k])
			vals[k] += start - load0;
		else
			ret = ret ? ret : -ENOENT;
	}
out:
	free(miss);
	free(mvals);
	return ret;
}

/*
 * The layout of pid's JVM: its libjvm.so's offsets from the cache, else
 * read from its tables (hotspot__layout_read, the one reader of a
 * layout: the fields it needs, no type strings nor constants, so the
 * walk is given the JVM without waiting for the whole dictionary), then
 * the interpreter's range in this process. Where the tables lie is kept
 * for hotspot__vmstructs (one pass over libjvm.so's symbols for both, and
 * for vthread__syms: kept per file, sym_files).
 */
#define LAYOUT_NAMES (HS_NR_SYMS + VMC_NR_SYMS + VT_NR_SYMS + VC_NR_SYMS)
static int read_layout(struct hotspot *h, struct hotspot_layout *l)
{
	const char *names[LAYOUT_NAMES];
	uint64_t vals[LAYOUT_NAMES], start;
	struct layout_cache *c;
	struct stat st;
	int fd, ret;

	fd = libjvm_open(h->pid, &start);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st))
		st.st_ino = 0; /* not cached */
	else if ((c = cache_find(&st))) {
		close(fd);
		*l = c->l;
		l->interp_code_addr += start;
		l->u.heaps_addr += start;
		l->u.threads_list_addr += start;
		return locate_interp(&h->mem, l);
	}
	memcpy(names, hotspot_sym_names, sizeof(hotspot_sym_names));
	memcpy(names + HS_NR_SYMS, vmc_sym_names, sizeof(vmc_sym_names));
	/* asked now only to be kept (sym_files): vthread__syms' pass */
	memcpy(names + HS_NR_SYMS + VMC_NR_SYMS, vthread_sym_names,
	       sizeof(vthread_sym_names));
	memcpy(names + HS_NR_SYMS + VMC_NR_SYMS + VT_NR_SYMS,
	       vthread_chunk_names, sizeof(vthread_chunk_names));
	ret = libjvm_lookup(fd, start, names, LAYOUT_NAMES, vals);
	close(fd);
	for (int i = 0; i < HS_NR_SYMS; i++)
		if (!vals[i])
			return ret < 0 ? ret : -ENOENT;
	/* the constant tables and type strings are optional */
	for (int i = HS_NR_SYMS; i < HS_NR_SYMS + VMC_NR_SYMS; i++)
		if (!vals[i])
			memset(vals + HS_NR_SYMS, 0, sizeof(h->csyms));
	hotspot__tables_at(h, vals, vals + HS_NR_SYMS);
	ret = hotspot__layout_read(&h->mem, vals, l);
	/* the offsets are the build's even while its interpreter is not
	 * generated yet (-EAGAIN): the next try skips the tables */
	if ((!ret || ret == -EAGAIN) && st.st_ino)
		cache_put(&st, l, start);
	return ret;
}

struct hotspot *hotspot__open(uint32_t pid)
{
	struct hotspot *h = calloc(1, sizeof(*h));
	int ret = -ENOMEM;

	if (!h)
		goto fail;
	h->pid = pid;
	h->mem.read = vm_read;
	h->mem.ctx = h;
	ret = read_layout(h, &h->layout);
	/* code heaps exist before the interpreter: a JVM whose heaps
	 * cannot be read is walked by frame pointer only */
	if (!ret && h->layout.u.ok &&
	    hotspot__heaps_read(&h->mem, &h->layout.u))
		h->layout.u.ok = false;
	if (!ret)
		return h;
fail:
	hotspot__free(h);
	errno = -ret;
	return NULL;
}

const struct hotspot_layout *hotspot__layout(const struct hotspot *h)
{
	return &h->layout;
}

int hotspot__interp_range(struct hotspot *h, uint64_t *start, uint64_t *end)
{
	struct hotspot_layout l = h->layout;
	int ret = locate_interp(&h->mem, &l);

	if (ret)
		return ret;
	*start = l.interp_start;
	*end = l.interp_end;
	return 0;
}

int hotspot__interp_entries(struct hotspot *h, uint64_t *lo, uint64_t *hi)
{
	uint64_t queue;

	if (rd_u64(&h->mem, h->layout.interp_code_addr, &queue))
		return -EFAULT;
	return icodelets__entries(&h->mem, &h->layout, queue, lo, hi);
}

/*
 * Method* -> ConstMethod* -> ConstantPool* -> holder Klass* -> its name
 * Symbol*, and the pool slot of the method's name: the six reads the BPF
 * walk makes at sample time (sampler.bpf.c: read_names), written once.
 */
/* A ConstMethod's pool and name index: one read when they are near, as
 * in every JDK (a name costs a read of the JVM's memory less). */
static int cm_fields(const struct hotspot_mem *m,
		     const struct hotspot_layout *l, uint64_t cm, uint64_t *cp,
		     uint16_t *ni)
{
	uint64_t a = l->off_constants, b = l->off_name_index,
		 lo = a < b ? a : b, hi = a + 8 > b + 2 ? a + 8 : b + 2;
	uint8_t buf[64];

	if (hi - lo > sizeof(buf))
		return rd_u64(m, cm + a, cp) || rd(m, cm + b, ni, sizeof(*ni))
			   ? -EFAULT
			   : 0;
	if (rd(m, cm + lo, buf, hi - lo))
		return -EFAULT;
	memcpy(cp, buf + (a - lo), sizeof(*cp));
	memcpy(ni, buf + (b - lo), sizeof(*ni));
	return 0;
}

static int method_symbols(const struct hotspot_mem *m,
			  const struct hotspot_layout *l, uint64_t method,
			  uint64_t *klass_sym, uint64_t *name_sym)
{
	uint64_t cm, cp, holder;
	uint16_t ni;

	if (rd_u64(m, method + l->off_const_method, &cm) ||
	    cm_fields(m, l, cm, &cp, &ni) ||
	    rd_u64(m, cp + l->off_pool_holder, &holder) ||
	    rd_u64(m, holder + l->off_klass_name, klass_sym) ||
	    rd_u64(m, cp + l->cp_size + (uint64_t)ni * 8, name_sym))
		return -EFAULT;
	return 0;
}

int hotspot__method_symbols(struct hotspot *h, uint64_t method,
			    uint64_t *klass_sym, uint64_t *name_sym)
{
	return method_symbols(&h->mem, &h->layout, method, klass_sym, name_sym);
}

int hotspot__unwind_describe(const struct hotspot_unwind *u, char *buf,
			     size_t cap)
{
	size_t n;

	if (!u->ok)
		return snprintf(buf, cap,
				"no unwinder (CodeBlob or CodeHeap "
				"fields missing)");
	n = snprintf(buf, cap,
		     "CodeBlob _size %u _frame_size %u "
		     "_frame_complete_offset %u%s %s %u _name %d, "
		     "HeapBlock %u bytes, "
		     "anchor %s at JavaThread+%u, %u heaps:",
		     u->off_cb_size, u->off_cb_frame_size,
		     u->off_cb_frame_complete, u->fc16 ? " (s16)" : "",
		     u->code_is_offset ? "_code_offset" : "_code_begin",
		     u->off_cb_code, (int)u->off_cb_name, u->hb_size,
		     u->threads_ok ? "yes" : "no", u->off_jt_anchor, u->nheaps);
	for (uint32_t i = 0; i < u->nheaps && n < cap; i++)
		n += snprintf(
		    buf + n, cap - n, " [%#" PRIx64 "-%#" PRIx64 " seg %u]",
		    u->heap[i].lo, u->heap[i].hi, 1u << u->heap[i].log2_seg);
	return n < cap ? (int)n : (int)cap - 1;
}

void hotspot__free(struct hotspot *h)
{
	if (!h)
		return;
	vmstructs__free(h->vs);
	free(h);
}

struct vmstructs *hotspot__vmstructs(struct hotspot *h)
{
	if (h->vs)
		return h->vs;
	h->vs = h->at_set ? vmstructs__read(&h->mem, h->syms, h->csyms)
			  : vmstructs__open(h->pid, &h->mem);
	return h->vs;
}

void hotspot__tables_at(struct hotspot *h, const uint64_t syms[HS_NR_SYMS],
			const uint64_t *csyms)
{
	memcpy(h->syms, syms, sizeof(h->syms));
	memcpy(h->csyms, csyms, sizeof(h->csyms));
	h->at_set = true;
}

struct hotspot *hotspot__from_mem(uint32_t pid, const struct hotspot_mem *m,
				  const struct hotspot_layout *l)
{
	struct hotspot *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->pid = pid;
	h->mem = *m;
	h->layout = *l;
	return h;
}

/* ---- more of a live JVM: its memory, any exported variable ------------- */

const struct hotspot_mem *hotspot__mem(const struct hotspot *h)
{
	return &h->mem;
}

int hotspot__jvm_sym_sets(uint32_t pid, struct hotspot_syms *sets, int nsets)
{
	const char **names;
	uint64_t start, *vals;
	int fd, n = 0, at = 0;

	for (int i = 0; i < nsets; i++)
		n += sets[i].n;
	names = calloc(n + 1, sizeof(*names));
	vals = calloc(n + 1, sizeof(*vals));
	fd = names && vals ? libjvm_open(pid, &start) : -ENOMEM;
	if (fd < 0)
		goto out;
	for (int i = 0; i < nsets; i++)
		for (int k = 0; k < sets[i].n; k++)
			names[at++] = sets[i].names[k];
	libjvm_lookup(fd, start, names, n, vals);
	close(fd);
	at = 0;
	for (int i = 0; i < nsets; i++) {
		sets[i].err = 0;
		for (int k = 0; k < sets[i].n; k++, at++)
			if (!(sets[i].vals[k] = vals[at]))
				sets[i].err = -ENOENT;
	}
	fd = 0;
out:
	free(names);
	free(vals);
	return fd;
}

int hotspot__jvm_syms(uint32_t pid, const char *const *names, int n,
		      uint64_t *vals)
{
	struct hotspot_syms set = {names, n, vals, 0};
	int ret = hotspot__jvm_sym_sets(pid, &set, 1);

	return ret ? ret : set.err;
}

int hotspot__klass_name(struct hotspot *h, uint64_t klass, char *buf,
			size_t cap)
{
	uint64_t sym;

	if (rd_u64(&h->mem, klass + h->layout.off_klass_name, &sym))
		return -EFAULT;
	return hotspot__symbol(&h->mem, &h->layout, sym, buf, cap, NULL);
}

int hotspot__method_name(const struct hotspot_mem *m,
			 const struct hotspot_layout *l, uint64_t method,
			 char *buf, size_t cap)
{
	char klass[512], name[256];
	uint64_t ksym, nsym;
	int ret;

	if (method_symbols(m, l, method, &ksym, &nsym))
		return -EFAULT;
	ret = hotspot__symbol(m, l, ksym, klass, sizeof(klass), NULL);
	if (ret < 0)
		return ret;
	ret = hotspot__symbol(m, l, nsym, name, sizeof(name), NULL);
	if (ret < 0)
		return ret;
	return hotspot__frame_name(buf, cap, klass, name);
}
