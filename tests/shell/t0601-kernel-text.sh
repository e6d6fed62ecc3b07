#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: alone (system-wide tracepoints and tracefs)
# The payload text tperf script prints for a tracepoint equals the text the
# kernel writes in tracefs's `trace` for the same occurrence: the same
# events are recorded at once by a tracefs instance of our own (perf clock,
# raw pointers) and by `tperf record -a`, then the records are matched by
# CPU, event and time (tests/shell/match-kernel-text.pl, which names the
# few differences a perf.data cannot reproduce, or libtraceevent gets wrong).
. "$(dirname "$0")/lib.sh"

test_lazy_prereq INSTANCES 'test -d /sys/kernel/tracing/instances && grep -qw perf /sys/kernel/tracing/trace_clock'
test_lazy_prereq PERL 'command -v perl'

TP_EVENTS="sched:sched_switch sched:sched_wakeup sched:sched_process_fork sched:sched_process_exec
	sched:sched_process_exit irq:* raw_syscalls:sys_enter raw_syscalls:sys_exit timer:* kmem:*"

work() { sh -c 'for i in 1 2 3 4 5; do cat /etc/hostname >/dev/null; ls / >/dev/null; sleep 0.01; done'; }
export -f work

test_expect_success ROOT,INSTANCES,PERL 'tperf script payloads equal the kernel trace text' '
	I=/sys/kernel/tracing/instances/tperf-t0601-$$ &&
	mkdir $I &&
	test_when_finished "echo 0 >$I/tracing_on; rmdir $I" &&
	echo perf >$I/trace_clock &&
	if test -e $I/options/hash-ptr; then echo 0 >$I/options/hash-ptr; fi &&
	echo 0 >$I/options/overwrite &&
	echo 16384 >$I/buffer_size_kb &&
	args= &&
	for e in $TP_EVENTS; do
		sys=${e%%:*} name=${e#*:} &&
		if test "$name" = "*"; then echo 1 >$I/events/$sys/enable; else echo 1 >$I/events/$sys/$name/enable; fi &&
		args="$args -e $e" || exit 1
	done &&
	tperf record -q -a -m 1024 -o t.data $args -- bash -c work &&
	echo 0 >$I/tracing_on &&
	cat $I/trace >trace.txt &&
	tperf script -i t.data -F cpu,time,event,trace >script.txt &&
	{ perl "$TESTS_DIR/shell/match-kernel-text.pl" trace.txt script.txt >result; rc=$?; } &&
	cat result && test $rc = 0 &&
	for ev in sched_switch sched_wakeup sched_process_fork sched_process_exec \
		sched_process_exit sys_enter sys_exit; do
		grep -q "^$ev  *matched  *[1-9]" result || { echo "nothing matched for $ev"; exit 1; }
	done
'

test_expect_success 'the matcher fails an event whose payloads differ' '
	printf "%s\n" "# tracer: nop" \
		"           <...>-12      [001] d..2.   100.000010: sched_switch: prev_comm=a prev_pid=1" \
		"           <...>-12      [001] d..2.   100.000020: sys_enter: NR 1 (0, 0)" \
		"           <...>-12      [001] d..2.   100.000300: sys_enter: NR 1 (0, 0)" >trace.txt &&
	printf "%s\n" "[001]   100.000011: sched:sched_switch: prev_comm=a prev_pid=1" \
		"[001]   100.000020: raw_syscalls:sys_enter: NR 1 (0, 1)" \
		"[001]   100.000300: raw_syscalls:sys_enter: NR 1 (0, 1)" \
		"[000]   100.000020: raw_syscalls:sys_enter: NR 1 (0, 1)" >script.txt &&
	test_expect_code 1 perl "$TESTS_DIR/shell/match-kernel-text.pl" trace.txt script.txt >actual &&
	cat >expect <<-\EOT &&
	sched_switch                 matched      1  mismatched    0  unmatched     0
	sys_enter                    matched      0  mismatched    2  unmatched     1
	MISMATCH sys_enter
	  tperf:  NR 1 (0, 1)
	  kernel: NR 1 (0, 0)
	MISMATCH sys_enter
	  tperf:  NR 1 (0, 1)
	  kernel: NR 1 (0, 0)
	EOT
	test_cmp expect actual
'

test_done
