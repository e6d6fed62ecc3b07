#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf report of event groups (one section, a column per member, as perf
# 6.1 shows a file recorded with -e '{a,b}'), --no-group, the colours perf
# uses on a terminal, and -v's DSO paths, addresses and origin letters.
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/shell/report-lib.sh"

test_lazy_prereq SCRIPT 'command -v script'

test_expect_success CC 'build the call tree workload' '
	build_calltree
'

test_expect_success PERF 'record a group of two events' '
	perf_rec grp -e "{task-clock,page-faults}" -- sh -c "\"$TRASH/calltree\" 40; ls -R /usr/lib >/dev/null"
'

test_expect_success PERF 'the group in one section, its members as columns' '
	f=$TRASH/grp.data &&
	for o in "" "--group" "-n" "-n --show-total-period" "--sort dso" "--sort comm,dso" \
		"--no-group" "--no-group -n"; do
		same_as_perf $f $o || exit 1
	done &&
	same_as_perf $f &&
	sed -n 6p actual >line &&
	grep -q "^# Samples: [0-9]*[KM ] of events '"'"'anon group { task-clock, page-faults }'"'"'$" line
'

# perf 6.1's --group on a file without groups: all events in one group
# led by the first, named without "anon group { }"; a member's entries
# that the leader lacks take their place among the leader's
test_expect_success PERF '--group on events recorded apart: one group of all' '
	perf_rec apart -e task-clock,page-faults,context-switches -g -- \
		sh -c "\"$TRASH/calltree\" 40; ls -R /usr/lib >/dev/null" &&
	f=$TRASH/apart.data &&
	for o in "--group" "--group --no-children" "--group -g none" "--group -n"; do
		same_as_perf $f $o || exit 1
	done &&
	sed -n 6p actual >line &&
	grep -q "^# Samples: [0-9]*[KM ] of events '"'"'task-clock, page-faults, context-switches'"'"'$" line &&
	same_as_perf $f &&
	grep -q "of event '"'"'page-faults'"'"'$" actual
'

test_expect_success PERF,SCRIPT 'colours on a terminal as perf uses them' '
	perf_rec cc -F 999 -g -- "$TRASH/calltree" 50 &&
	for o in "--no-children" "" "--no-children -g none -n"; do
		script -qc "perf --no-pager report -i $TRASH/cc.data --stdio $o" /dev/null 2>&1 |
			notip >expect &&
		script -qc "$TPERF --no-pager report -i $TRASH/cc.data --stdio $o" /dev/null 2>&1 |
			notip >actual &&
		test_cmp expect actual || exit 1
	done &&
	grep -q "$(printf "\033\\[31m")" actual
'

test_expect_success PERF 'no colour into a file or a pipe' '
	tperf report -i "$TRASH/cc.data" --stdio >out &&
	! grep -q "$(printf "\033")" out
'

test_expect_success PERF '--stdio-color always, never, auto' '
	for o in "--stdio-color always" "--stdio-color" "--stdio-color=never" "--stdio-color auto"; do
		same_as_perf "$TRASH/cc.data" --no-children $o || exit 1
	done &&
	tperf report -i "$TRASH/cc.data" --stdio --stdio-color always >out &&
	grep -q "$(printf "\033\\[31m")" out &&
	tperf report -i "$TRASH/cc.data" --stdio --stdio-color nonsense >out 2>err &&
	grep -q "bad config value" err && ! grep -q "$(printf "\033")" out
'

test_expect_success PERF '-v: DSO paths, symbol addresses and where the symbols came from' '
	same_as_perf "$TRASH/cc.data" -v --no-children -g none &&
	same_as_perf "$TRASH/cc.data" -v --no-children &&
	same_as_perf "$TRASH/cc.data" -v --sort dso,sym -g none &&
	grep -q "^ *[0-9.]*%  *[0-9.]*%  .*/calltree  *0x[0-9a-f]*  *B \[\.\] spin$" actual
'

test_done
