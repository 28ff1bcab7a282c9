/*
 * nmethod: what a HotSpot nmethod (compiled Java method) says about
 * itself, read from outside: its Method*, compile id and tier, its code
 * range, and for a pc in it the chain of methods inlined there with their
 * bytecode indexes, innermost first (PcDesc + scopes debug data).
 *
 * Three layers, so the decoding is testable on bytes:
 *  - nm_layout: where the fields lie, from VMStructs (nmethod__layout_init);
 *  - nmethod__read / nmethod__load: read one nmethod's header, then its
 *    PcDesc array, scopes data and metadata table into a struct nm_debug;
 *  - nmethod__pcdesc_find / nmethod__scope_chain / nmethod__u5_read: pure decoders over those
 *    bytes, bounded by the buffers' lengths (a JVM's memory is untrusted:
 *    garbage gives -EINVAL, never a read past a buffer or an endless loop).
 *
 * Code is freed and its addresses reused when classes unload, so a reader
 * names nmethod N only after nmethod__same() says that the memory read
 * still holds the compile id the sample recorded (read, then check).
 *
 * Checked layouts: JDK 17 (offsets from the nmethod header, CompiledMethod
 * base) and JDK 25 (debug data in the "immutable data" block, metadata in
 * the "mutable data" block). Nothing here prints; 0 or -errno.
 */
#ifndef MIXPROF_NMETHOD_H
#define MIXPROF_NMETHOD_H

#include <stddef.h>
#include <stdint.h>
#include "hotspot.h"
#include "vmstructs.h"

#define NM_NONE 0xffffffffu

/* Field offsets of one libjvm.so build (NM_NONE: not in this layout). */
struct nm_layout {
	int immutable; /* 1: JDK 23+ immutable/mutable data blocks */
	int u5_x; /* UNSIGNED5 excluded bytes: 0 to JDK 17, 1 from JDK 21 */
	uint32_t cb_size, cb_code_begin, cb_code_end; /* JDK 17: addresses */
	uint32_t cb_code_offset, cb_data_offset; /* JDK 25: ints */
	uint32_t cb_mutable_data, cb_mutable_size, cb_reloc_size;
	uint32_t method, compile_id, comp_level, comp_level_size, entry_bci;
	uint32_t state;
	uint32_t entry_point, verified_entry; /* JDK 17: addresses */
	uint32_t entry_offset, verified_offset; /* JDK 25: u2 from code */
	uint32_t scopes_pcs_offset, dependencies_offset, metadata_offset;
	uint32_t scopes_data_begin; /* JDK 17: an address */
	uint32_t immutable_data, immutable_size, scopes_data_offset;
	uint32_t pcdesc_size, pc_offset, scope_decode_offset, obj_decode_offset,
	    pc_flags;
	/* the code heap's block header just before each blob: its size and
	 * where its "used" byte lies (NM_NONE: not published, not checked) */
	uint32_t hb_size, hb_used;
};

/* 0; -ENOENT (a field missing: a layout we do not know); -ENOTSUP (a JDK
 * whose debug stream encoding is unchecked: 18 to 20). major: the JVM's
 * Abstract_VM_Version::_vm_major_version. */
int nmethod__layout_init(struct nm_layout *l, const struct vmstructs *vs,
			 int major);

/* The header of one nmethod, addresses in the target. */
struct nm_info {
	uint64_t addr, method;
	int32_t compile_id, entry_bci; /* entry_bci -1 unless OSR */
	int8_t comp_level; /* 0 interpreted .. 4 C2 */
	int8_t state; /* -1 not installed, 0 in use, 1 not entrant */
	uint32_t size;
	uint64_t code_begin, code_end, entry, verified_entry;
	uint64_t pcs_begin, pcs_end, scopes_begin, scopes_end;
	uint64_t meta_begin, meta_end;
};

/* Read nmethod nm's header: 0, -EFAULT, or -EINVAL (sizes or ranges that
 * cannot be an nmethod). */
int nmethod__read(const struct hotspot_mem *m, const struct nm_layout *l,
		  uint64_t nm, struct nm_info *out);
/* 1 when nm still holds compile id cid of method (0: don't care) and its
 * code heap block is in use, 0 when not (freed, reused), -EFAULT when
 * unreadable. */
int nmethod__same(const struct hotspot_mem *m, const struct nm_layout *l,
		  uint64_t nm, int32_t cid, uint64_t method);

/* One nmethod's debug data, copied out of the target. */
struct nm_debug {
	struct nm_info info;
	uint8_t *pcs; /* PcDesc array, pcs_len bytes */
	size_t pcs_len;
	uint8_t *scopes; /* scopes data stream */
	size_t scopes_len;
	uint64_t *meta; /* metadata table: meta_at(i) = meta[i - 1] */
	size_t nmeta;
	void *mem; /* the one allocation the three point into */
};
/* Read it all (bounded: 1.6 MB at most, 70 times the largest seen):
 * 0, -EFAULT, -EINVAL, -ENOMEM.
 * The caller checks nmethod__same() afterwards. */
int nmethod__load(const struct hotspot_mem *m, const struct nm_layout *l,
		  uint64_t nm, struct nm_debug *d);
void nmethod__debug_release(struct nm_debug *d);

/* ---- pure decoders ----------------------------------------------------- */

/* One UNSIGNED5 value at *pos of buf[0..len) (x excluded bytes: 0 or 1):
 * 0 and *pos advanced, or -EINVAL (truncated, or an excluded byte). */
int nmethod__u5_read(const uint8_t *buf, size_t len, size_t *pos, int x,
		     uint32_t *v);

struct nm_pcdesc {
	int32_t pc_offset, scope_decode_offset, obj_decode_offset, flags;
};
/* The PcDesc for code offset pc_off, HotSpot's approximate match: the
 * first with pc_offset >= pc_off. 0, or -ENOENT (past the last one),
 * -EINVAL (no whole entry). Binary search: O(log n) reads at most. */
int nmethod__pcdesc_find(const struct nm_layout *l, const uint8_t *pcs,
			 size_t len, int32_t pc_off, struct nm_pcdesc *out);

struct nm_scope {
	uint64_t method; /* Method* */
	int32_t bci; /* -1: the method's entry (InvocationEntryBci) */
};
#define NM_MAX_SCOPES 64 /* inlining deeper than this is garbage */
/*
 * The scope chain at decode_off, innermost first, into out[0..max): the
 * count, or -EINVAL (offset or stream out of bounds, a metadata index out
 * of the table, a chain longer than max). decode_off 0 is HotSpot's
 * "serialized null": the nmethod's own method at its entry (outer).
 */
int nmethod__scope_chain(const struct nm_debug *d, int x, int32_t decode_off,
			 struct nm_scope *out, int max);

/* The chain at pc (an address in d's code): count, or -errno as above. */
/*
 * The same for a return address (a caller's frame): HotSpot records a
 * PcDesc at the return address of every call with debug info, so only
 * that one is used; without one, the nmethod's method alone (1).
 */
int nmethod__chain_at_return(const struct nm_layout *l,
			     const struct nm_debug *d, uint64_t ret_pc,
			     struct nm_scope *out, int max);
int nmethod__chain_at(const struct nm_layout *l, const struct nm_debug *d,
		      uint64_t pc, struct nm_scope *out, int max);

#endif
