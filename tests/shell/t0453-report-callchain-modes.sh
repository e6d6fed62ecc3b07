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

# -g's second number is perf's print_limit: so many branches a level
test_expect_success PERF 'print limit: the second number of -g' '
	for o in graph,0.5,1 callee,0.5,2 fractal,0.5,2,caller flat,0,1 caller,0.5,3,address; do
		same_as_perf "$TRASH/cc.data" -g $o || exit 1
		same_as_perf "$TRASH/cc.data" --no-children -g $o || exit 1
	done &&
	tperf report -i "$TRASH/cc.data" --stdio --no-children -g graph,0,1 >one &&
	tperf report -i "$TRASH/cc.data" --stdio --no-children -g graph,0 >all &&
	test $(grep -c -- "--[0-9.]*%--" one) -lt $(grep -c -- "--[0-9.]*%--" all)
'

# A frame in a PLT entry: addr2line has no answer there, so perf shows
# "+OFFSET" with address keys and no line with srcline keys
test_expect_success PERF,CC 'PLT frames with address and srcline keys' '
	printf "%s\n" "#include <string.h>" \
		"int main(void) { volatile unsigned long s = 0; char b[8] = \"abc\";" \
		"for (long i = 0; i < 40000000; i++) s += strlen(b); return 0; }" >plt.c &&
	cc -O0 -g -fno-builtin -fno-omit-frame-pointer -o plt plt.c &&
	perf_rec plt -F 2999 -g -- ./plt &&
	f=$TRASH/plt.data &&
	for o in caller,address graph,0.5,callee,srcline; do
		same_as_perf $f -g $o || exit 1
		same_as_perf $f --no-children -g $o || exit 1
	done &&
	tperf report -i $f --stdio --no-children -g caller,address >out &&
	if grep -q "\] strlen@plt" out; then
		grep -q "strlen@plt +[0-9]*$" out
	fi
'

# perf counts --max-stack from where the order starts; 0 leaves no chain
test_expect_success PERF '--max-stack: 0, and a cut from each end' '
	for m in 0 2 3; do
		for c in --children --no-children; do
			same_as_perf "$TRASH/cc.data" $c --max-stack $m &&
			same_as_perf "$TRASH/cc.data" $c --max-stack $m -G || exit 1
		done
	done
'

test_expect_success 'a bad -g is a usage error' '
	test_expect_code 129 tperf report -i /dev/null -g flat,nosuch 2>err &&
	grep -q "call-graph" err
'

test_done
