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
	    libdw:libdw-dev libelf:libelf-dev zlib:zlib1g-dev libzstd:libzstd-dev
OPTIONAL := libunwind:libunwind-dev babeltrace-ctf:libbabeltrace-ctf-dev

ifeq ($(filter clean distclean install-deps,$(MAKECMDGOALS)),)
  $(foreach r,$(REQUIRED),$(if $(shell pkg-config --exists $(word 1,$(subst :, ,$(r))) && echo y),,\
    $(error missing library $(word 1,$(subst :, ,$(r))): install the Debian package $(word 2,$(subst :, ,$(r))) (or run scripts/install-deps.sh))))
endif

PKGS := $(foreach r,$(REQUIRED),$(word 1,$(subst :, ,$(r))))
HAVE_LIBUNWIND := $(shell pkg-config --exists libunwind libunwind-generic 2>/dev/null && echo 1)
HAVE_BABELTRACE := $(shell pkg-config --exists babeltrace-ctf 2>/dev/null && echo 1)
ifeq ($(HAVE_LIBUNWIND),1)
  PKGS += libunwind libunwind-generic
  FEATURES += -DHAVE_LIBUNWIND
endif
ifeq ($(HAVE_BABELTRACE),1)
  PKGS += babeltrace-ctf
  FEATURES += -DHAVE_LIBBABELTRACE
endif

WARNINGS := -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers \
	    -Wshadow -Wformat=2 -Wno-format-nonliteral -Wundef -Wwrite-strings
CFLAGS  ?= -O2 -g
CFLAGS  += -std=gnu11 $(WARNINGS) -D_GNU_SOURCE -DTPERF_VERSION='"$(VERSION)"' \
	   $(FEATURES) -I. -Iutil -Iarch/x86/include $(shell pkg-config --cflags $(PKGS))
LDLIBS  += $(shell pkg-config --libs $(PKGS)) -lm -lpthread
ifeq ($(SANITIZE),1)
  CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
  LDFLAGS += -fsanitize=address,undefined
endif
ifeq ($(WERROR),1)
  CFLAGS += -Werror
endif

LIB_SRCS     := $(sort $(wildcard util/*.c arch/x86/util/*.c))
BUILTIN_SRCS := perf.c $(sort $(wildcard builtin-*.c))
TEST_SRCS    := $(sort $(wildcard tests/*.c))
LIB_OBJS     := $(LIB_SRCS:%.c=$(OUT)/%.o)
BIN_OBJS     := $(BUILTIN_SRCS:%.c=$(OUT)/%.o) $(TEST_SRCS:%.c=$(OUT)/%.o)
LIB          := $(OUT)/libtperf.a
TPERF        := $(OUT)/tperf
DOCS         := $(sort $(wildcard Documentation/tperf*.txt))
MANS         := $(DOCS:%.txt=$(OUT)/%.1)

Q := $(if $(V),,@)

all: $(TPERF) man

$(OUT)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo '  CC      $<')
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

$(LIB): $(LIB_OBJS) $(OBJLIST)
	@$(if $(Q),echo '  AR      $@')
	$(Q)rm -f $@ && ar rcs $@ $(LIB_OBJS)

# Relink (and re-archive) when the list of sources changes, e.g. a file removed.
OBJLIST := $(OUT)/.objlist
$(shell mkdir -p $(OUT); echo '$(LIB_OBJS) $(BIN_OBJS) $(CFLAGS) $(LDLIBS)' | cmp -s - $(OBJLIST) || \
	echo '$(LIB_OBJS) $(BIN_OBJS) $(CFLAGS) $(LDLIBS)' > $(OBJLIST))

$(TPERF): $(BIN_OBJS) $(LIB) $(OBJLIST)
	@$(if $(Q),echo '  LINK    $@')
	$(Q)$(CC) $(LDFLAGS) -o $@ $(BIN_OBJS) $(LIB) $(LDLIBS)

man: $(MANS)
$(OUT)/Documentation/%.1: Documentation/%.txt Documentation/txt2man.sh
	@mkdir -p $(dir $@)
	$(Q)sh Documentation/txt2man.sh $(VERSION) < $< > $@

install-deps:
	$(Q)sh scripts/install-deps.sh

# The test command CI runs: dependencies, build, every test, one summary line.
check: install-deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)TPERF=$(abspath $(TPERF)) sh scripts/run-tests.sh

check-full: install-deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)TPERF=$(abspath $(TPERF)) TPERF_TEST_FULL=1 sh scripts/run-tests.sh

demo: install-deps
	$(Q)$(MAKE) --no-print-directory all
	$(Q)sh scripts/demo.sh $(abspath $(TPERF))

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(TPERF) $(DESTDIR)$(PREFIX)/bin/tperf
	$(if $(MANS),install -m 644 $(MANS) $(DESTDIR)$(PREFIX)/share/man/man1/)

FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz-*.c))
fuzz:
	$(Q)sh tests/fuzz/run.sh $(FUZZ_TARGETS)

clean:
	rm -rf $(OUT)/tperf $(OUT)/libtperf.a $(OUT)/.objlist $(OUT)/Documentation/*.1 build
	find $(OUT) -name '*.[od]' -not -path './.git/*' -delete

.PHONY: all man check check-full demo install install-deps fuzz clean
.DELETE_ON_ERROR:
-include $(LIB_OBJS:.o=.d) $(BIN_OBJS:.o=.d)
