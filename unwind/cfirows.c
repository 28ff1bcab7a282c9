// SPDX-License-Identifier: GPL-2.0
/*
 * cfirows.c: the CFA program interpreter (cfirows.h). Only what a row
 * needs is kept of the frame state: the CFA rule and the rules of rbp
 * and the return address; other registers are checked, not kept.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "cfirows.h"

_Static_assert(sizeof(struct unwind_row) == 8 &&
		   offsetof(struct unwind_row, cfa_off) == 4 &&
		   offsetof(struct unwind_row, kind) == 6 &&
		   offsetof(struct unwind_row, rbp_slot) == 7,
	       "a row as one little-endian word");

#define REG_RBP 6
#define REG_RSP 7
#define REG_RA 16 /* the return address column on x86-64 */
/* libdw refuses register numbers from INT32_MAX / 8 on */
#define REG_LIMIT (INT32_MAX / 8)

enum rule_kind {
	RULE_UNSPEC, /* not mentioned: "undefined" (x86-64 has no default) */
	RULE_UNDEF,
	RULE_SAME,
	RULE_OFF, /* at CFA + val */
	RULE_VALOFF, /* is CFA + val */
	RULE_REG,
	RULE_EXPR,
	RULE_VALEXPR,
};

struct rule {
	__u8 kind;
	__s64 val;
	const __u8 *blk; /* an expression's bytes */
	__u64 len;
};

enum cfa_kind { CFA_UNDEF, CFA_OFF, CFA_EXPR, CFA_INVALID };

struct fstate {
	__u8 cfa;
	__u64 reg, off;
	const __u8 *expr;
	__u64 elen;
	struct rule rbp, ra;
};

struct run {
	const struct cfi *c;
	const struct cfi_cie *cie;
	const struct fstate *init; /* the CIE's state; NULL running it */
	struct fstate st;
	struct fstate stack[CFIROWS_STACK];
	unsigned int depth;
	__u64 loc, pc, limit, end;
	cfirows_emit emit;
	void *ctx;
	int err; /* emit's */
};

/* libdw keeps a rule's value in a 61-bit field */
static __s64 sext61(__u64 v)
{
	return (__s64)(v << 3) >> 3;
}

/* Rule kind for register regno; -1: a register number libdw refuses. */
static int set_rule(struct run *r, __u64 regno, __u8 kind, __u64 val,
		    const __u8 *blk, __u64 len)
{
	struct rule *rl = regno == REG_RBP  ? &r->st.rbp
			  : regno == REG_RA ? &r->st.ra
					    : NULL;

	if (regno >= REG_LIMIT)
		return -1;
	if (rl) {
		rl->kind = kind;
		rl->val = sext61(val);
		rl->blk = blk;
		rl->len = len;
	}
	return 0;
}

/* x86-64's ABI defaults (libdw's backend): rbx, rbp, r12-r15 and the
 * return address "same value", rsp the CFA itself; CFA undefined. */
static void abi_state(struct fstate *s)
{
	memset(s, 0, sizeof(*s));
	s->rbp.kind = RULE_SAME;
	s->ra.kind = RULE_SAME;
}

/* A DWARF expression op we match rules against. */
struct op {
	__u8 atom;
	__u64 n1, n2;
};

#define OP_AND 0x1a
#define OP_PLUS 0x22
#define OP_PLUS_UCONST 0x23
#define OP_SHL 0x24
#define OP_GE 0x2a
#define OP_LIT0 0x30
#define OP_LIT15 0x3f
#define OP_LIT31 0x4f
#define OP_BREG0 0x70
#define OP_BREG31 0x8f
#define OP_BREGX 0x92

/*
 * The ops of an expression, up to max of those rules we know are made
 * of; -1 for any other op or more of them (no rule of ours then).
 */
