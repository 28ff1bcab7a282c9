/*
 * agentpath: where mixprof finds libjmap.so, the same for every command
 * that loads it (launch mode, -p, -e, mixprof attach).
 */
#ifndef MIXPROF_AGENTPATH_H
#define MIXPROF_AGENTPATH_H

/*
 * libjmap.so (malloc'ed): $MIXPROF_AGENT, else next to the mixprof
 * binary (the build tree), else ../lib/mixprof/ beside it (make
 * install's layout, whatever PREFIX); NULL if none is readable.
 */
char *agentpath__find(void);

#endif
