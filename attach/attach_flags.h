/*
 * hotspot_flags: the value of a boolean -XX flag of a running HotSpot JVM,
 * without attaching to it. The profiler asks for PreserveFramePointer (to
 * warn when Java frames cannot be walked); the attacher asks for
 * DisableAttachMechanism (to fail fast instead of waiting for a socket
 * that will never come).
 *
 * Sources, most reliable first:
 *  1. the JVM's hsperfdata file (/tmp/hsperfdata_USER/NSPID in the JVM's
 *     mount namespace): "java.rt.vmFlags" (the flags file) and
 *     "java.rt.vmArgs" (every option the JVM parsed, JAVA_TOOL_OPTIONS,
 *     @argfiles and -XX:VMOptionsFile contents included);
 *  2. when the JVM runs with -XX:-UsePerfData: JAVA_TOOL_OPTIONS and
 *     JDK_JAVA_OPTIONS from /proc/PID/environ, the launcher options of
 *     /proc/PID/cmdline, then _JAVA_OPTIONS (HotSpot's own order).
 * The last mention of a flag wins, as it does inside HotSpot. Neither
 * source sees flags set later with jcmd VM.set_flag.
 *
 * The parsers take memory so unit tests can feed them fixtures.
 */
#ifndef MIXPROF_ATTACH_FLAGS_H
#define MIXPROF_ATTACH_FLAGS_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Look for -XX:+NAME, -XX:-NAME or -XX:NAME=true|false among options
 * separated by blanks or NULs (len bytes). Returns 1 or 0 for the last
 * mention, -ENOENT when NAME is not mentioned.
 */
int attach_flags__in_args(const char *args, size_t len, const char *name);

/*
 * The length of the prefix of a NUL-separated /proc/PID/cmdline (len
 * bytes) that holds the launcher's options: argv[0] up to the main class,
 * -jar file or -m module, whose arguments belong to the application.
 */
size_t attach_flags__cmdline_vm_part(const char *cmdline, size_t len);

/*
 * Copy the string entry key ("java.rt.vmArgs") of an hsperfdata image of
 * len bytes into out (NUL-terminated, truncated to outlen). Returns 0,
 * -ENOENT when the image has no such entry, -EINVAL when it is not a
 * valid hsperfdata image.
 */
int attach_flags__perfdata_string(const void *data, size_t len, const char *key,
				  char *out, size_t outlen);

/*
 * The setting of boolean flag name in JVM pid: 1 on, 0 off, -ENOENT when
 * not set explicitly (HotSpot's default applies), another -errno when
 * neither source could be read (-ESRCH: no such process).
 */
int attach_flags__jvm_flag(pid_t pid, const char *name);

#endif
