# SPDX-License-Identifier: GPL-2.0-or-later
#
# tperf build.  `make` builds ./tperf; `make O=DIR` builds out of tree (the
# binary is then DIR/tperf).  See README.md for the targets.

VERSION := 0.1.0
PREFIX  ?= /usr/local
CC      ?= cc
O       ?= .
OUT     := $(patsubst %/,%,$(O))

# Required and optional libraries: pkg-config name -> Debian package.
REQUIRED := libtraceevent:libtraceevent-dev libtracefs:libtracefs-dev \
	    libdw:libdw-dev libelf:libelf-dev zlib:zlib1g-dev libzstd:libzstd-dev \
	    capstone:libcapstone-dev
OPTIONAL := libunwind:libunwind-dev babeltrace-ctf:libbabeltrace-ctf-dev \
	    libprotobuf-c:libprotobuf-c-dev \
	    libdeflate:libdeflate-dev

# The check runs while this file is read, so it is left to the sub-make of
# the targets that install the packages first (check, check-full, demo):
# their recipes run install-deps, then `$(MAKE) all`, which checks.
NO_LIB_CHECK := clean distclean install-deps check check-full demo
ifeq ($(filter $(NO_LIB_CHECK),$(MAKECMDGOALS)),)
  $(foreach r,$(REQUIRED),$(if $(shell pkg-config --exists $(word 1,$(subst :, ,$(r))) && echo y),,\
    $(error missing library $(word 1,$(subst :, ,$(r))): install the Debian package $(word 2,$(subst :, ,$(r))) (or run scripts/install-deps.sh))))
endif

# capstone (probe offsets on instruction boundaries, util/symbol/insn.c) is
# dlopen()ed when first needed: only its header is used to build, because
# linking it costs every start of tperf its relocations, about as long as
# the rest of the start-up (a static archive in a PIE binary included).
PKGS := $(filter-out capstone,$(foreach r,$(REQUIRED),$(word 1,$(subst :, ,$(r)))))
HAVE_LIBUNWIND := $(shell pkg-config --exists libunwind libunwind-generic 2>/dev/null && echo 1)
HAVE_BABELTRACE := $(shell pkg-config --exists babeltrace-ctf 2>/dev/null && echo 1)
# libiberty (Debian libiberty-dev, no pkg-config file): C++ demangling as perf does it
HAVE_LIBIBERTY := $(if $(wildcard /usr/include/libiberty/demangle.h),1)
ifeq ($(HAVE_LIBIBERTY),1)
  FEATURES += -DHAVE_LIBIBERTY
  LDLIBS += -liberty
endif
ifeq ($(HAVE_LIBUNWIND),1)
  PKGS += libunwind libunwind-generic
  FEATURES += -DHAVE_LIBUNWIND
endif
# libdeflate (Debian libdeflate-dev): compressed debug sections inflated 2-3x
# faster than with zlib (util/symbol/elf-inflate.c)
HAVE_LIBDEFLATE := $(shell pkg-config --exists libdeflate 2>/dev/null && echo 1)
ifeq ($(HAVE_LIBDEFLATE),1)
  PKGS += libdeflate
  FEATURES += -DHAVE_LIBDEFLATE
endif
ifeq ($(HAVE_BABELTRACE),1)
  PKGS += babeltrace-ctf
  FEATURES += -DHAVE_LIBBABELTRACE
endif
# protobuf-c (Debian libprotobuf-c-dev, protobuf-c-compiler): data convert
# --to-pprof; protoc-c makes the encoder of util/convert/pprof.proto into
# $(OUT)/gen/ at build time
HAVE_PROTOBUF_C := $(shell pkg-config --exists libprotobuf-c 2>/dev/null && \
		     command -v protoc-c >/dev/null 2>&1 && echo 1)
ifeq ($(HAVE_PROTOBUF_C),1)
  PKGS += libprotobuf-c
  FEATURES += -DHAVE_PROTOBUF_C
endif

WARNINGS := -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers \
	    -Wshadow -Wformat=2 -Wno-format-nonliteral -Wundef -Wwrite-strings
CFLAGS  ?= -O2 -g
CFLAGS  += -std=gnu11 $(WARNINGS) -D_GNU_SOURCE -DTPERF_VERSION='"$(VERSION)"' \
	   $(FEATURES) -I. $(if $(HAVE_PROTOBUF_C),-I$(OUT)/gen) $(shell pkg-config --cflags $(PKGS))
