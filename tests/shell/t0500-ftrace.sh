#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: tracefs (tracefs and uprobe_events: changed, then checked restored)
# tperf ftrace: trace.dat written by tperf read by trace-cmd and by show,
# payloads equal to the kernel's own text, trace-cmd's files (arm32) shown
# as trace-cmd report shows them, report counts, and tracefs left as it was
# on every exit path (normal, SIGINT, failing workload, refused tracer).
. "$(dirname "$0")/lib.sh"

TFS=/sys/kernel/tracing
FIX=$DATA_DIR/trappy-trace-dat-arm32
EVENTS="-e sched:sched_switch -e sched:sched_wakeup -e sched:sched_process_* -e irq:* -e timer:*"

# tracefs's top-level state, compared before and after each run
state() {
	for f in current_tracer set_event tracing_on buffer_size_kb uprobe_events; do
		echo "$f: $(cat $TFS/$f)"
	done
	echo "instances: $(ls $TFS/instances)"
}

test_expect_success 'show on trace-cmd'"'"'s arm32 file prints what trace-cmd report printed' '
	tperf ftrace show -i "$FIX/trace.dat" >out &&
	head -100 out >head &&
	test_cmp "$FIX/expected-trace-cmd-report-head.txt" head &&
	wc -l <out >count &&
	test_cmp "$FIX/expected-trace-cmd-report-linecount.txt" count
'

# Found by fuzz-trace-dat: garbage after a format's print fmt line made
# libtraceevent 1.7 dereference NULL; only the format text reaches it now.
test_expect_success 'a format with bytes after its print fmt line does not crash show' '
	test_expect_code 1 tperf ftrace show -i "$SRC_DIR/tests/fuzz/corpus/trace-dat/regress-spliced-format" >out 2>err &&
	grep -q "^tperf: .*regress-spliced-format.: truncated: event format needs .* at offset 3661$" err
'

test_expect_success 'a truncated trace.dat is refused naming the file and the offset' '
	head -c 2000 "$FIX/trace.dat" >cut.dat &&
	test_expect_code 1 tperf ftrace show -i cut.dat 2>err &&
	echo "tperf: '"'"'cut.dat'"'"': truncated: event format needs 698 bytes, 683 left at offset 1317" >expect &&
	test_cmp expect err &&
	printf "nothing" >bad.dat &&
	test_expect_code 1 tperf ftrace show -i bad.dat 2>err &&
	echo "tperf: '"'"'bad.dat'"'"': not a trace.dat file (bad magic) at offset 0" >expect &&
	test_cmp expect err
'

# Found by CI (t0501): libtraceevent keeps the comms handed to it (the
# file's cmdlines, then those the sched plugin prints) in a list until its
# first look-up of a pid other than 0, and sorts them then: with the first
# events all task 0's, which of a pid's two names wins depends on every
# entry of that list.  Files of 0 to 11 other cmdlines move the search.
test_lazy_prereq SCHED_FORMATS 'test -r /sys/kernel/tracing/events/sched/sched_switch/format && command -v python3 && command -v trace-cmd'
test_expect_success SCHED_FORMATS 'a pid named in the cmdlines and otherwise in task 0'"'"'s first events: trace-cmd'"'"'s name' '
	for k in 0 1 2 3 4 5 6 7 8 9 10 11; do
		{
			for i in $(seq 1 $k); do echo "comm $((200 + i)) f$i"; done &&
			echo "comm 100 bbb" &&
			echo "0 1000 0 sched_wakeup aaa 100 120 0" &&
			echo "1 1500 0 sched_wakeup ccc 300 120 1" &&
			echo "0 2000 0 sched_switch swapper/0 0 120 0 aaa 100 120" &&
			echo "0 3000 100 sched_switch aaa 100 120 1 swapper/0 0 120" &&
			echo "1 4000 300 sched_switch ccc 300 120 1 swapper/1 0 120"
		} >spec &&
		python3 "$TESTS_DIR/shell/mk-trace-dat.py" c.dat <spec &&
		tperf ftrace show -i c.dat >show &&
		trace-cmd report -i c.dat >tc 2>/dev/null &&
		test_cmp tc show || exit 1
	done
'

