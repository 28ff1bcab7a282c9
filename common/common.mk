# common/: helpers every subsystem of mixprof uses: safefile (opening what
# others control), procfs (reading another process's /proc), safename
# (names a target controls made safe to write), u64map and strpool
# (tables), cgroup (a process's container), parse_util.h. Included as
# "common/safefile.h" from the repository top, like every header outside its
# own folder, so the owner shows at each include and agent/'s own
# safefile.h (the agent has its own rules) is never picked by mistake.
COMMON_SRCS := common/safefile.c common/u64map.c common/strpool.c \
	common/procfs.c common/pidwatch.c common/safename.c common/stop.c \
	common/cgroup.c
COMMON_OBJS := $(COMMON_SRCS:%.c=$(BUILD)/%.o)
CPPFLAGS_common := $(MIXPROF_CPPFLAGS)

UNIT_TESTS += $(BUILD)/tests/unit/test_common_safefile
$(BUILD)/tests/unit/test_common_safefile: \
		$(BUILD)/tests/unit/test_common_safefile.o $(COMMON_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

UNIT_TESTS += $(BUILD)/tests/unit/test_common_u64map
$(BUILD)/tests/unit/test_common_u64map: \
		$(BUILD)/tests/unit/test_common_u64map.o $(COMMON_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

UNIT_TESTS += $(BUILD)/tests/unit/test_common_procfs
$(BUILD)/tests/unit/test_common_procfs: \
		$(BUILD)/tests/unit/test_common_procfs.o $(COMMON_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

UNIT_TESTS += $(BUILD)/tests/unit/test_common_pidwatch
$(BUILD)/tests/unit/test_common_pidwatch: \
		$(BUILD)/tests/unit/test_common_pidwatch.o $(COMMON_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

UNIT_TESTS += $(BUILD)/tests/unit/test_common_safename
$(BUILD)/tests/unit/test_common_safename: \
		$(BUILD)/tests/unit/test_common_safename.o $(COMMON_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

UNIT_TESTS += $(BUILD)/tests/unit/test_common_stop
$(BUILD)/tests/unit/test_common_stop: \
		$(BUILD)/tests/unit/test_common_stop.o $(COMMON_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^

UNIT_TESTS += $(BUILD)/tests/unit/test_common_cgroup
$(BUILD)/tests/unit/test_common_cgroup: \
		$(BUILD)/tests/unit/test_common_cgroup.o $(COMMON_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^
