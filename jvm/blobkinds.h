/*
 * blobkinds.h: what the BPF unwinder knows of HotSpot's code blobs by
 * their CodeBlob::_name and their code, on x86-64 (JDK 17 to 25). Shared
 * by sampler.bpf.c (no libc: macros only), jvm/itails.c and the tests.
 *
 * Frameless blobs: their code never builds a frame, it loads a target and
 * jumps (vtable and itable stubs, "vtable chunks"; the inline cache stubs,
 * "InlineCacheBuffer", until JDK 21), or moves arguments and jumps (the
 * I2C and C2I adapters, "I2C/C2I adapters", and the interpreter entries
 * of method handle intrinsics, "MethodHandles adapters"). A pc there is
 * a leaf whose return address is at sp and whose rbp is still the
 * caller's (for a compiled caller, any value): the I2C adapter realigns
 * sp and pushes the return address again before it jumps, the C2I
 * adapter pops it and stores it below the interpreter's arguments, so
 * for a few instructions of each the word at sp is not it (the walk then
 * finds no code there and says so). Their first 8 name bytes, as a
 * little-endian word, are below.
 */
#ifndef MIXPROF_JVM_BLOBKINDS_H
#define MIXPROF_JVM_BLOBKINDS_H

#define BLOB_NAME8(a, b, c, d, e, f, g, h)                                     \
	((unsigned long long)(a) | (unsigned long long)(b) << 8 |              \
	 (unsigned long long)(c) << 16 | (unsigned long long)(d) << 24 |       \
	 (unsigned long long)(e) << 32 | (unsigned long long)(f) << 40 |       \
	 (unsigned long long)(g) << 48 | (unsigned long long)(h) << 56)

/*
 * The I2C adapter gets the interpreted caller's sp in r13, the C2I
 * adapter puts the compiled caller's there before it moves sp down by the
 * arguments' space (at most 255 argument slots, the return address and
 * alignment): the most that r13 lies above sp in an adapter.
 */
#define ADAPTER_MAX_ARGS (256 * 8 + 16)
#define BLOB_VTABLE_CHUNKS BLOB_NAME8('v', 't', 'a', 'b', 'l', 'e', ' ', 'c')
#define BLOB_ADAPTERS BLOB_NAME8('I', '2', 'C', '/', 'C', '2', 'I', ' ')
#define BLOB_IC_BUFFER BLOB_NAME8('I', 'n', 'l', 'i', 'n', 'e', 'C', 'a')
#define BLOB_MH_ADAPTERS BLOB_NAME8('M', 'e', 't', 'h', 'o', 'd', 'H', 'a')
/*
 * C1's slow_subtype_check takes its two arguments on the stack, pushed
 * by its caller under the caller's frame ("push klass; push super;
 * call"): "slow_subtype_check Runtime1 stub" (JDK 17), "C1 Runtime
 * slow_subtype_check_blob" (JDK 25: the 8 bytes at BLOB_C1_NAME_AT).
 */
#define BLOB_SLOW_SUBTYPE BLOB_NAME8('s', 'l', 'o', 'w', '_', 's', 'u', 'b')
#define BLOB_C1_RUNTIME BLOB_NAME8('C', '1', ' ', 'R', 'u', 'n', 't', 'i')
#define BLOB_C1_NAME_AT 11
#define BLOB_SLOW_SUBTYPE_ARGS 16
/*
 * Compiled Java methods' blobs are all named "nmethod" (native wrappers
 * too); the other blobs with a frame size are HotSpot's own stubs: C1's
 * Runtime1 stubs, C2's runtime stubs, and the exception, uncommon trap,
 * deoptimization and safepoint blobs, some of which build their frame
 * without "mov rbp, rsp" (rbp stays the caller's: a frame-pointer walk
 * skips their caller). An nmethod without a frame size is a method
 * handle intrinsic (linkToVirtual, invokeBasic...: SharedRuntime's native
 * wrapper for them only dispatches and jumps): frameless too.
 */
#define BLOB_NMETHOD BLOB_NAME8('n', 'm', 'e', 't', 'h', 'o', 'd', 0)

