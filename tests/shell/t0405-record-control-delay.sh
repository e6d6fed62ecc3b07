#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# record -D/--delay (milliseconds, -1, ranges) and --control (fifo: and fd:)
# against perf 6.1: the attrs (--dry-run -vv against perf -vv: the events
# wait for record, the tracking bits move to a dummy:HG enabled at the
# exec), the lines on stderr, the acks of each command, the files.
. "$(dirname "$0")/lib.sh"

. "$TESTS_DIR/shell/attr-lib.sh"

BUSY='i=0; while [ $i -lt 20000000 ]; do i=$((i+1)); done'

test_expect_success PERF '-D: the attrs perf 6.1 opens (delay, -1, ranges, -a, -p)' '
	sleep 30 &
	pid=$! &&
	test_when_finished "kill $pid" &&
	for opts in "-D 100" "-D -1" "-D 10-20,30-40" "-D 100 -a" "-D 100 -p $pid" \
		    "-D 100 -e page-faults"; do
		compare_record -e cpu-clock $opts || { echo "options: $opts"; exit 1; }
	done
'

# the stderr of a recording without the summary and tperf's note
# on the workload's end (perf's is "Terminated"); perf record's
# "[ perf record: ..." and tperf's "[ tperf record: ..." both go
events_lines() { grep -v -e "^\[ t\{0,1\}perf record: " -e "^tperf: note: " -e "^Terminated$" "$1"; }

test_expect_success PERF '-D MS and ranges: perf'"'"'s lines; the last range ends the recording, as in perf' '
	for tool in perf tperf; do
		$tool record -D 50 -e cpu-clock -o $tool.data -- sh -c "i=0; while [ \$i -lt 100000 ]; do i=\$((i+1)); done" 2>$tool.err &&
		events_lines $tool.err >$tool.lines || exit 1
	done &&
	printf "Events disabled\nEvents enabled\n" >expect &&
	test_cmp expect perf.lines &&
	test_cmp expect tperf.lines &&
	test_expect_code 143 perf record -D 10-20,40-50 -e cpu-clock -o perf.data -- sh -c "$BUSY" 2>perf.err &&
	test_expect_code 143 tperf record -D 10-20,40-50 -e cpu-clock -o tperf.data -- sh -c "$BUSY" 2>tperf.err &&
	events_lines perf.err >expect &&
	printf "Events disabled\nEvents enabled\nEvents disabled\nEvents enabled\nEvents disabled\n" >want &&
	test_cmp want expect &&
	events_lines tperf.err >actual &&
	test_cmp expect actual &&
	perf report -i tperf.data --stdio >/dev/null 2>err && test ! -s err &&
	perf evlist -i tperf.data >actual && printf "cpu-clock\ndummy:HG\n" >expect &&
	test_cmp expect actual
'

# control_session CMD...: each command to the FIFO ctl, its ack (or none) to "acks"
control_session() {
	exec 7>ctl 8<ack &&
	for c in "$@"; do
		echo "$c" >&7 &&
		{ read -t 1 a <&8 || a=none; } &&
		echo "$c: $a" >>acks || return 1
	done
	exec 7>&- 8<&-
}

# perf's run checks that the expected lines are perf's: make check-full only
for tool in perf tperf; do
	prereq=PERF
	[ $tool = tperf ] || prereq=PERF,FULL
	test_expect_success $prereq "--control fifo: -D -1, each command, its ack and words ($tool)" "
		mkfifo ctl ack || exit 1
		$tool record -D -1 --control fifo:ctl,ack -e cpu-clock -o r.data -- sh -c '$BUSY' 2>err &
		pid=\$! &&
		test_when_finished \"kill \$pid 2>/dev/null\" &&
		control_session ping enable 'disable cpu-clock' 'enable cpu-clock' 'enable nosuch' \
			bogus snapshot evlist disable stop &&
		test_expect_code 143 wait \$pid &&
		printf '%s\n' 'ping: ack' 'enable: ack' 'disable cpu-clock: ack' \
			'enable cpu-clock: ack' 'enable nosuch: ack' 'bogus: none' 'snapshot: ack' \
			'evlist: ack' 'disable: ack' 'stop: ack' >expect &&
		test_cmp expect acks &&
		printf '%s\n' 'Events disabled' 'Events enabled' 'Event cpu-clock disabled' \
			'Event cpu-clock enabled' \"failed: can't find 'nosuch' event\" cpu-clock \
			dummy:HG 'Events disabled' >expect &&
		events_lines err >actual &&
		test_cmp expect actual &&
		perf report -i r.data --stdio >/dev/null 2>err.perf && test ! -s err.perf &&
		test \"\$(perf script -i r.data | wc -l)\" -gt 0
	"
done

test_expect_success PERF '--control fd: the caller'"'"'s descriptors, as they are' '
	mkfifo ctl ack || exit 1
	tperf record --control fd:5,6 -e cpu-clock -o r.data -- sh -c "$BUSY" 5<>ctl 6<>ack 2>err &
	pid=$! &&
	test_when_finished "kill $pid 2>/dev/null" &&
	control_session disable ping stop &&
	test_expect_code 143 wait $pid &&
	printf "%s\n" "disable: ack" "ping: ack" "stop: ack" >expect &&
	test_cmp expect acks &&
	echo "Events disabled" >expect &&
	events_lines err >actual &&
	test_cmp expect actual &&
	perf report -i r.data --stdio >/dev/null 2>err.perf && test ! -s err.perf
'

test_expect_success PERF 'usage errors: -D, --control, as perf (129)' '
	for d in foo 0 20-10 10-20,15-30 10- -2; do
		test_expect_code 129 perf record -D $d -e cpu-clock -o p.data -- true 2>/dev/null &&
		test_expect_code 129 tperf record -D $d -e cpu-clock -- true 2>err || exit 1
	done &&
	echo "tperf: invalid -D '"'"'-2'"'"': give milliseconds (more than 0), -1 (start with the events disabled) or ranges of milliseconds such as 10-20,30-40" >expect &&
	head -1 err >actual && test_cmp expect actual &&
	test_expect_code 129 perf record --control fifo:/nonexistent/x -e cpu-clock -o p.data -- true 2>/dev/null &&
	test_expect_code 129 tperf record --control fifo:/nonexistent/x -e cpu-clock -- true 2>err &&
	grep -q "^ *error: cannot open the --control FIFO '"'"'/nonexistent/x'"'"': No such file or directory$" err &&
	test_expect_code 129 tperf record --control foo -e cpu-clock -- true 2>err &&
	grep -q "^ *error: --control takes fd:ctl-fd\[,ack-fd\] or fifo:ctl-fifo\[,ack-fifo\]$" err
'

test_done
