/*
 * itails: the interpreter's returns past their frames, from code bytes as
 * JDK 17 and JDK 25 make them (their -XX:+PrintInterpreter): a return
 * template's, an early return's, the exception path's (its thread state
 * store), the native entry's (sp from r11); where the frame is gone and
 * where each register holds what. Not a return: two pops, a jump to
 * another register, no "mov rsp", a run cut by the end of the code; more
 * returns than room is an error; the target's memory read through
 * itails__read, a window at a time (returns across windows).
 */
#include <errno.h>
#include <string.h>
#include "check.h"
#include "jvm/itails.h"
#include "selfmem.h"

/* JDK 17's ireturn: hlt; leave; pop r13; mov rsp, rbx; jmp r13 */
static const uint8_t ret17[] = {0xf4, 0xc9, 0x41, 0x5d, 0x48,
				0x8b, 0xe3, 0x41, 0xff, 0xe5};
/* JDK 25's: leave; mov byte [r15+0x3be], 0; pop r13; mov rsp, rbx;
 * cmp rsp, [r15+0x620]; jb +11; mov qword [r15+0x620], 0; jmp r13 */
static const uint8_t ret25[] = {0xc9, 0x41, 0xc6, 0x87, 0xbe, 0x03, 0x00, 0x00,
				0x00, 0x41, 0x5d, 0x48, 0x8b, 0xe3, 0x49, 0x3b,
				0xa7, 0x20, 0x06, 0x00, 0x00, 0x72, 0x0b, 0x49,
				0xc7, 0x87, 0x20, 0x06, 0x00, 0x00, 0x00, 0x00,
				0x00, 0x00, 0x41, 0xff, 0xe5, 0x90};
/* JDK 17's exception path: leave; pop rdx; mov rsp, rbx; mov dword
 * [r15+0x3fc], 4; jmp rdx */
static const uint8_t exc17[] = {0xc9, 0x5a, 0x48, 0x8b, 0xe3, 0x41, 0xc7,
				0x87, 0xfc, 0x03, 0x00, 0x00, 0x04, 0x00,
				0x00, 0x00, 0xff, 0xe2, 0xcc};
/* JDK 17's native entry: leave; pop rdi; mov rsp, r11; jmp rdi */
static const uint8_t native17[] = {0xc9, 0x5f, 0x49, 0x8b,
				   0xe3, 0xff, 0xe7, 0xcc};
/* not returns: leave; pop rdx; pop rax; jmp rbx (the exception
 * handler's jump); leave; pop rsi; mov rsp, rbx; jmp rdi; leave; pop
 * r13; jmp r13 */
static const uint8_t not1[] = {0xc9, 0x5a, 0x58, 0xff, 0xe3, 0xcc};
static const uint8_t not2[] = {0xc9, 0x5e, 0x48, 0x8b, 0xe3, 0xff, 0xe7};
static const uint8_t not3[] = {0xc9, 0x41, 0x5d, 0x41, 0xff, 0xe5};

static uint8_t code[4096], big[3 * 4096 + 100];

static int scan(const uint8_t *b, size_t n, struct interp_tail *t, int max)
{
	memset(code, 0x90, sizeof(code));
	memcpy(code + 100, b, n);
	return itails__scan(code, 100 + n, t, max);
}

int main(void)
{
	const struct hotspot_mem mem = {self_read, NULL};
	struct interp_tail t[4];

	CHECK_INT(scan(ret17, sizeof(ret17), t, 4), 1);
	/* from after "leave": the return address at sp for the 2 bytes of
	 * the pop, in r13 (13) then; the caller's sp in rbx (3) for 3 more */
	CHECK_INT(t[0].at, 102);
	CHECK_INT(t[0].len, 8);
	CHECK_INT(t[0].pop_end, 2);
	CHECK_INT(t[0].mov_end, 5);
	CHECK_INT(t[0].regs, 13 << 4 | 3);
	CHECK_INT(scan(ret25, sizeof(ret25), t, 4), 1);
	CHECK_INT(t[0].at, 101);
	CHECK_INT(t[0].len, sizeof(ret25) - 2);
	CHECK_INT(t[0].pop_end, 10);
	CHECK_INT(t[0].mov_end, 13);
	CHECK_INT(t[0].regs, 13 << 4 | 3);
	CHECK_INT(scan(exc17, sizeof(exc17), t, 4), 1);
	CHECK_INT(t[0].len, sizeof(exc17) - 2);
	CHECK_INT(t[0].regs, 2 << 4 | 3);
	CHECK_INT(scan(native17, sizeof(native17), t, 4), 1);
	CHECK_INT(t[0].len, 6);
	CHECK_INT(t[0].pop_end, 1);
	CHECK_INT(t[0].mov_end, 4);
	CHECK_INT(t[0].regs, 7 << 4 | 11);
	CHECK_INT(scan(not1, sizeof(not1), t, 4), 0);
	CHECK_INT(scan(not2, sizeof(not2), t, 4), 0);
	CHECK_INT(scan(not3, sizeof(not3), t, 4), 0);
	/* cut: the jump past the end of the code */
	CHECK_INT(itails__scan(ret17, sizeof(ret17) - 1, t, 4), 0);
	/* two, in order; then no room for the second */
	memset(code, 0x90, sizeof(code));
	memcpy(code + 10, ret25, sizeof(ret25));
	memcpy(code + 200, native17, sizeof(native17));
	CHECK_INT(itails__scan(code, sizeof(code), t, 4), 2);
	CHECK(t[0].at == 11 && t[1].at == 201);
	CHECK_INT(itails__scan(code, sizeof(code), t, 1), -E2BIG);
	/* through the target's memory, and not */
	CHECK_INT(itails__read(&mem, (uintptr_t)code,
			       (uintptr_t)code + sizeof(code), t, 4),
		  2);
	CHECK(t[1].at == 201);
	/* read a window (4 KB) at a time: a return across a window's end,
	 * one whose "leave" ends a window, each found once */
	memset(big, 0x90, sizeof(big));
	memcpy(big + 4090, ret25, sizeof(ret25));
	memcpy(big + 8191, native17, sizeof(native17));
	CHECK_INT(itails__read(&mem, (uintptr_t)big,
			       (uintptr_t)big + sizeof(big), t, 4),
		  2);
	CHECK(t[0].at == 4091 && t[1].at == 8192);
	CHECK_INT(itails__scan(big, sizeof(big), t, 4), 2);
	CHECK(t[0].at == 4091 && t[1].at == 8192);
	CHECK_INT(itails__read(&mem, 64, 64 + sizeof(code), t, 4), -EFAULT);
	CHECK_INT(itails__read(&mem, 0, 0, t, 4), -EFAULT);
	return check_report();
}
