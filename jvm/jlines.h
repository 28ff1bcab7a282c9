/*
 * jlines: a Java method's source line at a bytecode index, from the
 * method's compressed line number table in the JVM's memory (for
 * --lines: "Class.method:123").
 *
 * The table follows the method's bytecodes in its ConstMethod when the
 * ConstMethod's flags say it has one: a stream of (bci, line) deltas,
 * one byte (bci delta << 3 | line delta) or 0xFF and two signed
 * UNSIGNED5 values, ended by a zero byte (method.cpp,
 * CompressedLineNumberReadStream). The line of bci is the one of the
 * last entry at or before it (Method::line_number_from_bci).
 *
 * jline__decode is pure and bounded by its buffer. Nothing here prints.
 */
#ifndef MIXPROF_JLINES_H
#define MIXPROF_JLINES_H

#include <stddef.h>
#include <stdint.h>
#include "hotspot.h"
#include "vmstructs.h"

/*
 * The line of bci (-1, a method's entry, counts as 0) in the table
 * buf[0..len), x the UNSIGNED5 excluded bytes (nm_layout.u5_x): the line
 * (> 0), -ENOENT (no entry at or before bci), -EINVAL (garbage), or
 * -E2BIG (the buffer ended before the table did: read more).
 */
int jline__decode(const uint8_t *buf, size_t len, int x, int bci);

/* Where the table lies, for one libjvm.so build. */
struct jline_layout {
	uint32_t off_const_method; /* Method::_constMethod */
	uint32_t cm_size; /* sizeof(ConstMethod): the bytecodes follow */
	uint32_t off_flags, flags_size; /* ConstMethod's flags: u2 or u4 */
	uint32_t has_table; /* the flag bit of "has a line number table" */
	uint32_t off_code_size; /* ConstMethod::_code_size (u2) */
	int x;
};
/* 0, or -ENOENT (a field or constant missing). */
int jline_layout__init(struct jline_layout *jl, const struct vmstructs *vs,
		       int u5_x);
/* The line of bci in Method* method, read now: as jline__decode, or
 * -EFAULT. */
int jline__at(const struct hotspot_mem *m, const struct jline_layout *jl,
	      uint64_t method, int bci);

#endif
