/*
 * hotspot_proto: the bytes of HotSpot's dynamic-attach protocol, version 1,
 * without any I/O (attach_jvm.c does the sockets).
 *
 * A request is NUL-terminated strings: "1", the command, and exactly three
 * arguments (missing ones empty), each at most ATTACH_ARG_MAX bytes.
 * For "load" the arguments are: library, "true" when it is an absolute
 * path (else the JVM searches lib<name>.so), the agent's options.
 *
 * The reply is text, read until the JVM closes the socket. Its first line
 * is the attach operation's result. For "load" the rest differs by JDK:
 *
 *   "0\n0\n"                   old JDKs: Agent_OnAttach returned 0
 *   "0\nreturn code: 0\n"      later JDK 17 updates and JDK 21+
 *   "-1\nX was not loaded.\n…" JDK <= 17: the library did not load
 *   "0\nX was not loaded.\n…"  JDK 21+: same, but the operation "succeeds"
 *   "-1\nOperation … not recognized!"  any error of the listener itself
 */
#ifndef MIXPROF_ATTACH_PROTO_H
#define MIXPROF_ATTACH_PROTO_H

#include <stdbool.h>
#include <stddef.h>

#define ATTACH_ARG_MAX 1024 /* the JVM rejects longer arguments */
#define ATTACH_CMD_MAX 16

/*
 * Build the request for cmd with up to three args (NULL = empty) into buf.
 * Returns its length in bytes (NULs included), -ENAMETOOLONG when an
 * argument exceeds the JVM's limit, -ENOSPC when buf is too small.
 */
int attach_proto__request(char *buf, size_t size, const char *cmd,
			  const char *arg0, const char *arg1, const char *arg2);

struct attach_reply {
	int result; /* first line: the attach operation's result */
	bool ran; /* Agent_OnAttach ran; its value is agent_rc */
	int agent_rc;
	char msg[512]; /* the JVM's text otherwise, lines joined by "; " */
};

/*
 * Parse the reply to "load" (len bytes, need not be NUL-terminated).
 * Returns 0 with *r filled: r->ran says whether the agent ran, else msg
 * holds the JVM's reason. Returns -EPROTO when the reply is empty or does
 * not start with a number.
 */
int attach_proto__parse_load_reply(const char *text, size_t len,
				   struct attach_reply *r);

#endif
