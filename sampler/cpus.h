/*
 * cpus: the online CPU list ("0-3,8,10-11", as in
 * /sys/devices/system/cpu/online), with no fixed limit on CPU numbers.
 */
#ifndef MIXPROF_CPUS_H
#define MIXPROF_CPUS_H

/*
 * Parse a CPU list into a malloc'ed array (*cpus, caller frees) of *nr
 * ascending CPU numbers. Returns 0 or -EINVAL / -ENOMEM.
 */
int cpus__parse(const char *text, int **cpus, int *nr);

/* The online CPUs of this machine. 0 or negative errno. */
int cpus__online(int **cpus, int *nr);

#endif
