// node fixtures.mjs DIR: write the renderer test inputs into DIR (no npm
// modules). Small hand-written profiles in each folded dialect, a diff
// pair, a montage slices directory and a timed-samples file.
import { writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2];
mkdirSync(dir, { recursive: true });
const put = (name, text) => writeFileSync(join(dir, name), text);

// mixprof's own output: comm first, frames annotated.
put("mixprof.folded", [
	"java;start_thread;thread_native_entry;JavaThread::run;JavaMain;java/lang/Thread.run_[j];com/acme/App.main_[j];com/acme/App.work_[j];com/acme/App.hash_[i] 50",
	"java;start_thread;thread_native_entry;JavaThread::run;JavaMain;java/lang/Thread.run_[j];com/acme/App.main_[j];com/acme/App.work_[j] 20",
	"java;start_thread;thread_native_entry;JavaThread::run;JavaMain;java/lang/Thread.run_[j];com/acme/App.main_[j];Interpreter_[j] 5",
	"java;start_thread;thread_native_entry;JavaThread::run;JavaMain;java/lang/Thread.run_[j];com/acme/App.main_[j];write;entry_SYSCALL_64_[k];do_syscall_64_[k];ksys_write_[k] 10",
	"java;start_thread;GCTaskThread::run;G1ParTask::work;G1ParScanThreadState::trim_queue 15",
	"C2 CompilerThre;start_thread;CompileBroker::compiler_thread_loop;C2Compiler::compile_method;Compile::Compile 30",
	"java;[unknown];-;memcpy 3",
	""].join("\n"));
// async-profiler collapsed: no comm, package names with dots or slashes.
put("asprof.folded", [
	"java/lang/Thread.run;com/acme/App.main;com/acme/App.work 40",
	"java/lang/Thread.run;com/acme/App.main;java/util/HashMap.get 7",
	"start_thread;thread_native_entry;JavaThread::run;VMThread::run 4",
	""].join("\n"));
// bcc profile -f: "comm;frames count", kernel frames unannotated.
put("bcc.folded", [
	"java;__libc_start_call_main;JavaMain;jni_CallStaticVoidMethod 12",
	"swapper/0;secondary_startup_64;cpu_startup_entry;do_idle 33",
	""].join("\n"));
// stackcollapse-perf.pl: spaces in frames, odd lines to skip.
put("perf.folded", [
	"perf-1234.map 2",
	"java;Interpreter;[libjvm.so];libc.so.6 memcpy 6",
	"java;Lcom/acme/App;::run;a b c 1",
	"this line has no count",
	"java;x 12zz",
	"  ",
	"java;tab frame\t8",
	""].join("\n"));
// A diff pair: work grows, hash shrinks, idle unchanged.
put("before.folded", [
	"java;main_[j];work_[j] 10",
	"java;main_[j];hash_[j] 40",
	"java;idle 20",
	""].join("\n"));
put("after.folded", [
	"java;main_[j];work_[j] 50",
	"java;main_[j];hash_[j] 10",
	"java;idle 20",
	""].join("\n"));

// A montage: three 30 s slices (the last partial) and one 0-sample slice.
const sd = join(dir, "slices");
mkdirSync(sd, { recursive: true });
const t0 = 5000000000;
const slices = [
	["java;main_[j];Interpreter_[j] 90", "java;C2 Compiler;Compile::Compile 60"],
	["java;main_[j];work_[j] 120", "java;C2 Compiler;Compile::Compile 20"],
	["java;main_[j];work_[j];hash_[i] 80", "java;main_[j];work_[j] 10"],
];
let tsv = "# index\tstart_ns\tend_ns\tsamples\tfile\tpartial\n";
slices.forEach((lines, i) => {
	const f = `slice-${String(i).padStart(4, "0")}.folded`;
	writeFileSync(join(sd, f), lines.join("\n") + "\n");
	const s = t0 + i * 30e9, e = i === 2 ? s + 12.5e9 : s + 30e9;
	const n = lines.reduce((a, l) => a + Number(l.split(" ").pop()), 0);
	tsv += `${i}\t${s}\t${e}\t${n}\t${f}\t${i === 2 ? 1 : 0}\n`;
});
writeFileSync(join(sd, "slices.tsv"), tsv);

// Timed samples: 4 s; a busy burst at 1.2-1.3 s and a GC at 2.5 s.
let timed = "# mixprof-timed v1 bucket_ms=10 start_ns=" + t0 + "\n";
for (let ms = 0; ms < 4000; ms += 10) {
	timed += `${ms} java;main_[j];work_[j] ${1 + (ms / 10) % 3}\n`;
	if (ms >= 1200 && ms < 1300)
		timed += `${ms} java;main_[j];work_[j];hash_[i] 9\n`;
	if (ms >= 2500 && ms < 2540)
		timed += `${ms} java;GCTaskThread::run;G1ParTask::work 7\n`;
}
put("timed.txt", timed);
