/*
 * procinfo: /proc/PID/status fields (NStgid, Uid, Gid, SigCgt) and the
 * libjvm test on /proc/PID/maps lines, from text fixtures; and path
 * resolution inside another root (a temporary directory stands for the
 * JVM's /proc/PID/root).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check.h"
#include "attach/procinfo.h"

/* A JVM in a nested pid namespace, run by uid 1000 with euid 65534. */
static const char status_container[] = "Name:\tjava\n"
				       "Umask:\t0022\n"
				       "State:\tS (sleeping)\n"
				       "Tgid:\t4242\n"
				       "Ngid:\t0\n"
				       "Pid:\t4243\n"
				       "PPid:\t4200\n"
				       "TracerPid:\t0\n"
				       "Uid:\t1000\t65534\t65534\t65534\n"
				       "Gid:\t1001\t65533\t65533\t65533\n"
				       "FDSize:\t256\n"
				       "Groups:\t27 100\n"
				       "NStgid:\t4242\t77\t7\n"
				       "NSpid:\t4243\t78\t8\n"
				       "SigQ:\t0/96365\n"
				       "SigPnd:\t0000000000000000\n"
				       "SigBlk:\t0000000000000000\n"
				       "SigIgn:\t0000000000000002\n"
				       "SigCgt:\t0000000101005ccd\n";

/* A JVM started with -Xrs from a background shell, then stopped. */
static const char status_xrs[] = "Name:\tjava\n"
				 "State:\tT (stopped)\n"
				 "Tgid:\t5518\n"
				 "Uid:\t0\t0\t0\t0\n"
				 "Gid:\t0\t0\t0\t0\n"
				 "NStgid:\t5518\n"
				 "SigIgn:\t0000000000000006\n"
				 "SigCgt:\t0000000101001cc8\n";

/* A kernel before 4.1: no NStgid. */
static const char status_old[] = "Name:\tsleep\n"
				 "Tgid:\t99\n"
				 "Pid:\t99\n"
				 "Uid:\t5\t6\t7\t8\n"
				 "Gid:\t9\t10\t11\t12\n"
				 "SigCgt:\t0000000000000000\n";

static void test_status(void)
{
	struct proc_status st;

	CHECK_INT(procinfo_parse_status(status_container, &st), 0);
	CHECK_STR(st.name, "java");
	CHECK_INT(st.nspid, 7);
	CHECK_INT(st.euid, 65534);
	CHECK_INT(st.egid, 65533);
	CHECK(st.quit_caught);
	CHECK_INT(st.state, 'S');

	CHECK_INT(procinfo_parse_status(status_xrs, &st), 0);
	CHECK_INT(st.state, 'T');
	CHECK_INT(st.nspid, 5518);
	CHECK_INT(st.euid, 0);
	CHECK(!st.quit_caught);

	CHECK_INT(procinfo_parse_status(status_old, &st), 0);
	CHECK_STR(st.name, "sleep");
	CHECK_INT(st.nspid, 99);
	CHECK_INT(st.euid, 6);
	CHECK_INT(st.egid, 10);
	CHECK(!st.quit_caught);

	CHECK_INT(procinfo_parse_status(
		      "Name:\tx\nTgid:\t3\nGid:\t1\t1\t1\t1\n", &st),
		  -EINVAL); /* no Uid */
	CHECK_INT(procinfo_parse_status("Tgid:\t3\nUid:\t1\nGid:\t1\t1\n", &st),
		  -EINVAL); /* Uid without an effective field */
	CHECK_INT(procinfo_parse_status("Uid:\t1\t1\nGid:\t1\t1\n", &st),
		  -EINVAL); /* no pid at all */
	CHECK_INT(procinfo_parse_status("", &st), -EINVAL);
	/* "Uidx:" is another field, not Uid: */
	CHECK_INT(
	    procinfo_parse_status("Tgid:\t3\nUidx:\t1\t2\nGid:\t1\t1\n", &st),
	    -EINVAL);
}

static void test_maps(void)
{
	CHECK(procinfo_maps_line_is_libjvm(
	    "7f1c2a000000-7f1c2a2b1000 r--p 00000000 08:01 1234 "
	    "/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so\n"));
	CHECK(procinfo_maps_line_is_libjvm(
	    "7f1c2a000000-7f1c2a2b1000 r-xp 00000000 08:01 1234 "
	    "/opt/jdk/lib/server/libjvm.so (deleted)\n"));
	CHECK(procinfo_maps_line_is_libjvm(
	    "7f1c2a000000-7f1c2a2b1000 r-xp 00000000 08:01 1234 "
	    "/opt/jdk/lib/server/libjvm.so"));
	CHECK(!procinfo_maps_line_is_libjvm(
	    "7f1c2a000000-7f1c2a2b1000 r-xp 00000000 08:01 1234 "
	    "/opt/jdk/lib/libjava.so\n"));
	CHECK(!procinfo_maps_line_is_libjvm(
	    "7f1c2a000000-7f1c2a2b1000 r-xp 00000000 08:01 1234 "
	    "/opt/x/notlibjvm.so\n"));
	CHECK(!procinfo_maps_line_is_libjvm(
	    "7f1c2a000000-7f1c2a2b1000 r-xp 00000000 08:01 1234 "
	    "/opt/x/libjvm.so.bak\n"));
	CHECK(!procinfo_maps_line_is_libjvm(
	    "7ffd1000-7ffd2000 rw-p 00000000 00:00 0 [stack]\n"));
	CHECK(!procinfo_maps_line_is_libjvm(""));
}

/* Absolute symlinks and ".." must stay inside the JVM's root. */
static void test_open_in_root(void)
{
	char dir[] = "/tmp/test_attach_procinfo.XXXXXX", path[64];
	struct stat want, got;
	int rootfd, fd;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/tmp", dir);
	CHECK(!mkdir(path, 0755));
	snprintf(path, sizeof(path), "%s/link", dir);
	CHECK(!symlink("/tmp", path)); /* its /tmp, not ours */
	rootfd = open(dir, O_PATH | O_DIRECTORY);
	CHECK(rootfd >= 0);
	snprintf(path, sizeof(path), "%s/tmp", dir);
	CHECK(!stat(path, &want));

	fd = procinfo_open_in_root(rootfd, "/link", O_PATH | O_DIRECTORY, 0);
	CHECK(fd >= 0 && !fstat(fd, &got) && got.st_ino == want.st_ino);
	if (fd >= 0)
		close(fd);
	fd = procinfo_open_in_root(rootfd, "/../../tmp", O_PATH, 0);
	CHECK(fd >= 0 && !fstat(fd, &got) && got.st_ino == want.st_ino);
	if (fd >= 0)
		close(fd);
	CHECK_INT(procinfo_open_in_root(rootfd, "/missing", O_RDONLY, 0),
		  -ENOENT);

	close(rootfd);
	snprintf(path, sizeof(path), "%s/link", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/tmp", dir);
	rmdir(path);
	rmdir(dir);
}

int main(void)
{
	test_status();
	test_maps();
	test_open_in_root();
	return check_report();
}
