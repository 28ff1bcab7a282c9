#!/usr/bin/env bash
# Agentless names under class churn: Unload (a JVM started with no flag)
# runs UnloadWorker00, 01... one per phase, each unloaded before the next
# so its compiled code is freed and the addresses reused. mixprof -p
# names compiled frames from the JVM's own metadata (nmethod and compile
# id recorded at sample time): in every slice inside a phase, >= 99% of
# the worker samples name that phase's worker, and no frame names
# another's. -p loads nothing: afterwards no libjmap.so in the JVM's maps
# and no file of ours in its /tmp. On every JDK.
. "$(dirname "$0")/../lib/common.sh"

for jdk in $(jdks); do
	note "JDK $jdk"
	dir=$TMPD/churn-$(basename "$jdk")
	"$jdk/bin/java" -cp "$SAMPLES" Unload 7 1.0 >"$TMPD/phases" \
		2>"$TMPD/jvm.err" &
	pid=$!
	PIDS_TO_KILL+=($pid)
	sleep 0.3 # a running JVM, as -p finds one
	"$MIXPROF" -p "$pid" -F 999 -i 0.2 -o "$dir" 4 2>"$TMPD/err" ||
		die "mixprof failed: $(cat "$TMPD/err")"
	cat "$TMPD/err"
	maps=$(cat "/proc/$pid/maps" 2>/dev/null || true)
	wait "$pid" || die "Unload failed: $(cat "$TMPD/jvm.err")"
	cat "$TMPD/phases"
	grep -q '^done' "$TMPD/phases" || die "Unload did not finish"
	grep -q "compiled Java frames named from the JVM" "$TMPD/err" ||
		die "no compiled frame named from the JVM"
	[ -n "$maps" ] || die "the JVM was gone before its maps were read"
	! grep -q libjmap <<<"$maps" || die "-p loaded the agent"
	! ls /tmp/perf-"$pid".map /tmp/.mixprof-jmap-"$pid" 2>/dev/null ||
		die "files of ours in the JVM's /tmp"
	awk -v dir="$dir" '
	FNR == NR { if ($1 == "phase") { name[$2] = $3; ps[$2] = $4; pe[$2] = $5; np++ } next }
	/^#/ { next }
	{
		split($0, t, "\t")
		for (p in name) if (t[2] >= ps[p] && t[3] <= pe[p]) break
		if (!(p in name) || t[2] < ps[p] || t[3] > pe[p]) next
		inside++
		f = dir "/" t[5]
		while ((getline line < f) > 0) {
			k = split(line, w, " "); n = w[k]
			if (line !~ /UnloadWorker[0-9][0-9]\.[a-zA-Z]+_\[[01ji]\]/) continue
			all += n
			s = line; bad = 0; own = 0
			while (match(s, /UnloadWorker[0-9][0-9]\./)) {
				if (substr(s, RSTART, RLENGTH - 1) != name[p]) bad = 1
				else own = 1
				s = substr(s, RSTART + RLENGTH)
			}
			if (bad) { other += n; if (wrong++ < 3) print "slice " t[1] " (" name[p] "): " substr(line, 1, 400) }
			else if (own) right += n
		}
		close(f)
	}
	END {
		printf "%d phases, %d slices inside one, %d of %d worker samples named right, %d by another worker\n", np, inside, right, all, other
		exit !(np >= 5 && inside >= 5 && all >= 300 && right >= 0.99 * all && other == 0)
	}' "$TMPD/phases" "$dir/slices.tsv" || die "worker names wrong on $jdk"
done
echo ok
