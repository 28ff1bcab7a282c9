/*
 * jvmprep: what a JVM needs to be profiled well. Java frames are named
 * from the JIT map our agent (libjmap.so, found as agentpath__find says)
 * writes; callers of compiled code are only walkable with
 * -XX:+PreserveFramePointer.
 */
#ifndef MIXPROF_JVMPREP_H
#define MIXPROF_JVMPREP_H

#include <stdbool.h>
#include <stdint.h>

/*
 * If pid is a JVM: load the agent into it through the attacher unless it
 * has one (or attach is false; with probes, also when its control socket
 * is missing), name any file of another user that squats the agent's map
 * or (probes) socket path, and warn once when the JVM runs without frame
 * pointers. On stderr; problems are reported, never fatal.
 */
void jvmprep__target(uint32_t pid, bool attach, bool probes);

/* A command just launched (held before exec), whose agent will come from
 * JAVA_TOOL_OPTIONS: name another user's file squatting its map path
 * (pids are predictable). A squatted socket is named by the probe run. */
void jvmprep__launched(uint32_t pid);

#endif
