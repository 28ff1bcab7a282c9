/*
 * procfs: /proc/PID/stat, status and maps parsed from text fixtures (as
 * the kernel writes them, and as a hostile comm or a truncated read can
 * make them), and the readers on this process's own /proc.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "common/procfs.h"

#define PARSE_STATUS(text, st) procfs__parse_status(text, sizeof(text) - 1, st)
#define PARSE_STAT(text, st) procfs__parse_stat(text, sizeof(text) - 1, st)

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
				       "VmExe:\t       4 kB\n"
				       "VmLib:\t   23060 kB\n"
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
				 "SigCgt:\t0000000000000000";

static void test_status(void)
{
	struct procfs_status st;

	CHECK_INT(PARSE_STATUS(status_container, &st), 0);
	CHECK_STR(st.name, "java");
	CHECK_INT(st.tgid, 4242);
	CHECK_INT(st.nspid, 7); /* NStgid's last, not NSpid's (a thread) */
	CHECK_INT(st.euid, 65534);
	CHECK_INT(st.egid, 65533);
	CHECK(st.quit_caught);
	CHECK_INT(st.state, 'S');
	CHECK_INT(st.vm_exe_kb, 4);
	CHECK_INT(st.vm_lib_kb, 23060);

	CHECK_INT(PARSE_STATUS(status_xrs, &st), 0);
	CHECK_INT(st.state, 'T');
	CHECK_INT(st.nspid, 5518);
	CHECK_INT(st.euid, 0);
	CHECK(!st.quit_caught);
	CHECK_INT(st.vm_lib_kb, 0);

	CHECK_INT(PARSE_STATUS(status_old, &st), 0); /* no final newline */
	CHECK_STR(st.name, "sleep");
	CHECK_INT(st.nspid, 99);
	CHECK_INT(st.euid, 6);
	CHECK_INT(st.egid, 10);
	CHECK(!st.quit_caught);

	CHECK_INT(PARSE_STATUS("Name:\tx\nTgid:\t3\nGid:\t1\t1\t1\t1\n", &st),
		  -EINVAL); /* no Uid */
	CHECK_INT(PARSE_STATUS("Tgid:\t3\nUid:\t1\nGid:\t1\t1\n", &st),
		  -EINVAL); /* Uid without an effective field */
	CHECK_INT(PARSE_STATUS("Uid:\t1\t1\nGid:\t1\t1\n", &st),
		  -EINVAL); /* no pid at all */
	CHECK_INT(PARSE_STATUS("", &st), -EINVAL);
	/* "Uidx:" is another field, not Uid: */
	CHECK_INT(PARSE_STATUS("Tgid:\t3\nUidx:\t1\t2\nGid:\t1\t1\n", &st),
		  -EINVAL);
	/* a uid of -1 ("nobody owns it") or a pid of 0 is no answer */
	CHECK_INT(
	    PARSE_STATUS("Tgid:\t3\nUid:\t1\t4294967295\nGid:\t1\t1\n", &st),
	    -EINVAL);
	CHECK_INT(PARSE_STATUS("Tgid:\t0\nUid:\t1\t1\nGid:\t1\t1\n", &st),
		  -EINVAL);
	/* cut short before Uid: no answer, though the name was seen */
	CHECK_INT(procfs__parse_status(status_container, 60, &st), -EINVAL);
	CHECK_STR(st.name, "java");
	CHECK_INT(st.tgid, 0);
}

static void test_stat(void)
{
	struct procfs_stat st;

	CHECK_INT(PARSE_STAT("4242 (java) S 4200 4242 4200 34816 4242 "
			     "1077936128 112 0 0 0 5 3 0 0 20 0 19 0 "
			     "123456 5000000000 9000 18446744073709551615\n",
			     &st),
		  0);
	CHECK_INT(st.state, 'S');
	CHECK_INT(st.ppid, 4200);
	CHECK_INT(st.cpu_ticks, 8);
	CHECK_INT(st.start_ticks, 123456);
	CHECK_INT(st.vsize, 5000000000);
	/* a comm of ") Z 1 (" cannot shift the fields; negative ones parse */
	CHECK_INT(PARSE_STAT("7 () Z 1 () R 1 7 7 0 -1 4194560 0 0 0 0 0 0 "
			     "0 0 -2 -20 1 0 99",
			     &st),
		  0);
	CHECK_INT(st.state, 'R');
	CHECK_INT(st.ppid, 1);
	CHECK_INT(st.start_ticks, 99);
	CHECK_INT(st.vsize, 0); /* absent */
	/* cut before the start time, no comm, nothing */
	CHECK_INT(PARSE_STAT("7 (a) R 1 7 7 0 -1 4194560 0 0", &st), -EINVAL);
	CHECK_INT(PARSE_STAT("7 a R 1 7 7", &st), -EINVAL);
	CHECK_INT(PARSE_STAT("7 (a)", &st), -EINVAL);
	CHECK_INT(PARSE_STAT("", &st), -EINVAL);
}

