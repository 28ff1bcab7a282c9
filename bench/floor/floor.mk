# bench/floor/: the floor instrument (floor.h), built by make beside the
# other bench tools, run by bench/walkcost.sh (make bench):
#   floor.bpf.c -> $(BPF_BUILD)/bench/floor/floor.bpf.o -> floor.skel.h
#   floor.c     -> $(BUILD)/bench/floor_bench
FLOOR_SKEL := $(BPF_BUILD)/bench/floor/floor.skel.h

$(BPF_BUILD)/bench/floor/floor.bpf.o: bench/floor/floor.bpf.c bench/floor/floor.h
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(PROF_BPF_CFLAGS) -c $< -o $@

$(FLOOR_SKEL): $(BPF_BUILD)/bench/floor/floor.bpf.o
	$(call msg,SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< > $@.tmp
	$(Q)mv $@.tmp $@

$(BUILD)/bench/floor/floor.o: $(FLOOR_SKEL)

BINS += $(BUILD)/bench/floor_bench
$(BUILD)/bench/floor_bench: $(BUILD)/bench/floor/floor.o
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ -lbpf -lelf -lz
