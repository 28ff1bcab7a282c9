#!/usr/bin/env bash
# Bad input fails with one clear line and the documented exit code:
# 2 for a bad command line, 1 for a missing process, 3 without privilege.
. "$(dirname "$0")/../lib/common.sh"

expect() { # RC PATTERN ARGS...: mixprof ARGS exits RC, stderr matches
	local want=$1 pat=$2 rc=0; shift 2
	"$@" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
	[ $rc = "$want" ] || die "$*: exit $rc, want $want ($(cat "$TMPD/err"))"
	grep -qE -- "$pat" "$TMPD/err" || die "$*: message '$(cat "$TMPD/err")'"
	[ "$(wc -l <"$TMPD/err")" = 1 ] || die "$*: more than one line: $(cat "$TMPD/err")"
}

expect 2 "-F.*'abc'" "$MIXPROF" -F abc
expect 2 "-F.*'0'" "$MIXPROF" -F 0
expect 2 "-p.*'12x'" "$MIXPROF" -p 12x
expect 2 "-i.*'0.001'" "$MIXPROF" -i 0.001 -o "$TMPD/d"
expect 2 "duration 'soon'" "$MIXPROF" soon
expect 2 "unknown option '--bogus'" "$MIXPROF" --bogus
expect 2 "--stack-storage-size.*'lots'" "$MIXPROF" --stack-storage-size lots
expect 2 "-U and -K" "$MIXPROF" -U -K
"$MIXPROF" --help | grep -q 'Exit status' || die "--help has no exit codes"

# a pid that does not exist
pid=$(( $(cat /proc/sys/kernel/pid_max) - 1 ))
while kill -0 $pid 2>/dev/null; do pid=$((pid - 1)); done
expect 1 "^mixprof: no process $pid\$" "$MIXPROF" -p $pid 1

# not root: nobody has neither CAP_BPF nor CAP_PERFMON
cp "$MIXPROF" "$TMPD/mixprof"
chmod 755 "$TMPD/mixprof"
expect 3 "CAP_BPF.*CAP_PERFMON" setpriv --reuid=nobody --regid=nogroup \
	--clear-groups --inh-caps=-all "$TMPD/mixprof" 1
echo ok
