/*
 * inject: insert a probe call at the entry of a method's bytecode.
 *
 * The inserted prefix is `sipush ID; invokestatic HELPER; nop; nop`:
 * INJECT_LEN (8) bytes, a multiple of 4, so every old instruction moves by
 * the same 8 bytes and keeps its alignment. Relative branch offsets
 * (goto_w included) and tableswitch/lookupswitch padding are therefore
 * unchanged; only absolute offsets move: the exception table, the first
 * StackMapTable frame and Uninitialized(offset) types, LineNumberTable,
 * LocalVariable(Type)Table. Entries at pc 0 stay at 0 and grow by 8, so
 * parameters and the first line also cover the probe. Code type
 * annotations (offsets into code, only read by tools) are dropped. A
 * branch back to old pc 0 lands after the probe: a loop is not an entry.
 * The prefix leaves the stack empty, so no frame is needed before it and
 * it is legal before super() in a constructor (`this` is not touched).
 *
 * Pure C over a parsed classfile.
 */
#ifndef MIXPROF_JMAP_INJECT_H
#define MIXPROF_JMAP_INJECT_H

#include <stdint.h>
#include "classfile.h"
#include "strbuf.h"

#define INJECT_LEN 8
#define INJECT_MAX_ID 0x7fff /* sipush range */

/*
 * Encode the constant pool entries for a Methodref to the static method
 * cls.name:desc (slashed class, ASCII), numbered from cf->cp_count on.
 * Appends to cp; sets *ncp (slots added) and *methodref (its index).
 * 0, -E2BIG (constant pool full) or -ENOMEM.
 */
int inject__helper_cp(const struct classfile *cf, const char *cls,
		      const char *name, const char *desc, struct strbuf *cp,
		      uint16_t *ncp, uint16_t *methodref);

/*
 * Append to out m's new Code attribute_info (whole) calling methodref
 * with the int id at entry. 0; -EINVAL for a malformed Code attribute or
 * a method without one; -EFBIG when the code would pass the 64 KiB limit;
 * -ERANGE for an id above INJECT_MAX_ID; -ENOMEM. *why names the problem.
 */
int inject__entry(const struct classfile *cf, const struct cf_method *m,
		  uint16_t methodref, unsigned id, struct strbuf *out,
		  const char **why);

#endif
