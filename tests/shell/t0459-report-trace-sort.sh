#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: alone (system-wide tracepoints and tracefs)
# report of files whose events are all tracepoints (or probes): perf 6.1's
# default is the "Trace output" table (--sort trace; trace_fields with
# --raw-trace), not with a dummy event (-a) nor in pipe mode; trace_fields,
# EVENT.*, %N.*, /raw, --raw-trace and "+key" sort lists, against perf on
# files recorded by perf and by tperf.
. "$(dirname "$0")/lib.sh"

UP=$DATA_DIR/kdab-uprobe-tracepoint
test_lazy_prereq TRACEFS 'ls /sys/kernel/tracing/events/sched/sched_switch/format'
test_lazy_prereq SYSCALLS 'ls /sys/kernel/tracing/events/syscalls/sys_enter_read/format'

# perf's and tperf's report --stdio of $1 with the options that follow
same_as_perf() {
	f=$1; shift
	perf report -i "$f" --stdio "$@" 2>/dev/null | grep -v "^# (Tip" >expect &&
	tperf report -i "$f" --stdio "$@" | grep -v "^# (Tip" >actual &&
	test_cmp expect actual
}

MODES="-n;--no-children;--sort trace_fields;--raw-trace;--sort trace_fields/raw,comm"
MODES="$MODES;--sort +pid;--sort pid,trace_fields;--sort trace,next_pid;--raw-trace --sort trace"
MODES="$MODES;-F overhead,sample,trace;--sort prev_state/raw,prev_comm;--sort %1.*,comm"
MODES="$MODES;--sort sched:sched_process_exec.*;--sort filename;--sort comm,filename;--sort="

# each mode of "$2" (separated by ";") on file $1
all_modes() {
	echo "$2" | tr ";" "\n" | while read -r m; do
		same_as_perf "$1" $m || exit 1
	done
}

work() { sh -c 'for i in 1 2 3; do cat /etc/hostname >/dev/null; ls / >/dev/null; sleep 0.01; done'; }
export -f work
EV="-e sched:sched_switch -e sched:sched_wakeup -e sched:sched_process_exec"

test_expect_success PERF,ROOT,TRACEFS 'a workload'"'"'s tracepoints: the trace table and its keys' '
	perf record -q -o "$TRASH/p.data" $EV -- bash -c work 2>/dev/null &&
	tperf record -q -o "$TRASH/t.data" $EV -- bash -c work &&
	for f in "$TRASH/p.data" "$TRASH/t.data"; do
		same_as_perf $f &&
		grep -q "^# Overhead  Trace output  *$" actual &&
		grep -q "^ *[0-9.]*%  prev_comm=.* ==> next_comm=" actual &&
		all_modes $f "$MODES" &&
		# "sched" is in every event name: perf finds no one event
		test_expect_code 129 tperf report -i $f --stdio --sort sched.prev_pid 2>err &&
		grep -q "^error: unknown sort key in '"'"'sched.prev_pid'"'"'" err || exit 1
	done
'

test_expect_success PERF,ROOT,TRACEFS 'with callchains, and with a software event among them' '
	perf record -q -g -o g.data $EV -- bash -c work 2>/dev/null &&
	all_modes g.data ";--no-children;--sort trace_fields;-g caller --raw-trace" &&
	perf record -q -o mix.data -e sched:sched_switch -e cpu-clock -- bash -c work 2>/dev/null &&
	same_as_perf mix.data && grep -q "^# Overhead  Command  *Shared Object  *Symbol" actual &&
	all_modes mix.data "--sort trace;--sort trace_fields,comm"
'

test_expect_success PERF,ROOT,TRACEFS '-a adds a dummy event: comm, dso, sym as perf' '
	perf record -q -a -o a.data $EV -- sleep 0.1 2>/dev/null &&
	same_as_perf a.data && grep -q "^# Overhead  Command  *Shared Object  *Symbol" actual &&
	tperf record -q -a -o ta.data $EV -- sleep 0.1 &&
	same_as_perf ta.data && grep -q "^# Overhead  Command  *Shared Object  *Symbol" actual &&
	all_modes a.data "--sort trace;--sort trace_fields;--raw-trace --sort trace_fields,pid"
'

test_expect_success PERF,ROOT,SYSCALLS 'system call tracepoints (fields perf shows empty)' '
	perf record -q -o rd.data -e syscalls:sys_enter_read -e syscalls:sys_exit_read -- \
		sh -c "cat /etc/passwd /etc/hostname >/dev/null" 2>/dev/null &&
	tperf record -q -o trd.data -e syscalls:sys_enter_read -e syscalls:sys_exit_read -- \
		sh -c "cat /etc/passwd /etc/hostname >/dev/null" &&
	for f in rd.data trd.data; do
		all_modes $f ";--sort trace_fields;--raw-trace;--sort fd,count/raw;--sort ret" || exit 1
	done
'

test_expect_success 'a probe-only file: the trace table; pipe mode: comm, dso, sym' '
	tperf report -i $UP/probe.data.file --stdio -q >actual &&
	printf "%s\n" "   100.00%  (55d1db02856" "" "" >expect &&
	test_cmp expect actual &&
	tperf report -i $UP/probe.data.file --stdio >out &&
	grep -q "^# Overhead  Trace output$" out &&
	for o in --raw-trace "--sort trace_fields" "--sort %1.*/raw"; do
		tperf report -i $UP/probe.data.file --stdio -q $o >actual &&
		printf "%s\n" "   100.00%      0x55d1db028560" "" "" >expect &&
		test_cmp expect actual || exit 1
	done &&
	tperf report -i $UP/probe.data.stream --stdio -q >actual &&
	printf "%s\n" "   100.00%  untitled1  untitled1         [.] 0x0000000000000560" "" "" >expect &&
	test_cmp expect actual
'

test_expect_success PERF 'the probe fixture: perf'"'"'s default, trace_fields, raw' '
	all_modes $UP/probe.data.file ";--sort trace_fields;--raw-trace;--sort +comm;--sort=" &&
	perf report -i - --stdio <$UP/probe.data.stream 2>/dev/null | grep -v "^# (Tip" >expect &&
	tperf report -i - --stdio <$UP/probe.data.stream | grep -v "^# (Tip" >actual &&
	test_cmp expect actual
'

test_expect_success 'keys no event has, ambiguous events, bad options: usage errors' '
	for k in nosuch probe_untitled1:nosuch.* untitled.nosuch __probe_ip/cooked; do
		test_expect_code 129 tperf report -i $UP/probe.data.file --stdio --sort $k >out 2>err &&
		test ! -s out && grep -q "^error: unknown sort key in '"'"'$k'"'"'" err || exit 1
	done &&
	test_expect_code 129 tperf report -i $UP/probe.data.file --stdio --sort + 2>err &&
	grep -q "^error: invalid --sort key: '"'"'+'"'"'" err &&
	test_expect_code 129 tperf report -i $UP/probe.data.file --stdio -F overhead,__probe_ip 2>err &&
	grep -q "^error: unknown field '"'"'__probe_ip'"'"'" err
'

test_done
