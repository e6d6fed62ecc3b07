#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf script -F brstack, brstacksym, brstackoff (with and without dso)
# in perf 6.1's exact text: on synthetic files with every flag of a branch
# entry and hw_idx, and on the branch-stack fixtures.
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/shell/script-lib.sh"
. "$TESTS_DIR/shell/branch-lib.sh"

test_expect_success PERF,CC 'every branch flag, type and extended type: perf'"'"'s text' '
	make_prog && make_flags_data &&
	n=0 &&
	for F in ip,brstack brstacksym brstackoff ip,sym,brstackoff comm,ip,dso,brstack \
		 brstacksym,dso brstackoff,dso comm,brstack,brstacksym,brstackoff; do
		n=$((n + 1))
		same_as_perf b.data -F $F || { echo "fields: $F"; exit 1; }
		test_pick $n 3 || continue	# all with make check-full
		same_as_perf b.data -F $F $nosym || { echo "fields: $F $nosym"; exit 1; }
	done &&
	grep -q "/P/-/-/0/ .*/-/X/-/0/" actual &&
	grep -q "/FAULT_ALGN .*/ARCH_5 .*/(null)" actual
'

test_expect_success PERF 'the fixtures, whole: perf'"'"'s text' '
	f=$DATA_DIR/pdc-branch-stack-lbr/perf.data.branch-4.14 &&
	for F in ip,brstack brstackoff,dso comm,sym,brstacksym; do
		same_as_perf $f -F $F $nosym || { echo "fields: $F"; exit 1; }
	done &&
	f=$DATA_DIR/kdab-lbr-callstack/perf.lbr.data &&
	for F in brstack brstackoff,dso comm,brstacksym; do
		same_as_perf $f -F $F $nosym || { echo "fields: $F"; exit 1; }
	done
'

test_expect_success PERF 'brstack on a file without branch stacks: nothing, as perf (no error)' '
	same_as_perf $DATA_DIR/pdc-callgraph-fp-x86_64/perf.data.callgraph-3.8 -F comm,tid,brstack $nosym &&
	test -s actual
'

test_expect_success 'brstackinsn: a usage error saying a disassembler is missing' '
	f=$DATA_DIR/pdc-branch-stack-lbr/perf.data.branch-4.14 &&
	test_expect_code 129 tperf script -i $f -F ip,brstackinsn >out 2>err &&
	echo "error: field '"'"'brstackinsn'"'"' needs a disassembler of the branches'"'"' code, which tperf does not have; use brstack, brstacksym or brstackoff" >expect &&
	head -1 err >actual &&
	test_cmp expect actual &&
	test ! -s out
'

test_done
