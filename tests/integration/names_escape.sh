#!/usr/bin/env bash
# Names a target controls reach no output raw (issue 29, case 5): a
# process whose comm and ELF symbol are terminal escapes (retitle, clear,
# colours, a C1 CSI, a byte that is not UTF-8) above a JVM whose thread
# name holds ESC, BEL, TAB, U+009B, ';' and a newline and whose method
# name holds U+009B (tests/fixtures/names/). Profiled with -p on a
# terminal (start line, wrapper hint, top-N table), into folded text,
# pprof and SVG, and host-wide: no byte below 0x20 but the line breaks
# of each format (and the tabs an SVG's own script has), no DEL, no C1,
# only valid UTF-8, and the names there, escaped ("\x1b").
. "$(dirname "$0")/../lib/common.sh"

FIX=$BUILD/tests/fixtures/names

# clean FILE WHAT [TAB]: no control byte but newline (and tab with TAB),
# no DEL, no C1 (C2 80..9F), every line valid UTF-8
clean() {
	perl -ne '
		BEGIN { $tab = shift @ARGV }
		$n++;
		s/\n\z//;
		s/\t//g if $tab;
		if (/[\x00-\x1f\x7f]/ || /\xc2[\x80-\x9f]/ ||
		    !/\A(?:[\x00-\x7f]|[\xc2-\xdf][\x80-\xbf]|
			\xe0[\xa0-\xbf][\x80-\xbf]|
			[\xe1-\xec\xee\xef][\x80-\xbf]{2}|
			\xed[\x80-\x9f][\x80-\xbf]|
			\xf0[\x90-\xbf][\x80-\xbf]{2}|
			[\xf1-\xf3][\x80-\xbf]{3}|
			\xf4[\x80-\x8f][\x80-\xbf]{2})*\z/x) {
			print STDERR "line $n: ", unpack("H*", $_), "\n";
			$bad = 1;
		}
		END { exit $bad ? 1 : 0 }' "${3:-}" "$1" || die "$2: unsafe bytes"
}

# has FILE WHAT TEXT: TEXT (fixed, bytes) is in FILE
has() {
	LC_ALL=C grep -qaF -- "$3" "$1" || die "$2: no '$3'"
}

# The strings of a gzipped profile.proto (its string_table, field 6),
# one a line.
pprof_strings() {
	gzip -dc "$1" | perl -e '
		local $/; $b = <STDIN>; $i = 0;
		sub varint {
			my ($v, $s, $c) = (0, 0);
			do {
				$c = ord(substr($b, $i++, 1));
				$v |= ($c & 0x7f) << $s;
				$s += 7;
			} while ($c & 0x80);
			return $v;
		}
		while ($i < length $b) {
			$k = varint(); ($f, $w) = ($k >> 3, $k & 7);
			if ($w == 0) { varint() }
			elsif ($w == 1) { $i += 8 }
			elsif ($w == 5) { $i += 4 }
			elsif ($w == 2) {
				$n = varint();
				print substr($b, $i, $n), "\n" if $f == 6;
				$i += $n;
			} else { die "wire type $w" }
		}'
}

COMM='\x1b]0;OWN\x07\x1b[2J;x'              # as a message shows it
FCOMM='\x1b]0:OWN\x07\x1b[2J:x\x0a'         # as a folded frame
SYM='evil\x1b]0:PWNED\x07\x1b[2J\x1b[1:31m\xc2\x9b\xffEVIL'
THREAD='\x1b]0:JOWN\x07\x09\xc2\x9b2J:x\x0a'
METHOD=$(printf 'EvilNames.spin\\xc2\\x9b\xc3\xa9EVIL')

"$FIX/evilname" 40 java -XX:-Inline -cp "$FIX" EvilNames 40 \
	>"$TMPD/ready" &
evil=$!
PIDS_TO_KILL+=($evil)
wait_for 15 grep -q ready "$TMPD/ready" || die "evilname did not start"
jvm=
wait_for 15 eval 'jvm=$(pgrep -P "$evil" java)' ||
	die "no JVM below evilname"
# the JVM (evilname's child) first, and gone before the runner looks
stop_jvm() {
	[ -n "$jvm" ] || return 0
	kill -9 "$jvm" 2>/dev/null || true
	wait_for 10 eval '[ ! -e /proc/$jvm ]' || true
}
trap 'stop_jvm; cleanup_common' EXIT
wait_for 15 eval '[ "$(grep -c ready "$TMPD/ready")" -ge 2 ]' ||
	die "EvilNames did not start"

