#!/usr/bin/env bash
# Root's mixprof never writes through a user's links: a user plants, in a
# directory of theirs, symlinks named like every output (slices, index,
# heat map) pointing at root's files; root renders into that directory.
# The targets stay as they were and each refusal names the file. montage
# DIR refuses slices.tsv entries that leave DIR (.., absolute), writing
# nothing outside it.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/harden.sh"

V=$TMPD/victims
mkdir -m 700 "$V"
names="slice-0000.folded slice-0000.svg slices.tsv index.html heatmap.html samples.timed out.svg out.folded"
for n in $names; do echo "root's $n" >"$V/$n"; done
intact() {
	local n
	for n in $names; do
		[ "$(cat "$V/$n")" = "root's $n" ] || die "$1: $V/$n overwritten"
	done
}

W=$TMPD/w
mkdir "$W" && chown "$HU:$HG" "$W"
for n in $names; do as_user ln -s "$V/$n" "$W/$n"; done

# a run with slices, montage and heat map into the user's directory
rc=0
bounded "$MIXPROF" -i 1 --montage "$W" --heatmap "$W" -- sleep 2 \
	>/dev/null 2>"$TMPD/run.err" || rc=$?
cat "$TMPD/run.err"
intact "--montage/--heatmap run"
[ $rc -ne 0 ] || die "the run did not fail"
grep -q "$W/samples.timed: a symbolic link, not followed" "$TMPD/run.err" ||
	die "no clear refusal of samples.timed"

# slices and montage alone: the run gets going, the first slice is refused
rc=0
bounded "$MIXPROF" -i 1 --montage "$W" -- sleep 2 >/dev/null \
	2>"$TMPD/slices.err" || rc=$?
cat "$TMPD/slices.err"
intact "--montage run"
[ $rc -ne 0 ] || die "the slices run did not fail"
grep -q "$W/slice-0000.folded: a symbolic link, not followed" \
	"$TMPD/slices.err" || die "no clear refusal of slice-0000.folded"

# the directory itself the user's link: refused, nothing made behind it
as_user ln -s "$V" "$W/wlink"
rc=0
bounded "$MIXPROF" -o "$W/wlink" -i 1 -- sleep 1 >/dev/null \
	2>"$TMPD/dir.err" || rc=$?
cat "$TMPD/dir.err"
[ $rc -ne 0 ] || die "-o DIR through a link did not fail"
grep -q 'a symbolic link, not followed' "$TMPD/dir.err" || die "no clear refusal of the directory link"
[ "$(ls "$V" | wc -l)" = "$(echo $names | wc -w)" ] || die "files made in $V"
intact "-o DIR link"

# -o FILE, --svg FILE and the render subcommands
rc=0
bounded "$MIXPROF" -o "$W/out.folded" --svg "$W/out.svg" -- sleep 1 \
	>/dev/null 2>"$TMPD/o.err" || rc=$?
cat "$TMPD/o.err"
[ $rc -ne 0 ] || die "-o through a link did not fail"
grep -q "$W/out.folded: a symbolic link, not followed" "$TMPD/o.err" || die "no clear refusal of -o"
printf 'a;b 3\n' >"$TMPD/in.flamegraph"
printf '0 a;b 3\n' >"$TMPD/in.heatmap"
for cmd in flamegraph heatmap; do
	rc=0
	bounded "$MIXPROF" "$cmd" -o "$W/out.svg" "$TMPD/in.$cmd" \
		2>"$TMPD/$cmd.err" || rc=$?
	[ $rc -ne 0 ] || die "mixprof $cmd -o through a link did not fail"
	grep -q "out.svg: a symbolic link" "$TMPD/$cmd.err" || die "$cmd: no clear refusal"
done
intact "-o FILE"

# a FIFO planted as an output: refused, not waited on
as_user mkfifo "$W/fifo.svg"
rc=0
bounded "$MIXPROF" flamegraph -o "$W/fifo.svg" "$TMPD/in.flamegraph" 2>"$TMPD/fifo.err" || rc=$?
[ $rc -ne 0 ] && grep -q 'fifo.svg: not a regular file' "$TMPD/fifo.err" || die "FIFO output not refused"

# montage DIR of the user's: its links are not read nor written through
rc=0
bounded "$MIXPROF" montage "$W" 2>"$TMPD/mw.err" || rc=$?
cat "$TMPD/mw.err"
[ $rc -ne 0 ] && grep -q "$W/slices.tsv: a symbolic link" "$TMPD/mw.err" ||
	die "montage read slices.tsv through a link"
as_user rm "$W/slices.tsv"
printf '0\t0\t1000000000\t1\tslice-0000.folded\t0\n' | as_user tee "$W/slices.tsv" >/dev/null
rc=0
bounded "$MIXPROF" montage "$W" 2>"$TMPD/mw.err" || rc=$?
cat "$TMPD/mw.err"
[ $rc -ne 0 ] || die "montage of links succeeded"
grep -q "$W/index.html: a symbolic link" "$TMPD/mw.err" ||
	die "montage did not refuse index.html"
intact "montage of links"

# montage DIR whose slices.tsv names files outside DIR
M=$TMPD/m
mkdir -p "$M/in" && chown -R "$HU:$HG" "$M"
printf 'a;b 3\n' >"$TMPD/x.folded"
for entry in ../x.folded "$TMPD/x.folded" ../m/in/../../x.folded; do
	rm -f "$TMPD/x.svg" "$M/index.html"
	printf '0\t0\t1000000000\t3\t%s\t0\n' "$entry" >"$M/slices.tsv"
	rc=0
	bounded "$MIXPROF" montage "$M" 2>"$TMPD/m.err" || rc=$?
	cat "$TMPD/m.err"
	[ $rc -ne 0 ] || die "montage took '$entry'"
	grep -qF "file '$entry' is not a plain name" "$TMPD/m.err" || die "no clear refusal of '$entry'"
	[ ! -e "$TMPD/x.svg" ] || die "montage wrote outside DIR for '$entry'"
	[ ! -e "$M/index.html" ] || die "montage wrote an index for '$entry'"
done
# and a plain entry still works
cp "$TMPD/x.folded" "$M/x.folded"
printf '0\t0\t1000000000\t3\tx.folded\t0\n' >"$M/slices.tsv"
bounded "$MIXPROF" montage "$M" || die "montage of a plain entry failed"
[ -s "$M/x.svg" ] && [ -s "$M/index.html" ] || die "plain montage wrote nothing"
intact "montage"
note "harden_outputs: ok"
