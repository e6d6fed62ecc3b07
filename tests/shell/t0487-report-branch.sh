#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# report's branch mode (perf's default on files recorded with -b/-j, -b,
# --no-branch-stack): every branch is a sample of period 1, the branch
# sort keys, perf 6.1's columns, order and branch type statistics, byte for
# byte after the tip line, on the fixtures and on synthetic files
# (tests/shell/mk-perf-data-branch.py) with every flag.
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/shell/branch-lib.sh"

nosym="--symfs=/nonexistent --kallsyms=/dev/null"
notip() { grep -v '^# (Tip: '; }

# perf's and tperf's `report --stdio` of file $1 with the options that follow
same_report() {
	f=$1; shift
	perf report -i "$f" --stdio "$@" 2>/dev/null | notip >expect &&
	tperf report -i "$f" --stdio "$@" 2>/dev/null | notip >actual &&
	test_cmp expect actual
}

test_expect_success PERF 'the fixtures: branch mode by default, -b, --no-branch-stack, keys' '
	P=$DATA_DIR/pdc-branch-stack-lbr/perf.data.branch-4.14 &&
	K=$DATA_DIR/kdab-lbr-callstack/perf.lbr.data &&
	while read -r f opts; do
		eval same_report \$$f $opts $nosym || { echo "case: $f $opts"; exit 1; }
	done <<-\EOT &&
	P
	P -s cycles,in_tx,abort
	P -s pid,dso,sym
	P -s abort,dso_to,sym,comm
	P --percent-limit 1
	P -q
	P --no-branch-stack
	K -b
	K -b -s dso,sym
	EOT
	same_report $P $nosym &&
	grep -q "^# Overhead  Command  Source Shared Object  Source Symbol           Target Symbol           Basic Block Cycles$" actual &&
	grep -q "^# Samples: 416  of event .cycles:ppp.$" actual
'

test_expect_success PERF,CC 'synthetic branches: every flag, key and odd comparator as perf' '
	make_prog && make_flags_data && make_cross_data &&
	n=0 &&
	while read -r f opts; do	# every other case (all with make check-full)
		n=$((n + 1)) && test_pick $n 2 || continue
		same_report $f $opts || { echo "case: $f $opts"; exit 1; }
	done <<-EOT &&
	b.data -s comm
	b.data -s dso_to,symbol_to
	b.data -s mispredict,in_tx,abort,cycles,dso_to,srcline_from,addr_from
	b.data -s addr_to,srcline_to,pid
	b.data -s cycles,mispredict
	b.data -s dso,sym
	b.data -s sym,symbol_from
	b.data -s srcline_to,mispredict,srcline_from
	b.data -s symbol_t,dso_f,MISP
	b.data -s mispredict,in_tx,abort,cycles,dso_to,srcline_from,addr_from $nosym
	b.data -s addr_from,addr_to,dso $nosym
	x.data -s comm,dso_from,dso_to,symbol_from,symbol_to
	x.data -s addr_from,addr_to
	x.data -s dso,sym
	x.data -U
	EOT
	same_report b.data &&
	grep -q "^# Branch Statistics:$" actual &&
	grep -q "^  UNCOND:  90.0%$" actual &&
	same_report x.data &&
	grep -q "^COND_FWD: " actual && grep -q "^CROSS_4K: " actual && grep -q "^CROSS_2M: " actual
'

test_expect_success CC '-b on a file without branch stacks, a branch key without branch mode: errors' '
	f=$DATA_DIR/pdc-callgraph-fp-x86_64/perf.data.callgraph-3.8 &&
	test_expect_code 1 tperf report -i $f --stdio -b >out 2>err &&
	echo "tperf: selected --branch-stack but the file '"'"'$f'"'"' has no branch stacks: record with -b or -j" >expect &&
	test_cmp expect err &&
	test_expect_code 129 tperf report -i $f --stdio -s dso_from 2>err &&
	grep -q "unknown sort key in '"'"'dso_from'"'"'" err &&
	test_expect_code 129 tperf report -i $f --stdio -s bogus_key 2>err &&
	grep -q "unknown sort key in '"'"'bogus_key'"'"'" err &&
	P=$DATA_DIR/pdc-branch-stack-lbr/perf.data.branch-4.14 &&
	test_expect_code 1 tperf report -i $P --stdio -n >out 2>err &&
	echo "tperf: -n/--show-nr-samples: not supported in branch mode yet; add --no-branch-stack for the report of the samples" >expect &&
	test_cmp expect err &&
	test_expect_code 1 tperf report -i $P --stdio --comms perf 2>err &&
	grep -q "^tperf: the sample filters (--comms, --pid, --tid, --dsos, --symbols, --cpu, --time): not supported in branch mode yet" err &&
	tperf report -i $P --stdio -n --no-branch-stack >out &&
	grep -q "^# Overhead       Samples  Command" out
'

test_done
