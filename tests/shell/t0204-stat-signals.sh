#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf stat and signals, -p targets, system-wide msr/tsc/.
. "$(dirname "$0")/lib.sh"

# Start "tperf stat ARGS" in the background, wait until it counts.
start_stat() {
	"$TPERF" stat "$@" 2>err &
	stat_pid=$!
	sleep 0.5
}

test_expect_success 'SIGINT to tperf stat -a sleep 100: counts printed, dies of SIGINT' '
	start_stat -a -e task-clock sleep 100 &&
	kill -INT $stat_pid &&
	wait $stat_pid
	rc=$? &&
	test $rc = 130 &&
	grep -q "^ Performance counter stats for '"'"'system wide'"'"':$" err &&
	grep -Eq "^ +[0-9.]+ msec task-clock +# +[0-9.]+ CPUs utilized" err &&
	grep -q "seconds time elapsed" err &&
	! pgrep -f "^sleep 100$" >/dev/null
'

test_expect_success 'SIGINT with a workload: it gets the signal, user/sys printed' '
	start_stat -e task-clock sleep 100 &&
	kill -INT $stat_pid &&
	wait $stat_pid
	rc=$? &&
	test $rc = 130 &&
	grep -q "for '"'"'sleep 100'"'"':" err &&
	grep -q "seconds user" err
'

test_expect_success 'SIGTERM ends -p counting too' '
	sleep 100 &
	target=$! &&
	test_when_finished "kill $target" &&
	start_stat -p $target -e task-clock &&
	kill -TERM $stat_pid &&
	wait $stat_pid
	rc=$? &&
	test $rc = 143 &&
	grep -q "^ Performance counter stats for process id '"'"'$target'"'"':$" err &&
	! grep -q "seconds user" err &&
	kill -0 $target
'

test_expect_success '-p ends when the process exits' '
	sleep 0.7 &
	target=$! &&
	tperf stat -p $target -e task-clock,context-switches 2>err &&
	grep -q "process id '"'"'$target'"'"'" err &&
	grep -q " context-switches " err
'

test_expect_success 'msr/tsc/ system-wide counts more than zero' '
	test -d /sys/bus/event_source/devices/msr || exit 0
	tperf stat -a -x, -e msr/tsc/ sleep 0.1 2>err &&
	IFS=, read -r val unit name rest <err &&
	test "$name" = msr/tsc/ &&
	test "$val" -gt 0
'

test_expect_success '-D: counting starts later' '
	tperf stat -x, -D 300 -e task-clock sh -c "i=0; while [ \$i -lt 400000 ]; do i=\$((i+1)); done" 2>delayed &&
	tperf stat -x, -e task-clock sh -c "i=0; while [ \$i -lt 400000 ]; do i=\$((i+1)); done" 2>full &&
	d=$(cut -d, -f1 delayed) && f=$(cut -d, -f1 full) &&
	awk -v d="$d" -v f="$f" "BEGIN { exit !(d < f - 100) }"
'

test_done
