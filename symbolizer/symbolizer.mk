# The symbolizer: SYMBOLIZER_OBJS and SYMBOLIZER_LIBS, linked into mixprof;
# its unit tests, the ELF fixtures they read, a fuzz target and a bench.
SYM_SRCS := symtab demangle kallsyms jitline jitmap procmaps \
	elf_syms debuginfo elf_cache process symbolizer kernel
SYMBOLIZER_OBJS := $(SYM_SRCS:%=$(BUILD)/symbolizer/%.o) $(COMMON_OBJS)
SYMBOLIZER_LIBS := -lelf -lz -lstdc++
CPPFLAGS_symbolizer := $(MIXPROF_CPPFLAGS)

# ELF test cases, built from tests/fixtures/symbolizer/elf/*.c into
# $(BUILD)/tests/fixtures/symbolizer (SYM_FIX): PIE, non-PIE, a shared
# library, C++, a stripped copy with .gnu_debuglink beside its debug file,
# and a stripped copy whose debug file sits in a fake build-id tree.
SYM_FIX := $(BUILD)/tests/fixtures/symbolizer
SYM_FIX_SRC := tests/fixtures/symbolizer/elf
SYM_ELF_FIXTURES := $(SYM_FIX)/pie $(SYM_FIX)/nopie $(SYM_FIX)/libshared.so \
	$(SYM_FIX)/cxx $(SYM_FIX)/linked $(SYM_FIX)/byid

$(SYM_FIX)/pie: $(SYM_FIX_SRC)/prog.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -O1 -g -fPIE -pie -Wl,--build-id -o $@ $<
$(SYM_FIX)/nopie: $(SYM_FIX_SRC)/prog.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -O1 -g -fno-pie -no-pie -Wl,--build-id -o $@ $<
$(SYM_FIX)/libshared.so: $(SYM_FIX_SRC)/shared.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -O1 -g -fPIC -shared -Wl,--build-id -o $@ $<
$(SYM_FIX)/cxx: $(SYM_FIX_SRC)/cxx.cc
	$(call msg,CXX,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CXX) -O1 -g -fPIE -pie -o $@ $<
# stripped, with .gnu_debuglink naming linked.debug in the same directory
$(SYM_FIX)/linked: $(SYM_FIX)/pie
	$(call msg,STRIP,$@)
	$(Q)objcopy --only-keep-debug $< $@.debug
	$(Q)objcopy --strip-all --add-gnu-debuglink=$@.debug $< $@
# stripped, no debuglink; debug file at debug/.build-id/xx/yyyy.debug
$(SYM_FIX)/byid: $(SYM_FIX_SRC)/prog.c
	$(call msg,STRIP,$@)
	$(Q)$(CC) -O1 -g -fPIE -pie -Wl,--build-id -DVARIANT=2 -o $@.full $<
	$(Q)id=$$(readelf -n $@.full | sed -n 's/.*Build ID: *//p'); \
	d=$(SYM_FIX)/debug/.build-id/$$(echo $$id | cut -c1-2); mkdir -p $$d; \
	objcopy --only-keep-debug $@.full $$d/$$(echo $$id | cut -c3-).debug
	$(Q)objcopy --strip-all $@.full $@

SYM_TESTS := $(patsubst tests/unit/test_sym_%.c,%,$(wildcard tests/unit/test_sym_*.c))
SYM_TEST_BINS := $(SYM_TESTS:%=$(BUILD)/tests/unit/test_sym_%)
UNIT_TESTS += $(SYM_TEST_BINS)

$(SYM_TEST_BINS): $(BUILD)/tests/unit/test_sym_%: $(BUILD)/tests/unit/test_sym_%.o \
		$(SYMBOLIZER_OBJS) | $(SYM_ELF_FIXTURES)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(SYMBOLIZER_LIBS)

# bench: resolve a million addresses of a live process, print frames/s
BINS += $(BUILD)/bench/sym_bench
$(BUILD)/bench/sym_bench: $(BUILD)/bench/sym_bench.o $(SYMBOLIZER_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(SYMBOLIZER_LIBS)
CPPFLAGS_bench := $(MIXPROF_CPPFLAGS)

# libFuzzer target (clang): make sym-fuzz; not part of build or test.
# Run: $(BUILD)/symbolizer/fuzz_parsers -max_total_time=60
.PHONY: sym-fuzz
sym-fuzz: $(BUILD)/symbolizer/fuzz_parsers
$(BUILD)/symbolizer/fuzz_parsers: symbolizer/fuzz/parsers.c $(SYM_SRCS:%=symbolizer/%.c) \
		$(JVM_SRCS:%=jvm/%.c) $(COMMON_SRCS)
	$(call msg,FUZZ,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) -g -O1 -std=gnu11 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined \
		-I. -o $@ $^ $(SYMBOLIZER_LIBS)

