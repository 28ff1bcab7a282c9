#!/usr/bin/env bash
# No wrong callers on real code (issue 22): on a JVM run with
# -XX:+PreserveFramePointer, MIXPROF_UNWIND=check walks every JVM sample
# both ways, the HotSpot walk and the frame-pointer walk (the oracle),
# and says how often they agree but for the oracle's own blind spots
# (each counted by its reason in the summary). On every JDK at the same
# time: Debian's Tomcat 10 serving a JSP under ab -c 4 (-p, 4 s), and
# javac compiling 25 sources of java/util (launched); each must agree on
# >= 99.5% of at least 300 samples (measured by hand: javac 99.95-99.98%,
# Tomcat 100%; since the walk knows HotSpot's "mov rbp, rsp" encoding,
# the interpreter's returns and runtime stubs' exception checks, javac
# and Tomcat 100% on both JDKs but one run of Tomcat on JDK 25, 99.91%).
# When not, the differences are printed by reason.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/corpus.sh"

# agreement ERR LABEL: the check line's share, at least 99.5% of >= 300
agreement() {
	local line n pct
	line=$(grep "check: the HotSpot and frame-pointer walks agree" "$1") ||
		die "$2: no check line in the summary: $(tail -5 "$1")"
	note "$2: ${line#*check: }"
	read -r n pct < <(check_agreement "$1") || true
	[ -n "${pct:-}" ] || die "$2: check line not understood: $line"
	[ "$n" -ge 300 ] || die "$2: only $n JVM samples"
	if [ "$((10#$pct))" -lt 9950 ]; then
		grep "^mixprof:     \(differ\|blind spot\)" "$1" >&2
		die "$2: the walks agree on $pct/10000 but for the blind spots"
	fi
}

check_jdk() {
	local jdk=$1 major dir zip
	major=$(jdk_major "$jdk")
	note "JDK $jdk ($major)"
	tomcat_start "$jdk" "$TMPD/tomcat" -XX:+PreserveFramePointer
	MIXPROF_UNWIND=check "$MIXPROF" -p "$pid" -F 999 \
		-o "$TMPD/tomcat/folded" 4 2>"$TMPD/tomcat/err" ||
		die "mixprof failed: $(cat "$TMPD/tomcat/err")"
	tomcat_stop "$TMPD/tomcat"
	agreement "$TMPD/tomcat/err" "Tomcat on JDK $major"

	dir=$TMPD/javac
	zip=$(jdk_src_zip "$jdk") || die "no src.zip for $jdk (Debian: openjdk-$major-source)"
	jdk_util_sources "$zip" 25 "$dir"
	MIXPROF_UNWIND=check "$MIXPROF" -F 999 -o "$dir/folded" -- \
		"$jdk/bin/javac" -J-XX:+PreserveFramePointer -proc:none \
		-implicit:none -Xmaxwarns 1 --patch-module "java.base=$dir/src/java.base" \
		-d "$dir/out" "@$dir/files" >"$dir/log" 2>&1 ||
		die "javac or mixprof failed: $(tail -20 "$dir/log")"
	agreement "$dir/log" "javac on JDK $major"
}

each_jdk check_jdk
echo ok
