#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf report --comms, --pid, --tid, --dsos, --symbols, --cpu, --time
# (through the shared sample filter) as perf 6.1 applies them: hidden
# samples still count in the totals, one-item lists drop their column and
# print "# comm: X", --cpu and --time drop samples.  The --cpu recording is
# pinned to one CPU, so that the other has no sample.
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/shell/report-lib.sh"

test_expect_success CC 'build the call tree workload' '
	build_calltree
'

test_expect_success PERF 'record two processes, and one with the CPU of each sample' '
	perf_rec two -F 999 -g -- sh -c "\"$TRASH/calltree\" 200; ls -R /usr/lib >/dev/null" &&
	: perf itself pinned: taskset under it ran a moment on the other CPU &&
	taskset -c 0 perf record -q -o "$TRASH/sys.data" -e cpu-clock:u -F 999 -g --sample-cpu \
		-- "$TRASH/calltree" 100 >/dev/null 2>&1 && test -s "$TRASH/sys.data"
'

first_tid() { perf script -i "$1" -F tid 2>/dev/null | head -1 | tr -d " "; }
# the time of the Nth sample, "sec.usec"
time_of() { perf script -i "$1" -F time 2>/dev/null | sed -n "$2p" | tr -d ": "; }

test_expect_success PERF 'comm, pid, tid, dso, symbol lists' '
	f=$TRASH/two.data &&
	for o in "--comms ls" "--comms ls,calltree" "--pid 1" "--tid $(first_tid $f)" \
		"--dsos libc.so.6" "--dsos libc.so.6,[kernel.kallsyms]" "--symbols spin" \
		"--symbols spin,main" "--comms calltree --dsos calltree"; do
		same_as_perf $f --no-children -g none $o || exit 1
		same_as_perf $f --no-children $o || exit 1
	done
'

test_expect_success PERF 'one-item lists: the column goes, a comment names it' '
	tperf report -i "$TRASH/two.data" --stdio --no-children -g none --comms ls >out &&
	sed -n 3p out >actual &&
	echo "# comm: ls" >expect &&
	test_cmp expect actual &&
	grep -q "^# Overhead  Shared Object  *Symbol" out
'

# the CPU of the workload's samples
first_cpu() {
	perf script -i "$1" -F comm,cpu --comms calltree 2>/dev/null | head -1 |
		sed "s/.*\[//; s/\].*//"
}

# --percentage relative: the totals of what the sample filters let through;
# --symbol-filter: entries whose symbol has the text, of the first event
test_expect_success PERF '--percentage relative and --symbol-filter' '
	f=$TRASH/two.data &&
	for o in "--comms ls --percentage relative" "--dsos libc.so.6 --percentage relative" \
		"--percentage absolute --comms calltree" "--symbol-filter=work" \
		"--symbol-filter=work --percentage relative" "--symbol-filter=nosuchname"; do
		same_as_perf $f --no-children -g none $o || exit 1
		same_as_perf $f --no-children $o || exit 1
	done &&
	same_as_perf $f --symbol-filter=work &&
	tperf report -i $f --stdio -g none --symbol-filter=work_ -q >out &&
	test $(grep -c % out) -ge 3 && ! grep -v "work_" out | grep -q % &&
	tperf report -i $f --stdio --no-children -g none --comms ls --percentage relative >rel &&
	tperf report -i $f --stdio --no-children -g none --comms ls >abs &&
	! cmp -s rel abs
'

test_expect_success PERF 'cpu and time' '
	f=$TRASH/sys.data &&
	for o in "--cpu $(first_cpu $f)" "--cpu 0-1" "--time 10%/2" "--time 0%-50%" \
		"--time $(time_of $f 20)," "--time ,$(time_of $f 20)" \
		"--time $(time_of $f 5),$(time_of $f 40)"; do
		same_as_perf $f --no-children -g none $o || exit 1
		same_as_perf $f --no-children $o || exit 1
	done
'

test_expect_success PERF 'no sample left: the first lines only, and a warning' '
	c=$(first_cpu "$TRASH/sys.data") &&
	tperf report -i "$TRASH/sys.data" --stdio --cpu $((1 - c)) >out 2>err &&
	printf "%s\n" "# To display the perf.data header info, please use --header/--header-only options." "#" >expect &&
	test_cmp expect out &&
	echo "tperf: warning: '"'"'$TRASH/sys.data'"'"' has no samples that pass the filters" >expect &&
	test_cmp expect err
'

test_expect_success PERF '--cpu on a file without CPUs is an error' '
	test_expect_code 1 tperf report -i "$TRASH/two.data" --stdio --cpu 1 >/dev/null 2>err &&
	grep -q "^tperf: .*two.data.*--cpu" err
'

test_expect_success 'bad lists are usage errors' '
	test_expect_code 129 tperf report -i /dev/null --pid abc 2>err &&
	test -s err &&
	test_expect_code 129 tperf report -i /dev/null --time nonsense 2>err &&
	grep -q "invalid time string" err &&
	test_expect_code 129 tperf report -i /dev/null --percentage some 2>err &&
	grep -q "relative or absolute" err
'

# perf's hist entry keeps the filter state of the sample that made it: a
# sample --tid hides adds to a shown entry with its keys (another thread
# of the comm), a shown one to a hidden entry.  Synthetic samples of two
# processes of one comm (tests/shell/mk-perf-data.py).
test_expect_success CC 'a hidden sample adds to a shown entry of the same keys' '
	cd "$TRASH" &&
	printf "%s\n" "int one(int x) { return x + 1; }" "int two(int x) { return x * 2; }" \
		"int main(int c, char **v) { (void)v; return one(c) + two(c); }" >fl.c &&
	cc -O0 -o fl fl.c &&
	o=$(nm fl | awk "\$3 == \"one\" { print \$1 }" | sed "s/^0*//") &&
	w=$(nm fl | awk "\$3 == \"two\" { print \$1 }" | sed "s/^0*//") &&
	python3 "$TESTS_DIR/shell/mk-perf-data.py" fl.data "$TRASH/fl" $o $o@4243 $w@4243 $w@4243 &&
	tperf report -i fl.data --stdio --tid 4242 2>/dev/null | grep "%" >out &&
	grep -q "^ *50\.00%  symprobe  fl  *\[\.\] one$" out &&
	test $(wc -l <out) = 1 &&
	tperf report -i fl.data --stdio --tid 4243 2>/dev/null | grep "%" >out &&
	grep -q "^ *50\.00%  symprobe  fl  *\[\.\] two$" out &&
	test $(wc -l <out) = 1 &&
	if test_have_prereq PERF; then
		for o in "--tid 4242" "--tid 4243" "--pid 4243 --percentage relative" "--tid 4242 --sort sym"; do
			same_as_perf fl.data $o || exit 1
		done
	fi
'

test_done
