#!/usr/bin/env bash
# A user cannot make root's mixprof hang or read a file of their choice
# through the files it reads for the user's processes: a FIFO as
# /tmp/perf-PID.map (with -p and host-wide), a symlink there to a
# root-only file, a map owned by a third user, and a .gnu_debuglink in the
# user's binary naming a FIFO. Each run is bounded (a hang fails) and each
# refusal is said once naming the file; the user's own map is still read.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/harden.sh"

U=$TMPD/u
mkdir "$U" && chown "$HU:$HG" "$U"
user_jvm "$U"
pid=$JPID
map=/tmp/perf-$pid.map
rm -f "$map"
sleep 1 # Spin.spin compiled

# prof ARGS...: a bounded run (-p or host-wide) into out/err, no agent
prof() {
	bounded "$MIXPROF" --no-attach "$@" >"$TMPD/out" 2>"$TMPD/err" ||
		{ cat "$TMPD/err"; die "mixprof $* failed"; }
	cat "$TMPD/err"
}
said() { grep -q "perf-$pid.map: $1" "$TMPD/err" || die "not said: $1"; }
# prof_jvm: a 1 s run of the JVM that has its samples (a map not read
# proves nothing without them), tried again when it has none: capped at
# half a CPU beside a loaded CI run, it once had 0 in a second
prof_jvm() {
	local try
	for try in 1 2 3; do
		prof -p "$pid" 1
		grep -q '^java;' "$TMPD/out" && return 0
		note "no samples of the JVM in 1 s (run $try of 3)"
	done
	die "no samples of the JVM in 3 runs"
}

# a FIFO: neither -p nor a host-wide run waits on it
as_user mkfifo "$map"
prof_jvm
said "not a regular file: ignored"
[ "$(grep -c "perf-$pid.map: not a regular file: ignored" "$TMPD/err")" = 1 ] || die "said more than once"
prof 2
said "not a regular file: ignored"
rm -f "$map"

# map lines that name every address of the JVM's code cache (its
# anonymous executable mappings; a line covers 1 GiB at most)
line() {
	local range perms rest lo hi
	while read -r range perms rest; do
		[[ $perms == *x* ]] && [ "$(echo $rest | wc -w)" = 3 ] || continue
		lo=$((16#${range%-*})) hi=$((16#${range#*-}))
		printf '%x %x %s\n' $lo $((hi - lo)) "$1"
	done <"/proc/$pid/maps"
}

# the user's own map is read: the lines below could show
line OWN_USER_LINE | as_user tee "$map" >/dev/null
prof_jvm
grep -q OWN_USER_LINE "$TMPD/out" || die "the user's own map was not read"
rm -f "$map"

# a link to a root-only file: not followed, no line of it shown
secret=$TMPD/secret.map
line ROOT_SECRET_LINE >"$secret"
chmod 600 "$secret"
as_user ln -s "$secret" "$map"
prof_jvm
grep -q ROOT_SECRET "$TMPD/out" && die "the secret file was read"
said "a symbolic link, not followed: ignored"
rm -f "$map"

# a map of a third user (nobody): not the process's
line THIRD_USER_LINE >"$map"
chown nobody "$map"
prof_jvm
grep -q THIRD_USER "$TMPD/out" && die "a third user's map was read"
said "owned by another user"
rm -f "$map"
kill "$pid"

# a stripped binary of the user whose .gnu_debuglink names a FIFO
cat >"$TMPD/spin.c" <<'C'
int main(void)
{
	volatile unsigned long x = 1;

	for (;;)
		x = x * 31 + (x >> 7);
}
C
gcc -O1 -g -o "$U/spin.full" "$TMPD/spin.c" || die "cc"
objcopy --only-keep-debug "$U/spin.full" "$U/spin.debug"
objcopy --strip-all --add-gnu-debuglink="$U/spin.debug" "$U/spin.full" "$U/spin"
rm -f "$U/spin.debug" "$U/spin.full"
chown "$HU:$HG" "$U/spin"
as_user mkfifo "$U/spin.debug"
(cd "$U" && exec setpriv --reuid="$HU" --regid="$HG" --clear-groups ./spin) &
spid=$!
PIDS_TO_KILL+=("$spid")
wait_for 10 grep -q "$U/spin" "/proc/$spid/maps" || die "spin did not start"
prof -p "$spid" 1
grep -q '^spin;' "$TMPD/out" || die "no samples of spin"
prof 2
note "harden_perfmap: ok"