# the runs, all at the same time (each reads the same two processes):
# -p on a terminal; -p into folded text, SVG and pprof; the whole host
# (the same process among all others); the JVM per thread (its thread's
# name, its method's Symbol) into folded text, SVG and pprof
script -qec "'$MIXPROF' -F 199 -p $evil 1" "$TMPD/tty.raw" >/dev/null 2>&1 &
tty=$!
"$MIXPROF" -F 199 -p "$evil" -o "$TMPD/c.folded" --svg "$TMPD/c.svg" 1 \
	2>"$TMPD/c.err" &
c=$!
"$MIXPROF" -F 199 -p "$evil" -o "$TMPD/c.pb.gz" 1 2>"$TMPD/cp.err" &
cp=$!
"$MIXPROF" -F 199 -o "$TMPD/h.folded" 2 2>"$TMPD/h.err" &
h=$!
"$MIXPROF" -F 199 --per-thread -p "$jvm" -o "$TMPD/j.folded" \
	--svg "$TMPD/j.svg" 2 2>"$TMPD/j.err" &
j=$!
"$MIXPROF" -F 199 --per-thread -p "$jvm" -o "$TMPD/j.pb.gz" 1 \
	2>"$TMPD/jp.err" &
jp=$!
PIDS_TO_KILL+=($tty $c $cp $h $j $jp)

# -p on a terminal: the start line, the hint, the top-N table
wait $tty || { cat -v "$TMPD/tty.raw"; die "mixprof on a pty failed"; }
# the tty's \r\n and the status line's own \r and erase-to-end
perl -pe 's/\r\e\[K//g; s/\r//g' "$TMPD/tty.raw" >"$TMPD/tty.out"
cat -v "$TMPD/tty.out"
clean "$TMPD/tty.out" "terminal"
has "$TMPD/tty.out" "start line" "mixprof: profiling $COMM (pid $evil)"
has "$TMPD/tty.out" "wrapper hint" "pid $evil ($COMM) is not a JVM"
has "$TMPD/tty.out" "top-N table" "$SYM"

# -p into folded text, SVG and pprof
wait $c || { cat "$TMPD/c.err"; die "mixprof -p failed"; }
clean "$TMPD/c.err" "stderr"
clean "$TMPD/c.folded" "folded"
has "$TMPD/c.folded" "folded" "$FCOMM;"
has "$TMPD/c.folded" "folded" ";$SYM "
clean "$TMPD/c.svg" "svg" tab
has "$TMPD/c.svg" "svg" "$SYM"
has "$TMPD/c.svg" "svg" "$FCOMM"
wait $cp || { cat "$TMPD/cp.err"; die "mixprof -p (pprof) failed"; }
pprof_strings "$TMPD/c.pb.gz" >"$TMPD/c.strings"
clean "$TMPD/c.strings" "pprof"
has "$TMPD/c.strings" "pprof" "$SYM"

# the whole host: the same process among all others
wait $h || { cat "$TMPD/h.err"; die "mixprof host-wide failed"; }
clean "$TMPD/h.err" "host-wide stderr"
clean "$TMPD/h.folded" "host-wide folded"
has "$TMPD/h.folded" "host-wide folded" "$FCOMM;"
has "$TMPD/h.folded" "host-wide folded" ";$SYM "

# the JVM per thread: its thread's name, its method's Symbol
wait $j || { cat "$TMPD/j.err"; die "mixprof --per-thread -p JVM failed"; }
cat "$TMPD/j.err"
clean "$TMPD/j.err" "JVM stderr"
clean "$TMPD/j.folded" "JVM folded"
has "$TMPD/j.folded" "JVM folded" "java;$THREAD ["
has "$TMPD/j.folded" "JVM folded" ";$METHOD"
clean "$TMPD/j.svg" "JVM svg" tab
has "$TMPD/j.svg" "JVM svg" "$THREAD"
wait $jp || { cat "$TMPD/jp.err"; die "pprof run failed"; }
pprof_strings "$TMPD/j.pb.gz" >"$TMPD/j.strings"
clean "$TMPD/j.strings" "JVM pprof"
has "$TMPD/j.strings" "JVM pprof" "$THREAD"
has "$TMPD/j.strings" "JVM pprof" "$METHOD"
echo ok
