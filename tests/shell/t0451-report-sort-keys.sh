#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf report --sort: srcline, srcfile, parent (-p), cpu, socket, period,
# weight, local_weight, tid, symoff, as perf 6.1 prints them on the same
# file; srcline from the DWARF line tables of a workload built with -g.
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/shell/report-lib.sh"

test_expect_success CC 'build the call tree workload with debug info' '
	build_calltree
'

# (user space: perf's srcline of kernel symbols was not compared)
test_expect_success PERF 'record it with callchains' '
	perf_rec cc -e cpu-clock:u -F 999 -g -- "$TRASH/calltree" 100
'

test_expect_success PERF 'srcline and srcfile: the lines of spin, as perf (addr2line) finds them' '
	same_as_perf "$TRASH/cc.data" --no-children -g none --sort srcline &&
	grep -q "record-calltree.c:1[0-9]$" actual &&
	same_as_perf "$TRASH/cc.data" --no-children -g none --sort srcfile &&
	same_as_perf "$TRASH/cc.data" --no-children -g none --sort sym,srcline &&
	same_as_perf "$TRASH/cc.data" --no-children -g none --sort srcline,sym &&
	same_as_perf "$TRASH/cc.data" --no-children --sort srcline
'

test_expect_success PERF 'parent: perf default pattern, -p REGEX, with and without --children' '
	same_as_perf "$TRASH/cc.data" --no-children -g none --sort parent &&
	same_as_perf "$TRASH/cc.data" --sort parent -g none &&
	same_as_perf "$TRASH/cc.data" --no-children -g none -p work_ &&
	same_as_perf "$TRASH/cc.data" --no-children -g none -p "^work_(one|two)$" --sort comm &&
	same_as_perf "$TRASH/cc.data" -p work_ --sort parent -g none &&
	same_as_perf "$TRASH/cc.data" --no-children -p run
'

# perf 6.1 credits a sample's children once per frame with --sort socket
# (its dedup template lacks the socket: 600% for a 6-frame chain); tperf
# credits each entry once per sample, as for every other key
test_expect_success PERF 'cpu, socket, period, weight, local_weight, pid' '
	for k in cpu socket period weight local_weight pid "comm,cpu" "period,sym"; do
		same_as_perf "$TRASH/cc.data" --no-children -g none --sort $k || exit 1
		test $k = socket ||
		same_as_perf "$TRASH/cc.data" -g none --sort $k || exit 1
	done &&
	tperf report -i "$TRASH/cc.data" --stdio -g none --sort socket -q >out &&
	grep -q "^   100.00%   100.00%    -001$" out
'

test_expect_success PERF 'the CPU of each sample: cpu and socket from the topology' '
	perf_rec sys -F 999 --sample-cpu -- "$TRASH/calltree" 100 &&
	same_as_perf "$TRASH/sys.data" --no-children -g none --sort cpu &&
	same_as_perf "$TRASH/sys.data" --no-children -g none --sort socket,cpu &&
	same_as_perf "$TRASH/sys.data" --no-children -g none --sort cpu,comm
'

test_expect_success 'the fixture: cpu, socket, parent with unresolved symbols' '
	f=$DATA_DIR/pdc-callgraph-fp-x86_64/perf.data.callgraph-3.8 &&
	tperf report -i $f --stdio --no-children -g none --sort cpu,socket \
		--symfs=/nonexistent --kallsyms=/dev/null | notip | sed -n "9,15p" >actual &&
	cat >expect <<-\EOT &&
	# Overhead  CPU  Socket
	# ........  ...  ......
	#
	    36.00%  002    -001
	    25.39%  003    -001
	    19.93%  000    -001
	    18.67%  001    -001
	EOT
	test_cmp expect actual
'

# the program's own lines: a sample may land in the dynamic loader's code at start
# (a sample may land in the program's PLT or start-up code, which has no
# line: "??:0", as in perf)
test_expect_success CC 'srcline on a file tperf records (no perf needed)' '
	tperf record -q -e cpu-clock:u -F 999 -o "$TRASH/t.data" -- "$TRASH/calltree" 100 2>/dev/null &&
	tperf report -i "$TRASH/t.data" --stdio --no-children -g none --sort srcline \
		--dsos calltree -q >out &&
	grep % out | sed "s/^ *[0-9.]*%  //" | sort -u >lines &&
	grep -q "^record-calltree.c:1[0-9]$" lines &&
	! grep -v -e "^record-calltree.c:" -e "^??:0$" lines
'

# binutils 2.40's addr2line (perf 6.1's source of lines) names a DWARF 5
# sequence's first rows after file entry 0, the unit's own file, though
# the line program left them in entry 1: here the #included header
test_expect_success CC 'srcline of code a unit #includes first: the file addr2line names' '
	cc -O0 -g -o "$TRASH/incl" "$W/srcline-include.c" &&
	a2l=$(addr2line -e "$TRASH/incl" 0x$(nm "$TRASH/incl" | sed -n "s/ t spin$//p")) &&
	a2l=${a2l##*/} && a2l=${a2l%%:*} &&
	tperf record -q -e cpu-clock:u -F 999 -o "$TRASH/incl.data" -- "$TRASH/incl" 300 2>/dev/null &&
	tperf report -i "$TRASH/incl.data" --stdio --no-children -g none --sort sym,srcline \
		--comm incl -q >out &&
	grep "\] spin " out | sed "s/.*\] spin  *//; s/ *$//" | sort -u >lines &&
	test -s lines &&
	! grep -v "^$a2l:1[01]$" lines &&
	if test_have_prereq PERF; then
		same_as_perf "$TRASH/incl.data" --no-children -g none --sort srcline,srcfile &&
		same_as_perf "$TRASH/incl.data" --no-children --sort sym,srcline
	fi
'

test_expect_success CC 'tid is pid, symoff adds the offset in the symbol' '
	tperf report -i "$TRASH/t.data" --stdio --no-children -g none --sort pid >pid &&
	tperf report -i "$TRASH/t.data" --stdio --no-children -g none --sort tid >tid &&
	test_cmp pid tid &&
	tperf report -i "$TRASH/t.data" --stdio --no-children -g none --sort symoff -q >out &&
	grep -q "^ *[0-9.]*%  \[\.\] spin+0x[0-9a-f]*$" out &&
	tperf report -i "$TRASH/t.data" --stdio --no-children -g none --sort symoff | grep -q "^# Overhead  Symbol Offset"
'

test_expect_success 'bad keys and patterns are usage errors' '
	: a name perf does not know could be a tracepoint field: checked with the file &&
	tperf record -q -e task-clock -o t.data true &&
	test_expect_code 129 tperf report -i t.data --stdio --sort srcline,nosuch >out 2>err &&
	grep -q "unknown sort key in '"'"'nosuch'"'"'" err &&
	test ! -s out &&
	test_expect_code 129 tperf report -i /dev/null -p "(" 2>err &&
	grep -q "invalid --parent regex '"'"'('"'"'" err
'

test_expect_success PERF '--sort parent needs callchains' '
	perf_rec nocc -F 999 -- "$TRASH/calltree" 20 &&
	test_expect_code 1 tperf report -i "$TRASH/nocc.data" --stdio --sort parent >/dev/null 2>err &&
	echo "tperf: selected --sort parent but the file '"'"'$TRASH/nocc.data'"'"' has no callchains: record with -g" >expect &&
	test_cmp expect err
'

test_done