# Start-up time (bench/README.md): each shared library costs tens of
# microseconds at every start, so the libraries whose static archives are
# installed are linked from them (only the members used are pulled in).
# libtraceevent stays shared: its plugins (dlopen'ed) bind to its symbols.
# libunwind's archive is not position-independent, hence -no-pie with it.
# STATIC_LIBS=0 links everything shared; so does FUZZ=1 (libFuzzer's C++
# runtime would pull libunwind's _Unwind_* in place of libgcc's).
STATIC_LIBS ?= 1
ifeq ($(FUZZ),1)
  STATIC_LIBS := 0
endif
archive = $(filter /%,$(shell $(CC) -print-file-name=lib$(1).a 2>/dev/null))
ARCHIVES := tracefs dw elf z zstd lzma bz2
ifeq ($(HAVE_LIBUNWIND),1)
  ARCHIVES := tracefs dw elf unwind-generic unwind z zstd lzma bz2
endif
ifeq ($(HAVE_LIBDEFLATE),1)
  ARCHIVES += deflate
endif
ifeq ($(HAVE_PROTOBUF_C),1)
  ARCHIVES += protobuf-c
endif
ifeq ($(STATIC_LIBS),1)
  ifneq ($(words $(foreach a,$(ARCHIVES),$(call archive,$(a)))),$(words $(ARCHIVES)))
    STATIC_LIBS := 0
  endif
endif
ifeq ($(STATIC_LIBS),1)
  LDLIBS  += -Wl,-Bstatic $(ARCHIVES:%=-l%) -Wl,-Bdynamic -ltraceevent \
	     $(if $(HAVE_BABELTRACE),$(shell pkg-config --libs babeltrace-ctf)) -ldl
  LDFLAGS += $(if $(HAVE_LIBUNWIND),-no-pie)
else
  LDLIBS  += $(shell pkg-config --libs $(PKGS))
endif
LDLIBS  += -lm -lpthread
LDFLAGS += -Wl,--as-needed -Wl,-O1
ifeq ($(SANITIZE),1)
  CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
  LDFLAGS += -fsanitize=address,undefined
endif
ifeq ($(WERROR),1)
  CFLAGS += -Werror
endif
# FUZZ=1 (used by tests/fuzz/run.sh with O=build/fuzz): the library built by
# clang with coverage for libFuzzer, ASan and UBSan (aborting on the first
# report), and the fuzz targets tests/fuzz/fuzz-*.c linked against it.
FUZZ_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	      -fno-omit-frame-pointer -g -O1
ifeq ($(FUZZ),1)
  CC      := clang
  CFLAGS  += $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link
endif

