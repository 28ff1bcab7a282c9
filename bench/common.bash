# Sourced by bench scripts (not a bench: bench/run runs *.sh): shared helpers.

# prog_stats PID: "run_time_ns run_cnt" of the sampler program PID holds
# (found through its fds' fdinfo: this bpftool lists no owner pids)
prog_stats() {
	local id
	for id in $(grep -hs '^prog_id:' /proc/"$1"/fdinfo/* | awk '{print $2}' | sort -u); do
		bpftool prog show id "$id" -j 2>/dev/null | jq -r '
			select(.name == "mixprof_sample") |
			"\(.run_time_ns // 0) \(.run_cnt // 0)"'
	done | head -n 1
}

# bench_start: a scratch directory in $tmp, kernel.bpf_stats_enabled on
# for the run; at exit the processes in $load (one pid or a list) and in
# pids[] are killed, the setting restored and $tmp removed.
bench_start() {
	tmp=$(mktemp -d /tmp/mixprof-bench.XXXXXX)
	old_stats=$(sysctl -n kernel.bpf_stats_enabled)
	load=
	pids=()
	trap bench_cleanup EXIT
	sysctl -qw kernel.bpf_stats_enabled=1
}

bench_cleanup() {
	local p
	for p in $load "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	sysctl -qw kernel.bpf_stats_enabled="$old_stats"
	rm -rf "$tmp"
}

# soak_start: the soak scripts' scratch directory in $tmp; at exit the
# processes in pids[] are killed and $tmp removed.
soak_start() {
	tmp=$(mktemp -d /tmp/mixprof-soak.XXXXXX)
	pids=()
	trap soak_cleanup EXIT
}

soak_cleanup() {
	local p
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	wait 2>/dev/null || true
	rm -rf "$tmp"
}

rss_mb() { # pid field: VmRSS or RssAnon in MB, or "-" once it is gone
	awk -v k="$2:" '$1 == k { printf "%.1f", $2 / 1024; f = 1 }
		END { if (!f) printf "-" }' "/proc/$1/status" 2>/dev/null ||
		printf -- -
}

# child_of PID: the pid of PID's child (a command under timeout), waiting
# up to 10 s for it on a loaded host; fails if none came
child_of() {
	local c
	for _ in $(seq 100); do
		c=$(pgrep -P "$1") && { echo "$c"; return 0; }
		sleep 0.1
	done
	return 1
}
