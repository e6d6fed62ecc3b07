#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The report options of t0451..t0456 on a file tperf recorded: perf 6.1's
# report of it and tperf's agree (sort keys, -F, callchain modes, header,
# filters).
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/shell/report-lib.sh"

test_expect_success CC 'build the call tree workload' '
	build_calltree
'

test_expect_success PERF 'tperf records it with callchains, in user space' '
	tperf record -q -e cpu-clock:u -F 999 -g -o "$TRASH/t.data" -- "$TRASH/calltree" 100 2>/dev/null &&
	test -s "$TRASH/t.data"
'

test_expect_success PERF 'sort keys and fields' '
	f=$TRASH/t.data &&
	for o in "--sort srcline" "--sort srcfile" "--sort parent" "-p work_" "--sort cpu,socket" \
		"--sort period" "--sort weight" "-F overhead,sym" "-F +period,sample" \
		"--show-total-period" "-F overhead_sys,overhead_us,comm"; do
		same_as_perf $f --no-children -g none $o || exit 1
	done &&
	for o in "--sort parent -g none" "-F overhead,sym -g none" "-n --show-total-period"; do
		same_as_perf $f $o || exit 1
	done
'

test_expect_success PERF 'callchain modes' '
	f=$TRASH/t.data &&
	for o in "-g flat" "-g folded" "-g folded,0,caller,function,count" \
		"-g graph,0.5,callee,function,period"; do
		same_as_perf $f --no-children $o || exit 1
		same_as_perf $f $o || exit 1
	done
'

test_expect_success PERF 'header and filters' '
	f=$TRASH/t.data &&
	same_as_perf $f --header-only &&
	same_as_perf $f --header --no-children -g none &&
	same_as_perf $f --no-children -g none --comms calltree &&
	same_as_perf $f --no-children -g none --symbols spin &&
	same_as_perf $f --no-children -g none --time 0%-50%
'

test_done
