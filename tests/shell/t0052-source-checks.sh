#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The checks STYLE.md asks of every source file: no trailing whitespace and
# no space before a tab in the indent (git diff --check), codespell clean,
# and each util/ header says what it is for before its first declaration.
# Words codespell must accept go in .codespellrc (ignore-words-list = ...).
. "$(dirname "$0")/lib.sh"

# the sources: tracked and new files (not ignored ones), but not test data
# or fuzz corpora, whose bytes are what they must be
sources() {
	if git -C "$SRC_DIR" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$SRC_DIR" ls-files -co --exclude-standard -- "$@"
	else
		(cd "$SRC_DIR" && find . -type f | sed 's|^\./||')
	fi | grep -Ev '^(tests/data/|tests/fuzz/corpus/|build/)' | sort -u |
		while read -r f; do [ -f "$SRC_DIR/$f" ] && echo "$f"; done
}
PATTERNS=("*.c" "*.h" "*.sh" "*.txt" "*.md" "*.py" "*.awk" "Makefile" "*.mk")

test_expect_success 'there are sources to check' '
	sources "${PATTERNS[@]}" >files &&
	grep -qx perf.c files &&
	grep -qx Makefile files
'

test_expect_success 'no trailing whitespace' '
	sources "${PATTERNS[@]}" >files &&
	(cd "$SRC_DIR" && xargs -d "\n" grep -nE "[[:space:]]+$" -- <"$TRASH/t$test_count/files") >bad
	test_cmp /dev/null bad
'

test_expect_success 'no space before a tab in the indent' '
	sources "${PATTERNS[@]}" >files &&
	(cd "$SRC_DIR" && xargs -d "\n" grep -nP "^\t* +\t" -- <"$TRASH/t$test_count/files") >bad
	test_cmp /dev/null bad
'

test_expect_success 'no blank line at the end of a file' '
	sources "${PATTERNS[@]}" >files &&
	while read -r f; do
		[ -s "$SRC_DIR/$f" ] || continue
		[ -z "$(tail -c1 "$SRC_DIR/$f")" ] || { echo "$f: no newline at end of file"; continue; }
		[ -n "$(tail -n1 "$SRC_DIR/$f")" ] || echo "$f: blank line at end of file"
	done <files >bad &&
	test_cmp /dev/null bad
'

test_expect_success 'codespell finds no misspelling' '
	command -v codespell >/dev/null || { echo "codespell missing: run scripts/install-deps.sh"; exit 1; }
	sources "*.c" "*.h" "*.txt" "*.md" >files &&
	(cd "$SRC_DIR" && xargs -d "\n" codespell -- <"$TRASH/t$test_count/files") >bad 2>&1
	test_cmp /dev/null bad
'

