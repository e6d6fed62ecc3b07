#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# --percent-limit hides entries and, as in perf 6.1, sets the callchain
# threshold where it comes on the command line (a -g threshold after it
# wins; 0 shows every branch), against perf on a deep, wide call tree.
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/shell/report-lib.sh"

test_expect_success CC 'build the deep call tree workload' '
	cc -O0 -g -fno-omit-frame-pointer -o "$TRASH/deep" "$W/record-calltree-deep.c"
'

test_expect_success PERF 'record it in user space with callchains' '
	perf_rec deep -e cpu-clock:u -F 2999 -g -- "$TRASH/deep" 1000
'

# (make check: every 5th of the 48, each value of each parameter among them)
test_expect_success PERF 'limits 0, 0.3 and 5: every mode and order, children or not' '
	i=0 &&
	for c in --children --no-children; do
		for m in graph fractal flat folded; do
			for o in caller callee; do
				for l in 0 0.3 5; do
					if test_pick $i 5; then
						same_as_perf "$TRASH/deep.data" $c -g $m,0.5,$o \
							--percent-limit $l || exit 1
					fi
					i=$((i + 1))
				done
			done
		done
	done
'

test_expect_success PERF 'the later of --percent-limit and -g sets the threshold' '
	for c in --children --no-children; do
		same_as_perf "$TRASH/deep.data" $c --percent-limit 2 -g graph,0.1 &&
		same_as_perf "$TRASH/deep.data" $c -g fractal,0.1,callee --percent-limit 2 &&
		same_as_perf "$TRASH/deep.data" $c --percent-limit 1 -g folded,count &&
		same_as_perf "$TRASH/deep.data" $c --percent-limit 0 -G || exit 1
	done
'

test_expect_success PERF 'small branches: shown at 0, hidden at 5' '
	tperf report -i "$TRASH/deep.data" --stdio --no-children --percent-limit 0 >zero &&
	tperf report -i "$TRASH/deep.data" --stdio --no-children >default &&
	tperf report -i "$TRASH/deep.data" --stdio --no-children --percent-limit 5 >five &&
	grep -q -- "--0\.[0-4][0-9]%--" zero &&
	! grep -q -- "--0\.[0-4][0-9]%--" default &&
	! grep -q -- "--[0-4]\.[0-9][0-9]%--" five &&
	test $(wc -l <zero) -gt $(wc -l <default)
'

test_expect_success 'a --percent-limit that is not a number is a usage error' '
	test_expect_code 129 tperf report -i /dev/null --percent-limit abc 2>err &&
	grep -q "percent-limit takes a number" err
'

test_done
