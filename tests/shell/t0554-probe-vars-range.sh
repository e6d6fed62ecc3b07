#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: tracefs (tracefs and uprobe_events: changed, then checked restored)
# tperf probe -V --range and --externs: the variables of each probe point
# marked [VAL] (fetchable there), [INV] (fetchable further on), [EXT]
# (globals), with the addresses where each has a location, against
# perf probe -V on the same binaries (-O0, -O2, inlined, a library).
. "$(dirname "$0")/lib.sh"

B=$TRASH/bin
sh "$TESTS_DIR/probe/build.sh" "$B" || fail_all "cannot build the probe targets"
export PERF_BUILDID_DIR=$TRASH/.debug

for bv in target0:main target0:visit target0:visit%return target0:add target0:square \
	  target2:main target2:visit target2:visit%return target2:add target2:square \
	  inline2:work inline2:main O2/libtarget.so:lib_scale O0/libtarget.so:lib_scale; do
	bin=${bv%%:*} v=${bv#*:}
	for opt in "--range" "--range --externs" "--externs"; do
		test_expect_success PERF "-V $v $opt on $bin as perf shows it" '
			HOME=$TRASH perf probe -x "$B/$bin" -V "$v" $opt >expect &&
			test -s expect &&
			tperf probe -x "$B/$bin" -V "$v" $opt >actual &&
			test_cmp expect actual
		'
	done
done

test_expect_success '--range: a variable fetchable further on is [INV], with its ranges' '
	tperf probe -x "$B/target2" -V main --range >out &&
	grep -Eq "^		\[INV\]	int	sum	@<main\+\[[0-9]+-[0-9]+(,[0-9]+-[0-9]+)*\]>$" out &&
	grep -Eq "^		\[VAL\]	int	argc	@<main\+\[0-[0-9]+" out &&
	tperf probe -x "$B/target2" -V main >out &&
	! grep -q sum out
'

test_expect_success '--range at -O0: the scope of each variable' '
	tperf probe -x "$B/target0" -V add --range >actual &&
	size=$(nm -S "$B/target0" | sed -n "s/^[0-9a-f]* 0*\([0-9a-f]*\) T add$/\1/p") &&
	printf "Available variables at add\n\t@<add+0>\n" >expect &&
	printf "\t\t[VAL]\tint\t%s\t@<add+[0-%d]>\n" a $((0x$size)) b $((0x$size)) >>expect &&
	test_cmp expect actual
'

test_expect_success '--externs: the globals, declared ones too' '
	tperf probe -x "$B/target2" -V add --externs --range >out &&
	grep -q "^		\[EXT\]	long int	counter$" out &&
	grep -q "^		\[EXT\]	long long unsigned int	__sdt_unsp$" out
'

test_expect_success '-V of a probe point not found prints no header' '
	test_must_fail tperf probe -x "$B/target0" -V nosuch --range >out 2>err &&
	test ! -s out &&
	echo "tperf: no function '"'"'nosuch'"'"' in the debug information" >expect &&
	test_cmp expect err
'

test_done
