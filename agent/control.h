/*
 * control: the probe control socket. A unix stream socket at
 * DIR/.mixprof-jmap-PID (mode 0600; only root or the JVM's own user,
 * checked again with SO_PEERCRED) served by one plain thread that attaches
 * to the JVM only while it runs a request (an attached thread blocked in
 * native code would delay the JVM's exit by 300 ms). One client at a
 * time (others get "error busy"; one knocking as the last leaves waits);
 * when the client's connection closes for any reason the probes are
 * removed (probes__clear). The line protocol is in agent/README.md.
 */
#ifndef MIXPROF_JMAP_CONTROL_H
#define MIXPROF_JMAP_CONTROL_H

#include <jni.h>
#include "strbuf.h"

/* Bind the socket and start the thread (JVM live phase). 0 or -1, logged:
 * the agent runs on without probes. */
int control__start(JavaVM *vm, const char *dir);
/* At launch (VMInit, main's thread): when MIXPROF_JMAP_HOLD holds our
 * parent's pid (mixprof -e launched us), wait until the client sends "go"
 * or leaves, at most 10 s, so probes are in place before main runs. */
void control__hold(void);
/* At VM death of a held JVM: wait for the client's last "counts" (or its
 * leaving), at most 1 s. Others return at once. */
void control__hold_exit(void);
/* Remove the socket file (VM death); the thread is left to die with the
 * JVM. */
void control__stop(void);

/* One request line (no newline) → reply lines, the last "ok ..." or
 * "error ...". Exposed for tests; env is the calling thread's. */
int control__handle(JNIEnv *env, char *line, struct strbuf *reply);

#endif
