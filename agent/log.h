/*
 * log: the agent's messages on the JVM's stderr, one line each, prefixed
 * "jmap: ", written with a single write() so lines from several threads
 * do not mix. The agent never prints anything else.
 */
#ifndef MIXPROF_JMAP_LOG_H
#define MIXPROF_JMAP_LOG_H

void jmap_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
