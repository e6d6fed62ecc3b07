#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: tracefs (tracefs and uprobe_events: changed, then checked restored)
# tperf ftrace --filter: each --filter applies to the -e just before it
# (trace-cmd's -e/-f pairing), whatever the order of the events; a --filter
# without its own event is a usage error; tracefs is left as it was.
. "$(dirname "$0")/lib.sh"

TFS=/sys/kernel/tracing
NOEXEC='filename ~ "*nothing*"'

state() {
	for f in current_tracer set_event tracing_on; do
		echo "$f: $(cat $TFS/$f)"
	done
	cat $TFS/events/sched/sched_process_exec/filter $TFS/events/sched/sched_process_exit/filter
}

events() {
	tperf ftrace report -i "$1" --sort event | sed -n "s/^ *[0-9.]*%  *[0-9]*  //p" | sort
}

test_expect_success ROOT 'the filter of the first -e filters that event only' '
	state >before &&
	tperf ftrace record -e sched:sched_process_exec --filter "$NOEXEC" \
		-e sched:sched_process_exit -o a.dat -- /bin/true 2>/dev/null &&
	echo sched:sched_process_exit >expect &&
	events a.dat >actual &&
	test_cmp expect actual &&
	state >after &&
	test_cmp before after
'

test_expect_success ROOT 'the filter of the second -e filters that event only' '
	tperf ftrace record -e sched:sched_process_exit -e sched:sched_process_exec \
		--filter "$NOEXEC" -o b.dat -- /bin/true 2>/dev/null &&
	echo sched:sched_process_exit >expect &&
	events b.dat >actual &&
	test_cmp expect actual &&
	tperf ftrace record -e sched:sched_process_exit -e sched:sched_process_exec \
		-o c.dat -- /bin/true 2>/dev/null &&
	printf "sched:sched_process_exec\nsched:sched_process_exit\n" >expect &&
	events c.dat >actual &&
	test_cmp expect actual
'

test_expect_success ROOT 'a filter on a glob applies to every event it matches' '
	tperf ftrace record -e "sched:sched_process_ex*" --filter "common_pid == 1" \
		-o d.dat -- /bin/true 2>/dev/null &&
	tperf ftrace show -i d.dat | sed 1d >out &&
	test_must_fail test -s out
'

test_expect_success ROOT 'an invalid filter names the filter and the event' '
	test_expect_code 1 tperf ftrace record -e sched:sched_process_exit \
		--filter "nosuchfield == 1" -o e.dat -- /bin/true 2>err &&
	echo "tperf: invalid filter '"'"'nosuchfield == 1'"'"' for '"'"'sched/sched_process_exit'"'"': Invalid argument" >expect &&
	test_cmp expect err
'

test_expect_success 'a --filter before any -e, or a second one for the same -e, is a usage error' '
	test_expect_code 129 tperf ftrace record --filter "pid == 1" -e sched:sched_switch -- true 2>err &&
	echo "tperf: --filter '"'"'pid == 1'"'"' has no event of its own: each --filter follows the -e it applies to" >expect &&
	test_cmp expect err &&
	test_expect_code 129 tperf ftrace record -e sched:sched_switch --filter "a == 1" --filter "b == 2" -- true 2>err &&
	echo "tperf: --filter '"'"'b == 2'"'"' has no event of its own: each --filter follows the -e it applies to" >expect &&
	test_cmp expect err
'

test_done
