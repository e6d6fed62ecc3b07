#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: tracefs (tracefs and uprobe_events: changed, then checked restored)
# Signals at random moments of record, ftrace record, stat -I and a record
# of a uprobe: SIGKILL, SIGINT, SIGTERM, SIGPIPE and SIGHUP, from the start-up
# to the middle of the run.  After each: the exit status is the signal's (or
# 0 where ftrace takes it as the user's stop), tracefs and uprobe_events are
# as before (after `tperf ftrace --cleanup` for a SIGKILL), the workload is
# gone, and what was written reads back: the perf.data with report, the
# trace.dat with show, the interval rows whole.  make check sends each signal
# once a command; make check-full 200 signals a command.  The moments come
# from a fixed seed, so a run repeats the last one's choices.
. "$(dirname "$0")/lib.sh"

TFS=/sys/kernel/tracing
test_lazy_prereq WORK 'test -x "$TESTS_DIR/workloads/record-calltree"' 'the test workloads are not built (make workloads)'
test_lazy_prereq TRACEFS 'test -w /sys/kernel/tracing/instances' 'tracefs is not mounted or not writable'

SIGS="KILL INT TERM PIPE HUP"
if [ -n "${TPERF_TEST_FULL:-}" ]; then ROUNDS=40; else ROUNDS=1; fi
RANDOM=4242

state() {
	for f in current_tracer set_event tracing_on buffer_size_kb uprobe_events; do
		echo "$f: $(cat $TFS/$f)"
	done
	echo "instances: $(ls $TFS/instances)"
}

# a moment from 0 to 0.6 s: the start-up (before and while the events are
# opened and tracefs set up) and the run
moment() { printf "0.%03d" $((RANDOM % 600)); }

# Start tperf "$@" in the background and send it $sig after a random
# moment; $rc gets its exit status, "hung" when it still ran 10 s later.
kill_at_random() {
	{ "$TPERF" "$@" >run.out 2>run.err & } && pid=$! &&
	sleep "$(moment)" &&
	kill -"$sig" $pid 2>/dev/null
	for i in $(seq 100); do
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 $pid 2>/dev/null; then
		kill -KILL $pid
		wait $pid
		rc=hung
	else
		wait $pid
		rc=$?
	fi
}

# every round: each signal once, in an order of the seed's choosing
signals() {
	for r in $(seq $ROUNDS); do
		printf "%s\n" $SIGS | while read -r s; do echo "$RANDOM $s"; done | sort -n | cut -d" " -f2
	done
}

no_workload() {
	pkill -KILL -f "$TRASH/loopwork" 2>/dev/null
	sleep 0.05
	! pgrep -f "$TRASH/loopwork" >/dev/null
}

fail() { echo "SIG$sig after run $n: $*"; tail -5 run.err; exit 1; }

test_expect_success WORK 'prepare the workload' '
	cp "$TESTS_DIR/workloads/record-calltree" "$TRASH/loopwork"
'

test_expect_success WORK 'record -g: the status is the signal'"'"'s, the file reads back' '
	n=0 &&
	for sig in $(signals); do
		n=$((n + 1)) && rm -f r.data r.data.old &&
		kill_at_random record -q -g -F 999 -o r.data -- "$TRASH/loopwork" 100000 &&
		test $rc = $((128 + $(kill -l $sig))) || fail "status $rc"
		test "$sig" = KILL || ! pgrep -f "$TRASH/loopwork" >/dev/null || fail "workload left running"
		no_workload || fail "workload not killed"
		if test -s r.data; then
			tperf report -i r.data --stats >/dev/null 2>report.err ||
				{ cat report.err; fail "report cannot read r.data"; }
		fi
	done
'

test_expect_success WORK,ROOT,TRACEFS 'ftrace record: tracefs as it was, the trace.dat reads back' '
	test_when_finished "tperf ftrace --cleanup >/dev/null 2>&1; pkill -KILL -f \"$TRASH/loopwork\"; true" &&
	state >before &&
	n=0 &&
	for sig in $(signals); do
		n=$((n + 1)) && rm -f f.dat &&
		kill_at_random ftrace record -e sched:sched_switch -a -o f.dat -- "$TRASH/loopwork" 100000 &&
		case $sig in
		INT|TERM|HUP) test $rc = 0 || test $rc = $((128 + $(kill -l $sig))) ;;
		*) test $rc = $((128 + $(kill -l $sig))) ;;
		esac || fail "status $rc"
		no_workload || fail "workload not killed"
		if test $sig = KILL; then
			tperf ftrace --cleanup >cleanup.out 2>&1 || { cat cleanup.out; fail "--cleanup failed"; }
		fi
		state >after &&
		test_cmp before after || fail "tracefs changed"
		if test -e f.dat; then
			tperf ftrace show -i f.dat >/dev/null 2>show.err ||
				{ cat show.err; fail "show cannot read f.dat"; }
		fi
	done
'

test_expect_success WORK 'stat -I -o: the status is the signal'"'"'s, every row whole' '
	n=0 &&
	for sig in $(signals); do
		n=$((n + 1)) && rm -f s.out &&
		kill_at_random stat -I 100 -e task-clock -o s.out -- "$TRASH/loopwork" 100000 &&
		test $rc = $((128 + $(kill -l $sig))) || fail "status $rc"
		no_workload || fail "workload not killed"
		if test -s s.out; then
			test "$(tail -c 1 s.out | od -An -c | tr -d " ")" = "\\n" || fail "a cut row"
			grep -v "^#\|^$" s.out |
				grep -v "^ *[0-9]*\.[0-9]\{9\} \+\([0-9.,]\+\|<not counted>\) \+msec task-clock" &&
				fail "a row that is not an interval row"
		fi
		true
	done
'

test_expect_success WORK,ROOT,TRACEFS 'record of a uprobe: uprobe_events as it was, the file reads back' '
	test_when_finished "tperf probe -q -d \"probe_loopwork:*\" 2>/dev/null; pkill -KILL -f \"$TRASH/loopwork\"; true" &&
	tperf probe -q -x "$TRASH/loopwork" work_one &&
	state >before &&
	n=0 &&
	for sig in $(signals); do
		n=$((n + 1)) && rm -f p.data p.data.old &&
		kill_at_random record -q -e probe_loopwork:work_one -o p.data -- "$TRASH/loopwork" 100000 &&
		test $rc = $((128 + $(kill -l $sig))) || fail "status $rc"
		no_workload || fail "workload not killed"
		state >after &&
		test_cmp before after || fail "tracefs changed"
		if test -s p.data; then
			tperf report -i p.data --stats >/dev/null 2>report.err ||
				{ cat report.err; fail "report cannot read p.data"; }
		fi
	done
'

test_done
