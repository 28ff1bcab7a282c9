#!/usr/bin/env bash
# Every function a README or a comment names exists: a NAME() in a
# Markdown file or a C comment is a function or macro of the code of the
# same folder, of any header (another module's API), or a name listed in
# tests/lib/external_names; a module__verb name anywhere is a name in the
# code (a libbpf skeleton's NAME_bpf__* types are made by the build).
# For docs/ and the top README, any of the code will do. A file they name
# by its path from the top ("stacks/fold.c") is in the tree. Names that
# went stale (a callback renamed, a function removed, a file moved) fail
# here, not in a reader's head. Needs no root and no build.
. "$(dirname "$0")/../lib/common.sh"

cd "$TOP"
ident='[A-Za-z_][A-Za-z0-9_]*'
# The code without its comments (strings stay: USDT probe names are
# strings), each file after a line "\001 FOLDER[ headers]": one perl for
# all files (a process per file took a minute on a loaded machine).
git ls-files -z -- '*.c' '*.h' '*.java' '*.js' '*.sh' '*.bash' '*.mk' Makefile |
	perl -0 -ne 'chomp; my $f = $_; open(my $h, "<", $f) or next;
		local $/; my $t = <$h>; close $h;
		my $d = $f =~ m{^([^/]+)/} ? $1 : "top";
		$d .= " headers" if $f =~ /\.h$/;
		if ($f =~ /\.(c|h|java|js)$/) {
			$t =~ s{/\*.*?\*/|//[^\n]*|("(?:\\.|[^"\\\n])*"|\x27(?:\\.|[^\x27\\\n])*\x27)}
			       {defined $1 ? $1 : (substr($&, 0, 2) eq "/*" ? "\n" x ($& =~ tr/\n//) : "")}gse;
		} else {
			$t =~ s/#[^\n]*//g;
		}
		print "\001 $d\n$t\n";' |
	awk -v id="$ident" '
	# "FOLDER NAME" for each NAME( (a call, a definition, a macro, a
	# member pointer (*NAME)(, a shell function), "all NAME" for each name
	/^\001 / { d = substr($0, 3); next }
	{
		line = $0
		while (match(line, "\\(\\*" id "\\)[ \t]*[(]|" id "[ \t]*[(]|^[ \t]*" id "|" id)) {
			t = substr(line, RSTART, RLENGTH)
			line = substr(line, RSTART + RLENGTH)
			call = t ~ /[(]$/ || t ~ /^[ \t]/
			gsub(/[()* \t]/, "", t)
			print "all", t
			if (call) { n = split(d, ds, " "); for (i = 1; i <= n; i++) print ds[i], t }
		}
	}' | sort -u >"$TMPD/names"
grep -v '^#' "$TOP/tests/lib/external_names" | sed 's/^/external /' >>"$TMPD/names"
[ "$(grep -c '^headers ' "$TMPD/names")" -gt 500 ] || die "too few names read from the code"

git ls-files -z -- '*.md' '*.c' '*.h' |
	xargs -0 grep -HnoE "\\b$ident\\(\\)|\\b[a-z][a-z0-9_]*[a-z0-9]__[a-z0-9_]*[a-z0-9]\\b" |
	awk -F: '
	FILENAME == ARGV[1] { split($0, w, " "); have[w[1], w[2]] = 1; next }
	{
		f = $1; ln = $2; name = $3
		d = f; sub(/\/.*/, "", d); if (d == f) d = "top"
		if (name ~ /\(\)$/) {
			n = substr(name, 1, length(name) - 2)
			if (f ~ /^docs\// || f == "README.md") ok = have["all", n]
			else ok = have[d, n] || have["headers", n]
			ok = ok || have["external", n]
		} else
			ok = have["all", name] || have["external", name] || name ~ /_bpf__/
		if (!ok) { printf "%s:%s: names %s, which is nowhere in the code\n", f, ln, name; bad = 1 }
	}
	END { exit bad }' "$TMPD/names" - ||
	die "comments or READMEs name functions that do not exist"

# Every file they name by its path from the top ("stacks/fold.c",
# "output/sliceout.[ch]") exists, so a file moved or renamed leaves no
# stale path behind. Files the build makes (BPF skeletons, vmlinux.h,
# version.h) are not in the tree.
tops=$(git ls-files | sed -n 's|/.*||p' | sort -u | paste -sd'|')
git ls-files -z -- '*.md' '*.c' '*.h' '*.sh' '*.mk' Makefile |
	xargs -0 grep -HnoE "(^|[^A-Za-z0-9_./-])($tops)/[A-Za-z0-9_./-]*\.(\[ch\]|(c|h|md|sh|mk|java|js|css|S)\b)" |
	sed -E 's/^([^:]*):([0-9]+):[^A-Za-z.]?/\1 \2 /' |
	grep -vE ' [^ ]*(\.skel\.h|/vmlinux\.h|/version\.h)$' >"$TMPD/paths" || true
[ "$(wc -l <"$TMPD/paths")" -gt 300 ] || die "too few paths read from the docs"
bad=0
while read -r f ln path; do
	case $path in
	*'.[ch]') [ -e "${path%'[ch]'}c" ] || [ -e "${path%'[ch]'}h" ] ;;
	*) [ -e "$path" ] ;;
	esac || { echo "$f:$ln: names $path, which is not in the tree"; bad=1; }
done <"$TMPD/paths"
[ $bad = 0 ] || die "comments or READMEs name files that do not exist"

# What a header declares is <module>__<verb> (the README's rule): the
# agent (its own jmap_ names, built apart), the tests, the BPF side and
# the fuzz harness aside.
git ls-files -- '*.h' | grep -vE '^(agent|tests)/|\.bpf\.h$|/sampler_abi\.h$|/fuzz/' |
	xargs grep -HnoE '^(static inline )?[a-z][a-z0-9_ *]*[ *][a-z_][a-z0-9_]*\(' |
	sed -E 's/^([^:]*:[0-9]+):.*[ *]([a-z_][a-z0-9_]*)\($/\1: \2/' |
	grep -v '__' >"$TMPD/flat" && {
	sed 's/$/ is not <module>__<verb>/' "$TMPD/flat"
	die "headers declare functions outside the naming rule"
}
echo ok
