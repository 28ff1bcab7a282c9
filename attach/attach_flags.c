/*
 * hotspot_flags: boolean -XX flags of a running JVM, from its hsperfdata
 * file or, failing that, from its command line and environment.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "common/safefile.h"
#include "attach_flags.h"
#include "procinfo.h"

#define PERFDATA_MAX (4 << 20) /* -XX:PerfDataMemorySize is 32 KiB by default */
#define VMARGS_MAX (64 << 10)

/* One option: 1 / 0 when it sets name, -ENOENT when it is about another. */
static int flag_in_token(const char *t, size_t n, const char *name)
{
	size_t len = strlen(name);

	/* the flags file (java.rt.vmFlags) lists them without "-XX:" */
	if (n > 4 && !memcmp(t, "-XX:", 4)) {
		t += 4;
		n -= 4;
	}
	if (n == len + 1 && (t[0] == '+' || t[0] == '-') &&
	    !memcmp(t + 1, name, len))
		return t[0] == '+';
	if (n > len + 1 && !memcmp(t, name, len) && t[len] == '=') {
		t += len + 1;
		n -= len + 1;
		if (n == 4 && !memcmp(t, "true", 4))
			return 1;
		if (n == 5 && !memcmp(t, "false", 5))
			return 0;
	}
	return -ENOENT;
}

static bool is_sep(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\0';
}

int attach_flags__in_args(const char *args, size_t len, const char *name)
{
	int found = -ENOENT, v;
	size_t i = 0, start;

	while (i < len) {
		while (i < len && is_sep(args[i]))
			i++;
		start = i;
		while (i < len && !is_sep(args[i]))
			i++;
		if (i > start) {
			v = flag_in_token(args + start, i - start, name);
			if (v >= 0)
				found = v;
		}
	}
	return found;
}

/* Launcher options whose value is the next argument, not the main class. */
static bool takes_value(const char *arg)
{
	static const char *const opts[] = {
	    "-cp",
	    "-classpath",
	    "--class-path",
	    "-p",
	    "--module-path",
	    "--upgrade-module-path",
	    "--add-modules",
	    "--limit-modules",
	    "--add-reads",
	    "--add-exports",
	    "--add-opens",
	    "--patch-module",
	    "--enable-native-access",
	    "--source",
	    NULL,
	};

	for (int i = 0; opts[i]; i++)
		if (!strcmp(arg, opts[i]))
			return true;
	return false;
}

size_t attach_flags__cmdline_vm_part(const char *cmdline, size_t len)
{
	size_t i = 0, n;
	bool first = true;
	const char *arg;

	while (i < len) {
		arg = cmdline + i;
		n = strnlen(arg, len - i);
		if (!first) {
			if (arg[0] != '-')
				return i; /* the main class or source file */
			if (!strcmp(arg, "-jar") || !strcmp(arg, "-m") ||
			    !strcmp(arg, "--module"))
				return i;
			if (takes_value(arg) && i + n + 1 < len) {
				i += n + 1; /* skip to the value */
				n = strnlen(cmdline + i, len - i);
			}
		}
		first = false;
		i += n + 1;
	}
	return len < i ? len : i;
}

/* A 32-bit field of the image, in the byte order its prologue declares. */
static uint32_t get32(const unsigned char *p, bool big)
{
	return big ? (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3]
		   : (uint32_t)p[3] << 24 | p[2] << 16 | p[1] << 8 | p[0];
}

int attach_flags__perfdata_string(const void *data, size_t len, const char *key,
				  char *out, size_t outlen)
{
	/* PerfDataPrologue: magic, order, versions, ..., entry_offset@24,
	 * num_entries@28; each PerfDataEntry: length@0, name_offset@4,
	 * vector_length@8, data_type@12, data_offset@16. */
	const unsigned char *img = data, *e;
	uint32_t off, count, elen, name, vlen, doff;
	size_t n;
	bool big;

	if (len < 32 || memcmp(img, "\xca\xfe\xc0\xc0", 4) || img[4] > 1)
		return -EINVAL;
	big = img[4] == 0;
	off = get32(img + 24, big);
	count = get32(img + 28, big);
	for (uint32_t i = 0; i < count; i++, off += elen) {
		if (off > len || len - off < 20)
			return -EINVAL;
		e = img + off;
		elen = get32(e, big);
		name = get32(e + 4, big);
		vlen = get32(e + 8, big);
		doff = get32(e + 16, big);
		if (elen < 20 || elen > len - off || name >= elen ||
		    doff > elen)
			return -EINVAL;
		if (strnlen((const char *)e + name, elen - name) !=
			strlen(key) ||
		    strcmp((const char *)e + name, key))
			continue;
		if (e[12] != 'B' || vlen > elen - doff)
			return -EINVAL;
		n = strnlen((const char *)e + doff, vlen);
		if (n >= outlen)
			n = outlen - 1;
		memcpy(out, e + doff, n);
		out[n] = '\0';
		return 0;
	}
	return -ENOENT;
}

/*
 * Read at most max bytes of a file below dirfd into a buffer to free.
 * The JVM's user can swap what is there (hsperfdata in its /tmp): opened
 * as what others control, so a FIFO cannot hold us (common/safefile.h).
 */
