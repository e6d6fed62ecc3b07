#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf script -F: addr, weight, ins_lat, phys_addr, data/code_page_size,
# brstack, iregs, uregs, TYPE:fields prefixes and several -F, as perf script 6.1 prints
# them (fixture goldens and perf itself on files recorded here).
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/shell/script-lib.sh"

test_expect_success 'fields on the fixtures, as perf 6.1 printed them' '
	script_golden_cases script-fields 12
'

test_expect_success 'a field the samples lack is an error naming it; an unknown type a usage error' '
	f=$DATA_DIR/rcppthread-perf-mem-record/perf.data &&
	test_expect_code 1 tperf script -i $f -F comm,phys_addr >out 2>err &&
	echo "tperf: samples for '"'"'cpu/mem-loads,ldlat=30/P'"'"' do not have the PHYS_ADDR attribute: cannot print field '"'"'phys_addr'"'"'; choose other fields with -F" >expect &&
	test_cmp expect err &&
	test ! -s out &&
	test_expect_code 129 tperf script -i $f -F foo:comm 2>err &&
	grep "^error: unknown field '"'"'foo:'"'"' in -F (perf: Invalid field requested)\$" err &&
	test_expect_code 129 tperf script -i $f -F ip,insnlen 2>err &&
	grep "^error: field '"'"'insnlen'"'"' of perf script is not supported by tperf yet (perf: Invalid field requested)\$" err
'

test_expect_success PERF 'page faults with data addresses and page sizes (perf-recorded)' '
	perf record -q -e page-faults -d --data-page-size --code-page-size --phys-data \
		-o pf.data -- ls / >/dev/null 2>&1 &&
	same_as_perf pf.data &&
	same_as_perf pf.data -F +addr &&
	same_as_perf pf.data -F comm,addr,sym &&
	same_as_perf pf.data -F comm,addr,ip,sym,dso &&
	same_as_perf pf.data -F comm,tid,data_page_size,code_page_size &&
	same_as_perf pf.data -F sw:comm,tid,addr &&
	perf record -q -F 999 -g -o cc.data -- ls / >/dev/null 2>&1 &&
	same_as_perf cc.data -F comm,sym &&
	same_as_perf cc.data -F comm,dso -G &&
	same_as_perf cc.data -F sw:comm,ip,dso &&
	same_as_perf cc.data -F hw:comm &&
	perf record -q -e cpu-clock --intr-regs=ax,bx,ip --user-regs=sp,ip -o regs.data -- ls / >/dev/null 2>&1 &&
	same_as_perf regs.data -F comm,ip,iregs,uregs &&
	same_as_perf regs.data -F comm,uregs
'

# perf names the file of the call site for code inlined from a header with
# the inlined line (dl-get-cpu-features.c:333 where the line table says
# dl-cacheinfo.h:333); tperf follows the line table: the file names of
# other DSOs are masked, the workload's own lines compared whole.
mask_files() { sed 's/^  [^ []*:\([0-9]*\)$/  FILE:\1/'; }

test_expect_success PERF 'srcline under each sample and frame, as perf prints it' '
	cc -g -O0 -fno-omit-frame-pointer -o ct "$TESTS_DIR/workloads/record-calltree.c" &&
	perf record -q -g -o sl.data ./ct 40 >/dev/null 2>&1 &&
	for F in ip,sym,srcline comm,tid,ip,sym,symoff,dso,srcline; do
		for G in "" -G; do
			perf script -i sl.data -F $F $G >expect 2>/dev/null &&
			tperf script -i sl.data -F $F $G >actual &&
			grep "^  record-calltree.c:" expect >e.own &&
			grep "^  record-calltree.c:" actual >a.own &&
			test -s e.own && test_cmp e.own a.own &&
			mask_files <expect >e.masked && mask_files <actual >a.masked &&
			test_cmp e.masked a.masked || exit 1
		done
	done
'

test_expect_success 'srcline needs the samples'"'"' ip' '
	tperf record -q -e task-clock -o t.data true &&
	test_expect_code 1 tperf script -i t.data -F comm,srcline >out 2>err &&
	echo "tperf: field '"'"'srcline'"'"' needs '"'"'ip'"'"' for '"'"'task-clock'"'"': add ip to -F" >expect &&
	test_cmp expect err &&
	test ! -s out
'

test_done
