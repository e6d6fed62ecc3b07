#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: alone (sets kernel.perf_event_paranoid, then restores it)
# A user who is not root (nobody, through setpriv), perf_event_paranoid 2:
# each command says what is missing and how to get it, with perf's exit
# status, and leaves nothing behind: no output file, tracefs and
# uprobe_events as they were.
. "$(dirname "$0")/lib.sh"

TFS=/sys/kernel/tracing
PARANOID=/proc/sys/kernel/perf_event_paranoid
test_lazy_prereq SETPRIV 'command -v setpriv && test -w /proc/sys/kernel/perf_event_paranoid' 'no setpriv (util-linux) or not root'
test_lazy_prereq TRACEFS 'test -d /sys/kernel/tracing/instances' 'tracefs is not mounted'

as_nobody() { HOME=$PWD setpriv --reuid=65534 --regid=65534 --clear-groups "$TPERF" "$@"; }

state() {
	for f in current_tracer set_event tracing_on uprobe_events; do
		echo "$f: $(cat $TFS/$f)"
	done
	echo "instances: $(ls $TFS/instances)"
}

test_expect_success SETPRIV 'paranoid 2: counting per CPU is refused with the setting to change' '
	old=$(cat $PARANOID) &&
	test_when_finished "echo $old >$PARANOID" &&
	echo 2 >$PARANOID &&
	chmod 755 "$TRASH" && chmod 777 . &&
	test_expect_code 255 as_nobody stat -a -e task-clock -- true 2>err &&
	echo "tperf: cannot open event '"'"'task-clock'"'"': permission denied: /proc/sys/kernel/perf_event_paranoid is 2 and counting per-CPU (-a, -C) needs 0 or lower; run as root or set it with '"'"'sysctl kernel.perf_event_paranoid=0'"'"'" >expect &&
	test_cmp expect err &&
	test_expect_code 255 as_nobody record -a -o a.data -- true 2>err &&
	grep -q "^tperf: cannot open event .*permission denied: /proc/sys/kernel/perf_event_paranoid is 2 and counting per-CPU (-a, -C) needs 0 or lower" err &&
	test ! -e a.data
'

test_expect_success SETPRIV 'paranoid 2: a user-space count of ones own program works' '
	old=$(cat $PARANOID) &&
	test_when_finished "echo $old >$PARANOID" &&
	echo 2 >$PARANOID &&
	chmod 755 "$TRASH" && chmod 777 . &&
	as_nobody stat -e task-clock -- true 2>err &&
	grep -q "msec task-clock:u" err &&
	as_nobody record -q -o u.data -- true &&
	test -s u.data
'

test_expect_success SETPRIV,TRACEFS 'tracefs as nobody: tracepoints, ftrace and probes say that tracefs is root'"'"'s, nothing is left' '
	chmod 755 "$TRASH" && chmod 777 . &&
	cp "$TESTS_DIR/workloads/record-calltree" work && chmod 755 work &&
	state >before &&
	test_expect_code 129 as_nobody record -e sched:sched_switch -o t.data -- true 2>err &&
	grep -q "no permission to read tracefs" err &&
	test_expect_code 255 as_nobody ftrace record -e sched:sched_switch -o f.dat -- true 2>err &&
	grep -q "^tperf: cannot create the tracefs instance '"'"'tperf-[0-9]*'"'"': Permission denied: tracefs is root'"'"'s: run tperf as root (e.g. with sudo)$" err &&
	test ! -e f.dat &&
	test_expect_code 243 as_nobody probe -x "$PWD/work" work_one 2>err &&
	grep -q "^tperf: cannot create the probe .*: Permission denied: tracefs is root'"'"'s: run tperf as root (e.g. with sudo)$" err &&
	test_expect_code 243 as_nobody probe -l 2>err &&
	echo "tperf: cannot list the probes: Permission denied: tracefs is root'"'"'s: run tperf as root (e.g. with sudo)" >expect &&
	test_cmp expect err &&
	test_expect_code 1 as_nobody ftrace --cleanup 2>err &&
	echo "tperf: cannot list the tracefs instances: Permission denied: tracefs is root'"'"'s: run tperf as root (e.g. with sudo)" >expect &&
	test_cmp expect err &&
	state >after &&
	test_cmp before after
'

test_done