/*
 * Compiled code's prologue (C1 build_frame, C2 verified_entry, native
 * wrappers), before CodeBlob::_frame_complete_offset, comes in two forms:
 * with a stack bang, "push rbp; [mov rbp, rsp]; sub rsp, N"; without one
 * (C2 methods that call nothing, small frames), "sub rsp, N; mov
 * [rsp+N-8], rbp; [mov rbp, rsp; add rbp, N-8]" (the bracketed part with
 * -XX:+PreserveFramePointer), then JDK 21+'s nmethod entry barrier (cmp
 * [r15+d], imm; jne). Once "sub rsp" ran, the frame size rule holds,
 * the caller's rbp in its slot (pushed before, or stored right after:
 * until then rbp is still the caller's); before it, the return address
 * is at sp, or at sp + 8 once rbp was pushed. The epilogue: "add rsp, N; pop rbp", then the return poll
 * "cmp rsp, [r15+d]; ja slow" (JDK 17+), then "ret".
 */
#define X86_PUSH_RBP 0x55
#define X86_POP_RBP 0x5d
#define X86_RET 0xc3
/* mov rbp, rsp: 48 8b ec as HotSpot's assembler encodes it (MOV r64,
 * r/m64), 48 89 e5 as C compilers do */
#define X86_IS_MOV_RBP_RSP(b)                                                  \
	((b)[0] == 0x48 && (((b)[1] == 0x8b && (b)[2] == 0xec) ||              \
			    ((b)[1] == 0x89 && (b)[2] == 0xe5)))
/* sub rsp, imm8 (48 83 ec ib) or imm32 (48 81 ec id): its length, or 0 */
#define X86_SUB_RSP_LEN(b)                                                     \
	((b)[0] == 0x48 && (b)[2] == 0xec ? ((b)[1] == 0x83   ? 4              \
					     : (b)[1] == 0x81 ? 7              \
							      : 0)             \
					  : 0)
/* add rbp, imm8/imm32 (48 83 c5 ib, 48 81 c5 id): -XX:+PreserveFramePointer's
 * "mov rbp, rsp; add rbp, N-8", whose "add" C2's runtime stubs run past
 * their frame_complete (rbp is not their record until it ran: check
 * mode's oracle, sampler.bpf.c) */
#define X86_IS_ADD_RBP(b)                                                      \
	((b)[0] == 0x48 && ((b)[1] == 0x83 || (b)[1] == 0x81) && (b)[2] == 0xc5)
/* cmp rsp, [r15+d8/d32]: 49 3b 67 / 49 3b a7 (the return poll) */
#define X86_IS_POLL_CMP(b)                                                     \
	((b)[0] == 0x49 && (b)[1] == 0x3b && ((b)[2] == 0x67 || (b)[2] == 0xa7))
/*
 * A conditional jump that falls through to "ret" has the stack "ret" has:
 * the return poll's "ja rel32" (0f 87), a runtime stub's pending
 * exception check "cmp qword [r15+d8], imm8; jne rel32" (49 83 7f d8 ib,
 * 0f 85) after its "leave" (JDK 25 Tomcat: a wrong caller once, the frame
 * size rule taken past the frame); the rel8 forms (70-7f ib) too.
 */
#define X86_IS_JCC32_RET(b)                                                    \
	((b)[0] == 0x0f && ((b)[1] & 0xf0) == 0x80 && (b)[6] == 0xc3)
#define X86_IS_JCC8_RET(b) (((b)[0] & 0xf0) == 0x70 && (b)[2] == 0xc3)
#define X86_IS_CMP_R15_IMM8(b)                                                 \
	((b)[0] == 0x49 && (b)[1] == 0x83 && (b)[2] == 0x7f)
/*
 * C2's runtime stubs (OptoRuntime's, GraphKit::gen_stub) leave by a tail
 * jump after "add rsp, N; pop rbp": to a handler with the return address
 * still at sp ("jmp REG": the pending exception's forward, and C2's
 * TailCall), or with it popped into rdx first ("pop rdx; jmp REG": C2's
 * TailJump, _rethrow_Java's way to the caller's handler). Taken past
 * the frame by its frame size, such a leaf had a wrong caller (Groovy's
 * exceptions, JDK 17 check mode: 2 of 3 _rethrow_Java leaves).
 */
