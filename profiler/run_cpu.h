/*
 * run_cpu: a sampling run (CPU, --off-cpu, --wall, --alloc), as a
 * run_mode (run.h). Its start loads the unwind rows of the running
 * targets first (a bounded wait), stamps r->tb.start_ns, attaches the
 * perf events (or --alloc's uprobes), says the start line and lets a
 * launched command go; its ticks keep the live status line on a terminal.
 */
#ifndef MIXPROF_RUN_CPU_H
#define MIXPROF_RUN_CPU_H

#include "run.h"

extern const struct run_mode run_cpu_mode;

#endif
