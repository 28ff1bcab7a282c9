#!/usr/bin/env bash
# perf itself reads what the agent writes, on every JDK:
#  - perf map: `perf record -e cpu-clock -g -p PID` on a JVM started with
#    the agent (map in /tmp, where perf looks), then `perf report` names
#    Ratio's methods from the map;
#  - jitdump: `perf record -k 1` around a JVM started with "jitdump,lines",
#    `perf inject --jit`, then `perf report` names them from the dump, and
#    the ELF files perf inject made of them carry Ratio.java's lines from
#    its DEBUG_INFO records (read with readelf: `perf report --sort
#    srcline` runs addr2line on every file it meets, 17-70 s here).
# perf's files (~/.debug, jitted-*.so) go to a HOME under $TMPD.
source "$(dirname "$0")/../lib/common.sh"
source "$TOP/tests/fixtures/agent/helpers.sh"
export HOME=$TMPD/home
mkdir -p "$HOME"
maps=()
trap 'rm -f "${maps[@]}"; cleanup_common' EXIT

show() { # PATTERN FILE: the first matches, squeezed for the log
	grep -m 3 -E "$1" "$2" | tr -s ' ' | cut -c1-100
}

ratio_frames() { # REPORT: how many samples lines name Ratio.one/two/three
	grep -cE 'Ratio\.(one|two|three)' "$1" || true
}

# check_jdk JDK: perf's names from one JDK's map and jitdump (the JDKs run at the same
# time: each_jdk)
check_jdk() {
	local jdk=$1
	note "JDK $(jdk_name "$jdk"): perf map"
	# runs until killed: a JVM slow to compile Ratio.three under load
	# must still be there for perf
	start_java "$jdk/bin/java" "$TMPD/out" "$TMPD/err" \
		-agentpath:"$AGENT" -cp "$SAMPLES" Ratio 600
	cpu_cap "$pid" 50 # perf wants its methods sampled, not a CPU's worth
	maps+=("/tmp/perf-$pid.map")
	wait_for 30 grep -qs ' Ratio\.three$' "/tmp/perf-$pid.map" ||
		die "Ratio.three never mapped"
	perf record -q -e cpu-clock -g -p "$pid" -o "$TMPD/perf.data" \
		-- sleep 2 >"$TMPD/record.err" 2>&1 ||
		{ cat "$TMPD/record.err"; die "perf record failed"; }
	kill "$pid"
	wait "$pid" || [ $? = 143 ] || die "JVM failed"
	no_jmap_lines "$TMPD/err"
	perf report -i "$TMPD/perf.data" --stdio --no-children \
		>"$TMPD/report" 2>/dev/null || die "perf report failed"
	n=$(ratio_frames "$TMPD/report")
	[ "$n" -gt 0 ] || { head -40 "$TMPD/report"; die "no Ratio frames"; }
	note "perf report names Ratio methods ($n lines):"
	show 'Ratio\.(one|two|three)' "$TMPD/report"

	note "JDK $(jdk_name "$jdk"): jitdump"
	perf record -q -k 1 -e cpu-clock -g -o "$TMPD/perf.data" \
		"$jdk/bin/java" -agentpath:"$AGENT=dir=$TMPD,jitdump,lines" \
		-cp "$SAMPLES" Ratio 2 >"$TMPD/out" 2>"$TMPD/err" ||
		die "perf record of java failed"
	no_jmap_lines "$TMPD/err"
	ls "$TMPD"/jit-*.dump >/dev/null || die "no jit dump written"
	perf inject --jit -i "$TMPD/perf.data" -o "$TMPD/perf.jit.data" \
		2>"$TMPD/inject.err" || { cat "$TMPD/inject.err"; die "inject"; }
	perf report -i "$TMPD/perf.jit.data" --stdio --no-children -g none \
		--sort dso,sym >"$TMPD/report" 2>/dev/null ||
		die "perf report of the injected data failed"
	n=$(grep -E 'jitted-[0-9]+-[0-9]+\.so' "$TMPD/report" |
	    grep -cE 'Ratio\.(one|two|three)' || true)
	[ "$n" -gt 0 ] || { head -40 "$TMPD/report"; die "no Ratio via jit"; }
	note "perf inject --jit resolves Ratio methods ($n lines):"
	show 'jitted.*Ratio\.(one|two|three)' "$TMPD/report"
	# the files perf inject made for Ratio's methods: their line tables
	dsos=$(grep -E 'Ratio\.(one|two|three)' "$TMPD/report" |
	       grep -oE 'jitted-[0-9]+-[0-9]+\.so' | sort -u)
	for d in $dsos; do
		readelf --debug-dump=decodedline "$TMPD/$d" 2>/dev/null
	done >"$TMPD/lines"
	grep -qE '^Ratio\.java +[1-9][0-9]* ' "$TMPD/lines" ||
		{ head -40 "$TMPD/lines"; die "no source lines for Ratio"; }
	note "source lines from DEBUG_INFO:"
	show '^Ratio\.java +[1-9]' "$TMPD/lines"
	rm -f "$TMPD"/jit-*.dump "$TMPD"/perf-*.map "$TMPD"/jitted-*.so
}

each_jdk check_jdk
echo "PASS"
