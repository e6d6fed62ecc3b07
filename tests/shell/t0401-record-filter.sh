#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: tracefs (tracefs and uprobe_events: changed, then checked restored)
# --filter (record, stat) and --exclude-perf (record): each filter is set on
# every fd of its tracepoints before they are enabled.  The samples, counts,
# messages and exit codes are perf 6.1's on the same workload.
. "$(dirname "$0")/lib.sh"

test_lazy_prereq TRACEFS 'ls /sys/kernel/tracing/events/sched/sched_process_exec/format'

# four execs after the workload's own: /bin/true three times, /bin/echo once
WL="/bin/true; /bin/true; /bin/true; /bin/echo x >/dev/null; exit 0"
EXEC=sched:sched_process_exec

test_must_be_empty() { test ! -s "$1" || { cat "$1"; return 1; }; }
# the filenames of the exec samples of file $1, as perf script prints them
execs() { perf script -i "$1" -F trace 2>/dev/null | sed 's/ pid=.*//'; }
# the count of `stat -x,` output $1
count() { cut -d, -f1 "$1"; }
# perf's message on stderr file $1, and tperf's without its "tperf: " prefix
perf_msg() { grep "failed to set filter" "$1"; }
tperf_msg() { sed -n 's/^tperf: \(failed to set filter\)/\1/p' "$1"; }

test_expect_success PERF,ROOT,TRACEFS 'a filter selects the samples perf selects' '
	perf record -q -o p.data -e $EXEC --filter "filename ~ \"*true\"" -- /bin/sh -c "$WL" &&
	tperf record -q -o t.data -e $EXEC --filter "filename ~ \"*true\"" -- /bin/sh -c "$WL" &&
	execs p.data >expect &&
	execs t.data >actual &&
	printf "filename=/bin/true\n%.0s" 1 2 3 >three &&
	test_cmp three expect &&
	test_cmp expect actual
'

test_expect_success PERF,ROOT,TRACEFS 'a filter that matches nothing records nothing (workload and -a)' '
	perf record -q -o p.data -e $EXEC --filter "filename == \"/nonexistent\"" -- /bin/sh -c "$WL" &&
	tperf record -o t.data -e $EXEC --filter "filename == \"/nonexistent\"" -- /bin/sh -c "$WL" 2>err &&
	execs p.data >expect &&
	execs t.data >actual &&
	test_must_be_empty expect &&
	test_must_be_empty actual &&
	grep -q "Captured and wrote [0-9.]* MB t.data ]$" err &&
	nopid=$(($(cat /proc/sys/kernel/pid_max) + 1)) &&
	perf record -q -a -o p.data -e sched:sched_switch --filter "prev_pid == $nopid" -- sleep 0.2 &&
	tperf record -q -a -o t.data -e sched:sched_switch --filter "prev_pid == $nopid" -- sleep 0.2 &&
	perf script -i p.data >expect 2>/dev/null &&
	perf script -i t.data >actual 2>/dev/null &&
	test_must_be_empty expect &&
	test_must_be_empty actual
'

test_expect_success PERF,ROOT,TRACEFS 'two --filter options: both apply, as perf and-s them' '
	perf record -q -o p.data -e $EXEC --filter "filename ~ \"/bin/*\"" \
		--filter "filename != \"/bin/true\"" -- /bin/sh -c "$WL" &&
	tperf record -q -o t.data -e $EXEC --filter "filename ~ \"/bin/*\"" \
		--filter "filename != \"/bin/true\"" -- /bin/sh -c "$WL" &&
	execs p.data >expect &&
	execs t.data >actual &&
	grep -qx "filename=/bin/echo" expect &&
	test_cmp expect actual
'