#define X86_POP_RDX 0x5a
/*
 * A compiled method's own rethrow (C2's Rethrow node, an exception it
 * does not catch) leaves the same way: "[add rsp, N;] pop rbp; jmp
 * rel32" to the rethrow stub, the return address at sp. Taken by its
 * frame size at that jump, the leaf skipped its caller, and so did the
 * frame-pointer oracle: a wrong caller check mode did not see (samples/
 * Rethrow, -XX:-Inline: 1-8 of 4,000 samples).
 */
#define X86_JMP_REL32 0xe9
/*
 * A compiled method's return poll stub (C2's, JDK 17 to 25), reached
 * from its return poll after "pop rbp", the return address at sp: "mov
 * r10, imm64" (the poll's pc; 49 ba), "mov [r15+d32], r10" (into the
 * thread's saved exception pc; 4d 89 97), "jmp rel32" to the safepoint
 * handler for returns. Its frame gone, the frame size rule read a word
 * of the caller's frame for the return address.
 */
#define X86_IS_MOV_R10_IMM64(b) ((b)[0] == 0x49 && (b)[1] == 0xba)
#define X86_MOV_R10_IMM64_LEN 10
#define X86_IS_STORE_R15_R10(b)                                                \
	((b)[0] == 0x4d && (b)[1] == 0x89 && (b)[2] == 0x97)
#define X86_STORE_R15_R10_LEN 7

/*
 * HotSpot's safepoint handlers for polls in loops (SharedRuntime's
 * generate_handler_blob without cause_return, "SafepointBlob", JDK 17 to
 * 25 alike): the signal handler sends a thread that polled there and
 * keeps the poll's pc in the thread (JavaThread::_saved_exception_pc).
 * The blob starts "push rbx" (room for a return address, rbx's value
 * until that pc is stored in it), "push rbp; mov rbp, rsp" (53 55 48 8b
 * ec), then saves every register (a frame of hundreds of words). A leaf
 * there has the polled frame for its caller: the saved pc, the sp the
 * blob was entered with, rbp as pushed. By its frame size, before its
 * registers were saved, the walk took a word far up the stack for the
 * return address (a wrong caller, the call stub, then a break: 4 of
 * 3,000 samples of a loop under Thread.getAllStackTraces, JDK 17).
 */
#define BLOB_SAFEPOINT BLOB_NAME8('S', 'a', 'f', 'e', 'p', 'o', 'i', 'n')
#define X86_PUSH_RBX 0x53
#define X86_IS_SAFEPOINT_START(b)                                              \
	((b)[0] == X86_PUSH_RBX && (b)[1] == X86_PUSH_RBP &&                   \
	 X86_IS_MOV_RBP_RSP((b) + 2))
#define SAFEPOINT_RBP_SET 5 /* where its "mov rbp, rsp" ends */
/* fewer words of frame: not it (its register save alone is more) */
#define SAFEPOINT_MIN_WORDS 64

/*
 * C2's exception blob (OptoRuntime::generate_exception_blob, "ExceptionBlob",
 * JDK 17 to 25 alike; 2 words of frame): jumped to with the exception
 * pc, a return address in the caller whose frame is at sp, in rdx. It
 * starts "push rdx; sub rsp, 8; mov [rsp], rbp" (52 48 83 ec 08 48 89
 * 2c 24) and ends "mov rbp, [rsp]; add rsp, 8; pop rdx", then "mov r8,
 * rax" (4c 8b c0), loads of rax and rdx from the thread (49 8b 87/97
 * d32), "mov qword [r15+d32], 0" and "jmp r8": at its first byte and
 * after that pop the caller's pc is in rdx only. Taken by its frame size
 * there, the walk broke (JDK 25, a rethrowing workload: 22-38 of 8,000
 * samples).
 */
