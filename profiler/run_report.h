/*
 * run_report: what a run says at its end, and how its errors count.
 */
#ifndef MIXPROF_RUN_REPORT_H
#define MIXPROF_RUN_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct run;

/* Samples written to the folded output (or the graphs without one). */
uint64_t run_report__written(struct run *r);
/* Why fewer were written than taken, as " (...)", or "". */
const char *run_report__not_written(struct run *r);
/* ret is EPIPE from a stdout whose reader left (`| head`): not a failure. */
bool run_report__reader_left(struct run *r, int ret);
/* ret is an output error a writer has reported already. */
bool run_report__reported(struct run *r, int ret);
/* The summary on stderr: every sample accounted for. */
void run_report__summary(struct run *r);
/*
 * The launched command's words joined by spaces into buf (len bytes,
 * cut to fit), each made safe to show (common/safename.h); returns the
 * length written.
 */
size_t run_report__cmdline(char *const *cmd, char *buf, size_t len);
/* Draw the graphs with their title and subtitle; 0 or a negative errno. */
int run_report__render(struct run *r);

#endif