static const char maps[] =
    "00400000-00401000 r-xp 00000000 08:01 131 /usr/bin/java\n"
    "\n"
    "7f1c2a000000-7f1c2a2b1000 r--p 00000000 fd:01 1234 "
    "/usr/lib/jvm/java-17/lib/server/libjvm.so\n"
    "garbage line\n"
    "7f1c2a2b1000-7f1c2b000000 r-xp 002b1000 fd:01 1234 "
    "/opt/jdk/lib/server/libjvm.so (deleted)\n"
    "7f1c2b000000-7f1c2b001000 rw-p 00000000 00:00 0 \n"
    "7ffd1000-7ffd2000 rw-p 00000000 00:00 0                  [stack]";

static void test_maps(void)
{
	const char *p = maps, *end = maps + sizeof(maps) - 1;
	struct procfs_map m;

	CHECK_INT(procfs__maps_next(&p, end, &m), 1);
	CHECK_INT(m.start, 0x400000);
	CHECK_INT(m.end, 0x401000);
	CHECK(!memcmp(m.perms, "r-xp", 4));
	CHECK_INT(m.inode, 131);
	CHECK_INT(m.path_len, 13);
	CHECK(!memcmp(m.path, "/usr/bin/java", 13));
	CHECK(!procfs__map_is(&m, "libjvm.so"));
	CHECK_INT(procfs__maps_next(&p, end, &m), 1); /* the empty line */
	CHECK_INT(m.dev, (0xfdULL << 8) | 1);
	CHECK(procfs__map_is(&m, "libjvm.so"));
	CHECK(!procfs__map_is(&m, "jvm.so"));
	CHECK_INT(procfs__maps_next(&p, end, &m), -1); /* garbage, skipped */
	CHECK_INT(procfs__maps_next(&p, end, &m), 1);
	CHECK_INT(m.offset, 0x2b1000);
	CHECK(procfs__map_is(&m, "libjvm.so")); /* " (deleted)" ignored */
	CHECK_INT(procfs__maps_next(&p, end, &m), 1);
	CHECK_INT(m.path_len, 0); /* anonymous */
	CHECK(!procfs__map_is(&m, "libjvm.so"));
	CHECK_INT(procfs__maps_next(&p, end, &m), 1); /* no final newline */
	CHECK_INT(m.path_len, 7);
	CHECK_INT(procfs__maps_next(&p, end, &m), 0);
	CHECK(p == end);

	/* a line cut anywhere never reads past its end */
	for (size_t n = 0; n < 60; n++) {
		const char *q = maps;
		int r = procfs__maps_next(&q, maps + n, &m);

		CHECK(q <= maps + n &&
		      (r != 1 || m.path + m.path_len <= maps + n));
	}
}

/* The readers on our own /proc. */
static void test_self(void)
{
	struct procfs_status st;
	struct procfs_stat ps;
	char comm[16], path[128], show[PROCFS_COMM_SHOW], *buf;
	size_t len;

	CHECK_INT(procfs__read_status(getpid(), &st), 0);
	CHECK_INT(st.tgid, getpid());
	CHECK_INT(st.euid, geteuid());
	CHECK_INT(procfs__read_stat(getpid(), &ps), 0);
	CHECK_INT(ps.ppid, getppid());
	CHECK(ps.start_ticks > 0);
	CHECK_INT(procfs__read_comm(getpid(), comm), 0);
	CHECK_STR(comm, "test_common_pro"); /* 15 bytes of the name */
	CHECK_STR(procfs__comm_show(getpid(), show), "test_common_pro");
	CHECK_STR(procfs__comm_show(0x7fffffff, show), "");
	CHECK(procfs__alive(getpid()));
	CHECK(!procfs__alive(0x7ffffff0));
	CHECK_INT(procfs__tgid(getpid()), getpid());
	CHECK(procfs__tgid(0x7fffffff) < 0);
	CHECK_INT(
	    procfs__read_pid(getpid(), "maps", PROCFS_MAPS_MAX, &buf, &len), 0);
	CHECK(len > 0 && strlen(buf) == len);
	free(buf);
	CHECK_INT(procfs__read_pid(getpid(), "maps", 16, &buf, &len), -EFBIG);
	CHECK_INT(procfs__read_stat(0, &ps), -ESRCH);
	CHECK_INT(procfs__read_stat(0x7fffffff, &ps), -ESRCH);

	CHECK_INT(procfs__perf_map_path(path, sizeof(path), 42, 7, NULL), 0);
	CHECK_STR(path, "/proc/42/root/tmp/perf-7.map");
	CHECK_INT(procfs__perf_map_path(path, sizeof(path), 42, 7, "/var/m"),
		  0);
	CHECK_STR(path, "/proc/42/root/var/m/perf-7.map");
	CHECK_INT(procfs__perf_map_path(path, 20, 42, 7, NULL), -ENAMETOOLONG);
}

int main(void)
{
	test_status();
	test_stat();
	test_maps();
	test_self();
	return check_report();
}