test_expect_success 'each util/ header describes itself before its first declaration' '
	sources "util/*.h" "arch/*.h" >files &&
	test -s files &&
	while read -r f; do
		awk -v f="$f" "
			FNR == 1 && /SPDX-License-Identifier/ { next }
			/^[ \t]*(\\/\\*|\\*|\\/\\/)/ { found = 1; exit }
			/^[ \t]*(#|$)/ { next }
			{ exit }
			END { if (!found) print f \": no comment before the first declaration\" }
		" "$SRC_DIR/$f"
	done <files >bad &&
	test_cmp /dev/null bad
'

test_expect_success 'util/ folders include only their own and lower folders' '
	sh "$SRC_DIR/tests/shell/check-layers.sh" "$SRC_DIR"
'

test_expect_success 'the layering check finds a planted upward include' '
	mkdir -p tree/util/lib tree/util/report &&
	echo "#include \"util/report/hist.h\"" >tree/util/lib/bad.c &&
	echo "#include \"util/lib/debug.h\"" >tree/util/report/fine.c &&
	test_must_fail sh "$SRC_DIR/tests/shell/check-layers.sh" tree >out &&
	echo "util/lib/bad.c:1: lib (level 0) includes util/report/ above it (level 6)" >expect &&
	test_cmp expect out &&
	mkdir tree/util/newfolder &&
	test_must_fail sh "$SRC_DIR/tests/shell/check-layers.sh" tree >out &&
	grep -q "^util/newfolder: a folder without a level" out
'

test_expect_success 'below the commands only util/lib prints (printing.allow aside)' '
	sh "$SRC_DIR/tests/shell/check-printing.sh" "$SRC_DIR"
'

test_expect_success 'the printing check finds a planted message and a planted stderr' '
	mkdir -p ptree/util/lib ptree/util/event &&
	cat >ptree/util/event/planted.c <<-\EOF &&
	/* printf( in a comment is no call */
	static void f(void)
	{
		warning("a message below the commands");
		fprintf(stderr, "and a write");	/* stdout */
		snprintf(buf, size, "a buffer is fine");
		parse_events_error__print(&err, fp);
	}
	EOF
	echo "error(\"lib prints\");" >ptree/util/lib/fine.c &&
	test_must_fail sh "$SRC_DIR/tests/shell/check-printing.sh" ptree \
		"$SRC_DIR/tests/shell/printing.allow" >out &&
	cat >expect <<-\EOF &&
	util/event/planted.c:4: prints below the commands (return the error, or say() through the object'"'"'s hook)
	util/event/planted.c:5: prints below the commands (return the error, or say() through the object'"'"'s hook)
	EOF
	test_cmp expect out
'

BUILD_DIR=$(dirname "$TPERF")
test_expect_success 'every mutable global or static is on globals.allow' '
	sh "$SRC_DIR/tests/shell/check-globals.sh" "$BUILD_DIR"
'

test_expect_success 'the globals check finds a planted global and a stale entry' '
	mkdir build &&
	cp "$BUILD_DIR/libtperf-internal.a" "$BUILD_DIR"/builtin-*.o "$BUILD_DIR/perf.o" build/ &&
	printf "int planted_count;\nstatic int planted_seen;\nint *planted_get(void) { planted_seen++; return &planted_count; }\n" >planted.c &&
	${CC:-cc} -c -o planted.o planted.c &&
	ar r build/libtperf-internal.a planted.o 2>/dev/null &&
	cp "$SRC_DIR/tests/shell/globals.allow" allow &&
	echo "gone.o gone_state a line whose symbol no longer exists" >>allow &&
	test_must_fail sh "$SRC_DIR/tests/shell/check-globals.sh" build allow >out &&
	cat >expect <<-\EOF &&
	planted.o planted_count: mutable global or static not on globals.allow (make it object state, or list it with a reason)
	planted.o planted_seen: mutable global or static not on globals.allow (make it object state, or list it with a reason)
	gone.o gone_state: on globals.allow but no longer in the build (remove the line)
	EOF
	test_cmp expect out
'

test_expect_success 'the shell tests keep the honesty rules' '
	(cd "$SRC_DIR" && sh tests/shell/check-honesty.sh tests/shell/*.sh)
'

HONESTY=$SRC_DIR/tests/shell/check-honesty.sh
SKIP_ALL=skip_all	# (not spelt out where the check reads this file)
test_expect_success 'the honesty check finds each planted defect' '
	printf "%s\n" "test_expect_success \"x\" \"" "	false || exit 0" "\"" >exit0.sh &&
	printf "%s\n" "	cmp a b || true" >true.sh &&
	printf "%s\n" "test_lazy_prereq DRY \"\\"\$TPERF\\" stat --dry-run true\"" >prereq.sh &&
	printf "%s\n" "test_lazy_prereq DRY \"" "	tperf record true" "\"" >prereq2.sh &&
	printf "%s\n" "\"\$TPERF\" stat true ||" "	$SKIP_ALL \"no stat\"" >skipall.sh &&
	for f in exit0 true prereq prereq2 skipall; do
		test_must_fail sh "$HONESTY" $f.sh 2>/dev/null >out &&
		grep -q "^$f.sh:[0-9]*: " out || { echo "$f: not found"; cat out; exit 1; }
	done &&
	printf "%s\n" "	# the file may be absent: nothing to compare then" "	cmp a b || exit 0" \
		"test_lazy_prereq PERF2 \"command -v perf\"" >fine.sh &&
	sh "$HONESTY" fine.sh
'

test_expect_success 'test_must_fail: not found, not executable or a signal is no expected failure' '
	test_must_fail false &&
	test_must_fail sh -c "exit 255" &&
	test_must_fail sh -c "exit 129" &&
	test_must_fail sh -c "exit 243" &&
	test_must_fail sh -c "exit 193" &&
	! test_must_fail sh -c "exit 192" 2>/dev/null &&
	! test_must_fail tperf-no-such-command 2>err &&
	grep -q "not found or not executable (127)" err &&
	! test_must_fail sh -c "exit 126" 2>/dev/null &&
	! test_must_fail sh -c "kill -9 \$\$" 2>err &&
	grep -q "died with status 137" err
'

test_expect_success 'a missing unit-test fixture is a failure, not a skip' '
	TPERF_TEST_DATA=/nonexistent test_must_fail tperf test -v parse_events_valid >out 2>&1 &&
	grep -q "FAILED!" out &&
	grep -q "fixture missing: no fake sysfs tree at /nonexistent/sysfs-fake-x86" out
'

test_expect_success 'tperf test finds its fixtures from any folder' '
	(cd / && "$TPERF" test parse_events_valid pmu_) >out &&
	test $(grep -c ": Ok$" out) -ge 2 &&
	! grep -v ": Ok$" out
'

test_expect_success 'test_when_finished runs when the body passes, fails or exits' '
	cat >t9002-planted.sh <<-EOF &&
	. "$SRC_DIR/tests/shell/lib.sh"
	test_expect_success "passes" "test_when_finished \"echo passed >>$PWD/ran\" && true"
	test_expect_success "fails" "test_when_finished \"echo failed >>$PWD/ran\" && false"
	test_expect_success "exits" "test_when_finished \"echo exited >>$PWD/ran\" && for i in 1; do exit 1; done"
	test_done
	EOF
	test_must_fail bash t9002-planted.sh >out &&
	printf "%s\n" passed failed exited >expect &&
	test_cmp expect ran &&
	grep "^ok\|^not ok" out >actual &&
	printf "%s\n" "ok 1 - passes" "not ok 2 - fails" "not ok 3 - exits" >expect &&
	test_cmp expect actual
'

test_expect_success 'make check lists every skip with its reason and counts it' '
	cat >t9000-planted.sh <<-EOF &&
	. "$SRC_DIR/tests/shell/lib.sh"
	test_lazy_prereq NOSUCH "command -v tperf-no-such-command"
	test_expect_success "passes" "true"
	test_expect_success NOSUCH "needs a command this machine lacks" "true"
	test_done
	EOF
	cat >t9001-planted.sh <<-EOF &&
	. "$SRC_DIR/tests/shell/lib.sh"
	skip_all "this machine has no frobnicator"
	EOF
	TPERF_TEST_UNITS=parse_events_valid TPERF_TEST_SHELL="$PWD/t9000-planted.sh $PWD/t9001-planted.sh" \
		sh "$SRC_DIR/scripts/run-tests.sh" >out 2>&1 &&
	sed -n "/^== skipped/,\$p" out >actual &&
	cat >expect <<-EOF &&
	== skipped (2), with the reason
	$PWD/t9000-planted.sh 2: needs a command this machine lacks (missing NOSUCH)
	$PWD/t9001-planted.sh: this machine has no frobnicator
	2 passed, 0 failed, 2 skipped
	EOF
	test_cmp expect actual
'

test_done