LIB_SRCS     := $(sort $(wildcard util/*/*.c arch/x86/util/*.c))
BUILTIN_SRCS := perf.c $(sort $(wildcard builtin-*.c))
TEST_SRCS    := $(sort $(wildcard tests/*.c))
LIB_OBJS     := $(LIB_SRCS:%.c=$(OUT)/%.o)
# generated sources: protoc-c's encoder of pprof's messages
GEN_PPROF    := $(OUT)/gen/util/convert/pprof.pb-c
ifeq ($(HAVE_PROTOBUF_C),1)
  LIB_OBJS   += $(GEN_PPROF).o
endif
BIN_OBJS     := $(BUILTIN_SRCS:%.c=$(OUT)/%.o) $(TEST_SRCS:%.c=$(OUT)/%.o)
# libtperf-internal.a: all of util/, for the binary, the tests, the fuzz
# targets and the benches; libtperf.a: the same code with only the public
# API (include/tperf/, TPERF_API) left global, for programs outside the tree.
INTERNAL     := $(OUT)/libtperf-internal.a
LIB          := $(OUT)/libtperf.a
TPERF        := $(OUT)/tperf
DOCS         := $(sort $(wildcard Documentation/tperf*.txt))
MANS         := $(DOCS:%.txt=$(OUT)/%.1)

# Small programs that tests and the demo profile (tests/workloads/*.c), built
# without optimisation and with frame pointers so their call trees are known;
# never with the sanitizers.
# tests/workloads/X-lib.c is a shared-library source for program X.c: the
# tests that use the pair build both (-shared -fPIC, then linked to X), so
# make leaves them out; so are the dwarf-*.c programs, built -O2 by the
# tests (and the fixtures) that use them.
WORKLOAD_LIBS   := $(wildcard tests/workloads/*-lib.c)
WORKLOAD_SRCS   := $(sort $(filter-out $(WORKLOAD_LIBS) $(WORKLOAD_LIBS:%-lib.c=%.c) \
			$(wildcard tests/workloads/dwarf-*.c), $(wildcard tests/workloads/*.c)))
WORKLOADS       := $(WORKLOAD_SRCS:%.c=$(OUT)/%)
WORKLOAD_CFLAGS := -O0 -g -fno-omit-frame-pointer -std=gnu11 $(WARNINGS) -D_GNU_SOURCE

Q := $(if $(V),,@)

EXAMPLES := $(patsubst %.c,$(OUT)/%,$(sort $(wildcard examples/*.c)))

all: $(TPERF) man workloads examples

# Programs using libtperf as another tool would (Documentation/libtperf.md).
examples: $(EXAMPLES)
# They see the public header only (-Iinclude, not -I.).
$(OUT)/examples/%: examples/%.c $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo '  LINK    $@')
	$(Q)$(CC) $(filter-out -I.,$(CFLAGS)) -Iinclude $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)

# `tperf test` finds its fixtures in this tree from any folder
$(OUT)/builtin-test.o: CFLAGS += -DTPERF_SRCDIR='"$(CURDIR)"'

$(OUT)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo '  CC      $<')
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

$(GEN_PPROF).c: util/convert/pprof.proto
	@mkdir -p $(OUT)/gen
	@$(if $(Q),echo '  PROTOC  $<')
	$(Q)protoc-c --c_out=$(OUT)/gen $<
$(GEN_PPROF).h: $(GEN_PPROF).c
$(GEN_PPROF).o: $(GEN_PPROF).c
	@$(if $(Q),echo '  CC      $<')
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<
$(OUT)/util/convert/convert-pprof.o: $(if $(HAVE_PROTOBUF_C),$(GEN_PPROF).h)

# Only what the public header marks TPERF_API is visible outside a
# library object; the rest is hidden, and made local in libtperf.a.
$(LIB_OBJS): CFLAGS += -fvisibility=hidden

$(INTERNAL): $(LIB_OBJS) $(OBJLIST)
	@$(if $(Q),echo '  AR      $@')
	$(Q)rm -f $@ && ar rcs $@ $(LIB_OBJS)

$(LIB): $(LIB_OBJS) $(OBJLIST)
	@$(if $(Q),echo '  AR      $@')
	$(Q)rm -f $@ $(OUT)/libtperf.o && $(LD) -r -o $(OUT)/libtperf.o $(LIB_OBJS) && \
		objcopy --localize-hidden $(OUT)/libtperf.o && \
		ar rcs $@ $(OUT)/libtperf.o && rm -f $(OUT)/libtperf.o

# Relink (and re-archive) when the list of sources changes, e.g. a file removed.
OBJLIST := $(OUT)/.objlist
# (Not for the targets that install the libraries first: their sub-make
# writes it, with the libraries' flags.)
ifeq ($(filter $(NO_LIB_CHECK),$(MAKECMDGOALS)),)
$(shell mkdir -p $(OUT); echo '$(LIB_OBJS) $(BIN_OBJS) $(CFLAGS) $(LDLIBS)' | cmp -s - $(OBJLIST) || \
	echo '$(LIB_OBJS) $(BIN_OBJS) $(CFLAGS) $(LDLIBS)' > $(OBJLIST))
endif

$(TPERF): $(BIN_OBJS) $(INTERNAL) $(OBJLIST)
	@$(if $(Q),echo '  LINK    $@')
	$(Q)$(CC) $(LDFLAGS) -o $@ $(BIN_OBJS) $(INTERNAL) $(LDLIBS)

man: $(MANS)

workloads: $(WORKLOADS)
$(OUT)/tests/workloads/%: tests/workloads/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo '  CC      $@')
	$(Q)$(CC) $(WORKLOAD_CFLAGS) -o $@ $<
$(OUT)/Documentation/%.1: Documentation/%.txt Documentation/txt2man.sh
	@mkdir -p $(dir $@)
	$(Q)sh Documentation/txt2man.sh $(VERSION) < $< > $@

install-deps:
	$(Q)sh scripts/install-deps.sh

# The test command CI runs: dependencies, build (one job per CPU), every
# test, one summary line.
NPROC := $(shell nproc 2>/dev/null || echo 1)
check: install-deps
	$(Q)$(MAKE) -j$(NPROC) --no-print-directory all
	$(Q)TPERF=$(abspath $(TPERF)) sh scripts/run-tests.sh

check-full: install-deps
	$(Q)$(MAKE) -j$(NPROC) --no-print-directory all
	$(Q)TPERF=$(abspath $(TPERF)) TPERF_TEST_FULL=1 sh scripts/run-tests.sh

demo: install-deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)sh scripts/demo.sh $(abspath $(TPERF))

# `make install [PREFIX=/usr/local] [DESTDIR=stage]`; install-files installs
# what is already built, without building (the install test uses it, so a
# build made with other flags, e.g. SANITIZE=1, is installed as it is).
install: all
	$(Q)$(MAKE) --no-print-directory install-files

install-files:
	@test -x $(TPERF) || { echo "install: '$(TPERF)' is not built: run make first" >&2; exit 1; }
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(TPERF) $(DESTDIR)$(PREFIX)/bin/tperf
	$(if $(MANS),install -m 644 $(MANS) $(DESTDIR)$(PREFIX)/share/man/man1/)
	$(if $(wildcard $(LIB)),install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/tperf)
	$(if $(wildcard $(LIB)),install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/libtperf.a)
	$(if $(wildcard $(LIB)),install -m 644 include/tperf/tperf.h $(DESTDIR)$(PREFIX)/include/tperf/)

# `make fuzz` builds and runs every fuzz target for FUZZ_SECONDS (default
# 60) each; `make fuzz FUZZ_TARGETS=fuzz-parse-options` runs one.
FUZZ_TARGETS ?= $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz-*.c))
FUZZ_BINS    := $(FUZZ_TARGETS:%=$(OUT)/tests/fuzz/%)
fuzz:
	$(Q)sh tests/fuzz/run.sh $(FUZZ_TARGETS)

fuzz-build: $(FUZZ_BINS)
$(OUT)/tests/fuzz/fuzz-%: tests/fuzz/fuzz-%.c $(INTERNAL)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo '  FUZZ    $@')
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -fsanitize=fuzzer -MMD -MP -o $@ $< $(INTERNAL) $(LDLIBS)

# fuzz-probe-addr resolves probe definitions against a small program built
# beside it (with DWARF and without), and checks the addresses with its own
# capstone, linked.
FUZZ_PROBE_PROG := $(OUT)/tests/fuzz/probe-addr-target
$(OUT)/tests/fuzz/fuzz-probe-addr: $(FUZZ_PROBE_PROG) $(FUZZ_PROBE_PROG)-nodwarf
$(OUT)/tests/fuzz/fuzz-probe-addr: LDLIBS += -lcapstone
$(FUZZ_PROBE_PROG): tests/fuzz/probe-addr-target.c tests/probe/boundary-funcs.h
	@mkdir -p $(dir $@)
	@$(if $(Q),echo '  CC      $@')
	$(Q)$(CC) -O2 -g -o $@ $<
$(FUZZ_PROBE_PROG)-nodwarf: $(FUZZ_PROBE_PROG)
	$(Q)objcopy --strip-debug $< $@

# `make print-LDLIBS` shows a variable's value (used by bench/link-layout.sh).
print-%:
	@echo '$($*)'

clean:
	rm -rf $(OUT)/tperf $(OUT)/libtperf.a $(OUT)/libtperf-internal.a $(OUT)/.objlist $(OUT)/Documentation/*.1 $(WORKLOADS) build
	find $(OUT) -name '*.[od]' -not -path './.git/*' -delete

.PHONY: all man examples workloads check check-full demo install install-files install-deps fuzz fuzz-build clean
.DELETE_ON_ERROR:
-include $(LIB_OBJS:.o=.d) $(BIN_OBJS:.o=.d) $(if $(filter 1,$(FUZZ)),$(FUZZ_BINS:=.d))
