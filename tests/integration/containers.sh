#!/usr/bin/env bash
# --per-container: processes in cgroups named as Docker and Kubernetes
# name theirs get their container ids, in folded text (a frame under the
# process) and in pprof (labels container.id and process.linux.cgroup, read by go tool
# pprof); a process in no container gets none. The test makes the cgroups
# in the cgroup v2 hierarchy (wherever it is mounted), under a parent of
# its own, and removes them on every path:
#   PARENT/system.slice/docker-ID1.scope          a JVM (Ratio)
#   PARENT/kubepods/burstable/podUID/ID2          a shell loop, burn-k8s
#   (none: where the test itself runs)            a shell loop, burn-none
. "$(dirname "$0")/../lib/common.sh"

command -v go >/dev/null || die "go (golang-go) is needed to read pprof files"
export GOCACHE=$TMPD/gocache HOME=$TMPD
cg2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
[ -n "$cg2" ] && [ -w "$cg2" ] || die "no writable cgroup v2 hierarchy in /proc/mounts"
hex() { od -An -N"$1" -tx1 /dev/urandom | tr -d ' \n'; }
id1=$(hex 32) id2=$(hex 32)
uid=$(hex 4)-$(hex 2)-$(hex 2)-$(hex 2)-$(hex 6)
parent=$cg2/mixprof-test-$$
docker=$parent/system.slice/docker-$id1.scope
k8s=$parent/kubepods/burstable/pod$uid/$id2

# rm_cgroups PARENT: every process out (cgroup.kill: whatever got in),
# then the cgroups, deepest first; after cleanup_common has killed and
# reaped ours
rm_cgroups() {
	local d i
	[ -d "$1" ] || return 0
	find "$1" -name cgroup.kill | while read -r d; do
		echo 1 >"$d" 2>/dev/null || true
	done
	for i in 1 2 3 4 5 6 7 8 9 10; do
		find "$1" -depth -type d -exec rmdir {} + 2>/dev/null || true
		[ -d "$1" ] || return 0
		sleep 0.2
	done
	echo "FAIL: cannot remove $1" >&2
	return 1
}
# a run killed outright (SIGKILL) left its cgroups: its pid is gone
for d in "$cg2"/mixprof-test-*; do
	[ -d "$d" ] && ! kill -0 "${d##*-}" 2>/dev/null && rm_cgroups "$d"
done
trap 'cleanup_common; rm_cgroups "$parent"' EXIT
trap 'exit 1' INT TERM HUP
mkdir -p "$docker" "$k8s"

jdk=$(jdks | sed -n 1p)
# enter DIR CMD...: run CMD in cgroup DIR (the shell moves itself, then
# execs, so CMD's process is born there)
enter='echo $$ >"$0/cgroup.procs" && exec "$@"'
sh -c "$enter" "$docker" "$jdk/bin/java" -cp "$SAMPLES" Ratio 30 >"$TMPD/jvm.out" &
PIDS_TO_KILL+=($!) jvm=$!
sh -c "$enter" "$k8s" bash -c 'printf burn-k8s >/proc/$$/comm; while :; do :; done' &
PIDS_TO_KILL+=($!) k=$!
bash -c 'printf burn-none >/proc/$$/comm; while :; do :; done' &
PIDS_TO_KILL+=($!) none=$!
wait_for 20 grep -q ready "$TMPD/jvm.out" || die "Ratio did not start"
grep -q "docker-$id1.scope" /proc/$jvm/cgroup || die "the JVM is not in its cgroup: $(cat /proc/$jvm/cgroup)"

pids=$jvm,$k,$none
"$MIXPROF" -F 199 --per-container -o "$TMPD/c.folded" -p $pids 2 2>"$TMPD/f.err" &
f=$!
# pprof with threads too: process, container, thread frames in turn
"$MIXPROF" -F 199 --per-container --per-thread -o "$TMPD/c.pb.gz" -p $pids 2 2>"$TMPD/p.err" ||
	{ cat "$TMPD/p.err"; die "mixprof (pprof) failed"; }
wait $f || { cat "$TMPD/f.err"; die "mixprof (folded) failed"; }

# sum REGEX: samples of the folded lines REGEX matches
sum() { awk -v re="$1" '$0 ~ re { n += $NF } END { print n + 0 }' "$TMPD/c.folded"; }
d=$(sum "^java;\\[container $id1\\];.*Ratio\\.")
k=$(sum "^burn-k8s;\\[container $id2\\];")
n=$(sum "^burn-none;")
nc=$(sum "^burn-none;\\[container ")
other=$(sum "^(java|burn-k8s);([^[]|\\[[^c])")
note "folded: docker $d, kubernetes $k, none $n ($nc with a container, $other of the others without)"
# 10 of each at least: 2 s at 199 Hz is ~400 a busy process on a quiet
# host, 20 at load average 20 (every sample is checked: "other" below)
[ "$d" -ge 10 ] || die "the JVM's samples lack its container frame"
[ "$k" -ge 10 ] || die "burn-k8s's samples lack its container frame"
[ "$n" -ge 10 ] && [ "$nc" = 0 ] || die "burn-none: $n samples, $nc with a container"
[ "$other" = 0 ] || die "samples of containerized processes without the frame"

# pprof: each sample's labels, as go tool pprof prints them
go tool pprof -traces "$TMPD/c.pb.gz" >"$TMPD/traces" 2>&1 || { cat "$TMPD/traces"; die "pprof -traces"; }
awk -v id1="$id1" -v id2="$id2" -v p1="${docker#$cg2}" '
function flush() {
	if (proc != "" && !thr) bad++
	else if (proc == "java" && cid == id1 && path == p1) d++
	else if (proc == "burn-k8s" && cid == id2) k++
	else if (proc == "burn-none" && cid == "") n++
	else if (proc != "") bad++
	proc = cid = path = ""; thr = 0
}
/^-+\+-+$/ { flush(); next }
$1 == "process:" { proc = $2 }
$1 == "container.id:" { cid = $2 }
$1 == "process.linux.cgroup:" { path = $2 }
$1 == "thread:" { thr = 1 }
END {
	flush()
	printf "# pprof stacks: docker %d, kubernetes %d, none %d, wrong %d\n", d, k, n, bad
	exit !(d && k && n && !bad)
}' "$TMPD/traces" || die "pprof labels wrong: $(head -30 "$TMPD/traces")"
echo ok
