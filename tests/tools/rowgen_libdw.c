// SPDX-License-Identifier: GPL-2.0
/*
 * rowgen_libdw.c: the oracle of rowgen's own CFA reader (rowgen_libdw.h):
 * the rules of each pc range as libdw's CFI interface gives them
 * (dwarf_cfi_addrframe), turned into rows as rowgen did before it read
 * CFA programs itself.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include "rowgen_libdw.h"

#define REG_RBP 6
#define REG_RSP 7
#define REG_RA 16 /* the return address column on x86-64 */

/* A register rule "at (or value) CFA + off": 0 and *off, else -1. */
static int cfa_relative(const Dwarf_Op *ops, size_t nops, __s64 *off)
{
	if (!nops || ops[0].atom != DW_OP_call_frame_cfa)
		return -1;
	if (nops == 1) {
		*off = 0;
		return 0;
	}
	if (nops == 2 && ops[1].atom == DW_OP_plus_uconst) {
		*off = (__s64)ops[1].number;
		return 0;
	}
	return -1;
}

/*
 * The CFA of a PLT entry as GCC and binutils describe it:
 * rsp + 8 + ((rip & 15) >= K ? 8 : 0), K the offset of the entry's push
 * ("breg7 8; breg16 0; lit15; and; litK; ge; lit3; shl; plus").
 */
static int plt_rule(const Dwarf_Op *o, size_t n, struct unwind_row *row)
{
	if (n != 9 || o[0].atom != DW_OP_breg7 || o[0].number != 8 ||
	    o[1].atom != DW_OP_breg16 || o[1].number != 0 ||
	    o[2].atom != DW_OP_lit15 || o[3].atom != DW_OP_and ||
	    o[4].atom < DW_OP_lit0 || o[4].atom > DW_OP_lit15 ||
	    o[5].atom != DW_OP_ge || o[6].atom != DW_OP_lit3 ||
	    o[7].atom != DW_OP_shl || o[8].atom != DW_OP_plus)
		return -1;
	row->kind = ROW_CFA_PLT;
	row->cfa_off = o[4].atom - DW_OP_lit0;
	return 0;
}

/* CFA = register + offset (a plain rule), or the PLT expression. */
static void cfa_rule(Dwarf_Frame *fr, struct unwind_row *row)
{
	Dwarf_Op *ops;
	size_t nops;
	__s64 reg, off;

	if (dwarf_frame_cfa(fr, &ops, &nops) || !nops)
		return;
	if (nops == 1 && ops[0].atom == DW_OP_bregx) {
		reg = ops[0].number;
		off = (__s64)ops[0].number2;
	} else if (nops == 1 && ops[0].atom >= DW_OP_breg0 &&
		   ops[0].atom <= DW_OP_breg31) {
		reg = ops[0].atom - DW_OP_breg0;
		off = (__s64)ops[0].number;
	} else {
		plt_rule(ops, nops, row);
		return;
	}
	if (off <= 0 || off > INT16_MAX || (reg != REG_RSP && reg != REG_RBP))
		return;
	row->kind = reg == REG_RSP ? ROW_CFA_RSP : ROW_CFA_RBP;
	row->cfa_off = (__s16)off;
}

/* The rule of the frame state at hand, as a row (ROW_NONE if not one
 * the BPF walk follows). */
static void frame_row(Dwarf_Frame *fr, bool signal, struct unwind_row *row)
{
	Dwarf_Op mem[3], *ops;
	size_t nops;
	__s64 off;

	row->kind = ROW_NONE;
	row->cfa_off = 0;
	row->rbp_slot = 0;
	if (signal)
		return; /* a signal frame: the caller's state is in a ucontext */
	if (dwarf_frame_register(fr, REG_RA, mem, &ops, &nops))
		return;
	if (!nops && ops == mem) {
		row->kind = ROW_END; /* undefined: no caller */
		return;
	}
	if (cfa_relative(ops, nops, &off) || off != -8)
		return;
	if (dwarf_frame_register(fr, REG_RBP, mem, &ops, &nops))
		return;
	if (nops || ops == mem) { /* not "same value" */
		if (cfa_relative(ops, nops, &off) || off >= 0 || off % 8 ||
		    off < -128 * 8)
			return;
		row->rbp_slot = (__s8)(off / 8);
	}
	cfa_rule(fr, row);
	if (row->kind == ROW_NONE)
		row->rbp_slot = 0;
}

/* Rows from pc on, up to limit or the end of the CFI that holds pc. */
static int libdw_rows(void *p, __u64 pc, __u64 limit, cfirows_emit emit,
		      void *ctx, __u64 *endp)
{
	Dwarf_CFI *cfi = *(Dwarf_CFI **)p;

	while (pc < limit) {
		Dwarf_Frame *fr;
		Dwarf_Addr start, end;
		struct unwind_row row;
		bool signal;
		int r;

		if (dwarf_cfi_addrframe(cfi, pc, &fr))
			break;
		if (dwarf_frame_info(fr, &start, &end, &signal) < 0 ||
		    end <= pc) {
			free(fr);
			break;
		}
		frame_row(fr, signal, &row);
		free(fr);
		row.pc = (__u32)pc;
		r = emit(ctx, &row);
		if (r)
			return r;
		pc = end;
	}
	*endp = pc;
	return 0;
}

/* The CFI (first) and, for .debug_frame, the Dwarf that owns it. */
struct libdw_cfi {
	Dwarf_CFI *cfi;
	Dwarf *dw;
};

static void *libdw_open(Elf *elf, bool eh)
{
	struct libdw_cfi *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	if (eh) {
		c->cfi = dwarf_getcfi_elf(elf);
	} else {
		c->dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
		c->cfi = c->dw ? dwarf_getcfi(c->dw) : NULL;
	}
	if (!c->cfi) {
		if (c->dw)
			dwarf_end(c->dw);
		free(c);
		return NULL;
	}
	return c;
}

static void libdw_close(void *p)
{
	struct libdw_cfi *c = p;

	if (c->dw)
		dwarf_end(c->dw); /* and the CFI it owns */
	else
		dwarf_cfi_end(c->cfi);
	free(c);
}

const struct rowgen_cfi rowgen_libdw = {
    .open = libdw_open,
    .rows = libdw_rows,
    .close = libdw_close,
};
