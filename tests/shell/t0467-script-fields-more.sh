#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf script -F: brstacksym, brstackoff, data_src, misc, ipc, flags,
# callindent, tod, as perf script 6.1 prints them (fixture goldens and perf
# itself on files recorded here).
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/shell/script-lib.sh"

test_expect_success 'fields on the fixtures, as perf 6.1 printed them' '
	script_golden_cases script-fields-more 11
'

test_expect_success PERF 'branch stacks with symbols and offsets, whole files (perf itself)' '
	for d in pdc-branch-stack-lbr/perf.data.branch-4.14 kdab-lbr-callstack/perf.lbr.data; do
		for F in comm,tid,brstacksym comm,dso,brstackoff comm,brstack,brstacksym,dso \
			 comm,brstacksym,brstackoff; do
			same_as_perf "$DATA_DIR/$d" -F $F $nosym || exit 1
		done
	done
'

test_expect_success PERF 'data_src decoded, padded as perf pads it (whole file, perf itself)' '
	f=$DATA_DIR/rcppthread-perf-mem-record/perf.data &&
	for F in comm,data_src comm,tid,addr,data_src,weight,ip raw:comm,data_src,period; do
		same_as_perf $f -F $F $nosym || exit 1
	done &&
	grep -q "|OP LOAD|LVL LFB/MAB or LFB/MAB hit|SNP None|TLB L1 or L2 hit|LCK No|BLK  N/A" actual
'

test_expect_success 'data_src on samples without it is an error naming the event' '
	f=$DATA_DIR/pdc-branch-stack-lbr/perf.data.branch-4.14 &&
	test_expect_code 1 tperf script -i $f -F comm,data_src >out 2>err &&
	echo "tperf: samples for '"'"'cycles:ppp'"'"' do not have the DATA_SRC attribute: cannot print field '"'"'data_src'"'"'; choose other fields with -F" >expect &&
	test_cmp expect err &&
	test ! -s out
'

test_expect_success PERF 'misc, flags, callindent and ipc on ordinary samples and side-band records' '
	perf record -q -e cpu-clock -o cc.data -- ls / >/dev/null 2>&1 &&
	perf record -q -g -e cpu-clock --switch-events -o g.data -- sleep 0.01 >/dev/null 2>&1 &&
	for f in cc.data g.data; do
		for F in comm,misc misc,ip comm,tid,time,misc,period,event,flags,ip comm,flags \
			 comm,callindent,ip,sym flags,callindent,ip,sym comm,ipc comm,misc,flags,ip,sym,ipc; do
			same_as_perf $f -F $F &&
			same_as_perf $f -F $F --show-mmap-events --show-task-events --show-switch-events ||
			exit 1
		done
	done &&
	grep -q "^ *sleep E     PERF_RECORD_COMM exec: sleep:" actual &&
	grep -q "^ *sleep Sp* *PERF_RECORD_SWITCH OUT" actual &&
	grep -q "^ *swapper K     PERF_RECORD_MMAP" actual
'

test_expect_success PERF 'tod from the clock data of a file recorded with -k' '
	perf record -q -k CLOCK_MONOTONIC -e cpu-clock -o k.data -- ls / >/dev/null 2>&1 &&
	for F in comm,tod,time,ip tod comm,tid,misc,tod,time,ip; do
		same_as_perf k.data -F $F &&
		same_as_perf k.data -F $F --ns &&
		same_as_perf k.data -F $F --show-mmap-events --show-task-events || exit 1
	done &&
	grep -q "^ *ls  *[0-9]* [UK]     20[0-9][0-9]-[01][0-9]-[0-3][0-9] [0-2][0-9]:[0-5][0-9]:[0-6][0-9]\.[0-9]\{6\}  *[0-9]*\.[0-9]\{6\}: " actual
'

test_expect_success 'tod without clock data is an error naming the file' '
	tperf record -q -e task-clock -o t.data true &&
	test_expect_code 1 tperf script -i t.data -F comm,tod >out 2>err &&
	echo "tperf: cannot print field '"'"'tod'"'"': '"'"'t.data'"'"' has no clock data; record with -k/--clockid" >expect &&
	test_cmp expect err &&
	test ! -s out
'

# perf names the calling file for code inlined from a header (see t0466):
# the srcline lines of other DSOs are masked, srccode lines compared whole.
mask_files() { sed 's/^  [^ []*:\([0-9]*\)$/  FILE:\1/'; }

test_expect_success PERF 'srccode: the source text under the sample, once per line and thread' '
	cc -g -O0 -fno-omit-frame-pointer -o ct "$TESTS_DIR/workloads/record-calltree.c" &&
	perf record -q -o sc.data ./ct 40 >/dev/null 2>&1 &&
	perf record -q -g -o scg.data ./ct 40 >/dev/null 2>&1 &&
	for f in sc.data scg.data; do
		for F in comm,ip,sym,srccode comm,tid,srccode,ip,dso ip,srcline,srccode; do
			for G in "" -G; do
				perf script -i $f -F $F $G >expect 2>/dev/null &&
				tperf script -i $f -F $F $G >actual &&
				mask_files <expect >e.masked && mask_files <actual >a.masked &&
				test_cmp e.masked a.masked || exit 1
			done
		done
	done &&
	grep -q "^|1[34]       	" actual &&
	test_expect_code 1 tperf script -i sc.data -F comm,srccode >out 2>err &&
	echo "tperf: field '"'"'srccode'"'"' needs '"'"'ip'"'"' for '"'"'cpu-clock:ppp'"'"': add ip to -F" >expect &&
	test_cmp expect err &&
	test ! -s out
'

test_done
