# bash completion for mixprof: options, subcommands, and after -p the
# pids of running JVMs (processes with libjvm.so mapped; "PID comm" shown).

_mixprof_jvm_pids()
{
	local d pid
	for d in /proc/[0-9]*; do
		pid=${d#/proc/}
		grep -qs 'libjvm\.so' "$d/maps" 2>/dev/null && echo "$pid"
	done
}

_mixprof()
{
	local cur prev sub
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	sub=${COMP_WORDS[1]:-}

	case $sub in
	attach)
		[ "$COMP_CWORD" -eq 2 ] &&
			COMPREPLY=($(compgen -W "$(_mixprof_jvm_pids)" -- "$cur")) ||
			COMPREPLY=($(compgen -W "--agent --timeout --help help dotted sig lines jitdump dir= inline= stubs= probes=" -- "$cur"))
		return ;;
	flamegraph | heatmap | montage)
		case $cur in
		-*) COMPREPLY=($(compgen -W "--html --reverse --diff --normalize --title --subtitle --width --height --minwidth --countname --colors --inverted --output --help" -- "$cur")) ;;
		*) COMPREPLY=($(compgen -f -- "$cur")) ;;
		esac
		return ;;
	check)
		[ "$prev" = -p ] || [ "$prev" = --pid ] &&
			COMPREPLY=($(compgen -W "$(_mixprof_jvm_pids)" -- "$cur")) ||
			COMPREPLY=($(compgen -W "--pid --verbose --help" -- "$cur"))
		return ;;
	help)
		COMPREPLY=($(compgen -W "attach check flamegraph heatmap montage" -- "$cur"))
		return ;;
	esac

	case $prev in
	-p | --pid)
		COMPREPLY=($(compgen -W "$(_mixprof_jvm_pids)" -- "$cur"))
		return ;;
	-o | --output | --svg | --html | --montage | --heatmap | --events)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--format)
		COMPREPLY=($(compgen -W "folded pprof" -- "$cur"))
		return ;;
	-F | --frequency | -i | --interval | --title | -e | --event | --stack-depth | --bucket-ms | --counts-size | --stack-storage-size)
		return ;;
	esac
	case $cur in
	-*)
		COMPREPLY=($(compgen -W "--pid --frequency --user-stacks-only --kernel-stacks-only --delimited --folded --format --output --interval --per-thread --per-container --stack-storage-size --no-annotate --tiers --lines --agent --no-attach --event --count --verbose --help --version --svg --html --montage --heatmap --title --stack-depth --bucket-ms --counts-size --events --ttsp" -- "$cur")) ;;
	*)
		[ "$COMP_CWORD" -eq 1 ] &&
			COMPREPLY=($(compgen -W "attach check flamegraph heatmap montage help" -- "$cur")) ;;
	esac
}
complete -o default -F _mixprof mixprof
