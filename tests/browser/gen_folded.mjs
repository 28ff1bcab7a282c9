// node gen_folded.mjs LINES [SEED]: a deterministic Java-like folded
// profile of LINES distinct stacks (JIT, inlined, interpreted, C++,
// kernel frames), for size and speed tests. No npm modules.
const lines = Number(process.argv[2] || 100000);
let seed = Number(process.argv[3] || 1) >>> 0 || 1;
// xorshift32: exact in 32-bit integer arithmetic, so runs are repeatable.
function rnd(n) {
	seed ^= seed << 13;
	seed >>>= 0;
	seed ^= seed >>> 17;
	seed ^= seed << 5;
	seed >>>= 0;
	return seed % n;
}
const pkgs = ["com/acme/shop", "org/apache/kafka", "io/netty/buffer",
	"java/util", "jdk/internal/misc", "com/acme/db"];
const cls = ["Order", "Cart", "Codec", "HashMap", "Pool", "Parser",
	"Channel", "Index", "Cache", "Router"];
const meth = ["get", "put", "read", "write", "parse", "encode", "run",
	"apply", "hash", "resize", "scan", "flush"];
const cpp = ["G1ParTask::work", "Compile::Compile",
	"SharedRuntime::resolve", "ObjectMonitor::enter",
	"InterpreterRuntime::frequency_counter_overflow"];
const kern = ["entry_SYSCALL_64_[k]", "do_syscall_64_[k]",
	"__x64_sys_futex_[k]", "do_futex_[k]", "schedule_[k]"];
const out = [];
const seen = new Set();
while (out.length < lines) {
	const fr = ["java", "start_thread", "thread_native_entry",
		"JavaThread::run", "JavaMain"];
	const depth = 4 + rnd(22);
	for (let i = 0; i < depth; i++) {
		const k = rnd(20);
		const m = pkgs[rnd(pkgs.length)] + "/" + cls[rnd(cls.length)] +
			"." + meth[rnd(meth.length)];
		if (k < 12) fr.push(m + "_[j]");
		else if (k < 16) fr.push(m + "_[i]");
		else if (k < 18) fr.push(m);
		else fr.push(cpp[rnd(cpp.length)]);
	}
	if (rnd(5) === 0) fr.push(...kern.slice(0, 1 + rnd(kern.length)));
	const s = fr.join(";");
	if (seen.has(s)) continue;
	seen.add(s);
	out.push(s + " " + (1 + rnd(50)));
}
process.stdout.write(out.join("\n") + "\n");
