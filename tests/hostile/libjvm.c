// SPDX-License-Identifier: GPL-2.0
/*
 * libjvm.so of the hostile-JVM kit (fakejvm.c): nothing but the variables
 * a HotSpot libjvm.so exports for the serviceability agent, which mixprof
 * finds through .dynsym, and room for the "static" fields the tables
 * point at. fakejvm fills them all at run time with contents of its
 * choosing; mixprof must survive whatever they say.
 */
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT void *gHotSpotVMStructs;
EXPORT uint64_t gHotSpotVMStructEntryTypeNameOffset;
EXPORT uint64_t gHotSpotVMStructEntryFieldNameOffset;
EXPORT uint64_t gHotSpotVMStructEntryTypeStringOffset;
EXPORT uint64_t gHotSpotVMStructEntryIsStaticOffset;
EXPORT uint64_t gHotSpotVMStructEntryOffsetOffset;
EXPORT uint64_t gHotSpotVMStructEntryAddressOffset;
EXPORT uint64_t gHotSpotVMStructEntryArrayStride;

EXPORT void *gHotSpotVMTypes;
EXPORT uint64_t gHotSpotVMTypeEntryTypeNameOffset;
EXPORT uint64_t gHotSpotVMTypeEntrySizeOffset;
EXPORT uint64_t gHotSpotVMTypeEntryArrayStride;

EXPORT void *gHotSpotVMIntConstants;
EXPORT uint64_t gHotSpotVMIntConstantEntryNameOffset;
EXPORT uint64_t gHotSpotVMIntConstantEntryValueOffset;
EXPORT uint64_t gHotSpotVMIntConstantEntryArrayStride;

EXPORT void *gHotSpotVMLongConstants;
EXPORT uint64_t gHotSpotVMLongConstantEntryNameOffset;
EXPORT uint64_t gHotSpotVMLongConstantEntryValueOffset;
EXPORT uint64_t gHotSpotVMLongConstantEntryArrayStride;

/* HotSpot's statics live in libjvm's data: mixprof keeps their addresses
 * relative to the library's load address, so ours must live here too */
EXPORT uint64_t fakejvm_statics[64];
