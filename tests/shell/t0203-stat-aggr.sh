#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: alone (counts and timings that another test's load would change)
# tperf stat -A, --per-core, --per-die, --per-socket, --per-thread: the row
# labels of this machine, as perf prints them.
. "$(dirname "$0")/lib.sh"

# The label columns (everything before the value) and the event.
labels() {
	awk '/ (task-clock|page-faults) / {
		ev = ($0 ~ / task-clock /) ? "task-clock" : "page-faults"
		if ($1 ~ /^S/) print $1, $2, ev; else print $1, ev
	}'
}

test_expect_success '-A -a: one CPUn row per online CPU and counter' '
	tperf stat -A -a -e task-clock,page-faults sleep 0.05 2>err &&
	labels <err >actual &&
	cpus=$(getconf _NPROCESSORS_ONLN) &&
	for ev in task-clock page-faults; do
		for c in $(seq 0 $((cpus - 1))); do echo "CPU$c $ev"; done
	done >expect &&
	test_cmp expect actual
'

test_expect_success '-C 0: only CPU0' '
	tperf stat -A -C 0 -e task-clock sleep 0.05 2>err &&
	grep -q "for '"'"'CPU(s) 0'"'"':" err &&
	labels <err >actual &&
	echo "CPU0 task-clock" >expect &&
	test_cmp expect actual
'

for mode in -A --per-core --per-die --per-socket; do
	test_expect_success PERF "$mode -a: the same labels as perf" "
		perf stat $mode -a -e task-clock,page-faults sleep 0.05 2>perf.err &&
		tperf stat $mode -a -e task-clock,page-faults sleep 0.05 2>tperf.err &&
		labels <perf.err >expect &&
		labels <tperf.err >actual &&
		test -s expect &&
		test_cmp expect actual
	"
done

test_expect_success '--per-socket -a: the CPU count of the socket' '
	tperf stat --per-socket -a -x, -e task-clock sleep 0.05 2>err &&
	cpus=$(getconf _NPROCESSORS_ONLN) &&
	sockets=$(cut -d, -f1 err | sort -u | wc -l) &&
	total=$(awk -F, "{ n += \$2 } END { print n }" err) &&
	test "$total" = "$cpus" &&
	test "$sockets" -ge 1
'

test_expect_success '--per-thread -p: comm-tid rows' '
	sleep 10 &
	pid=$! &&
	test_when_finished "kill $pid" &&
	while [ "$(cat /proc/$pid/comm)" != sleep ]; do sleep 0.01; done &&
	tperf stat --per-thread -p $pid -e task-clock,context-switches -I 100 --interval-count 1 2>err &&
	grep -Eq "^ +[0-9.]+ +sleep-$pid +(<not counted>|[0-9.]+) +msec task-clock" err &&
	grep -q "^#           time             comm-pid                  counts unit events$" err
'

test_expect_success '-a: task-clock covers the elapsed time on every CPU (as perf)' '
	tperf stat -a -x, -e task-clock sleep 0.5 2>err &&
	cpus=$(getconf _NPROCESSORS_ONLN) &&
	m=$(cut -d, -f6 err) &&
	awk -v m="$m" -v n="$cpus" "BEGIN { exit !(m > n * 0.9 && m < n * 1.1) }"
'

test_done
