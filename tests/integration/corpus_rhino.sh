#!/usr/bin/env bash
# A third real application: Rhino, Debian's JavaScript engine in Java
# (package rhino), running tests/corpus/rhino_work.js (recursion, object
# churn, JSON, regular expressions, sorting with a comparator) for 4 s,
# launched through mixprof at 999 Hz, no JVM flag. On the first JDK with
# Rhino's default optimizer (each script and function compiled into JVM
# classes of its own, loaded by Rhino's class loader), on the second with
# -opt -1 (Rhino's Interpreter: one Java frame of interpretLoop per
# JavaScript call, deep recursion). >= 98% of the samples in Rhino's code
# must reach the main thread's root, the launcher's JavaMain (its shell's
# Main.main, or, before main, the static initializers the launcher runs
# when it looks main up: 6.5% of the samples on both JDKs; measured
# 99.65-100%), and <= 1% may have a frame left unnamed (measured 0.09-0.33%:
# a stub or adapter first met in the JVM's last moments, seen after it
# exited; 0-1.59% before stubs were named at first sight, [unknown] under
# compiled frames; the churn test's 0.5% is for interpreted and reflective
# code); when not, the reasons are printed with a stack each.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/corpus.sh"

JAR=/usr/share/java/js.jar
[ -r "$JAR" ] || die "no $JAR: Debian's rhino package is needed"

failed=
opts=("" "-opt -1")
i=0
for jdk in $(jdks); do
	major=$(jdk_major "$jdk")
	opt=${opts[$((i++ % 2))]}
	note "JDK $jdk ($major), rhino ${opt:-(default optimizer)}"
	out=$TMPD/rhino-$major
	# shellcheck disable=SC2086 # opt is zero or two words
	"$MIXPROF" -F 999 -o "$out.folded" -- "$jdk/bin/java" -cp "$JAR" \
		org.mozilla.javascript.tools.shell.Main $opt \
		"$TOP/tests/corpus/rhino_work.js" 4 >"$out.out" 2>"$out.err" ||
		die "mixprof or rhino failed: $(tail -20 "$out.err")"
	grep '^mixprof:  ' "$out.err"
	grep -q '^done [0-9]* true' "$out.out" || die "the script did not finish: $(cat "$out.out")"
	corpus_reach "$out.folded" 'org/mozilla/javascript/' \
		';start_thread;ThreadJavaMain;JavaMain;' 99 \
		"rhino on JDK $major" || failed="$failed $major"
	corpus_unresolved "$out.folded" 'org/mozilla/javascript/' 1 \
		"rhino on JDK $major" || failed="$failed $major"
done
[ -z "$failed" ] || die "rhino's stacks not whole or not named on JDK$failed"
echo ok