static int decode(const struct cfi *c, const __u8 *p, __u64 len, struct op *o,
		  int max)
{
	const __u8 *end = p + len, *hard = c->buf + c->size;
	bool bad = false;
	int n = 0;

	while (p < end && !bad) {
		if (n == max)
			return -1;
		o[n].atom = *p++;
		o[n].n1 = o[n].n2 = 0;
		if (o[n].atom >= OP_BREG0 && o[n].atom <= OP_BREG31) {
			o[n].n1 = (__u64)cfi__sleb(&p, end, hard, &bad);
		} else if (o[n].atom == OP_BREGX) {
			if (p >= end)
				return -1;
			o[n].n1 = cfi__uleb(&p, end, hard, &bad);
			o[n].n2 = (__u64)cfi__sleb(&p, end, hard, &bad);
		} else if (o[n].atom == OP_PLUS_UCONST) {
			if (p >= end)
				return -1;
			o[n].n1 = cfi__uleb(&p, end, hard, &bad);
		} else if (!(o[n].atom >= OP_LIT0 && o[n].atom <= OP_LIT31) &&
			   o[n].atom != OP_AND && o[n].atom != OP_GE &&
			   o[n].atom != OP_SHL && o[n].atom != OP_PLUS) {
			return -1;
		}
		n++;
	}
	return bad || p > end ? -1 : n;
}

/* How libdw gives a register's rule (dwarf_frame_register) as rowgen
 * reads it: undefined, same value, at CFA + *off, or none of these. */
enum reg_view { VIEW_UNDEF, VIEW_SAME, VIEW_CFA, VIEW_OTHER };

static enum reg_view view(const struct cfi *c, const struct rule *rl,
			  __s64 *off)
{
	struct op o[1];

	switch (rl->kind) {
	case RULE_UNSPEC:
	case RULE_UNDEF:
		return VIEW_UNDEF;
	case RULE_SAME:
		return VIEW_SAME;
	case RULE_OFF:
		*off = rl->val; /* DW_OP_call_frame_cfa [plus_uconst] */
		return VIEW_CFA;
	case RULE_EXPR:
	case RULE_VALEXPR:
		/* no ops at all reads as undefined (libdw leaves *ops);
		 * else call_frame_cfa first, stack_value last if a value */
		if (!rl->len)
			return VIEW_UNDEF;
		if (rl->kind == RULE_EXPR &&
		    decode(c, rl->blk, rl->len, o, 1) == 1 &&
		    o[0].atom == OP_PLUS_UCONST) {
			*off = (__s64)o[0].n1;
			return VIEW_CFA;
		}
		return VIEW_OTHER;
	default: /* a value (stack_value), another register */
		return VIEW_OTHER;
	}
}

/* CFA = rsp/rbp + N from "bregN off" or "bregx N off" alone, or the
 * PLT's expression (rowgen.h's ROW_CFA_PLT). */
static void cfa_expr(const struct cfi *c, const struct fstate *s, __s64 *reg,
		     __s64 *off, struct unwind_row *row)
{
	struct op o[9];
	int n = decode(c, s->expr, s->elen, o, 9);

	if (n == 1 && o[0].atom == OP_BREGX) {
		*reg = (__s64)o[0].n1;
		*off = (__s64)o[0].n2;
	} else if (n == 1 && o[0].atom >= OP_BREG0 && o[0].atom <= OP_BREG31) {
		*reg = o[0].atom - OP_BREG0;
		*off = (__s64)o[0].n1;
	} else if (n == 9 && o[0].atom == OP_BREG0 + REG_RSP && o[0].n1 == 8 &&
		   o[1].atom == OP_BREG0 + REG_RA && o[1].n1 == 0 &&
		   o[2].atom == OP_LIT15 && o[3].atom == OP_AND &&
		   o[4].atom >= OP_LIT0 && o[4].atom <= OP_LIT15 &&
		   o[5].atom == OP_GE && o[6].atom == OP_LIT0 + 3 &&
		   o[7].atom == OP_SHL && o[8].atom == OP_PLUS) {
		row->kind = ROW_CFA_PLT;
		row->cfa_off = o[4].atom - OP_LIT0;
	}
}

