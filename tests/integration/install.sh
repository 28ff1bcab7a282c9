#!/usr/bin/env bash
# make install / uninstall: the installed mixprof finds its agent in
# ../lib/mixprof (launch mode and -p name Java frames), DESTDIR lays out
# the tree a package would hold, --version answers, the bash completion
# offers a running JVM's pid after -p, and uninstall leaves nothing.
source "$(dirname "$0")/../lib/common.sh"

mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$TOP" BUILD="$BUILD" "$@"; }
T=$TMPD/prefix
mk install PREFIX="$T" >"$TMPD/install.log" 2>&1 || { cat "$TMPD/install.log"; die "make install"; }
for f in bin/mixprof lib/mixprof/libjmap.so share/man/man1/mixprof.1 \
	share/man/man1/mixprof-flamegraph.1 share/bash-completion/completions/mixprof; do
	[ -f "$T/$f" ] || die "make install: no $f"
done
"$T/bin/mixprof" --version | grep -q '^mixprof [0-9]' || die "--version"
grep -q '^.SH ENVIRONMENT' "$T/share/man/man1/mixprof.1" || die "man page without ENVIRONMENT"

# launch mode: the agent from $T/lib/mixprof names compiled Java frames
"$T/bin/mixprof" -F 499 --agent -o "$TMPD/l.folded" -- java -cp "$SAMPLES" Ratio 3 \
	>/dev/null 2>"$TMPD/l.err" || { cat "$TMPD/l.err"; die "installed launch run"; }
grep -q 'not found' "$TMPD/l.err" && die "agent not found: $(cat "$TMPD/l.err")"
grep -q 'Ratio\.\(one\|two\|three\)_\[[01j]\]' "$TMPD/l.folded" || die "launch: no compiled Java frame named"

# -p: the installed agent is attached
# (a minute: killed after the completion check, however loaded the machine)
java -cp "$SAMPLES" Ratio 60 >"$TMPD/ready" &
pid=$!
PIDS_TO_KILL+=($pid)
cpu_cap "$pid" 50 # sampled and named, not spinning a CPU for the rest
wait_for 10 grep -qs ready "$TMPD/ready" || die "Ratio did not start"
"$T/bin/mixprof" -F 499 -p "$pid" --agent -o "$TMPD/p.folded" 3 2>"$TMPD/p.err" ||
	{ cat "$TMPD/p.err"; die "installed -p run"; }
grep -q "$T/lib/mixprof/libjmap.so" "/proc/$pid/maps" || die "-p: the installed agent is not in the JVM"
grep -q 'Ratio\.\(one\|two\|three\)_\[[01j]\]' "$TMPD/p.folded" || die "-p: no compiled Java frame named"

# completion: a JVM's pid after -p
COMP_WORDS=(mixprof -p "") COMP_CWORD=2
source "$T/share/bash-completion/completions/mixprof"
_mixprof
printf '%s\n' "${COMPREPLY[@]}" | grep -qx "$pid" || die "completion: pid $pid not offered after -p"
COMP_WORDS=(mixprof --for) COMP_CWORD=1
_mixprof
[ "${COMPREPLY[*]}" = "--format" ] || die "completion of --for: ${COMPREPLY[*]}"
kill $pid

mk uninstall PREFIX="$T" || die "make uninstall"
left=$(find "$T" -type f | head -5)
[ -z "$left" ] || die "uninstall left: $left"

# DESTDIR: a package's tree
D=$TMPD/dest
mk install DESTDIR="$D" PREFIX=/usr >/dev/null || die "make install DESTDIR"
for f in usr/bin/mixprof usr/lib/mixprof/libjmap.so usr/share/man/man1/mixprof-montage.1 \
	usr/share/bash-completion/completions/mixprof; do
	[ -f "$D/$f" ] || die "DESTDIR install: no $f"
done
mk uninstall DESTDIR="$D" PREFIX=/usr || die "make uninstall DESTDIR"
left=$(find "$D" -type f | head -5)
[ -z "$left" ] || die "uninstall DESTDIR left: $left"
echo ok
