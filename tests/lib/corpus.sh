# Sourced by the corpus tests (real applications: javac, Tomcat, class
# churn) after common.sh: how whole and how named their stacks are, and,
# when not, why, in words a reader of the test's log can act on.

# corpus_awk: the awk functions both checks share. sample() reads a
# folded line (root first, "frame;...;frame count") into s and n and
# says whether it is one of the samples counted (its stack has a frame
# matching code), adding it to all; frames(s, from, to) is a stack's
# frames from..to, "..." marking what is left out; leaf(s) is its last
# user frame (kernel frames left out); reasons() prints the reasons
# counted in cnt[] (a stack each in eg[]), most samples first, each as
# a share of all, and the leaves most of its samples had (lf[]).
corpus_awk='
function sample() {
	n = $NF
	s = substr($0, 1, length($0) - length(n) - 1)
	if ($0 ~ /^#/ || s !~ code)
		return 0
	all += n
	return 1
}
function frames(s, from, to,   f, k, i, out) {
	k = split(s, f, ";")
	if (from < 1)
		from = 1
	out = from > 1 ? "...;" : ""
	for (i = from; i <= k && i <= to; i++)
		out = out (i > from ? ";" : "") f[i]
	if (k > to)
		out = out ";..."
	return length(out) > 900 ? substr(out, 1, 900) "..." : out
}
function leaf(s,   f, k) {
	k = split(s, f, ";")
	while (k > 1 && f[k] ~ /_\[k\]$/)
		k--
	return f[k]
}
function leaves(why,   w, best, i, out) {
	for (i = 0; i < 3; i++) {
		best = ""
		for (w in lf)
			if (index(w, why SUBSEP) == 1 && (best == "" || lf[w] > lf[best]))
				best = w
		if (best == "")
			break
		out = out (i ? ", " : "") substr(best, length(why) + 2) " " lf[best]
		delete lf[best]
	}
	return out
}
function reasons(   shown, best, w) {
	for (shown = 0; shown < 8; shown++) {
		best = ""
		for (w in cnt)
			if (best == "" || cnt[w] > cnt[best])
				best = w
		if (best == "")
			break
		printf "  %d (%.2f%%) %s, e.g.: %s\n", cnt[best], 100 * cnt[best] / all, best, eg[best]
		printf "    most at the leaf: %s\n", leaves(best)
		delete cnt[best]
	}
}'

# corpus_reach FOLDED CODE ROOT MIN LABEL: of the samples of FOLDED whose
# stack has a frame matching CODE (a POSIX extended regex), the share
# that has a frame matching ROOT. Prints one line of the share, then the
# reasons of the others, most samples first, each with its count and one
# stack: the first "[unwind: ...]" frame (the walker's own mark of where
# it stopped), else "Interpreter;[unknown]" or "[unknown]" (a frame it
# could not name, so may have walked past wrongly), else the frame the
# stack starts at (a walk that stopped without saying why). Fails when
# no sample matches CODE or the share is under MIN percent.
corpus_reach() {
	awk -v code="$2" -v root="$3" -v min="$4" -v label="$5" "$corpus_awk"'
	!sample() { next }
	s ~ root { whole += n; next }
	{
		if (match(s, /\[unwind: [^]]*\]/)) {
			why = substr(s, RSTART, RLENGTH)
			pre = substr(s, 1, RSTART)
			at = gsub(/;/, ";", pre) + 1
		} else if (s ~ /(^|;)Interpreter;\[unknown\]/) {
			why = "Interpreter;[unknown]"
			at = 40
		} else if (s ~ /(^|;)\[unknown\](;|$)/) {
			why = "[unknown]"
			at = 40
		} else {
			split(s, f, ";")
			why = "starts at " f[2]
			at = 1
		}
		cnt[why] += n
		lf[why, leaf(s)] += n
		if (!(why in eg))
			eg[why] = frames(s, 1, at + 8)
	}
	END {
		share = all ? 100 * whole / all : 0
		printf "%s: %.2f%% of %d samples in %s reach %s (at least %s%% wanted)\n", label, share, all, code, root, min
		reasons()
		exit !(all > 0 && share >= min)
	}' "$1"
}

# corpus_unresolved FOLDED CODE MAX LABEL: of the samples whose stack has
# a frame matching CODE, the share with a frame left unnamed: "[unknown]"
# (no symbol, no Java method) or a bare "Interpreter" (an interpreted
# frame whose method was not read). Prints the share, then the frames
# right above the first unnamed one, most samples first, with the
# stack around it. Fails when no sample matches CODE or the share is over
# MAX percent.
corpus_unresolved() {
	awk -v code="$2" -v max="$3" -v label="$4" "$corpus_awk"'
	!sample() { next }
	{
		k = split(s, f, ";")
		for (i = 2; i <= k; i++)
			if (f[i] == "[unknown]" || f[i] == "Interpreter")
				break
		if (i > k)
			next
		bad += n
		why = f[i] " under " f[i - 1]
		cnt[why] += n
		lf[why, leaf(s)] += n
		if (!(why in eg))
			eg[why] = frames(s, i - 4, i + 8)
	}
	END {
		share = all ? 100 * bad / all : 100
		printf "%s: %.2f%% of %d samples in %s with an unnamed frame (at most %s%% wanted)\n", label, share, all, code, max
		reasons()
		exit !(all > 0 && share <= max)
	}' "$1"
}