test_expect_success PERF,ROOT,TRACEFS 'a field the tracepoint lacks: perf'"'"'s message, exit 255' '
	test_expect_code 255 perf record -o p.data -e sched:sched_switch --filter "nosuch == 1" \
		-a -- sleep 0.1 2>p.err &&
	test_expect_code 255 tperf record -o t.data -e sched:sched_switch --filter "nosuch == 1" \
		-a -- sleep 0.1 2>t.err &&
	perf_msg p.err >expect &&
	echo "failed to set filter \"nosuch == 1\" on event sched:sched_switch with 22 (Invalid argument)" >want &&
	test_cmp want expect &&
	tperf_msg t.err >actual &&
	test_cmp expect actual &&
	test_expect_code 255 perf stat -e $EXEC --filter "nosuch == 1" -- true 2>p.err &&
	test_expect_code 255 tperf stat -e $EXEC --filter "nosuch == 1" -- true 2>t.err &&
	perf_msg p.err >expect &&
	tperf_msg t.err >actual &&
	test_cmp expect actual
'

test_expect_success PERF,ROOT,TRACEFS 'a glob: the filter goes to every event of the last -e' '
	test_expect_code 255 perf record -o p.data -e "sched:sched_process_ex*" \
		--filter "filename ~ \"*true\"" -- true 2>p.err &&
	test_expect_code 255 tperf record -o t.data -e "sched:sched_process_ex*" \
		--filter "filename ~ \"*true\"" -- true 2>t.err &&
	perf_msg p.err >expect &&
	grep -q "on event sched:sched_process_exit with 22" expect &&
	tperf_msg t.err >actual &&
	test_cmp expect actual
'

test_expect_success PERF,ROOT,TRACEFS 'stat --filter counts what perf counts' '
	perf stat -x, -e $EXEC --filter "filename ~ \"*true\"" -- /bin/sh -c "$WL" 2>p.out &&
	tperf stat -x, -e $EXEC --filter "filename ~ \"*true\"" -- /bin/sh -c "$WL" 2>t.out &&
	count p.out >expect &&
	count t.out >actual &&
	echo 3 >three &&
	test_cmp three expect &&
	test_cmp expect actual
'

test_expect_success PERF,ROOT,TRACEFS 'no filter on an event that is not a tracepoint (usage error, as perf)' '
	for ev in cpu-clock cpu-clock,sched:sched_switch sched:sched_switch,cpu-clock; do
		test_expect_code 129 perf record -o p.data -e $ev --filter "common_pid != 0" \
			-- true 2>/dev/null &&
		test_expect_code 129 tperf record -o t.data -e $ev --filter "common_pid != 0" \
			-- true 2>err || exit 1
	done &&
	test_expect_code 129 tperf record --filter "common_pid != 0" -e sched:sched_switch \
		-- true 2>err &&
	echo "tperf: '"'"'--filter common_pid != 0'"'"' must follow a tracepoint event: -e sys:name --filter ..." >expect &&
	test_cmp expect err &&
	test_expect_code 129 tperf stat -e cpu-clock --filter "common_pid != 0" -- true 2>err &&
	echo "tperf: '"'"'--filter common_pid != 0'"'"' must follow a tracepoint event, not '"'"'cpu-clock'"'"'" >expect &&
	test_cmp expect err &&
	test_expect_code 129 perf record -o p.data -e cpu-clock --exclude-perf -- true 2>/dev/null &&
	test_expect_code 129 tperf record -o t.data -e cpu-clock --exclude-perf -- true 2>/dev/null
'

# tperf's own context switches (it sleeps in poll) are the prev side of
# sched_switch with common_pid = its pid; --exclude-perf drops exactly those.
# record_pids FILE [OPTION]: record -a for 0.3 s, print tperf's pid and the
# pids of the samples (one a line)
record_pids() {
	"$TPERF" record -q -a -o "$1" -e sched:sched_switch $2 -- sleep 0.3 &
	local pid=$!
	wait $pid || return 1
	echo "$pid" >"$1.pid"
	"$TPERF" script -i "$1" -F pid | tr -d " " >"$1.pids"
}
test_expect_success ROOT,TRACEFS '--exclude-perf: no sample of tperf itself' '
	record_pids with.data &&
	grep -qx "$(cat with.data.pid)" with.data.pids &&
	record_pids without.data --exclude-perf &&
	test -s without.data.pids &&
	! grep -qx "$(cat without.data.pid)" without.data.pids
'

test_done
