/*
 * jdkpath: a JDK's libjvm.so found from the command that launches it,
 * before it runs (--events attaches its probes to the file before the
 * JVM maps it): the command, as execvp finds it on PATH, with its links
 * followed, is a JDK's bin/java, whose JVM is lib/server/libjvm.so (the
 * layout of JDK 9 and later). A running JVM's is in its maps instead
 * (hotspot__libjvm).
 */
#ifndef MIXPROF_JDKPATH_H
#define MIXPROF_JDKPATH_H

#include <stddef.h>

/*
 * The libjvm.so of the JDK whose bin/java cmd is (a name without '/' is
 * looked for on path, as execvp does; NULL: the default
 * "/usr/bin:/bin") into lib (cap bytes): 0, or -ENOENT when cmd is not
 * a JDK's bin/java or that JDK has no server JVM readable.
 */
int jdkpath__libjvm(const char *cmd, const char *path, char *lib, size_t cap);

#endif
