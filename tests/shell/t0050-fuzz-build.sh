#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The fuzz harness (tests/fuzz/run.sh): every target builds with clang and
# libFuzzer, replays its seed corpus without a finding, and leaves the tree
# untouched.  make check adds 1000 seeded mutations each, make check-full a
# time budget each, `make fuzz` runs them for longer.
. "$(dirname "$0")/lib.sh"

command -v clang >/dev/null 2>&1 || skip_all "clang not installed (Debian package clang)"
RUN=$SRC_DIR/tests/fuzz/run.sh

test_expect_success 'every fuzz target has a seed corpus' '
	ls "$SRC_DIR"/tests/fuzz/fuzz-*.c >targets &&
	test -s targets &&
	while read -r f; do
		t=$(basename "$f" .c)
		test -n "$(ls "$SRC_DIR/tests/fuzz/corpus/${t#fuzz-}" 2>/dev/null)" ||
		test -n "$(ls "$SRC_DIR/tests/fuzz/corpus/$t" 2>/dev/null)" ||
			{ echo "no seed corpus for $t"; exit 1; }
	done <targets
'

test_expect_success 'every fuzz target builds' '
	FUZZ_SECONDS=0 sh "$RUN" >out 2>&1 || { cat out; exit 1; }
	for f in "$SRC_DIR"/tests/fuzz/fuzz-*.c; do
		test -x "$SRC_DIR/build/fuzz/tests/fuzz/$(basename "$f" .c)" ||
			{ echo "not built: $f"; exit 1; }
	done
'

# make check replays each seed corpus (the fixed inputs, found crashes
# included) and runs 1000 mutations from a fixed seed.  Mutations follow the
# coverage of the build at hand, so a change elsewhere makes them try other
# inputs: a finding there is a real one, kept in the corpus once fixed.
# make check-full fuzzes each target for a time budget instead.
test_expect_success 'each fuzz target replays its seed corpus and 1000 seeded mutations without a finding' '
	(cd "$SRC_DIR" && find tests/fuzz -type f | sort) >before &&
	FUZZ_SECONDS=300 FUZZ_ARGS="-seed=1 -runs=1000" sh "$RUN" >out 2>&1 || { cat out; exit 1; }
	grep "^fuzz: fuzz-[a-z-]*: ok, [0-9]* inputs in [0-9]*s, coverage [0-9]* -> [0-9]*, [0-9]* in corpus ([0-9]* new)$" out >ok &&
	test $(wc -l <ok) = $(ls "$SRC_DIR"/tests/fuzz/fuzz-*.c | wc -l) &&
	(cd "$SRC_DIR" && find tests/fuzz -type f | sort) >after &&
	test_cmp before after
'

test_expect_success FULL 'each fuzz target runs for its time budget (FUZZ_FULL_SECONDS, 60 s) without a finding' '
	FUZZ_SECONDS=${FUZZ_FULL_SECONDS:-60} sh "$RUN" >out 2>&1 || { cat out; exit 1; }
	grep "^fuzz: fuzz-[a-z-]*: ok, [0-9]* inputs in " out >ok &&
	test $(wc -l <ok) = $(ls "$SRC_DIR"/tests/fuzz/fuzz-*.c | wc -l)
'

test_expect_success 'an unknown fuzz target is refused' '
	test_must_fail sh "$RUN" fuzz-nosuch 2>err &&
	echo "fuzz: no fuzz target '"'"'tests/fuzz/fuzz-nosuch.c'"'"'" >expect &&
	test_cmp expect err
'

test_done
