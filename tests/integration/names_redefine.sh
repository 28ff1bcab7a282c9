#!/usr/bin/env bash
# Java frames named right across class redefinition. Redefine (an
# executable jar made here, its own Launcher-Agent-Class) runs
# RedefineWorker through worker() for half its time, then redefines
# RedefineWorker round after round, each time collecting the old methods
# and defining a fresh RedefineTmplNNNN in the same class loader, run
# through fresh(): the new methods get the old ones' memory, ConstMethod
# and all (measured: before the redefinition count went into the names'
# epoch, 10-15 of ~20 folded lines under fresh() named a frame
# RedefineWorker.mid; JDK 25 did not reuse the memory in these runs).
# Under -Xint (interpreted frames, named from the walk's memo) and with
# the JIT (compiled frames, named by jnamer; its chains are checked
# against their nmethod too: that mode did not fail without the fix):
# - under fresh() no RedefineWorker frame, under worker() no
#   RedefineTmpl one, and 20 samples under each at least (at load ~16,
#   JDK 25 -Xint had 31 under fresh(); a broken build named 10-15 folded
#   lines wrong of ~20);
# - mixprof -v says the memo was trusted by the epoch alone before the
#   first redefinition and checked after (JvmtiExport::_redefinition_count
#   found and read). On every JDK.
. "$(dirname "$0")/../lib/common.sh"

check_jdk() {
	local jdk=$1 mode jar=$TMPD/redefine.jar
	# the classes, their own Launcher-Agent-Class (Unload: its renaming)
	printf 'Main-Class: Redefine\nLauncher-Agent-Class: Redefine\nCan-Redefine-Classes: true\n' >"$TMPD/manifest"
	"$jdk/bin/jar" cfm "$jar" "$TMPD/manifest" -C "$SAMPLES" Redefine.class \
		-C "$SAMPLES" RedefineWorker.class -C "$SAMPLES" RedefineTmplXXXX.class \
		-C "$SAMPLES" Unload.class ||
		die "no jar"
	for mode in -Xint -Xmixed; do
		f=$TMPD/redefine$mode.folded
		"$MIXPROF" -v -F 999 -o "$f" -- "$jdk/bin/java" $mode -jar "$jar" 2.5 \
			>"$TMPD/out" 2>"$TMPD/err" || die "mixprof failed: $(tail -3 "$TMPD/err")"
		note "$jdk $mode: $(cat "$TMPD/out")"
		grep -q '^redefined [1-9]' "$TMPD/out" || die "$jdk $mode: Redefine redefined nothing"
		sed -n 's/^mixprof:   \(methods named from the walk.s memo.*\)/\1/p' "$TMPD/err"
		sed -n 's/.*memo: in \([0-9]*\) walks by.* in \([0-9]*\) each.*/\1 \2/p' \
			"$TMPD/err" >"$TMPD/memo"
		read -r noredef redef <"$TMPD/memo" || die "$jdk $mode: no memo line"
		[ "$noredef" -gt 0 ] && [ "$redef" -gt 0 ] ||
			die "$jdk $mode: memo trusted in $noredef walks, checked in $redef"
		awk '{
			n = $NF
			if ($0 ~ /;Redefine\.fresh_/) {
				fresh += n
				if ($0 ~ /;Redefine\.fresh_[^ ]*RedefineWorker\./) { bad += n; if (shown++ < 3) print "wrong: " $0 }
			}
			if ($0 ~ /;Redefine\.worker_/) {
				worker += n
				if ($0 ~ /;Redefine\.worker_[^ ]*RedefineTmpl/) { bad += n; if (shown++ < 3) print "wrong: " $0 }
			}
		}
		END {
			printf "%d samples under fresh(), %d under worker(), %d named wrong\n", fresh, worker, bad
			exit !(fresh >= 20 && worker >= 20 && bad == 0)
		}' "$f" || die "$jdk $mode: frames named wrong, or too few samples"
	done
}
each_jdk check_jdk
echo ok
