#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: tracefs (tracefs and uprobe_events: changed, then checked restored)
# tperf probe finds a function in the units that name it only (util/
# dwarf-name-units.c): every site perf finds must still be found, in every
# unit: a static inline function of a header inlined in two units and out
# of line in one, one whose name is the tail of another's .debug_str string,
# a short name stored inline (DW_FORM_string), static functions of one name
# in two units.  The same with compressed debug sections (inflated by
# util/symbol/elf-inflate.c) and with LTO (cross-unit origins: every unit walked).
. "$(dirname "$0")/lib.sh"

U=$TESTS_DIR/probe/units
B=$TRASH/bin
mkdir -p "$B"
cc -O2 -g -o "$B/units" "$U/a.c" "$U/b.c" || fail_all "cannot build the units target"
export PERF_BUILDID_DIR=$TRASH/.debug
perf_lines() {
	HOME=$TRASH perf probe -n -v -x "$1" "$2" 2>&1 | sed -n 's/^Writing event: //p'
}
test_lazy_prereq LTO 'cc -O2 -g -flto -o "$B/ltounits" "$U/a.c" "$U/b.c"'

for fn in twice sq helper do_twice run_a; do
	test_expect_success PERF "'$fn': the sites perf finds, in every unit" '
		perf_lines "$B/units" $fn >expect &&
		test -s expect &&
		tperf probe -x "$B/units" -D $fn >actual &&
		test_cmp expect actual
	'
done

test_expect_success 'twice: inlined in both units and out of line, each a site' '
	tperf probe -x "$B/units" -V twice >out &&
	grep -q "^	@<twice+0>$" out &&
	grep -q "^	@<run_a+[0-9]*>$" out &&
	grep -q "^	@<do_twice+0>$" out &&
	test $(grep -c "^	@<helper+[0-9]*>$" out) = 2 &&
	tperf probe -x "$B/units" -D twice >lines &&
	test $(sort -u lines | wc -l) = $(grep -c "^	@" out)
'

test_expect_success 'helper: the static functions of both units' '
	tperf probe -x "$B/units" -D helper >lines &&
	test $(sort -u lines | wc -l) = 2 &&
	tperf probe -x "$B/units" -D sq >lines &&
	test $(sort -u lines | wc -l) -ge 2
'

for case in "-V helper" "-V do_twice" "-V run_b" "-L twice" "-L helper" "-L run_b"; do
	test_expect_success PERF "$case as perf" '
		HOME=$TRASH perf probe -x "$B/units" $case >expect 2>&1 &&
		tperf probe -x "$B/units" $case >actual &&
		test_cmp expect actual
	'
done

test_expect_success 'setup: the binary with zlib-compressed debug sections' '
	objcopy --compress-debug-sections=zlib "$B/units" "$B/unitz" &&
	readelf -SW "$B/unitz" | grep "\.debug_info .* C "
'

for fn in twice sq helper do_twice; do
	test_expect_success "compressed debug sections: '$fn' as uncompressed" '
		tperf probe -x "$B/units" -D $fn | sed "s|$B/units|BIN|; s|probe_units|G|" >expect &&
		tperf probe -x "$B/unitz" -D $fn | sed "s|$B/unitz|BIN|; s|probe_unitz|G|" >actual &&
		test_cmp expect actual &&
		tperf probe -x "$B/units" -V $fn >expect &&
		tperf probe -x "$B/unitz" -V $fn >actual &&
		test_cmp expect actual
	'
done

test_expect_success 'compressed debug sections: -L as uncompressed' '
	tperf probe -x "$B/units" -L helper >expect &&
	tperf probe -x "$B/unitz" -L helper >actual &&
	test_cmp expect actual
'

