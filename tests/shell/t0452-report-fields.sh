#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf report -F/--fields and --show-total-period: the columns and the
# output order perf 6.1 derives from -F and --sort on the same file.
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/shell/report-lib.sh"

test_expect_success CC 'build the call tree workload' '
	build_calltree
'

test_expect_success PERF 'record it with and without callchains, two processes' '
	perf_rec cc -F 999 -g -- "$TRASH/calltree" 100 &&
	perf_rec two -F 999 -g -- sh -c "\"$TRASH/calltree\" 40; ls -R /usr/lib >/dev/null"
'

# (with --children, entries of unresolved garbage frames at equal periods
# can be ordered differently, see t0450: the two-process file, where sh
# and ls have such frames, is compared without --children)
test_expect_success PERF 'strict -F: only those columns, ordered by them' '
	for o in "-F overhead,sym" "-F sym,overhead" "-F overhead_children,sym" \
		"-F overhead" "-F dso,sym" "-F comm,overhead,period"; do
		same_as_perf "$TRASH/cc.data" -g none $o || exit 1
		test "$o" = "-F overhead_children,sym" ||
		same_as_perf "$TRASH/cc.data" --no-children $o || exit 1
	done &&
	for o in "-F overhead,sym" "-F sym,overhead" "-F overhead" "-F dso,sym" \
		"-F comm,overhead,period"; do
		same_as_perf "$TRASH/two.data" --no-children -g none $o || exit 1
	done
'

test_expect_success PERF '-F with --sort: the sort keys are added after the fields' '
	same_as_perf "$TRASH/cc.data" -g none -F overhead,sym --sort dso &&
	same_as_perf "$TRASH/two.data" --no-children -g none -F overhead,sym --sort dso &&
	same_as_perf "$TRASH/two.data" --no-children -g none -F dso,sym --sort sym &&
	same_as_perf "$TRASH/two.data" --no-children -g none -F period --sort comm &&
	same_as_perf "$TRASH/two.data" --no-children -g none -s sample,sym
'

test_expect_success PERF '+fields, -n, --show-total-period, overhead_sys/us/guest' '
	same_as_perf "$TRASH/two.data" --no-children -g none -F +period,sample &&
	same_as_perf "$TRASH/two.data" --no-children -g none --show-total-period &&
	same_as_perf "$TRASH/cc.data" -g none -n --show-total-period &&
	same_as_perf "$TRASH/two.data" --no-children -g none \
		-F overhead_sys,overhead_us,sample,period,comm &&
	same_as_perf "$TRASH/two.data" --no-children -g none \
		-F overhead,overhead_guest_sys,overhead_guest_us,pid
'

test_expect_success PERF '--show-cpu-utilization: sys and usr after the overhead' '
	same_as_perf "$TRASH/two.data" --no-children -g none --show-cpu-utilization &&
	same_as_perf "$TRASH/two.data" --no-children --show-cpu-utilization -n &&
	same_as_perf "$TRASH/cc.data" -g none --show-cpu-utilization --show-total-period &&
	same_as_perf "$TRASH/cc.data" --show-cpu-utilization --sort dso &&
	tperf report -i "$TRASH/two.data" --stdio --no-children -g none --show-cpu-utilization >out &&
	grep -q "^# Overhead       sys       usr  Command" out
'

test_expect_success PERF 'the children column without --children is N/A' '
	same_as_perf "$TRASH/cc.data" --no-children -g none -F overhead_children,sym &&
	grep -q "^       N/A  \[\.\] spin$" actual
'

test_expect_success 'the fixture: -F with unresolved symbols' '
	f=$DATA_DIR/pdc-callgraph-fp-x86_64/perf.data.callgraph-3.8 &&
	tperf report -i $f --stdio --no-children -g none -F sample,overhead,dso \
		--symfs=/nonexistent --kallsyms=/dev/null | notip | sed -n "9,12p" |
		sed "s/ *$/|/" >actual &&
	cat >expect <<-\EOT &&
	#      Samples  Overhead  Shared Object|
	# ............  ........  .......................|
	#|
	          1000    61.33%  chrome|
	EOT
	test_cmp expect actual
'

test_expect_success 'an unknown field is a usage error' '
	test_expect_code 129 tperf report -i /dev/null -F overhead,nosuch 2>err &&
	grep -q "unknown field '"'"'nosuch'"'"' in '"'"'--fields overhead,nosuch'"'"'" err
'

test_done
