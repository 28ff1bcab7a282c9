/*
 * vmstructs: all of a HotSpot JVM's self-description, read once into a
 * dictionary: field offsets (or addresses, for statics) by type and field
 * name, type sizes, and the integer and long constants.
 *
 * The one reader of the tables: hotspot.c takes the fixed list of fields
 * interpreted-frame naming and the unwinder need from it (once per
 * libjvm.so build); the compiled-code namer (nmethod.c), line numbers and
 * thread names need dozens more, and which ones differ between JDK 17 and
 * 25, so they ask it by name instead of growing a fixed list.
 *
 * The tables are read through a struct hotspot_mem (hotspot.h), so the
 * unit tests feed fake tables. Names longer than 79 bytes are dropped.
 * Nothing here prints; errors come back as NULL + errno.
 */
#ifndef MIXPROF_VMSTRUCTS_H
#define MIXPROF_VMSTRUCTS_H

#include <stdint.h>
#include "hotspot.h"

/* Addresses (in the target) of the constant tables' variables. */
enum vmc_sym {
	VMC_INT, /* gHotSpotVMIntConstants */
	VMC_INT_NAME, /* gHotSpotVMIntConstantEntryNameOffset */
	VMC_INT_VALUE, /* ...ValueOffset */
	VMC_INT_STRIDE, /* ...ArrayStride */
	VMC_LONG, /* gHotSpotVMLongConstants */
	VMC_LONG_NAME,
	VMC_LONG_VALUE,
	VMC_LONG_STRIDE,
	VMC_S_TYPESTR, /* gHotSpotVMStructEntryTypeStringOffset */
	VMC_NR_SYMS,
};
extern const char *const vmc_sym_names[VMC_NR_SYMS];

struct vmstructs;

/*
 * Read the tables: syms[] as for hotspot__layout_read(), csyms[] the
 * constant tables and the type-string offset (a zero address, or csyms
 * NULL: none). NULL and errno EFAULT (unreadable), ENOENT (no structs or
 * types table), ENOMEM.
 */
struct vmstructs *vmstructs__read(const struct hotspot_mem *m,
				  const uint64_t syms[HS_NR_SYMS],
				  const uint64_t csyms[VMC_NR_SYMS]);
/*
 * One more structs table laid out as gHotSpotVMStructs (the entry layout
 * from syms[]), the array itself at table: JVMCI's own
 * (JVMCIVMStructs::localHotSpotVMStructs, named by .symtab) lists fields
 * gHotSpotVMStructs gains only in JDK 27 (JavaThread::_cont_entry).
 * Fields only; NULL and errno as vmstructs__read.
 */
struct vmstructs *vmstructs__read_table(const struct hotspot_mem *m,
					const uint64_t syms[HS_NR_SYMS],
					uint64_t table);
/* The same for a live JVM (its libjvm.so found through /proc/PID/maps). */
struct vmstructs *vmstructs__open(uint32_t pid, const struct hotspot_mem *m);
void vmstructs__free(struct vmstructs *vs);

/*
 * type::field: its offset, or for a static field its address, in *val.
 * 0, or -ENOENT when the JVM does not publish it.
 */
int vmstructs__field(const struct vmstructs *vs, const char *type,
		     const char *field, uint64_t *val);
/* sizeof the field's C type ("int": 4, "CompLevel": 1 in JDK 25), or 0. */
uint64_t vmstructs__field_size(const struct vmstructs *vs, const char *type,
			       const char *field);
/* sizeof(type), or 0 when unknown. */
uint64_t vmstructs__type_size(const struct vmstructs *vs, const char *type);
/* An int or long constant by name: 0 or -ENOENT. */
int vmstructs__constant(const struct vmstructs *vs, const char *name,
			int64_t *val);
/* The JVM's major version (17, 25), read now; -ENOENT, -EFAULT, -EINVAL. */
int vmstructs__jdk_major(const struct vmstructs *vs,
			 const struct hotspot_mem *m);
/* For a dump: calls fn for each entry (kind 'f' field, 's' static, 't'
 * type size, 'c' constant); name is "type::field" or the bare name. */
void vmstructs__each(const struct vmstructs *vs,
		     void (*fn)(void *arg, char kind, const char *name,
				int64_t val),
		     void *arg);

#endif