test_expect_success ROOT 'record during a workload: show equals trace-cmd report and the kernel text' '
	state >before &&
	inst=$TFS/instances/tperf-test-$$ &&
	test_when_finished "rmdir $inst 2>/dev/null; true" &&
	mkdir $inst &&
	for e in sched/sched_switch sched/sched_wakeup $inst/events/sched/sched_process_* irq timer; do
		echo 1 >$inst/events/${e#$inst/events/}/enable || exit 1
	done &&
	tperf ftrace record $EVENTS -a -o rec.dat -- sh -c "for i in 1 2 3 4 5 6 7 8; do ls / >/dev/null; sleep 0.01; done" 2>summary &&
	echo 0 >$inst/tracing_on &&
	cat $inst/trace >kernel.txt &&
	rmdir $inst &&
	state >after &&
	test_cmp before after &&
	grep -E "^\[ tperf ftrace: [0-9]+ events from [0-9]+ CPUs, 0 lost, wrote [0-9.]+ MB rec.dat \]$" summary &&
	tperf ftrace show -i rec.dat >show.txt &&
	trace-cmd report -i rec.dat >tc.txt 2>/dev/null &&
	test_cmp tc.txt show.txt &&
	# "name: payload" of each event, as the kernel printed them and as show
	# did; sched_switch/sched_wakeup are printed by libtraceevent'"'"'s plugin
	# (as trace-cmd does) and timers show %p (hashed by the kernel): left out
	keep="^\(irq_handler\|softirq\|sched_process\)" &&
	sed -n "s/^.*[0-9]: \([a-z_]*\): \(.*\)$/\1: \2/p" kernel.txt | grep "$keep" | sort -u >k &&
	sed -n "s/^.*[0-9]: \([a-z_]*\): *\(.*\)$/\1: \2/p" show.txt | grep "$keep" | sort -u >s &&
	comm -12 k s >both &&
	test $(wc -l <both) -ge 10 &&
	# events of those kinds in show but not in the kernel text: few (the edges)
	test $(comm -13 k s | wc -l) -le $(( $(wc -l <s) / 10 ))
'

test_expect_success ROOT 'report counts equal those computed from show' '
	tperf ftrace record $EVENTS -a -o rec.dat -- sh -c "ls / >/dev/null; sleep 0.05" 2>/dev/null &&
	tperf ftrace show -i rec.dat | sed 1d | awk "{ for (i = 1; i <= NF; i++) if (\$i ~ /^[0-9]+\.[0-9]+:$/) { print \$(i+1); break } }" |
		sed "s/:$//" | sort | uniq -c | awk "{ print \$2, \$1 }" | sort >expect &&
	tperf ftrace report -i rec.dat --sort event | sed -n "s/^ *[0-9.]*%  *\([0-9]*\)  [a-z_]*:\([a-z_]*\)$/\2 \1/p" | sort >actual &&
	test_cmp expect actual &&
	tperf ftrace show -i rec.dat --event sched:sched_switch | sed 1d >sw &&
	tperf ftrace report -i rec.dat --sort sched:sched_switch.prev_state | sed -n "s/^ *[0-9.]*%  *\([0-9]*\) .*/\1/p" |
		awk "{ s += \$1 } END { print s }" >n &&
	wc -l <sw >expect &&
	test_cmp expect n
'

# UBSan (make SANITIZE=1 check) saw qsort() given no array for no event
test_expect_success ROOT 'a recording without events: report prints the empty table' '
	tperf ftrace record -e sched:sched_process_fork -o none.dat -- true 2>err &&
	grep -q "^\[ tperf ftrace: 0 events from 0 CPUs, 0 lost, wrote .* none.dat \]$" err &&
	tperf ftrace report -i none.dat >out &&
	printf "%s\n" "# Samples: 0" "#" "# Overhead   Samples  event" "# ........  ........" "#" >expect &&
	test_cmp expect out
'

test_expect_success ROOT 'SIGINT stops the recording, writes the file and restores tracefs' '
	state >before &&
	{ "$TPERF" ftrace record -e sched:sched_switch -a -o int.dat 2>err & } &&
	pid=$! &&
	test_when_finished "kill -TERM $pid 2>/dev/null; true" &&
	# the handler is in place once the instance exists
	for i in $(seq 100); do test -d $TFS/instances/tperf-$pid && break; sleep 0.1; done &&
	sleep 0.3 && kill -INT $pid && wait $pid &&
	state >after &&
	test_cmp before after &&
	grep -q "wrote .* int.dat" err &&
	tperf ftrace show -i int.dat >/dev/null
'

test_expect_success ROOT 'a failing workload leaves tracefs as it was' '
	state >before &&
	test_expect_code 1 tperf ftrace record -e sched:sched_switch -o f.dat -- /nonexistent/cmd 2>err &&
	echo "tperf: cannot run '"'"'/nonexistent/cmd'"'"': No such file or directory" >expect &&
	test_cmp expect err &&
	state >after &&
	test_cmp before after
'

test_expect_success ROOT 'a refused or absent tracer: one message, tracefs as it was' '
	state >before &&
	test_expect_code 1 tperf ftrace record -t function_graph -o f.dat -- true 2>err &&
	echo "tperf: the '"'"'function_graph'"'"' tracer is not available in this kernel: trace events instead (-e SYS:NAME)" >expect &&
	test_cmp expect err &&
	test_expect_code 1 tperf ftrace record -o f.dat -- true 2>err &&
	grep -q "function" err &&
	test_expect_code 1 tperf ftrace latency -T schedule -- true 2>err &&
	test_cmp expect err &&
	state >after &&
	test_cmp before after
'

test_expect_success ROOT '-p of a process that does not exist: an error, nothing recorded' '
	state >before &&
	dead=$(sh -c "echo \$\$") &&
	echo "tperf: cannot find process '"'"'$dead'"'"': no such process; check the ids with '"'"'ps'"'"'" >expect &&
	test_expect_code 255 tperf ftrace record -p $dead -e sched:sched_switch -o p.dat 2>err &&
	test_cmp expect err &&
	test ! -e p.dat &&
	test_expect_code 255 tperf ftrace -p $dead -e sched:sched_switch 2>err &&
	test_cmp expect err &&
	state >after &&
	test_cmp before after
'

test_expect_success ROOT 'live mode prints the instance'"'"'s trace_pipe' '
	state >before &&
	tperf ftrace -e sched:sched_process_exec -- /bin/true >live &&
	grep -q "sched_process_exec: filename=/bin/true" live &&
	state >after &&
	test_cmp before after
'

test_done
