#!/usr/bin/env bash
# Unwind rows kept between runs (unwind/rowcache.h): a run that made a
# file's rows stores them in the cache directory, and the next run reads
# them back instead of making them again, with the same result. Twice
# -p on nofp (no frame pointers: whole stacks need its rows) with a cache
# directory of its own: the first run makes its rows (-v: "to build"),
# the second reads them ("read from the cache") and its stacks are as
# whole (>= 99% to main once its rows are there). Then host-wide with
# the cache warm: a file it holds is read before a sample asks for it
# (-v: "read from the cache, 0 frames waited"; the first -p run built
# all of nofp's files, the dynamic loader's too, which samples seldom
# meet). A cache directory others may write is not used.
. "$(dirname "$0")/../lib/common.sh"

NOFP=$BUILD/tests/fixtures/unwind/nofp
[ -x "$NOFP" ] || die "$NOFP not built (make)"
cp "$NOFP" "$TMPD/nofp_cache"
export MIXPROF_CACHE_DIR=$TMPD/cache
"$TMPD/nofp_cache" 300 & # killed at the end: four runs take long on a loaded host
pid=$!
PIDS_TO_KILL+=("$pid")
sleep 0.3

run() { # N
	"$MIXPROF" -v -F 499 -p "$pid" -o "$TMPD/$1.folded" 2 2>"$TMPD/$1.err" ||
		{ cat "$TMPD/$1.err"; die "mixprof -p (run $1) failed"; }
	grep "unwind rows:\|rows of $TMPD/nofp_cache" "$TMPD/$1.err"
	awk -v what="run $1" '
	$1 ~ /^nofp_cache;/ {
		n = $NF
		if ($0 ~ /\[unwind: no rows yet\]/) next # before its rows
		t += n
		if ($1 ~ /;main;outer;/ && $1 !~ /\[unwind:/) w += n
	}
	END {
		if (t < 100) { print what ": only " t " samples"; exit 1 }
		printf "%s: %.2f%% of %d samples whole to main\n", what, 100 * w / t, t
		exit !(w >= 0.99 * t)
	}' "$TMPD/$1.folded" || die "run $1: stacks not whole"
}

run 1
grep -q "rows of $TMPD/nofp_cache: .* to build" "$TMPD/1.err" ||
	die "run 1: nofp's rows not made"
[ -n "$(ls "$MIXPROF_CACHE_DIR")" ] || die "nothing in the cache"
run 2
grep -q "rows of $TMPD/nofp_cache: .* read from the cache" "$TMPD/2.err" ||
	die "run 2: nofp's rows not read from the cache"
# host-wide, warm: rows read back unasked (a run used to wait for a
# sample to need each file, and lost its first samples' walks)
"$MIXPROF" -v -F 99 -o "$TMPD/host.folded" 2 2>"$TMPD/host.err" ||
	{ cat "$TMPD/host.err"; die "mixprof (host-wide) failed"; }
grep "unwind rows:\|read from the cache" "$TMPD/host.err"
grep -q "read from the cache, 0 frames waited" "$TMPD/host.err" ||
	die "host-wide: no cached file read before a sample asked"
# a directory others may write: not used (made again, nothing read)
chmod 0777 "$MIXPROF_CACHE_DIR"
run 3
! grep -q "read from the cache" "$TMPD/3.err" ||
	die "run 3: a cache others may write was used"
echo ok
