#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: tracefs (tracefs and uprobe_events: changed, then checked restored)
# Event terms and group modifiers in tperf record: call-graph=, max-stack=,
# stack-size= (on any event, tracepoints too), period= and freq= of :S group
# members, time=, inherit=, branch_type=, aux-output, :D and :e on groups.
# The attrs `tperf record --dry-run -vv` prints are those `perf record -vv`
# prints (perf prints an attr before opening it, even one this machine
# cannot open); the recorded files have perf's attrs and chains.
. "$(dirname "$0")/lib.sh"

W=$TESTS_DIR/workloads
test_lazy_prereq CC 'command -v cc'
test_lazy_prereq TRACEFS 'ls /sys/kernel/tracing/events/sched/sched_switch/format'

. "$TESTS_DIR/shell/attr-lib.sh"

# each line of stdin: options for compare_record
compare_cases() {
	while read -r opts; do
		compare_record $opts || { echo "options: $opts"; return 1; }
	done
}

test_expect_success PERF 'call-graph=, max-stack=, stack-size= terms: perf'"'"'s attrs' '
	compare_cases <<-\EOT
	-e cpu-clock/call-graph=fp,max-stack=3/
	-e cpu-clock/max-stack=3/
	-e cpu-clock/max-stack=300/
	-e cpu-clock/call-graph=dwarf/
	-e cpu-clock/call-graph=dwarf,stack-size=4095/
	-e cpu-clock/call-graph=fp,stack-size=16/
	-e cpu-clock/stack-size=4096/ --call-graph dwarf
	-e cpu-clock/call-graph=lbr/
	-e cpu-clock/call-graph=lbr/ --all-kernel
	-e cpu-clock/call-graph=dwarf/ --all-kernel
	-e cpu-clock/call-graph=no/ -g
	-e cpu-clock/call-graph=no/ --call-graph dwarf
	-e cpu-clock/call-graph=fp/ --call-graph dwarf
	-e cpu-clock/call-graph=fp/ --call-graph lbr
	-e cpu-clock/max-stack=5/ --call-graph dwarf
	-e cpu-clock/call-graph=bogus/ -g
	-e cpu-clock,task-clock/call-graph=dwarf/
	-e cpu-clock/call-graph=dwarf/,task-clock -a
	-e cpu-clock/call-graph=fp/ -e task-clock/call-graph=dwarf/
	-e cpu-clock/call-graph=dwarf/ --user-regs=ax
	-e cpu-clock/call-graph=dwarf/ -d
	EOT
'

test_expect_success PERF,ROOT,TRACEFS 'call graph terms on a tracepoint: perf'"'"'s attrs' '
	compare_cases <<-\EOT
	-e sched:sched_switch/call-graph=fp,max-stack=2/
	-e sched:sched_switch/max-stack=4/ -a
	-e sched:sched_switch/call-graph=dwarf/
	-e sched:sched_switch/call-graph=dwarf,stack-size=1024/ -a
	EOT
'

test_expect_success PERF ':S groups keep the members'"'"' period= and freq= terms, as perf' '
	compare_cases <<-\EOT
	-e {cpu-clock/period=1/,task-clock/period=6789000/}:S
	-e {cycles/period=1/,instructions/period=6789000/}:S
	-e {cpu-clock,task-clock/period=6789000/}:S
	-e {cpu-clock,task-clock/freq=99/}:S
	-e {cpu-clock/period=3/,task-clock/freq=5/}:S
	-e {cpu-clock,task-clock/period=5/}:S -c 7
	-e {cpu-clock,task-clock/period=5/}:S -F 7
	-e {cpu-clock,task-clock/period=5/}:S -a
	-e {cpu-clock,task-clock}:S -n
	-e {cpu-clock,task-clock/call-graph=fp/}:S
	-e {cpu-clock/call-graph=dwarf/,task-clock}:S
	-e {cpu-clock,task-clock/inherit=1/}:S
	-e {cpu-clock:S,task-clock}
	-e {cpu-clock,task-clock:S}
	-e {cpu-clock,task-clock}:S,page-faults
	-e cpu-clock:S
	-e cpu-clock:S -g
	EOT
'

test_expect_success PERF,ROOT,TRACEFS ':S groups with a tracepoint: the leader'"'"'s sample_type' '
	compare_cases <<-\EOT
	-e {cpu-clock,sched:sched_switch}:S
	-e {sched:sched_switch,cpu-clock}:S
	-e sched:sched_switch:S
	EOT
'

test_expect_success PERF ':D, :e, :W on a group: pinned and exclusive on the leader only' '
	compare_cases <<-\EOT
	-e {cpu-clock,task-clock}:D
	-e {cpu-clock,task-clock}:e
	-e {cpu-clock,task-clock}:W
	-e {cpu-clock,task-clock/period=100/}:WD
	-e {cpu-clock,task-clock}:SD
	EOT
'

test_expect_success PERF 'period=/freq= (the later wins), time=, inherit=, branch_type=, aux-output' '
	compare_cases <<-\EOT
	-e cpu-clock/freq=20,period=10/
	-e cpu-clock/period=10,freq=20/
	-e cpu-clock/freq=10/ -n
	-e cpu-clock/period=10/ -F 100
	-e cpu-clock/time=0/
	-e cpu-clock/time=1/
	-e cpu-clock/inherit/ --no-inherit
	-e cpu-clock/no-inherit/
	-e cpu-clock/branch_type=any/
	-e cpu-clock/branch_type=u/
	-e cpu-clock/branch_type=any_call/
	-e cpu-clock/branch_type=priv/
	-e cpu-clock/branch_type=hv/
	-e cpu-clock/branch_type=no/
	-e cpu-clock/aux-output/
	-e cpu-clock:k --all-user
	-e cpu-clock:u --all-kernel
	EOT
