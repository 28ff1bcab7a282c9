#!/usr/bin/env bash
# Rows on demand (unwind/README.md): host-wide, the loader builds the rows
# of the files whose code samples walk through, most wanted first, and
# no others but mixprof's own (a target's: host-wide it is in the
# profile too, busiest in its first second). A copy of nofp (its own code without frame pointers) runs:
# its file's rows must be built for the frames that waited for them, and
# its stacks whole to main once they are; a copy of sleep, asleep all
# through the run, maps a file of its own whose code never runs while
# sampling: its rows must not be built, and the summary must count mapped
# files no sample needed; no file built may have had no frame waiting
# for it, but mixprof's, which must be built. -v lists the files built
# and why. A cache directory of its own,
# empty: a warm cache's rows are read before samples ask (rows_cache.sh),
# and nofp's copy has nofp's build-id, so other tests' runs cache it.
. "$(dirname "$0")/../lib/common.sh"

NOFP=$BUILD/tests/fixtures/unwind/nofp
[ -x "$NOFP" ] || die "$NOFP not built (make)"
cp "$NOFP" "$TMPD/nofp_demand"
cp "$(command -v sleep)" "$TMPD/idle_sleep"
"$TMPD/nofp_demand" 10 &
PIDS_TO_KILL+=($!)
"$TMPD/idle_sleep" 30 &
PIDS_TO_KILL+=($!)
sleep 0.3
MIXPROF_CACHE_DIR=$TMPD/cache "$MIXPROF" -v -F 499 -o "$TMPD/host.folded" 3 2>"$TMPD/err" ||
	{ cat "$TMPD/err"; die "mixprof (host-wide) failed"; }
grep "unwind rows:" "$TMPD/err"
grep "rows of $TMPD/" "$TMPD/err"
grep -q "rows of $TMPD/nofp_demand: .*, [1-9][0-9]* frames waited" \
	"$TMPD/err" || die "nofp's rows not built for the frames that waited"
! grep -q "rows of $TMPD/idle_sleep:" "$TMPD/err" ||
	die "the rows of a file no sample needed were built"
# host-wide, mixprof is the one target: every other file built had
# frames waiting
! grep "rows of .* to build, 0 frames waited$" "$TMPD/err" ||
	die "rows built that no sample needed"
grep -q "rows of $(readlink -f "$MIXPROF"): .*, a target's$" "$TMPD/err" ||
	die "mixprof's own rows not built early"
grep -q "; [1-9][0-9]* mapped files no sample needed)" "$TMPD/err" ||
	die "no mapped file left without rows"
# once its rows are there (a walk before them is marked, and left out)
awk '
$1 ~ /^nofp_demand;/ {
	n = $NF
	if ($0 ~ /\[unwind: no rows yet\]/) { early += n; next }
	t += n
	if ($1 ~ /^nofp_demand;_start;[^ ]*;main;/ && $1 !~ /\[unwind:/)
		w += n
}
END {
	if (t < 100) { print "only " t " samples of nofp_demand with rows (" early " before)"; exit 1 }
	printf "nofp_demand: %.2f%% of %d samples whole to main (%d before its rows, left out)\n", 100 * w / t, t, early
	exit !(w >= 0.95 * t)
}' "$TMPD/host.folded" || die "nofp_demand's stacks not whole once its rows were built"
echo ok