/* The row of state s (rowgen's reading of libdw's frame). */
static void state_row(const struct run *r, const struct fstate *s,
		      struct unwind_row *row)
{
	__s64 off = 0, reg = -1;

	row->kind = ROW_NONE;
	row->cfa_off = 0;
	row->rbp_slot = 0;
	if (r->cie->signal)
		return; /* the caller's state is in a ucontext */
	switch (view(r->c, &s->ra, &off)) {
	case VIEW_UNDEF:
		row->kind = ROW_END; /* no caller */
		return;
	case VIEW_CFA:
		if (off == -8)
			break;
		return;
	default:
		return;
	}
	switch (view(r->c, &s->rbp, &off)) {
	case VIEW_SAME:
		break;
	case VIEW_CFA:
		if (off >= 0 || off % 8 || off < -128 * 8)
			return;
		row->rbp_slot = (__s8)(off / 8);
		break;
	default:
		return;
	}
	if (s->cfa == CFA_OFF) {
		reg = (__s64)s->reg;
		off = (__s64)s->off;
	} else if (s->cfa == CFA_EXPR) {
		cfa_expr(r->c, s, &reg, &off, row);
	}
	if (row->kind == ROW_CFA_PLT)
		return;
	if (off <= 0 || off > INT16_MAX || (reg != REG_RSP && reg != REG_RBP)) {
		row->rbp_slot = 0;
		return;
	}
	row->kind = reg == REG_RSP ? ROW_CFA_RSP : ROW_CFA_RBP;
	row->cfa_off = (__s16)off;
}

/*
 * The code moved to loc: the rule so far holds from r->pc to loc if
 * loc is past it. Returns 1 when the rows are done, -1 for an error.
 */
static int advance(struct run *r, __u64 loc)
{
	struct unwind_row row, out;
	__u64 w;

	r->loc = loc;
	if (!r->init)
		return -1; /* not in a CIE's instructions */
	if (r->pc >= loc)
		return 0;
	state_row(r, &r->st, &row);
	/* stored as one word: the reader's word loads of rows written a
	 * field at a time stalled (half of push's time) */
	w = (__u32)r->pc | (__u64)(__u16)row.cfa_off << 32 |
	    (__u64)row.kind << 48 | (__u64)(__u8)row.rbp_slot << 56;
	memcpy(&out, &w, sizeof(out));
	r->err = r->emit(r->ctx, &out);
	r->pc = loc;
	return r->err || loc >= r->limit || loc >= r->end ? 1 : 0;
}

enum {
	CFA_advance_loc1 = 0x02,
	CFA_advance_loc2,
	CFA_advance_loc4,
	CFA_offset_extended,
	CFA_restore_extended,
	CFA_undefined,
	CFA_same_value,
	CFA_register,
	CFA_remember_state,
	CFA_restore_state,
	CFA_def_cfa,
	CFA_def_cfa_register,
	CFA_def_cfa_offset,
	CFA_def_cfa_expression,
	CFA_expression,
	CFA_offset_extended_sf,
	CFA_def_cfa_sf,
	CFA_def_cfa_offset_sf,
	CFA_val_offset,
	CFA_val_offset_sf,
	CFA_val_expression,
	CFA_set_loc = 0x01,
	CFA_MIPS_advance_loc8 = 0x1d,
	CFA_GNU_window_save = 0x2d,
	CFA_GNU_args_size,
	CFA_GNU_negative_offset_extended,
};

/* The operands of one instruction: numbers and bounds (libdw's). */
struct cursor {
	const __u8 *p, *end, *hard;
	bool bad;
};

/* Most operands are one byte: read here, the rest by cfi.c. */
static __u64 uleb(struct cursor *k)
{
	if (k->p < k->end && !(*k->p & 0x80))
		return *k->p++;
	return cfi__uleb(&k->p, k->end, k->hard, &k->bad);
}

