# mixprof: one make for the agent, the profiler, the samples and the tests.
# Everything is built out of tree in $(BUILD); quiet unless V=1.
#
#   make          build everything (installs missing Debian packages as root)
#   make test     unit + integration tests (real JVM, real BPF), then
#                 make test-asan's tests (its build runs beside the suite)
#   make test-asan  unit tests and a few integration tests against mixprof
#                 and the unit tests rebuilt with ASan+UBSan into
#                 $(ASAN_BUILD) (the rest from the normal build)
#   make demo     profile the warmup sample from launch
#   make bench    cost measurements against the alternatives
#   make soak     mixprof's RSS over SOAK_SECONDS (600) of churn: host-wide
#                 at 499 Hz with -i 60 (bench/soak_host.sh), then -p of a
#                 class-churning JVM beside a host-wide run (bench/soak.sh);
#                 SOAK=soak_host runs one
#   make test-kernels  boot Debian's 6.1 and backports kernels under qemu
#                 and profile a C program and JVMs in each (slow: not
#                 part of make test; see tests/kernels/README.md)
#   make format   clang-format the C sources
#   make install  PREFIX=/usr/local DESTDIR=: binary, agent, man pages,
#                 bash completion (make uninstall removes them)

BUILD ?= build
SOAK ?= soak_host soak
ABS_BUILD := $(abspath $(BUILD))
CC ?= gcc
CLANG ?= clang
BPFTOOL ?= bpftool
CFLAGS ?= -O2 -g
# what the code needs, kept when CFLAGS is given on the command line
override CFLAGS += -Wall -Wextra -Wno-unused-parameter -std=gnu11 -D_GNU_SOURCE
LDFLAGS ?=
# sanitizer flags for everything but the agent (a JVM cannot load a library
# built with ASan: the ASan runtime must come first); see test-asan
SAN_FLAGS ?=
ASAN_BUILD ?= build-asan

ifeq ($(V),1)
Q =
msg =
else
Q = @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

# The JDK whose headers we build against: JAVA_HOME if set, else javac's.
JAVAC ?= $(shell command -v javac 2>/dev/null)
JAVA_HOME ?= $(patsubst %/bin/javac,%,$(realpath $(JAVAC)))
# javac's own JVM: a build's compiles are over before C2 would pay off;
# with C1 alone they take half the CPU (the samples: 7.0 s -> 3.2 s) for
# the very same class files
JAVAC_JVM ?= -J-XX:TieredStopAtLevel=1
JNI_CFLAGS := -I$(JAVA_HOME)/include -I$(JAVA_HOME)/include/linux

# Every part but the agent includes headers by their owner's folder from
# the repository top ("sampler/sampler_abi.h"), and generated headers from
# the build tree ("sampler/sampler.skel.h").
# BPF objects and their skeletons are built into BPF_BUILD: BUILD, but for
# the ASan build (test-asan), which takes the normal build's.
BPF_BUILD ?= $(BUILD)
MIXPROF_CPPFLAGS := -I. -I$(BPF_BUILD) -I$(BUILD) $(JNI_CFLAGS)

UNIT_TESTS :=
BINS :=

.DEFAULT_GOAL := all
.PHONY: all build deps test test-asan test-kernels demo bench soak format \
	clean

all: deps
	$(Q)$(MAKE) --no-print-directory build

deps:
	$(Q)scripts/deps.sh

include common/common.mk
include agent/agent.mk
include jvm/jvm.mk
include symbolizer/symbolizer.mk
include bench/floor/floor.mk
include unwind/unwind.mk
include profiler/profiler.mk
include samples/samples.mk
include tests/tests.mk

build: $(BINS) samples $(UNIT_TESTS)

# What test-asan runs, built in whatever BUILD is given: mixprof and the
# unit tests (see ASAN_MAKE).
.PHONY: asan-build
asan-build: $(BUILD)/mixprof $(UNIT_TESTS)

# make test builds on all CPUs even when called without -j (CI does):
# a whole build from a fresh clone is minutes of it on one. The ASan
# build (test-asan) runs beside the suite at the lowest priority: it
# takes the CPU the tests leave idle (most of a test's time is a JVM or
# a profile running for a set time), not theirs; its tests run after.
BUILD_JOBS ?= $(shell nproc)
test: deps
	$(Q)$(MAKE) --no-print-directory -j$(BUILD_JOBS) build
	$(Q)$(ASAN_LINKS); \
	(nice -n 19 $(ASAN_MAKE) >$(ASAN_BUILD)/build.log 2>&1; \
	 echo $$? >$(ASAN_BUILD)/build.status) & \
	BUILD=$(ABS_BUILD) tests/run; st=$$?; wait; \
	[ "$$(cat $(ASAN_BUILD)/build.status)" = 0 ] || \
		{ cat $(ASAN_BUILD)/build.log; echo "make test: the ASan build failed"; exit 1; }; \
	[ $$st = 0 ] && $(ASAN_RUN)