'

test_expect_success ROOT,TRACEFS 'terms tperf cannot honour are refused, not ignored' '
	test_expect_code 129 tperf record --dry-run -e cpu-clock/overwrite/ -- true 2>err &&
	echo "tperf: '"'"'cpu-clock/overwrite/'"'"': the overwrite term (a backward ring buffer kept until the end) is not supported by tperf record; drop it" >expect &&
	test_cmp expect err &&
	test_expect_code 129 tperf record --dry-run -e cpu-clock/aux-sample-size=4096/ -- true 2>err &&
	grep -q "aux-sample-size needs an AUX area event" err &&
	test_expect_code 129 tperf record --dry-run -e cpu-clock/branch_type=bogus/ -- true 2>err &&
	grep -q "unknown branch filter '"'"'bogus'"'"'" err &&
	test_expect_code 129 tperf stat -e cpu-clock/call-graph=fp/ true 2>err &&
	grep -q "'"'"'call-graph'"'"' is not usable in '"'"'tperf stat'"'"'" err &&
	test_expect_code 129 tperf record --dry-run -e sched:sched_switch/period=3/ -- true 2>err &&
	grep -q "unknown term '"'"'period'"'"' for tracepoint" err
'

test_expect_success CC 'build the call tree workload' '
	cc -O0 -g -fno-omit-frame-pointer -o "$TRASH"/calltree $W/record-calltree.c
'

# the depth of each sample's chain in file $1, one number a line
chain_depths() {
	perf script -i "$1" -F ip 2>/dev/null |
		awk "NF == 0 { if (n) print n; n = 0; next } { n++ } END { if (n) print n }"
}
# the chains of file $1 as "sym sym sym", one a line
chains() {
	perf script -i "$1" -F ip,sym 2>/dev/null |
		awk "NF == 0 { if (c != \"\") print c; c = \"\"; next }
		     { c = c (c == \"\" ? \"\" : \" \") \$2 } END { if (c != \"\") print c }"
}

test_expect_success PERF,CC 'max-stack=3: the recorded chains stop at 3 frames, as perf'"'"'s' '
	perf record -q -o p.data -e cpu-clock/max-stack=3/ -- "$TRASH"/calltree 100 &&
	tperf record -q -o t.data --no-bpf-event -e cpu-clock/max-stack=3/ -- "$TRASH"/calltree 100 &&
	perf evlist -v -i p.data >expect &&
	perf evlist -v -i t.data >actual &&
	test_cmp expect actual &&
	for f in p.data t.data; do
		chain_depths $f | sort -n | tail -1 >max &&
		echo 3 >three &&
		test_cmp three max &&
		chains $f | grep -qx "spin work_four run" || exit 1
	done
'

test_expect_success PERF,CC 'call-graph=dwarf: the user stack is recorded and perf unwinds it' '
	perf record -q -o p.data -e cpu-clock/call-graph=dwarf/ -- "$TRASH"/calltree 100 &&
	tperf record -q -o t.data --no-bpf-event -e cpu-clock/call-graph=dwarf/ -- "$TRASH"/calltree 100 &&
	perf evlist -v -i p.data >expect &&
	perf evlist -v -i t.data >actual &&
	test_cmp expect actual &&
	chains t.data | grep -q "^spin work_four run main" &&
	chains p.data | grep -q "^spin work_four run main"
'

test_expect_success PERF,CC,ROOT,TRACEFS 'a tracepoint with max-stack=2 alone: frame pointer chains of 2' '
	tperf record -q -a -o t.data -e sched:sched_switch/max-stack=2/ -- sleep 0.2 &&
	chain_depths t.data | sort -n | tail -1 >max &&
	echo 2 >two &&
	test_cmp two max
'

test_expect_success PERF,CC,ROOT,TRACEFS 'a uprobe with max-stack=2 alone: perf'"'"'s attr, chains of 2' '
	test_when_finished "tperf probe -q -d \"probe_calltree:*\" 2>/dev/null; :" &&
	tperf probe -q -x "$TRASH"/calltree work_four &&
	compare_record -e probe_calltree:work_four/max-stack=2/ &&
	tperf record -q -o t.data -e probe_calltree:work_four/max-stack=2/ -- "$TRASH"/calltree 20 &&
	chains t.data | sort | uniq -c >actual &&
	echo "     20 work_four run" >expect &&
	test_cmp expect actual
'

test_expect_success PERF ':S group with period terms: the file'"'"'s attrs are perf'"'"'s' '
	perf record -q -o p.data -e "{cpu-clock/period=1000000/,task-clock/period=6789000/}:S" -- true &&
	tperf record -q -o t.data --no-bpf-event -e "{cpu-clock/period=1000000/,task-clock/period=6789000/}:S" -- true &&
	perf evlist -v -i p.data >expect &&
	perf evlist -v -i t.data >actual &&
	test_cmp expect actual
'

test_done
