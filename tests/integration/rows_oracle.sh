#!/usr/bin/env bash
# rowgen's rows from its own CFA reader (unwind/cfi.c, cfirows.c) equal,
# row for row, those made through libdw's CFI interface (the oracle,
# tests/tools/rowgen_libdw.c) on real files: glibc, libz and the other
# libraries rowsoracle itself maps, libjvm and its libstdc++ for each
# JDK, bash, and the fixtures: nofp (.eh_frame), nofp_df (its code's
# CFI in .debug_frame only), nofp_split (stripped, its .debug_frame in
# nofp_split.debug, found by .gnu_debuglink), and nofp_df with its debug
# sections compressed. Any difference fails; the time per row of each
# reader is printed.
. "$(dirname "$0")/../lib/common.sh"

ORACLE=$BUILD/tests/rowsoracle
FIX=$BUILD/tests/fixtures/unwind
[ -x "$ORACLE" ] || die "$ORACLE not built (make)"
for f in nofp nofp_df nofp_split nofp_split.debug; do
	[ -f "$FIX/$f" ] || die "$FIX/$f not built (make)"
done

# the libraries a binary links, by path
libs_of() { ldd "$1" | awk '$3 ~ /^\// { print $3 }'; }

files=($(libs_of "$ORACLE") "$(command -v bash)")
while read -r jdk; do
	jvm=$jdk/lib/server/libjvm.so
	[ -f "$jvm" ] || die "$jvm: no libjvm"
	# JDK 17's links libstdc++; Temurin's has it built in
	files+=("$jvm" $(libs_of "$jvm" | grep 'libstdc++' || true))
done < <(jdks)
objcopy --compress-debug-sections "$FIX/nofp_df" "$TMPD/nofp_dfz"
files+=("$FIX/nofp" "$FIX/nofp_df" "$FIX/nofp_split"
	"$FIX/nofp_split:$FIX/nofp_split.debug" "$TMPD/nofp_dfz")
mapfile -t files < <(printf '%s\n' "${files[@]}" | awk '!seen[$0]++')
printf '%s\n' "${files[@]}" | grep -q 'libc\.so' || die "no libc among ${files[*]}"
printf '%s\n' "${files[@]}" | grep -q 'libz\.so' || die "no libz among ${files[*]}"
printf '%s\n' "${files[@]}" | grep -q 'libstdc++' || die "no libstdc++ among ${files[*]}"
[ "$(printf '%s\n' "${files[@]}" | grep -c libjvm)" -ge 2 ] || die "fewer than 2 JDKs' libjvm"

"$ORACLE" "${files[@]}" | tee "$TMPD/out" || die "rows differ from libdw's"
n=$(grep -c ' rows equal' "$TMPD/out")
[ "$n" = "${#files[@]}" ] || die "$n of ${#files[@]} files with rows equal"
grep -q "nofp_dfz: .*[1-9][0-9]* from .debug_frame" "$TMPD/out" ||
	die "compressed .debug_frame: no rows from it"
grep -q "nofp_split.debug: .*[1-9][0-9]* from .debug_frame" "$TMPD/out" ||
	die "nofp_split.debug: no rows from its .debug_frame"
echo PASS
