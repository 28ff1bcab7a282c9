#!/usr/bin/env bash
# Deep stacks are ours to walk: Recurse 2,000 frames deep, compiled and
# under -Xint (every frame interpreted), launched through mixprof with
# --stack-depth 4096, on every JDK we test. >= 95% of the worker's leaf
# samples carry all 2,000 frames of Recurse.down, named (interpreted
# frames beyond the first 64 too), and reach the thread's root; none is
# cut ([truncated]).
. "$(dirname "$0")/../lib/common.sh"

check() {
	awk -v f="$1" '
	/;recurse-worker \[/ && /Recurse\.leaf_\[/ {
		n = $NF; leaf += n
		if (/\[truncated\]/) cut += n
		split($0, fr, ";")
		if (gsub(/Recurse\.down_\[/, "&") >= 2000 &&
		    fr[3] ~ /^(start_thread|(__)?clone3?|thread_native_entry)$/)
			whole += n
	}
	END {
		printf "%s: %d of %d leaf samples whole, %d truncated\n", f, whole, leaf, cut
		exit !(leaf >= 200 && whole >= 0.95 * leaf && !cut)
	}' "$1"
}

n=0
for jdk in $(jdks); do
	for mode in -Xmixed -Xint; do
		n=$((n + 1))
		out=$TMPD/deep-$n.folded
		env -u JAVA_TOOL_OPTIONS "$MIXPROF" -F 499 --per-thread \
			--stack-depth 4096 -o "$out" -- \
			"$jdk/bin/java" $mode -cp "$SAMPLES" Recurse 4 2000 \
			2>"$TMPD/err" >/dev/null || { cat "$TMPD/err"; die "mixprof failed"; }
		grep "whole stacks\|interpreted frames" "$TMPD/err"
		check "$out" || die "$jdk $mode: deep stacks not whole"
	done
done
echo ok