static __u64 sleb(struct cursor *k)
{
	if (k->p < k->end && !(*k->p & 0x80))
		return (__u64)(__s64)((*k->p++ ^ 0x40) - 0x40);
	return (__u64)cfi__sleb(&k->p, k->end, k->hard, &k->bad);
}

/* A second operand must start before the program's end. */
static bool more(struct cursor *k)
{
	k->bad |= k->p >= k->end;
	return !k->bad;
}

/* A fixed-size advance operand. */
static __u64 fixed(struct cursor *k, int n)
{
	__u64 v = 0;
	int i;

	if (k->end - k->p < n) {
		k->bad = true;
		return 0;
	}
	for (i = n - 1; i >= 0; i--)
		v = v << 8 | k->p[i];
	k->p += n;
	return v;
}

static int restore(struct run *r, __u64 regno)
{
	if (!r->init || regno >= REG_LIMIT)
		return -1;
	if (regno == REG_RBP)
		r->st.rbp = r->init->rbp;
	else if (regno == REG_RA)
		r->st.ra = r->init->ra;
	return 0;
}

/* A rule of a register at, or being, an expression's value. */
static int expr_rule(struct run *r, struct cursor *k, bool val)
{
	__u64 regno = uleb(k), len;

	if (!val && !more(k))
		return -1;
	len = uleb(k);
	if (k->bad || len > (__u64)(k->end - k->p))
		return -1;
	k->p += len;
	return set_rule(r, regno, val ? RULE_VALEXPR : RULE_EXPR, 0, k->p - len,
			len);
}

/* The instructions of DW_CFA's "extended" encoding (not the three
 * with an operand in the opcode): 0, 1 for an advance past the rows
 * wanted, -1 for an error. */
static int step(struct run *r, struct cursor *k, __u8 op)
{
	struct fstate *s = &r->st;
	__s64 daf = r->cie->data_align;
	__u64 a, b;

	switch (op) {
	case 0: /* nop */
		return 0;
	case CFA_set_loc:
		if (cfi__pointer(r->c, r->cie->fde_enc, &k->p, &a))
			return -1;
		return advance(r, a);
	case CFA_advance_loc1:
		if (k->p >= k->hard)
			return -1; /* libdw reads on unchecked */
		a = *k->p++;
		return advance(r, r->loc + a * r->cie->code_align);
	case CFA_advance_loc2:
	case CFA_advance_loc4:
	case CFA_MIPS_advance_loc8:
		a = fixed(k, op == CFA_advance_loc2   ? 2
			     : op == CFA_advance_loc4 ? 4
						      : 8);
		if (k->bad)
			return -1;
		return advance(r, r->loc + a * r->cie->code_align);
	case CFA_def_cfa:
	case CFA_def_cfa_sf:
		a = uleb(k);
		if (!more(k))
			return -1;
		b = op == CFA_def_cfa ? uleb(k) : sleb(k) * (__u64)daf;
		s->cfa = CFA_OFF;
		s->reg = a;
		s->off = b;
		return 0;
	case CFA_def_cfa_register:
	case CFA_def_cfa_offset:
	case CFA_def_cfa_offset_sf:
		a = op == CFA_def_cfa_offset_sf ? sleb(k) * (__u64)daf
						: uleb(k);
		if (s->cfa != CFA_OFF)
			s->cfa = CFA_INVALID;
		if (op == CFA_def_cfa_register)
			s->reg = a;
		else
			s->off = a;
		return 0;
	case CFA_def_cfa_expression:
		a = uleb(k);
		if (k->bad || a > (__u64)(k->end - k->p))
			return -1;
		s->cfa = CFA_EXPR;
		s->expr = k->p;
		s->elen = a;
		k->p += a;
		return 0;
	case CFA_undefined:
	case CFA_same_value:
		a = uleb(k);
		return set_rule(r, a,
				op == CFA_undefined ? RULE_UNDEF : RULE_SAME, 0,
				NULL, 0);
	case CFA_offset_extended:
	case CFA_val_offset:
	case CFA_val_offset_sf:
	case CFA_GNU_negative_offset_extended:
		a = uleb(k);
		if (!more(k))
			return -1;
		b = op == CFA_val_offset_sf ? sleb(k) : uleb(k);
		if (op == CFA_GNU_negative_offset_extended)
			b = -b;
		return set_rule(r, a,
				op == CFA_offset_extended ||
					op == CFA_GNU_negative_offset_extended
				    ? RULE_OFF
				    : RULE_VALOFF,
				b * (__u64)daf, NULL, 0);
	case CFA_offset_extended_sf:
		a = uleb(k);
		b = sleb(k);
		return set_rule(r, a, RULE_OFF, b * (__u64)daf, NULL, 0);
	case CFA_register:
		a = uleb(k);
		if (!more(k))
			return -1;
		b = uleb(k);
		return set_rule(r, a, RULE_REG, b, NULL, 0);
	case CFA_expression:
	case CFA_val_expression:
		return expr_rule(r, k, op == CFA_val_expression);
	case CFA_restore_extended:
		return restore(r, uleb(k));
	case CFA_remember_state:
		if (r->depth == CFIROWS_STACK)
			return -1;
		r->stack[r->depth++] = *s;
		return 0;
	case CFA_restore_state:
		if (!r->depth)
			return -1;
		*s = r->stack[--r->depth];
		return 0;
	case CFA_GNU_window_save: /* SPARC's: r16-r31 at CFA + 8 * (n - 16) */
		s->ra.kind = RULE_OFF;
		s->ra.val = 0;
		return 0;
	case CFA_GNU_args_size:
		uleb(k);
		return 0;
	default:
		return -1;
	}
}

