/*
 * ksym.h: what ksym.bpf.c and ksymbpf.c share. User space writes up to
 * KSYM_BATCH kernel addresses into ksym_addrs and their number into
 * ksym_nr (the object's .bss, mapped into both), runs the program once,
 * and reads back each address's "%pB" text: "name+0xoff/0xsize",
 * " [module]" after it for a module, "0x..." when no symbol holds it.
 * ksym_len[i] is the whole text's length + 1, which may exceed
 * KSYM_TEXT (then the text is cut), or a negative errno.
 */
#ifndef MIXPROF_KSYM_H
#define MIXPROF_KSYM_H

#define KSYM_BATCH 128
#define KSYM_TEXT 256

#endif
