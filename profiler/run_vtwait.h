/*
 * run_vtwait: --off-cpu's and --wall's part for virtual threads (JDK
 * 21+): the freeze and thaw uprobes (sampler__attach_vtwait) on each
 * target JVM (-p's, the launched one), attached once its tables are read
 * and its statics set, so a virtual thread's unmounted time counts under
 * its own stack. A JVM without them (JDK 17, a libjvm.so without .symtab)
 * is told with -v and left as it is.
 */
#ifndef MIXPROF_RUN_VTWAIT_H
#define MIXPROF_RUN_VTWAIT_H

struct run;

/*
 * Every tick of an off-CPU or wall run: the JVMs not attached yet tried,
 * each at most once a second (a failed attach is reported, the run goes
 * on). 0, or -ENOMEM.
 */
int run_vtwait__tick(struct run *r);
void run_vtwait__free(struct run *r);

#endif
