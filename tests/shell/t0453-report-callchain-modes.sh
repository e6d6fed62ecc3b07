#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf report -g flat, folded, address keys (frames with their source
# lines), and the period/count values, against perf 6.1 on the same file.
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/shell/report-lib.sh"

test_expect_success CC 'build the call tree workload' '
	build_calltree
'

test_expect_success PERF 'record it in user space with callchains' '
	perf_rec cc -e cpu-clock:u -F 999 -g -- "$TRASH/calltree" 100
'

test_expect_success PERF 'flat and folded, caller and callee, each value field' '
	for m in flat folded; do
		for o in "$m" "$m,0.5,callee" "$m,0,caller,function,count" \
			"$m,0,caller,function,period" "$m,0,callee,function,percent"; do
			same_as_perf "$TRASH/cc.data" --no-children -g $o || exit 1
			same_as_perf "$TRASH/cc.data" -g $o || exit 1
		done
	done
'

test_expect_success PERF 'folded lines are what flame graph tools read' '
	tperf report -i "$TRASH/cc.data" --stdio --no-children -g folded,0,caller,function,count -q |
		grep "^[0-9]" >folded &&
	grep -q "^[0-9]* __libc_start_call_main;main;run;work_four;spin$" folded
'

test_expect_success PERF 'address keys: each frame with its file:line' '
	for o in graph,0.5,callee,address caller,address; do
		perf report -i "$TRASH/cc.data" --stdio --no-children -g $o 2>/dev/null |
			notip >expect &&
		tperf report -i "$TRASH/cc.data" --stdio --no-children -g $o | notip >actual &&
		test_cmp expect actual || exit 1
	done &&
	grep -q "spin record-calltree.c:1[0-9]$" actual
'

test_expect_success PERF 'graph values: period and count' '
	same_as_perf "$TRASH/cc.data" --no-children -g graph,0.5,callee,function,period &&
	same_as_perf "$TRASH/cc.data" -g graph,0.5,caller,function,count &&
	same_as_perf "$TRASH/cc.data" --no-children -g fractal,0.5,callee,function,count
'

test_expect_success 'a bad -g is a usage error' '
	test_expect_code 129 tperf report -i /dev/null -g flat,nosuch 2>err &&
	grep -q "call-graph" err
'

test_done
