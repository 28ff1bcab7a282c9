/*
 * jitdump_rec: the records of perf's jitdump format (version 1), as laid
 * out in the kernel tree's tools/perf/Documentation/jitdump-specification
 * .txt: host byte order, fixed headers followed by variable data.
 *
 *   file:       header, then records
 *   CODE_LOAD:  struct jitdump_code_load, name + NUL, code bytes
 *   DEBUG_INFO: struct jitdump_debug_info, then nr_entry times
 *               struct jitdump_debug_entry + file name + NUL; it must come
 *               just before the CODE_LOAD it describes
 *   CODE_CLOSE: struct jitdump_rec_header alone
 *
 * Timestamps are CLOCK_MONOTONIC nanoseconds (perf record -k 1 / -k mono).
 * Pure: fills structs; the writer adds the variable parts.
 */
#ifndef MIXPROF_JMAP_JITDUMP_REC_H
#define MIXPROF_JMAP_JITDUMP_REC_H

#include <stddef.h>
#include <stdint.h>

#define JITDUMP_MAGIC 0x4A695444u /* "JiTD" read as a host u32 */
#define JITDUMP_VERSION 1
#define JITDUMP_CODE_LOAD 0
#define JITDUMP_CODE_DEBUG_INFO 2
#define JITDUMP_CODE_CLOSE 3

struct jitdump_header {
	uint32_t magic;
	uint32_t version;
	uint32_t total_size; /* of this header */
	uint32_t elf_mach;
	uint32_t pad1;
	uint32_t pid;
	uint64_t timestamp;
	uint64_t flags;
};

struct jitdump_rec_header {
	uint32_t id;
	uint32_t total_size; /* whole record, variable parts included */
	uint64_t timestamp;
};

struct jitdump_code_load {
	struct jitdump_rec_header h;
	uint32_t pid;
	uint32_t tid;
	uint64_t vma;
	uint64_t code_addr;
	uint64_t code_size;
	uint64_t code_index; /* unique per load: perf names jitted-PID-N.so */
};

struct jitdump_debug_info {
	struct jitdump_rec_header h;
	uint64_t code_addr; /* the code load it belongs to */
	uint64_t nr_entry;
};

/* From addr on, the code is source line lineno of the file named after it. */
struct jitdump_debug_entry {
	uint64_t addr;
	uint32_t lineno;
	uint32_t discrim;
};

_Static_assert(sizeof(struct jitdump_debug_info) == 32, "jitdump debug");
_Static_assert(sizeof(struct jitdump_debug_entry) == 16, "jitdump entry");
_Static_assert(sizeof(struct jitdump_header) == 40, "jitdump header");
_Static_assert(sizeof(struct jitdump_rec_header) == 16, "jitdump record");
_Static_assert(sizeof(struct jitdump_code_load) == 56, "jitdump load");

/* The file header for process pid, for this machine's ELF e_machine. */
void jitdump_rec__header(struct jitdump_header *h, uint32_t pid,
			 uint64_t timestamp);

/*
 * A CODE_LOAD record header for code [addr, addr + size) named by a
 * namelen-byte name (the NUL follows it). Returns -EOVERFLOW when the
 * record would not fit total_size's 32 bits, else 0.
 */
int jitdump_rec__code_load(struct jitdump_code_load *r, uint32_t pid,
			   uint32_t tid, uint64_t addr, uint64_t size,
			   uint64_t index, uint64_t timestamp, size_t namelen);

/*
 * Append one debug entry (struct, file name, NUL) to sb: code from addr on
 * is line lineno of file. 0 or -ENOMEM.
 */
struct strbuf;
int jitdump_rec__debug_entry(struct strbuf *sb, uint64_t addr, uint32_t lineno,
			     const char *file);

/* A DEBUG_INFO header for nr entries taking len bytes, for the code at
 * code_addr. -EOVERFLOW when too large for total_size, else 0. */
int jitdump_rec__debug_info(struct jitdump_debug_info *d, uint64_t code_addr,
			    uint64_t nr, size_t len, uint64_t timestamp);

/* A CODE_CLOSE record. */
void jitdump_rec__close(struct jitdump_rec_header *r, uint64_t timestamp);

#endif
