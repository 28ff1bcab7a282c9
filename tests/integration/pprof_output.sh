#!/usr/bin/env bash
# pprof output read by a real reader (`go tool pprof`, Debian's golang-go):
# a whole CPU run, its slices, and a probe run. Totals must equal what
# mixprof counted (its summary's "N written", slices.tsv, and ProbeMain's
# exactly 5000 calls, as stacks and as --count's table); Java, native and kernel functions must be there,
# told apart by their mapping and system name; our own renderer reads the
# same file back with the same total.
source "$(dirname "$0")/../lib/common.sh"
source "$TOP/tests/fixtures/agent/helpers.sh"
source "$TOP/tests/fixtures/probe/helpers.sh"

command -v go >/dev/null || die "go (golang-go) is needed to read pprof files"
export GOCACHE=$TMPD/gocache HOME=$TMPD # go wants a writable cache
all_jdks=($(jdks))
jdk=${all_jdks[0]}
java=$jdk/bin/java

# pprof_total FILE [SAMPLE_INDEX]: the total go tool pprof reads.
pprof_total() {
	go tool pprof -sample_index="${2:-0}" -raw "$1" 2>/dev/null |
		awk '/^Samples:/ { on = 1; next } /^Locations/ { on = 0 }
		     on && $1 ~ /^[0-9]+:?$/ { t += $1 + 0 }
		     END { print t + 0 }'
}

# A CPU run: Java (Ratio), then dd (kernel time), launched together.
"$MIXPROF" -F 499 --per-thread -o "$TMPD/r.pb.gz" -- sh -c \
	"'$java' -cp '$SAMPLES' Ratio 3 >/dev/null; dd if=/dev/zero of=/dev/null bs=64k count=100000 2>/dev/null" \
	2>"$TMPD/r.err" || { cat "$TMPD/r.err"; die "mixprof failed"; }
written=$(sed -n 's/^mixprof: .* samples in .*, \([0-9]*\) written$/\1/p' "$TMPD/r.err")
[ -n "$written" ] && [ "$written" -gt 100 ] || { cat "$TMPD/r.err"; die "too few samples: '$written'"; }
got=$(pprof_total "$TMPD/r.pb.gz")
[ "$got" = "$written" ] || die "go tool pprof reads $got samples, mixprof wrote $written"
go tool pprof -top "$TMPD/r.pb.gz" >"$TMPD/top" 2>&1 || { cat "$TMPD/top"; die "pprof -top"; }
grep -q 'Type: cpu' "$TMPD/top" || die "no cpu sample type"
go tool pprof -traces "$TMPD/r.pb.gz" >"$TMPD/traces" 2>&1 || die "pprof -traces"
grep -q 'thread:  ratio-worker' "$TMPD/traces" || die "no thread label"
grep -q 'Ratio.two$' "$TMPD/traces" || die "no Ratio.two frame"
go tool pprof -raw "$TMPD/r.pb.gz" >"$TMPD/raw" 2>&1
# pprof numbers mappings its own way: find ours by name
mid() { sed -n "/^Mappings/,\$ s/^\([0-9]*\): .* \\[$1\\] .*/\\1/p" "$TMPD/raw"; }
java_m=$(mid java) kern_m=$(mid kernel) native_m=$(mid native)
[ -n "$java_m" ] && [ -n "$kern_m" ] && [ -n "$native_m" ] || die "mappings: $(sed -n '/^Mappings/,$p' "$TMPD/raw")"
grep -q " M=$java_m Ratio\.three .*(Ratio\.three_\[[01ji]\])" "$TMPD/raw" || die "no Java location under [java]"
grep -q " M=$kern_m .*_\[k\])" "$TMPD/raw" || die "no kernel location under [kernel]"
grep -q " M=$native_m JavaMain " "$TMPD/raw" || die "no native location under [native]"
"$MIXPROF" flamegraph "$TMPD/r.pb.gz" >"$TMPD/r.svg" || die "flamegraph of pprof"
grep -q "all ($written samples" "$TMPD/r.svg" || die "our reader's total differs"
note "cpu: $written samples, read back whole by go tool pprof and our renderer"

# Slices: one file per second, each with its own total and time.
"$MIXPROF" -F 199 -i 1 --format pprof -o "$TMPD/sl" -- "$java" -cp "$SAMPLES" Ratio 2 \
	>/dev/null 2>"$TMPD/sl.err" || { cat "$TMPD/sl.err"; die "sliced run failed"; }
n=0
while IFS=$'\t' read -r idx s e samples file partial; do
	[ "${idx:0:1}" = "#" ] && continue
	case $file in slice-*.pb.gz) ;; *) die "slice file '$file'" ;; esac
	got=$(pprof_total "$TMPD/sl/$file")
	[ "$got" = "$samples" ] || die "$file: pprof reads $got, slices.tsv says $samples"
	n=$((n + 1))
done <"$TMPD/sl/slices.tsv"
[ $n -ge 2 ] || die "only $n slices"
"$MIXPROF" montage "$TMPD/sl" || die "montage of pprof slices"
[ -f "$TMPD/sl/slice-0000.svg" ] || die "montage did not draw slice 0"
note "slices: $n files, totals match slices.tsv"

# A probe run: exactly 5000 calls of ProbeMain$First.work.
"$MIXPROF" -e 'java:ProbeMain$First.work' -o "$TMPD/p.pb.gz" \
	-- "$java" -cp "$PROBE_FIX" ProbeMain >/dev/null 2>"$TMPD/p.err" ||
	{ cat "$TMPD/p.err"; die "probe run failed"; }
got=$(pprof_total "$TMPD/p.pb.gz")
[ "$got" = 5000 ] || die "probe run: pprof reads $got calls, want 5000"
go tool pprof -top "$TMPD/p.pb.gz" 2>&1 | grep -q 'Type: calls' || die "no calls sample type"
"$MIXPROF" -e 'java:ProbeMain$First.work' --count -o "$TMPD/c.pb.gz" \
	-- "$java" -cp "$PROBE_FIX" ProbeMain >/dev/null 2>"$TMPD/c.err" ||
	{ cat "$TMPD/c.err"; die "probe count run failed"; }
got=$(pprof_total "$TMPD/c.pb.gz")
[ "$got" = 5000 ] || die "--count: pprof reads $got calls, want 5000"
go tool pprof -top "$TMPD/c.pb.gz" 2>&1 | grep -q 'ProbeMain\$First.work(I)I' ||
	die "--count: no method in pprof -top"
note "probes: 5000 calls, as stacks and as --count"

# Bad input: a clear one-line error, exit 2.
st=0; "$MIXPROF" --format xml -o "$TMPD/x" 1 2>"$TMPD/e" || st=$?
[ $st = 2 ] && grep -q -- '--format' "$TMPD/e" || die "--format xml: status $st"
st=0; "$MIXPROF" --format pprof --montage "$TMPD/m" 1 2>"$TMPD/e" || st=$?
[ $st = 2 ] && grep -q 'montage' "$TMPD/e" || die "--format pprof --montage: status $st"
printf 'not a profile' | gzip >"$TMPD/bad.pb.gz"
st=0; "$MIXPROF" flamegraph "$TMPD/bad.pb.gz" >/dev/null 2>"$TMPD/e" || st=$?
[ $st != 0 ] && grep -q 'bad.pb.gz' "$TMPD/e" || die "a bad pprof file: status $st, $(cat "$TMPD/e")"
echo ok