# Memory errors and undefined behaviour: the unit tests and the short
# integration tests named in ASAN_TESTS, against an ASan+UBSan build. Any
# report fails the test (halt_on_error; leaks are reported too).
ASAN_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
ASAN_TESTS ?= unit/ integration/profile_slices integration/render_svg
# Only the C those tests run is rebuilt with the sanitizers: mixprof and
# the unit tests (asan-build). The rest comes from the normal build, which
# must be there: the BPF objects and skeletons (BPF_BUILD: the sanitizers
# do not reach BPF), and through links in $(ASAN_BUILD) the Java samples
# and the test fixtures (class files and ELF files built without
# CFLAGS or SAN_FLAGS, so the same in both builds). A directory left where
# a link goes (an older ASan build made its own) is removed first.
ASAN_LINKS = mkdir -p $(ASAN_BUILD)/tests && \
	for d in samples tests/fixtures; do \
		[ -L $(ASAN_BUILD)/$$d ] || rm -rf $(ASAN_BUILD)/$$d; \
		ln -sfn $(ABS_BUILD)/$$d $(ASAN_BUILD)/$$d || exit 1; \
	done
# On all CPUs even under a plain "make test". -g1: the line tables and
# functions a report's stack names (file:line), not the local variables
# no report shows; a fifth less compile time.
ASAN_JOBS ?= $(BUILD_JOBS)
ASAN_MAKE = $(MAKE) --no-print-directory -j$(ASAN_JOBS) BUILD=$(ASAN_BUILD) \
	BPF_BUILD=$(ABS_BUILD) CFLAGS='-O1 -g1' SAN_FLAGS='$(ASAN_SAN)' \
	LDFLAGS='$(ASAN_SAN)' asan-build
ASAN_RUN = BUILD=$(abspath $(ASAN_BUILD)) \
	ASAN_OPTIONS=halt_on_error=1:abort_on_error=0:detect_leaks=1 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	tests/run $(ASAN_TESTS)
test-asan: deps
	$(Q)$(MAKE) --no-print-directory -j$(BUILD_JOBS) build
	$(Q)$(ASAN_LINKS)
	$(Q)$(ASAN_MAKE)
	$(Q)$(ASAN_RUN)

# Each kernel's verifier and the profiles inside its guest; the images
# and kernels are kept in $(BUILD)/kernels, so a second run only boots.
test-kernels: deps
	$(Q)$(MAKE) --no-print-directory -j$(BUILD_JOBS) build
	$(Q)BUILD=$(ABS_BUILD) tests/kernels/run.sh

demo: deps
	$(Q)$(MAKE) --no-print-directory build
	$(Q)BUILD=$(ABS_BUILD) scripts/demo.sh

bench: deps
	$(Q)$(MAKE) --no-print-directory build
	$(Q)BUILD=$(ABS_BUILD) bench/run

soak: deps
	$(Q)$(MAKE) --no-print-directory build
	$(Q)for s in $(SOAK); do BUILD=$(ABS_BUILD) bench/$$s.sh || exit; done

format:
	$(Q)clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	$(Q)rm -rf $(BUILD)

$(BUILD)/%.o: %.c
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(if $(filter agent/%,$<),,$(SAN_FLAGS)) \
		$(CPPFLAGS_$(firstword $(subst /, ,$<))) -MMD -MP -c $< -o $@

# (not in make test-kernels' guest root: its /etc/*.d are directories)
-include $(shell find $(BUILD) -path $(BUILD)/kernels -prune -o \
	-name '*.d' -type f -print 2>/dev/null)

# make install [PREFIX=/usr/local] [DESTDIR=]: the binary, the agent where
# mixprof looks for it (../lib/mixprof beside bin/), man pages, bash
# completion. make uninstall removes exactly those.
PREFIX ?= /usr/local
INSTALL_FILES := bin/mixprof lib/mixprof/libjmap.so \
	share/man/man1/mixprof.1 share/man/man1/mixprof-flamegraph.1 \
	share/man/man1/mixprof-montage.1 share/man/man1/mixprof-heatmap.1 \
	share/man/man1/mixprof-attach.1 share/man/man1/mixprof-check.1 \
	share/bash-completion/completions/mixprof
.PHONY: install uninstall
install: $(BUILD)/mixprof $(BUILD)/libjmap.so
	$(call msg,INSTALL,$(DESTDIR)$(PREFIX))
	$(Q)install -D -m 755 $(BUILD)/mixprof $(DESTDIR)$(PREFIX)/bin/mixprof
	$(Q)install -D -m 644 $(BUILD)/libjmap.so \
		$(DESTDIR)$(PREFIX)/lib/mixprof/libjmap.so
	$(Q)for m in docs/*.1; do \
		install -D -m 644 $$m $(DESTDIR)$(PREFIX)/share/man/man1/$$(basename $$m) || exit 1; \
	done
	$(Q)install -D -m 644 dist/mixprof.bash \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/mixprof
uninstall:
	$(call msg,UNINST,$(DESTDIR)$(PREFIX))
	$(Q)for f in $(INSTALL_FILES); do rm -f $(DESTDIR)$(PREFIX)/$$f; done
	$(Q)rmdir $(DESTDIR)$(PREFIX)/lib/mixprof 2>/dev/null || true