/* Run prog: 0 at its end, 1 when the rows wanted are done, -1 for an
 * error (what libdw fails the pc with). */
static int exec(struct run *r, const __u8 *prog, const __u8 *end)
{
	struct cursor k = {prog, end, r->c->buf + r->c->size, false};
	int ret = 0;
	__u8 op;

	while (k.p < k.end && !ret) {
		op = *k.p++;
		switch (op & 0xc0) {
		case 0x40: /* advance_loc */
			ret = advance(r, r->loc +
					     (op & 0x3f) * r->cie->code_align);
			break;
		case 0x80: /* offset */
			ret = set_rule(r, op & 0x3f, RULE_OFF,
				       uleb(&k) * (__u64)r->cie->data_align,
				       NULL, 0);
			break;
		case 0xc0: /* restore */
			ret = restore(r, op & 0x3f);
			break;
		default:
			ret = step(r, &k, op);
		}
		if (k.bad)
			ret = -1;
	}
	return ret;
}

int cfirows__fde(const struct cfi *c, const struct cfi_fde *f, __u64 pc,
		 __u64 limit, cfirows_emit emit, void *ctx, __u64 *endp)
{
	struct run r; /* not zeroed: its stack is 3 KB */
	struct fstate init;
	int ret;

	r.c = c;
	r.cie = &f->cie;
	r.init = NULL;
	r.depth = 0;
	r.loc = 0;
	r.limit = r.end = 0;
	r.emit = emit;
	r.ctx = ctx;
	r.err = 0;
	*endp = pc;
	abi_state(&r.st);
	r.pc = UINT64_MAX; /* the CIE's: no rows */
	if (exec(&r, f->cie.insns, f->cie.insns_end))
		return 0; /* no rules for the CIE's code */
	init = r.st;
	r.init = &init;
	r.depth = 0;
	r.loc = f->start;
	r.pc = pc;
	r.limit = limit;
	r.end = f->end;
	ret = exec(&r, f->insns, f->insns_end);
	if (!ret) /* to the FDE's end */
		advance(&r, f->end);
	*endp = r.pc;
	return r.err;
}