#define BLOB_EXCEPTION BLOB_NAME8('E', 'x', 'c', 'e', 'p', 't', 'i', 'o')
#define EXC_BLOB_WORDS 2
#define EXC_PUSH_RDX 0x52
/* its start: push rdx; sub rsp, 8 (imm8) */
#define X86_IS_EXC_START(b)                                                    \
	((b)[0] == EXC_PUSH_RDX && (b)[1] == 0x48 && (b)[2] == 0x83 &&         \
	 (b)[3] == 0xec && (b)[4] == 0x08)
#define EXC_SUB_END 5 /* where "sub rsp, 8" ends */
/* mov r8, rax */
#define X86_IS_MOV_R8_RAX(b)                                                   \
	((b)[0] == 0x4c && (b)[1] == 0x8b && (b)[2] == 0xc0)
#define X86_MOV_R8_RAX_LEN 3
/* mov rax, [r15+d32] or mov rdx, [r15+d32] */
#define X86_IS_LOAD_R15(b)                                                     \
	((b)[0] == 0x49 && (b)[1] == 0x8b && ((b)[2] == 0x87 || (b)[2] == 0x97))
#define X86_LOAD_R15_LEN 7
/* its tail past "pop rdx", at most: mov, two loads, a store, jmp */
#define EXC_TAIL_BYTES 32
#define EXC_TAIL_INSNS 5

/*
 * The interpreter's return, past its frame (interp_macro_assembler's
 * remove_activation, then the return template's jump; jvm/itails.h):
 * "leave", [JDK 25: "mov byte [r15+d32], 0"], "pop REG" (the return
 * address), "mov rsp, SP" (the sender sp, the caller's sp: rbx, r11 in
 * the native entry), [JDK 19+'s continuation check: "cmp rsp, [r15+d];
 * jb; mov qword [r15+d32], 0"; the exception path's "mov dword
 * [r15+d32], imm32"], "jmp REG" (r13 in the return templates, rdi in the
 * native entry, rsi in early returns, rdx in exception unwinding). The
 * forms, by their first bytes, and their lengths:
 */
/* mov byte [r15+d32], imm8: 41 c6 87 d32 ib */
#define X86_IS_MOVB_R15(b) ((b)[0] == 0x41 && (b)[1] == 0xc6 && (b)[2] == 0x87)
#define X86_MOVB_R15_LEN 8
/* mov qword [r15+d32], imm32: 49 c7 87 d32 id; the dword form 41 c7 87
 * (the exception path's thread state store), as long */
#define X86_IS_MOVQ_R15(b) ((b)[0] == 0x49 && (b)[1] == 0xc7 && (b)[2] == 0x87)
#define X86_IS_MOVL_R15(b) ((b)[0] == 0x41 && (b)[1] == 0xc7 && (b)[2] == 0x87)
#define X86_MOVQ_R15_LEN 11
/* pop r: 58+r, or 41 58+r for r8-r15: the register, or -1 */
#define X86_POP_REG(b)                                                         \
	(((b)[0] & 0xf8) == 0x58		     ? (b)[0] & 7              \
	 : (b)[0] == 0x41 && ((b)[1] & 0xf8) == 0x58 ? 8 + ((b)[1] & 7)        \
						     : -1)
/* mov rsp, r: 48 8b e0+r, 49 8b e0+r for r8-r15: the register, or -1 */
#define X86_MOV_RSP_REG(b)                                                     \
	(((b)[0] & 0xfe) == 0x48 && (b)[1] == 0x8b && ((b)[2] & 0xf8) == 0xe0  \
	     ? ((b)[0] & 1) * 8 + ((b)[2] & 7)                                 \
	     : -1)
/* jmp r: ff e0+r, 41 ff e0+r for r8-r15: the register, or -1 */
#define X86_JMP_REG(b)                                                         \
	((b)[0] == 0xff && ((b)[1] & 0xf8) == 0xe0 ? (b)[1] & 7                \
	 : (b)[0] == 0x41 && (b)[1] == 0xff && ((b)[2] & 0xf8) == 0xe0         \
	     ? 8 + ((b)[2] & 7)                                                \
	     : -1)
/* jcc rel8: 70-7f ib */
#define X86_IS_JCC8(b) (((b)[0] & 0xf0) == 0x70)

#endif
