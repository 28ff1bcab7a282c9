/*
 * phases.h: the phases of a sample that a BPF_PHASES=1 build times (an
 * opt-in measurement: this machine's kind has no PMU that perf could
 * sample the BPF program with, and bpf_stats gives only its whole run
 * time). Shared by the BPF side (phases.bpf.h, which adds the time of
 * each phase to the per-CPU `phases` array) and user space
 * (sampler__phases, printed by -v). Fixed-width types only, no
 * includes, as sampler_abi.h.
 *
 * Each phase is a row: its enum value and the name -v prints. Frame
 * steps (F_*) add up to the walk; the rows under them (find_blob...)
 * are parts of those steps, timed again on their own. A timing costs
 * two clock reads (PH_CLOCK: what a pair costs, to take off).
 */
#ifndef MIXPROF_PHASES_H
#define MIXPROF_PHASES_H

#define PHASES(X)                                                              \
	X(PH_SAMPLE, "sample (a target's, whole program)")                     \
	X(PH_CLOCK, "two clock reads (the timer's own cost)")                  \
	X(PH_KEY_HEAD, "key head (bucket, comm)")                              \
	X(PH_REGS, "user registers")                                           \
	X(PH_WALK_SETUP, "walk setup (record, unwind table)")                  \
	X(PH_WALK, "walk (bpf_loop of steps)")                                 \
	X(PH_F_INTERP, "  step: interpreted")                                  \
	X(PH_F_COMPILED, "  step: compiled (blob with a frame size)")          \
	X(PH_F_STUB, "  step: stub (blob without a frame size)")               \
	X(PH_F_ROWS, "  step: native by rows")                                 \
	X(PH_F_FP, "  step: native by frame pointer")                          \
	X(PH_F_ANCHOR, "  step: native, resumed at the anchor")                \
	X(PH_F_CHUNK, "  step: virtual thread chunk")                          \
	X(PH_F_OTHER, "  step: other (pending, no blob)")                      \
	X(PH_FIND_BLOB, "    find_blob (segment map)")                         \
	X(PH_BLOB_MEMO, "    read_blob, this CPU's memo")                      \
	X(PH_BLOB_HIT, "    read_blob, blob_facts hit")                        \
	X(PH_BLOB_MISS, "    read_blob, blob_facts miss")                      \
	X(PH_NM_HIT, "    read_nm, named fact")                                \
	X(PH_NM_MISS, "    read_nm, read")                                     \
	X(PH_NAMES_MEMO, "    read_names, this walk's")                        \
	X(PH_NAMES_KNOWN, "    read_names, known (same epoch)")                \
	X(PH_NAMES_READ, "    read_names, read")                               \
	X(PH_LEAF_EDGE, "    leaf_edge (leaf only)")                           \
	X(PH_ROWS, "    rows_step")                                            \
	X(PH_ANCHOR_READ, "    anchor read")                                   \
	X(PH_WIN_COPY, "    stack page copied")                                \
	X(PH_ROWS_MAP, "      rows: mapping and file state")                   \
	X(PH_ROWS_FP, "      rows: frame-record bitmap")                       \
	X(PH_ROWS_MEMO, "      rows: row from the memo")                       \
	X(PH_ROWS_FIND, "      rows: row found (page, search)")                \
	X(PH_LIST_CHUNK, "    interp chunk stored")                            \
	X(PH_STORE_USER, "user stack stored (all)")                            \
	X(PH_HASH, "  hash (and clear)")                                       \
	X(PH_STACK_KNOWN, "  stack map lookup, known")                         \
	X(PH_STACK_NEW, "  stack new, for the sample's record")                \
	X(PH_STACK_RING, "  stack ring record")                                \
	X(PH_INTERP_KNOWN, "interp list, known")                               \
	X(PH_INTERP_NEW, "interp list, new")                                   \
	X(PH_KSTACK, "kernel stack (take and store)")                          \
	X(PH_COUNT_HIT, "counts map add, key there")                           \
	X(PH_COUNT_NEW, "counts map add, key new (insert)")                    \
	X(PH_REC, "sample record (reserve, writes, submit)")

#define PHASE_ENUM(e, s) e,
enum phase { PHASES(PHASE_ENUM) PH_NR };
#undef PHASE_ENUM

/* one phase on one CPU: time spent and times entered */
struct phase_stat {
	__u64 ns, n;
};

#endif
