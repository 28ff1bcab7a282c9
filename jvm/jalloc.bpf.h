/*
 * jalloc.bpf.h: what --alloc's probes read of HotSpot (x86-64): the
 * arguments of libjvm's AllocTracer hooks (hsprobes.h names them), for
 * sampler/alloc.bpf.h, which counts them and knows no HotSpot layout.
 */
#ifndef MIXPROF_JALLOC_BPF_H
#define MIXPROF_JALLOC_BPF_H

/* send_allocation_in_new_tlab(Klass*, HeapWord** obj, size_t tlab_bytes,
 * size_t obj_bytes, JavaThread*): the TLAB's bytes stand for the site's
 * (the hook fires once per TLAB) */
#define JALLOC_TLAB_KLASS(ctx) PT_REGS_PARM1(ctx)
#define JALLOC_TLAB_BYTES(ctx) PT_REGS_PARM3(ctx)
/* send_allocation_outside_tlab(Klass*, HeapWord** obj, size_t bytes,
 * JavaThread*) */
#define JALLOC_OUTSIDE_KLASS(ctx) PT_REGS_PARM1(ctx)
#define JALLOC_OUTSIDE_BYTES(ctx) PT_REGS_PARM3(ctx)

#endif
