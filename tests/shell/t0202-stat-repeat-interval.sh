#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: alone (counts and timings that another test's load would change)
# tperf stat -r (means and deviations) and -I (interval rows).
. "$(dirname "$0")/lib.sh"

normalize() {
	sed -E 's/[0-9]+(\.[0-9]+)?/N/g; s/[KMG]\/sec/\/sec/g; s/ +/ /g'
}

test_expect_success '-r 3: "(3 runs)", a ( +- x% ) per counter and on the elapsed time' '
	tperf stat -r 3 -e task-clock true 2>err &&
	normalize <err >actual &&
	cat >expect <<-\EOT &&

	 Performance counter stats for '"'"'true'"'"' (N runs):

	 N msec task-clock # N CPUs utilized ( +- N% )

	 N +- N seconds time elapsed ( +- N% )

	EOT
	test_cmp expect actual &&
	grep -Eq "^ +[0-9]+\.[0-9]+ \+- [0-9]+\.[0-9]+ seconds time elapsed  \( \+- *[0-9]+\.[0-9]{2}% \)$" err
'

test_expect_success PERF '-r 3: the same layout as perf' '
	perf stat -r 3 -e task-clock true 2>perf.err &&
	tperf stat -r 3 -e task-clock true 2>tperf.err &&
	normalize <perf.err >expect &&
	normalize <tperf.err >actual &&
	test_cmp expect actual
'

test_expect_success '-r runs the command each time' '
	tperf stat -r 4 -e task-clock sh -c "echo x >>runs" 2>/dev/null &&
	test $(wc -l <runs) = 4
'

test_expect_success '-I 100: header, rows with increasing timestamps' '
	tperf stat -I 100 --interval-count 4 -e task-clock,page-faults sleep 5 2>err &&
	head -1 err >first &&
	echo "#           time             counts unit events" >expect &&
	test_cmp expect first &&
	sed 1d err >rows &&
	test $(wc -l <rows) = 8 &&
	awk "{ print \$1 }" rows | uniq >stamps &&
	sort -n stamps >sorted &&
	test_cmp sorted stamps &&
	test $(wc -l <stamps) = 4 &&
	awk "NR == 1 && \$1 < 0.1 { exit 1 }" stamps &&
	test $(grep -c "page-faults" rows) = 4 &&
	! grep -q "seconds time elapsed" err
'

test_expect_success 'an interval where nothing ran is <not counted>' '
	tperf stat -I 100 -e task-clock sleep 0.35 2>err &&
	grep -Eq "^ +[0-9.]+ +<not counted> msec task-clock +$" err
'

test_expect_success '--interval-count 2 stops after two intervals with status 0' '
	tperf stat -I 100 --interval-count 2 -e task-clock sleep 5 2>err &&
	test $(grep -c task-clock err) = 2
'

test_expect_success PERF '-I -A -a: the header and CPU column as perf' '
	perf stat -I 100 -A -a -e task-clock sleep 0.15 2>perf.err &&
	tperf stat -I 100 -A -a -e task-clock sleep 0.15 2>tperf.err &&
	head -1 perf.err >expect && head -1 tperf.err >actual &&
	test_cmp expect actual &&
	sed 1d perf.err | awk "{ print \$2, \$4, \$5 }" | sort -u >expect &&
	sed 1d tperf.err | awk "{ print \$2, \$4, \$5 }" | sort -u >actual &&
	test_cmp expect actual
'

test_expect_success 'the interval header comes back every 25 intervals' '
	tperf stat -I 10 --interval-count 26 -e task-clock sleep 5 2>err &&
	test $(grep -c "^#           time" err) = 2 &&
	sed -n 27p err | grep -q "^#           time"
'

# Each interval is written out as it ends: a reader of the pipe or file sees
# it then, and a SIGKILL keeps every interval printed (they stayed in stdio's
# buffer until the end, so a killed stat -I -o left an empty file).
test_expect_success '-I 100 -o: each interval is in the file as it ends, a SIGKILL keeps them' '
	{ tperf stat -I 100 -e task-clock -o out -- sleep 30 & } && pid=$! &&
	test_when_finished "kill -KILL $pid 2>/dev/null; pkill -x -f \"sleep 30\"; true" &&
	for i in $(seq 100); do
		test "$(grep -c "task-clock" out 2>/dev/null)" -ge 3 && break
		sleep 0.1
	done &&
	kill -KILL $pid &&
	{ wait $pid; test $? = 137; } &&
	test "$(grep -c "msec task-clock" out)" -ge 3 &&
	test "$(tail -c 1 out | od -An -c | tr -d " ")" = "\n"
'

test_done