test_expect_success 'setup: built from relative source paths' '
	mkdir -p "$TRASH/rel/src" &&
	cp "$U"/*.[ch] "$TRASH/rel/src/" &&
	(cd "$TRASH/rel" && cc -O0 -g -o "$B/relunits" src/a.c src/b.c &&
	 cc -O2 -g -o "$B/relunits2" src/a.c src/b.c)
'

test_expect_success PERF '-L of a relative source: under its compilation folder, as perf' '
	for bin in relunits relunits2; do
		HOME=$TRASH perf probe -x "$B/$bin" -L helper >expect 2>&1 &&
		tperf probe -x "$B/$bin" -L helper >actual &&
		test_cmp expect actual &&
		grep -q "^<helper@$TRASH/rel/src/a.c:0>$" actual || exit 1
	done &&
	HOME=$TRASH perf probe -x "$B/relunits" -L a.c:5-12 >expect 2>&1 &&
	(cd / && tperf probe -x "$B/relunits" -L a.c:5-12) >actual &&
	test_cmp expect actual &&
	perf_lines "$B/relunits" "a.c;return*" >expect &&
	test -s expect &&
	(cd / && tperf probe -x "$B/relunits" -D "a.c;return*") >actual &&
	test_cmp expect actual
'

test_expect_success 'a relative source found under its compilation folder from anywhere' '
	tperf probe -x "$B/relunits" -D "run_b;return*" >expect &&
	test -s expect &&
	(cd / && tperf probe -x "$B/relunits" -D "run_b;return*") >actual &&
	test_cmp expect actual &&
	tperf probe -x "$B/relunits" -L a.c:5-8 >expect &&
	(cd / && tperf probe -x "$B/relunits" -L a.c:5-8) >actual &&
	test_cmp expect actual &&
	mv "$TRASH/rel" "$TRASH/rel.gone" &&
	test_when_finished "mv \"$TRASH/rel.gone\" \"$TRASH/rel\"" &&
	test_must_fail tperf probe -x "$B/relunits" -L helper 2>err &&
	grep "^tperf: cannot .* the source .*a\.c.* (its folder may be given with --source)$" err
'

test_expect_success 'setup: two units of the bench program (bench/gen-big.sh)' '
	sh "$TESTS_DIR/../bench/gen-big.sh" "$TRASH/gen" 2 >/dev/null
'

# a function's own line whose row shares the entry of an inlined call (the
# "break;" before a header helper) is no probe line of the function in -L
for fn in u0_f49 u1_f3 u1_f30; do
	test_expect_success PERF "-L $fn: rows of inlined calls are the callee's, as perf" '
		HOME=$TRASH perf probe -x "$TRASH/gen/big" -L $fn >expect 2>&1 &&
		tperf probe -x "$TRASH/gen/big" -L $fn >actual &&
		test_cmp expect actual
	'
done

test_expect_success PERF '-L of a split function (f and f.part.0, inlined too): all its copies, as perf' '
	cc -O2 -g -o "$B/split" "$U/split.c" &&
	nm "$B/split" | grep -q " bag_free\.part\.0$" &&
	HOME=$TRASH perf probe -x "$B/split" -L bag_free >expect 2>&1 &&
	tperf probe -x "$B/split" -L bag_free >actual &&
	test_cmp expect actual
'

test_expect_success PERF '-L of a function only ever inlined (a header helper), as perf' '
	HOME=$TRASH perf probe -x "$TRASH/gen/big" -L h3 >expect 2>&1 &&
	tperf probe -x "$TRASH/gen/big" -L h3 >actual &&
	test_cmp expect actual
'

# FUNC;PTN at -O2: the statement rows of the function in address order,
# its declaration line, and the calls of the functions inlined in it
for def in 'run_a;return*' 'twice;*' 'do_twice;return*'; do
	test_expect_success PERF "'$def' (-O2): the lines perf writes" '
		perf_lines "$B/units" "$def" >expect &&
		test -s expect &&
		tperf probe -x "$B/units" -D "$def" >actual &&
		test_cmp expect actual
	'
done
for def in 'u0_f49;acc*' 'u1_f3;local*' 'u1_f30;*return*'; do
	test_expect_success PERF "'$def' (bench program): the lines perf writes" '
		perf_lines "$TRASH/gen/big" "$def" >expect &&
		test -s expect &&
		tperf probe -x "$TRASH/gen/big" -D "$def" >actual &&
		test_cmp expect actual
	'
done

# libdw's dwarf_getscopes() fails in LTO units and leaks its array when it
# does (pc_record): no leak check there under ASan
for fn in twice do_twice; do
	test_expect_success LTO,PERF "LTO (units refer to each other): '$fn' as perf" '
		perf_lines "$B/ltounits" $fn >expect &&
		test -s expect &&
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
			tperf probe -x "$B/ltounits" -D $fn >actual &&
		test_cmp expect actual
	'
done

test_done