static ssize_t read_at(int dirfd, const char *path, size_t max, char **out)
{
	static const struct safe_in in = {.uid = SAFE_ANY_UID};
	size_t len = 0;
	ssize_t n = 0;
	char *buf;
	int fd;

	fd = safefile__open_in(dirfd, path, &in);
	if (fd < 0)
		return fd;
	buf = malloc(max + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	while (len < max && (n = read(fd, buf + len, max - len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		len += n;
	}
	if (n < 0) {
		n = -errno;
		free(buf);
		close(fd);
		return n;
	}
	close(fd);
	buf[len] = '\0';
	*out = buf;
	return len;
}

/*
 * The flag in one hsperfdata image: 1, 0, -ENOENT when not mentioned,
 * -EINVAL when the image has no java.rt.vmArgs (not usable).
 */
static int flag_in_image(const char *img, size_t len, const char *name)
{
	char *text = malloc(VMARGS_MAX);
	int v = -ENOENT, r;

	if (!text)
		return -ENOMEM;
	if (!attach_flags__perfdata_string(img, len, "java.rt.vmFlags", text,
					   VMARGS_MAX)) {
		r = attach_flags__in_args(text, strlen(text), name);
		if (r >= 0)
			v = r;
	}
	r = attach_flags__perfdata_string(img, len, "java.rt.vmArgs", text,
					  VMARGS_MAX);
	if (r) {
		v = -EINVAL;
	} else {
		r = attach_flags__in_args(text, strlen(text), name);
		if (r >= 0)
			v = r;
	}
	free(text);
	return v;
}

/*
 * The flag as recorded in the JVM's hsperfdata file: 1, 0, -ENOENT, or
 * -ENODATA when there is no usable file (-XX:-UsePerfData). The directory
 * is named after the user inside the JVM's mount namespace, so match on
 * the file's owner instead of guessing the name.
 */
static int flag_from_perfdata(pid_t pid, const struct procfs_status *st,
			      const char *name)
{
	char dir[64], path[300], *img;
	int ret = -ENODATA;
	struct dirent *de;
	struct stat sb;
	ssize_t len;
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%d/root/tmp", (int)pid);
	d = opendir(dir);
	if (!d)
		return -ENODATA;
	while (ret == -ENODATA && (de = readdir(d))) {
		if (strncmp(de->d_name, "hsperfdata_", 11))
			continue;
		snprintf(path, sizeof(path), "%s/%d", de->d_name,
			 (int)st->nspid);
		if (fstatat(dirfd(d), path, &sb, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(sb.st_mode) || sb.st_uid != st->euid)
			continue;
		len = read_at(dirfd(d), path, PERFDATA_MAX, &img);
		if (len < 0)
			continue;
		ret = flag_in_image(img, len, name);
		if (ret != 1 && ret != 0 && ret != -ENOENT)
			ret = -ENODATA;
		free(img);
	}
	closedir(d);
	return ret;
}

/* The value of variable var in a NUL-separated environ, or NULL. */
static const char *env_value(const char *env, size_t len, const char *var)
{
	size_t n = strlen(var), i = 0;

	while (i < len) {
		const char *s = env + i;
		size_t sl = strnlen(s, len - i);

		if (sl > n && !memcmp(s, var, n) && s[n] == '=')
			return s + n + 1;
		i += sl + 1;
	}
	return NULL;
}

/* Fold one more source into the running answer: later mentions win. */
static void later(int *v, const char *text, size_t len, const char *name)
{
	int r = text ? attach_flags__in_args(text, len, name) : -ENOENT;

	if (r >= 0)
		*v = r;
}

/* The flag from the JVM's environment and launcher options. */
static int flag_from_proc(pid_t pid, const char *name)
{
	char dir[32], *env = NULL, *cmd = NULL;
	const char *s;
	ssize_t elen, clen;
	int dfd, v = -ENOENT;

	snprintf(dir, sizeof(dir), "/proc/%d", (int)pid);
	dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	clen = read_at(dfd, "cmdline", VMARGS_MAX, &cmd);
	elen = read_at(dfd, "environ", VMARGS_MAX, &env);
	close(dfd);
	if (clen < 0) {
		free(env);
		return (int)clen;
	}
	if (elen >= 0) {
		s = env_value(env, elen, "JAVA_TOOL_OPTIONS");
		later(&v, s, s ? strlen(s) : 0, name);
		s = env_value(env, elen, "JDK_JAVA_OPTIONS");
		later(&v, s, s ? strlen(s) : 0, name);
	}
	later(&v, cmd, attach_flags__cmdline_vm_part(cmd, clen), name);
	if (elen >= 0) {
		s = env_value(env, elen, "_JAVA_OPTIONS");
		later(&v, s, s ? strlen(s) : 0, name);
	}
	free(env);
	free(cmd);
	return v;
}

int attach_flags__jvm_flag(pid_t pid, const char *name)
{
	struct procfs_status st;
	int err;

	err = procfs__read_status(pid, &st);
	if (err)
		return err;
	err = flag_from_perfdata(pid, &st, name);
	if (err != -ENODATA)
		return err;
	return flag_from_proc(pid, name);
}
