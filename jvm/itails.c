// SPDX-License-Identifier: GPL-2.0
/*
 * itails: the interpreter's returns past a frame (see itails.h), by the
 * x86-64 forms of jvm/blobkinds.h: after a "leave" (0xc9), an optional
 * "mov byte [r15+d32], imm8", "pop REG", "mov rsp, SP", any of the
 * continuation check's "cmp rsp, [r15+d]", "jcc rel8", "mov qword/dword
 * [r15+d32], imm32", then "jmp REG" with the register popped. A 0xc9
 * byte inside another instruction starts no such run in practice: the
 * run after it must hold a pop, a move to rsp and a jump to the popped
 * register, in order.
 */
#include "itails.h"
#include <errno.h>
#include "blobkinds.h"

#define X86_LEAVE 0xc9
/* the continuation check's instructions at most (three in JDK 25's
 * exception path, four with the thread's state store) */
#define MAX_CONT 6
/* code read at once by itails__read, and the longest return past its
 * "leave" (movb 8, pop 2, mov 3, six of 11, jmp 3), read past a window */
#define WINDOW 4096
#define TAIL_MAX 96

/* bytes a form is recognized by (its first three: read only when there) */
#define PEEK 3

/* The continuation check's form at b, n bytes there: its length, or 0. */
static size_t cont_len(const uint8_t *b, size_t n)
{
	size_t len = 0;

	if (n < PEEK)
		return 0;
	if (X86_IS_POLL_CMP(b))
		len = b[2] == 0xa7 ? 7 : 4;
	else if (X86_IS_JCC8(b))
		len = 2;
	else if (X86_IS_MOVQ_R15(b) || X86_IS_MOVL_R15(b))
		len = X86_MOVQ_R15_LEN;
	return len <= n ? len : 0;
}

/* The return past a frame right after a "leave" at code + k (k, end:
 * offsets in code), in *t: 0, or -1 (none). */
static int tail_at(const uint8_t *code, size_t k, size_t end,
		   struct interp_tail *t)
{
	size_t at = k, len;
	int pop, sp, jmp, i;

	if (end - k >= X86_MOVB_R15_LEN && X86_IS_MOVB_R15(code + k))
		k += X86_MOVB_R15_LEN;
	if (end - k < PEEK || (pop = X86_POP_REG(code + k)) < 0)
		return -1;
	k += pop < 8 ? 1 : 2;
	t->pop_end = k - at;
	if (end - k < PEEK || (sp = X86_MOV_RSP_REG(code + k)) < 0)
		return -1;
	k += 3;
	t->mov_end = k - at;
	for (i = 0; i < MAX_CONT && (len = cont_len(code + k, end - k)); i++)
		k += len;
	if (end - k < PEEK || (jmp = X86_JMP_REG(code + k)) != pop)
		return -1;
	k += jmp < 8 ? 2 : 3;
	t->at = at;
	t->len = k - at;
	t->regs = pop << 4 | sp;
	return 0;
}

/*
 * The returns whose "leave" lies in code[0, upto) of the n bytes at code
 * (upto <= n: the rest is only read), their at offset by base, appended
 * to out's *count (at most max): 0, or -E2BIG.
 */
static int scan_part(const uint8_t *code, size_t n, size_t upto, uint32_t base,
		     struct interp_tail *out, int max, int *count)
{
	struct interp_tail t;

	for (size_t i = 0; i < upto && i + 1 < n; i++) {
		if (code[i] != X86_LEAVE || tail_at(code, i + 1, n, &t))
			continue;
		if (*count == max)
			return -E2BIG;
		t.at += base;
		out[(*count)++] = t;
	}
	return 0;
}

int itails__scan(const uint8_t *code, size_t n, struct interp_tail *out,
		 int max)
{
	int count = 0, ret;

	if (n > ITAILS_MAX_CODE)
		n = ITAILS_MAX_CODE;
	ret = scan_part(code, n, n, 0, out, max, &count);
	return ret ? ret : count;
}

int itails__read(const struct hotspot_mem *m, uint64_t start, uint64_t end,
		 struct interp_tail *out, int max)
{
	/* a window at a time, each read with the longest return after it:
	 * the code is not held whole (100 KB, or the 1 MB bound, more of
	 * the run's peak RSS) */
	uint8_t buf[WINDOW + TAIL_MAX];
	size_t n, len, part;
	int count = 0, ret;

	if (!start || end <= start)
		return -EFAULT;
	n = end - start > ITAILS_MAX_CODE ? ITAILS_MAX_CODE : end - start;
	for (size_t off = 0; off < n; off += WINDOW) {
		part = n - off < WINDOW ? n - off : WINDOW;
		len = n - off < WINDOW + TAIL_MAX ? n - off : WINDOW + TAIL_MAX;
		if ((ret = m->read(m->ctx, start + off, buf, len)))
			return ret;
		if ((ret = scan_part(buf, len, part, off, out, max, &count)))
			return ret;
	}
	return count;
}
