/*
 * rowgen_libdw: rowgen's rules from libdw's CFI interface instead of its
 * own CFA reader: the oracle the tests compare rowgen's rows with
 * (rowgen__elf_via). Tests only: mixprof reads CFA programs itself.
 */
#ifndef MIXPROF_TESTS_ROWGEN_LIBDW_H
#define MIXPROF_TESTS_ROWGEN_LIBDW_H

#include "unwind/rowgen.h"

extern const struct rowgen_cfi rowgen_libdw;

#endif
