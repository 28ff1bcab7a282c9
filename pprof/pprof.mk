# pprof: folded lines to and from profile.proto, linked into mixprof; its
# unit test.
CPPFLAGS_pprof := $(MIXPROF_CPPFLAGS)
PPROF_OBJS := $(BUILD)/pprof/pbuf.o $(BUILD)/pprof/pprof_write.o \
	$(BUILD)/pprof/pprof_read.o
MIXPROF_OBJS += $(PPROF_OBJS)

UNIT_TESTS += $(BUILD)/tests/unit/test_pprof
$(BUILD)/tests/unit/test_pprof: $(BUILD)/tests/unit/test_pprof.o \
		$(PPROF_OBJS) $(FOLD_OBJS) $(COMMON_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ -lz
.SECONDARY: $(BUILD)/tests/unit/test_pprof.o
