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
