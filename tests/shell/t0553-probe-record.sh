#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: tracefs (tracefs and uprobe_events: changed, then checked restored)
# tperf record of probe events: sdt_* markers get their uprobes for the run
# (semaphores set, deleted on every way out), probes made by 'tperf probe'
# are recorded with their argument values (PERF_SAMPLE_RAW), and Linux
# perf's 'perf script' decodes the values from tperf's file (the tracing
# data tperf writes): they equal what the program computed; 'tperf script'
# prints them as perf script does.
. "$(dirname "$0")/lib.sh"

B=$TRASH/bin
sh "$TESTS_DIR/probe/build.sh" "$B" || fail_all "cannot build the probe targets"
export PERF_BUILDID_DIR=$TRASH/.debug
UE=/sys/kernel/tracing/uprobe_events
cleanup='tperf probe -q -d "probe_target*:*" -d "sdt_target*:*" 2>/dev/null; :'

# The events' names and fields, as perf script decodes them.
values() {
	HOME=$TRASH perf script -i "$1" -F event,trace 2>/dev/null | sed "s/^ *//; s/: ([0-9a-f <-]*)//"
}

test_expect_success ROOT,PERF 'record -e sdt_*: the markers of the workload and its library' '
	test_when_finished "$cleanup" &&
	tperf record -q -o sdt.data -e sdt_target:loop -e sdt_targetlib:scale \
		-- "$B/target2" one >/dev/null &&
	values sdt.data >actual &&
	cat >expect <<-\EOT &&
	sdt_target:loop arg1=0
	sdt_target:loop arg1=1
	sdt_target:loop arg1=2
	sdt_target:loop arg1=3
	sdt_target:loop arg1=4
	sdt_targetlib:scale arg1=2
	EOT
	test_cmp expect actual &&
	! grep -q "sdt_target" $UE
'

test_expect_success ROOT,PERF 'record -e sdt_*: a marker behind a semaphore fires' '
	test_when_finished "$cleanup" &&
	tperf record -q -o sem.data -e sdt_target:sem -e sdt_target:visited -- "$B/target0" >/dev/null &&
	values sem.data | sed "s/ arg1=[0-9]*$/ arg1=PTR/" >actual &&
	cat >expect <<-\EOT &&
	sdt_target:sem arg1=PTR
	sdt_target:visited arg1=3 arg2=169
	EOT
	test_cmp expect actual &&
	! grep -q "sdt_target" $UE
'

test_expect_success ROOT,PERF 'record -e sdt_*: an event made beforehand is used and kept' '
	test_when_finished "$cleanup" &&
	tperf probe -q -x "$B/target0" sdt_target:loop &&
	tperf record -q -o kept.data -e sdt_target:loop -- "$B/target0" >/dev/null &&
	test $(values kept.data | wc -l) = 5 &&
	grep -q "^p:sdt_target/loop " $UE
'

test_expect_success ROOT,PERF 'record of probes: the values equal what the program computed' '
	test_when_finished "$cleanup" &&
	for bin in target0 target2; do
		tperf probe -q -x "$B/$bin" "add a b" &&
		tperf probe -q -x "$B/$bin" "visit it->name:string it[2].tag:string n counter" &&
		tperf probe -q -x "$B/$bin" "visit%return \$retval" &&
		tperf record -q -o $bin.data -e "probe_$bin:*" -- "$B/$bin" >out &&
		values $bin.data >actual &&
		{
			for i in 0 1 2 3 4; do
				echo "probe_$bin:add a=$((i * (i - 1) / 2)) b=$i"
			done
			echo "probe_$bin:visit name=\"one\" tag=\"t3\" n=3 counter=$(cut -d" " -f3 out)"
			echo "probe_$bin:visit__return arg1=0x$(printf %x $(cut -d" " -f2 out))"
		} >expect &&
		test_cmp expect actual || return 1
	done
'

test_expect_success ROOT,PERF 'tperf script prints the probe records as perf script' '
	test_when_finished "$cleanup" &&
	tperf probe -q -x "$B/target0" "visit it->name:string it[1].weight n" &&
	tperf probe -q -x "$B/target0" "add%return \$retval" &&
	tperf record -q -o s.data -e "probe_target0:*" -e sdt_target:loop -e sdt_targetlib:scale \
		-- "$B/target0" >/dev/null &&
	for f in "" "-F event,trace" "-F comm,pid,event,trace"; do
		HOME=$TRASH perf script -i s.data $f 2>/dev/null >expect &&
		test $(wc -l <expect) = 12 &&
		tperf script -i s.data $f >actual &&
		test_cmp expect actual || return 1
	done &&
	grep -q "probe_target0:visit: ([0-9a-f]*) name=\"one\" weight=20 n=3$" actual
'

test_expect_success ROOT 'record -e sdt_*: the probes go when tperf is stopped by a signal' '
	test_when_finished "$cleanup" &&
	for sig in INT TERM HUP; do
		# (a background job of a script ignores INT: set it back)
		(trap - INT; exec "$TPERF" record -q -o sig.data -e sdt_target:loop \
			-- "$B/target2" sleep >/dev/null 2>&1) &
		pid=$! &&
		for i in $(seq 100); do
			grep -q sdt_target $UE && break
			sleep 0.05
		done &&
		grep -q "^p:sdt_target/loop " $UE &&
		sleep 0.2 && kill -$sig $pid
		wait $pid
		test $? = $((128 + $(kill -l $sig))) || exit 1
		for i in $(seq 100); do
			grep -q sdt_target $UE || break
			sleep 0.1
		done
		! grep -q sdt_target $UE || exit 1
	done
'

test_expect_success 'record -e sdt_*: errors' '
	test_must_fail tperf record -o err.data -e sdt_target:loop "$B/target2" 2>err &&
	grep -q "SDT events need the workload after '"'"'--'"'"' (tperf record -e sdt_target:loop -- ./prog), or the event made first with '"'"'tperf probe -x BINARY sdt_target:loop'"'"'" err &&
	test_must_fail tperf record -o err.data -e sdt_target:nosuch -- "$B/target2" 2>err &&
	grep -q "no SDT marker '"'"'sdt_target:nosuch'"'"' in '"'"'$B/target2'"'"' or its libraries" err &&
	test ! -e err.data &&
	test_must_fail tperf record -o err.data -e sdt_target:loop -- nosuch-prog-t0553 2>err &&
	grep -q "'"'"'sdt_target:loop'"'"': cannot find the workload '"'"'nosuch-prog-t0553'"'"' to look for the SDT marker in: give its path" err
'

test_done
