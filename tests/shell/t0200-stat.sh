#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: alone (counts and timings that another test's load would change)
# tperf stat: the std table against perf 6.1's, the default events, exit
# statuses and error messages.
. "$(dirname "$0")/lib.sh"

# Numbers become N, K/M/G rates the same, runs of spaces one space.
normalize() {
	sed -E 's/[0-9]+(\.[0-9]+)?/N/g; s/[KMG]\/sec/\/sec/g; s/ +/ /g; s/ $//'
}

test_expect_success 'task-clock and page-faults of true: the std layout' '
	tperf stat -e task-clock,page-faults true 2>err &&
	normalize <err >actual &&
	cat >expect <<-\EOT &&

	 Performance counter stats for '"'"'true'"'"':

	 N msec task-clock # N CPUs utilized
	 N page-faults # N /sec

	 N seconds time elapsed

	 N seconds user
	 N seconds sys


	EOT
	test_cmp expect actual
'

test_expect_success 'the value column is 18 wide, the name column 32 and the metric 35' '
	tperf stat -e task-clock true 2>err &&
	line=$(grep task-clock err) &&
	test ${#line} = 91 &&
	echo "$line" | grep -Eq "^ {10,15}[0-9]+\.[0-9]{2} msec task-clock {23}# {3,4}[0-9]+\.[0-9]{3} CPUs utilized {10}$"
'

test_expect_success PERF 'the same layout as perf stat' '
	perf stat -e task-clock,context-switches,page-faults -- true 2>perf.err &&
	tperf stat -e task-clock,context-switches,page-faults -- true 2>tperf.err &&
	normalize <perf.err >expect &&
	normalize <tperf.err >actual &&
	test_cmp expect actual
'

test_expect_success 'an unsupported hardware event: a <not supported> row and a note' '
	if tperf stat -e cycles true 2>err && grep -q "<not supported>" err; then
		grep -q "^   <not supported>      cycles  *$" err &&
		grep -q "^tperf: note: hardware events are not supported on this machine (no PMU?); try -e cpu-clock$" err
	else
		grep -q " cycles " err
	fi
'

test_expect_success 'the exit status is the command'"'"'s' '
	tperf stat -e task-clock true 2>/dev/null &&
	test_expect_code 1 tperf stat -e task-clock false 2>/dev/null &&
	test_expect_code 3 tperf stat -e task-clock sh -c "exit 3" 2>/dev/null &&
	test_expect_code 7 tperf stat -e task-clock -- sh -c "exit 7" 2>/dev/null
'

test_expect_success PERF 'a command killed by a signal: named before the counts, status 0 as perf' '
	perf stat -e task-clock -- sh -c "kill -9 \$\$" 2>perf.err
	perf_rc=$? &&
	tperf stat -e task-clock -- sh -c "kill -9 \$\$" 2>tperf.err
	tperf_rc=$? &&
	test $tperf_rc = $perf_rc &&
	test $tperf_rc = 0 &&
	head -1 perf.err >expect &&
	echo "sh: Killed" >actual &&
	test_cmp expect actual &&
	head -1 tperf.err >actual &&
	test_cmp expect actual &&
	grep -q " msec task-clock " tperf.err
'

test_expect_success 'a signal named on stderr, whatever -x or -o, each run' '
	tperf stat -x, -e task-clock -o out -- sh -c "kill -SEGV \$\$" 2>err &&
	echo "sh: Segmentation fault" >expect &&
	test_cmp expect err &&
	grep -q ",task-clock," out &&
	tperf stat -r 2 -e task-clock -- sh -c "kill -TERM \$\$" 2>err &&
	head -2 err >actual &&
	printf "sh: Terminated\nsh: Terminated\n" >expect &&
	test_cmp expect actual
'

test_expect_success PERF 'a command that does not exist: perf'"'"'s status 255' '
	test_expect_code 255 perf stat -e task-clock nosuch-command 2>/dev/null &&
	test_expect_code 255 tperf stat -e task-clock nosuch-command 2>err &&
	echo "tperf: cannot run '"'"'nosuch-command'"'"': No such file or directory" >expect &&
	test_cmp expect err
'

test_expect_success PERF 'a process that does not exist: perf'"'"'s 234, a thread 255' '
	test_expect_code 234 perf stat -e task-clock -p 999999999 2>/dev/null &&
	test_expect_code 234 tperf stat -e task-clock -p 999999999 2>err &&
	echo "tperf: cannot find process '"'"'999999999'"'"': no such process; check the ids with '"'"'ps'"'"'" >expect &&
	test_cmp expect err &&
	test_expect_code 255 perf stat -e task-clock -t 999999999 2>/dev/null &&
	test_expect_code 255 tperf stat -e task-clock -t 999999999 2>/dev/null &&
	test_expect_code 234 perf stat -e task-clock -C x true 2>/dev/null &&
	test_expect_code 234 tperf stat -e task-clock -C x true 2>err &&
	echo "tperf: invalid CPU list '"'"'x'"'"': expected a list such as '"'"'0-3,6'"'"'" >expect &&
	test_cmp expect err
'

test_lazy_prereq NOPMU 'perf stat -x, -e cycles true 2>&1 | grep -q "^<not supported>,,cycles,"'
test_expect_success PERF,NOPMU 'a group whose leader cannot be opened: perf'"'"'s 255' '
	test_expect_code 255 perf stat -e "{cycles,instructions}" true 2>/dev/null &&
	test_expect_code 255 tperf stat -e "{cycles,instructions}" true 2>err &&
	echo "tperf: cannot open event '"'"'cycles'"'"': hardware events are not supported on this machine (no PMU); try -e cpu-clock" >expect &&
	test_cmp expect err &&
	test_expect_code 255 perf stat -e "{cycles,cpu-clock}:W" true 2>/dev/null &&
	test_expect_code 255 tperf stat -e "{cycles,cpu-clock}:W" true 2>/dev/null &&
	# a member that cannot be opened is a <not supported> row, as in perf
	perf stat -x, -e "{cpu-clock,cycles}" true 2>perf.err &&
	tperf stat -x, -e "{cpu-clock,cycles}" true 2>tperf.err &&
	grep cycles perf.err >expect &&
	grep cycles tperf.err >actual &&
	test_cmp expect actual
'

test_expect_success 'a bad event is a usage error with a caret' '
	test_expect_code 129 tperf stat -e task-clock,bogus true 2>err &&
	head -1 err >first &&
	echo "tperf: event syntax error: '"'"'task-clock,bogus'"'"'" >expect &&
	test_cmp expect first &&
	grep -q "\^ unknown event '"'"'bogus'"'"'" err
'

test_expect_success 'usage errors: aggregation without -a (perf'"'"'s 234), -x with -j, bad -r' '
	test_expect_code 234 tperf stat -A true 2>err &&
	grep -q "^error: -A and --per-core/--per-die/--per-node/--per-socket need -a or -C$" err &&
	test_expect_code 129 tperf stat -x, -j true 2>err &&
	grep -q "^error: -x and -j cannot be used together$" err &&
	test_expect_code 129 tperf stat -r 0 true 2>err &&
	grep -q "^error: --repeat takes a count from 1 to 100$" err
'

test_expect_success '-o FILE and --append' '
	tperf stat -e task-clock -o out true 2>err &&
	test ! -s err &&
	test $(grep -c "msec task-clock" out) = 1 &&
	tperf stat -e task-clock -o out --append true &&
	test $(grep -c "msec task-clock" out) = 2 &&
	test_expect_code 255 tperf stat -e task-clock -o /nonexistent/dir/out true 2>err &&
	grep -q "^tperf: cannot open '"'"'/nonexistent/dir/out'"'"' for writing: No such file or directory$" err
'

# The date of the "# started on" line masked; numbers as normalize() does.
mask_started() {
	sed -E "s/^# started on .*/# started on DATE/" | normalize
}

test_expect_success PERF '-o FILE starts with perf'"'"'s "# started on" line, -x and -j too' '
	for f in "" -x, -j; do
		perf stat $f -e task-clock,page-faults -o perf.out true &&
		tperf stat $f -e task-clock,page-faults -o tperf.out true &&
		mask_started <perf.out >expect &&
		mask_started <tperf.out >actual &&
		test_cmp expect actual || return 1
	done &&
	head -1 tperf.out | grep -Eq "^# started on [A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9][0-9] [0-9:]{8} [0-9]{4}$" &&
	test_expect_code 255 perf stat -e task-clock -o /nonexistent/dir/out true 2>/dev/null
'

test_lazy_prereq EXEC_TP 'test -r /sys/kernel/tracing/events/sched/sched_process_exec/format'
test_expect_success PERF,EXEC_TP '--filter: the kernel filters the tracepoint, as perf' '
	ev=sched:sched_process_exec &&
	for f in "pid == 1" "pid != 1"; do
		perf stat -x, -e $ev --filter "$f" -e sched:sched_process_exit true 2>perf.err &&
		tperf stat -x, -e $ev --filter "$f" -e sched:sched_process_exit true 2>tperf.err &&
		cut -d, -f1,3 perf.err >expect &&
		cut -d, -f1,3 tperf.err >actual &&
		test_cmp expect actual || return 1
	done &&
	printf "%s\n" "1,$ev" "1,sched:sched_process_exit" >expect &&
	test_cmp expect actual &&
	test_expect_code 255 perf stat -e $ev --filter "nosuch == 1" true 2>/dev/null &&
	test_expect_code 255 tperf stat -e $ev --filter "nosuch == 1" true 2>err &&
	echo "tperf: failed to set filter \"nosuch == 1\" on event $ev with 22 (Invalid argument)" >expect &&
	test_cmp expect err
'

test_expect_success '--null prints only the times' '
	tperf stat --null true 2>err &&
	normalize <err >actual &&
	printf "\n Performance counter stats for '"'"'true'"'"':\n\n N seconds time elapsed\n\n N seconds user\n N seconds sys\n\n\n" >expect &&
	test_cmp expect actual
'

test_expect_success '--quiet prints nothing, the status still comes back' '
	test_expect_code 1 tperf stat --quiet -e task-clock false 2>err &&
	test ! -s err
'

test_expect_success 'page-faults of a command touching 2048 pages' '
	tperf stat -x, -e page-faults dd if=/dev/zero of=/dev/null bs=8M count=1 2>err &&
	n=$(grep ",page-faults," err | cut -d, -f1) &&
	test "$n" -ge 2048
'

test_expect_success 'a busy loop: task-clock, and at most one CPU utilized' '
	tperf stat -x, -e task-clock sh -c "i=0; while [ \$i -lt 200000 ]; do i=\$((i+1)); done" 2>err &&
	IFS=, read -r val unit name run pct metric munit <err &&
	test "$unit,$name,$munit" = "msec,task-clock,CPUs utilized" &&
	test "${val%.*}" -ge 10 &&
	awk -v m="$metric" "BEGIN { exit !(m > 0 && m <= 1.05) }"
'

test_expect_success '--no-inherit does not count the children' '
	tperf stat -x, -e task-clock sh -c "i=0; while [ \$i -lt 100000 ]; do i=\$((i+1)); done" 2>with &&
	tperf stat -x, -i -e task-clock sh -c "sh -c \"i=0; while [ \\\$i -lt 100000 ]; do i=\\\$((i+1)); done\"" 2>without &&
	w=$(cut -d, -f1 with) && wo=$(cut -d, -f1 without) &&
	awk -v a="$w" -v b="$wo" "BEGIN { exit !(b < a / 2) }"
'

test_expect_success '--dry-run -vv prints the attr perf stat would open, runs nothing' '
	tperf stat --dry-run -vv -e cpu-clock -- sh -c "echo ran >ran" 2>err &&
	test ! -e ran &&
	cat >expect <<-\EOT &&
	------------------------------------------------------------
	perf_event_attr:
	  type                             1
	  size                             128
	  sample_type                      IDENTIFIER
	  read_format                      TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING
	  disabled                         1
	  inherit                          1
	  enable_on_exec                   1
	  exclude_guest                    1
	------------------------------------------------------------
	EOT
	test_cmp expect err &&
	tperf stat --dry-run -vv -e cpu-clock -a 2>err &&
	! grep -q enable_on_exec err &&
	tperf stat --dry-run -vv -e "{cpu-clock,task-clock}" true 2>err &&
	test $(grep -c "read_format *TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING|ID|GROUP" err) = 2 &&
	test $(grep -c "disabled" err) = 1
'

test_lazy_prereq NOBODY '[ "$(id -u)" = 0 ] && command -v setpriv && [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 2 ]'

# Run tperf as nobody (a copy where nobody can read it).
as_nobody() {
	d=$(mktemp -d /tmp/tperf-nobody.XXXXXX) &&
	chmod 755 "$d" && cp "$TPERF" "$d/tperf" &&
	(cd /tmp && setpriv --reuid=65534 --regid=65534 --clear-groups "$d/tperf" "$@")
	rc=$?
	rm -rf "$d"
	return $rc
}

test_expect_success NOBODY 'not root, paranoid 2: -a is refused with the reason' '
	test_expect_code 255 as_nobody stat -a -e task-clock true 2>err &&
	grep -q "^tperf: cannot open event '"'"'task-clock'"'"': permission denied: .*perf_event_paranoid is [0-9]" err
'

test_expect_success NOBODY 'not root, paranoid 2: a command is counted in user space (:u) as perf' '
	as_nobody stat -e task-clock,page-faults true 2>err &&
	grep -q " msec task-clock:u " err &&
	grep -q " page-faults:u " err
'

test_done
