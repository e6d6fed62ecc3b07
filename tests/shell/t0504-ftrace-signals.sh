#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: tracefs (tracefs and uprobe_events: changed, then checked restored)
# tperf ftrace exit paths beyond t0500's: SIGTERM and SIGHUP during a
# recording, a signal during live mode, a workload killed by a signal, and a
# v7 recording stopped early: each writes what it has, removes its instance
# and leaves the top-level tracing as it was.
. "$(dirname "$0")/lib.sh"

TFS=/sys/kernel/tracing

state() {
	for f in current_tracer set_event tracing_on buffer_size_kb tracing_thresh; do
		echo "$f: $(cat $TFS/$f)"
	done
}

# Start "$@" in the background, wait for its instance, send $SIG.
stop_with() {
	sig=$1
	shift
	{ "$TPERF" "$@" >live.out 2>err & } &&
	pid=$! &&
	for i in $(seq 100); do test -d $TFS/instances/tperf-$pid && break; sleep 0.1; done &&
	test -d $TFS/instances/tperf-$pid &&
	sleep 0.3 && kill -$sig $pid && wait $pid
	rc=$?
	test ! -d $TFS/instances/tperf-$pid && return $rc
}

for sig in TERM HUP; do
	test_expect_success ROOT "SIG$sig stops the recording, writes a v7 file and restores tracefs" '
		state >before &&
		stop_with '$sig' ftrace record --compression zstd -e sched:sched_switch -a -o s.dat &&
		state >after &&
		test_cmp before after &&
		grep -q "^\[ tperf ftrace: [0-9]* events from [0-9]* CPUs, 0 lost, wrote .* s.dat \]$" err &&
		tperf ftrace show -i s.dat | sed 1d >out &&
		test -s out
	'
done

test_expect_success ROOT 'SIGINT in live mode ends it with tracefs as it was' '
	state >before &&
	stop_with INT ftrace -e sched:sched_switch -a &&
	state >after &&
	test_cmp before after &&
	grep -q "sched_switch: prev_comm=" live.out
'

# Remove the instances not listed in file $1 (what a failing run left).
remove_new_instances() {
	for d in $TFS/instances/*; do
		test -d "$d" || continue
		grep -qx "${d##*/}" "$1" && continue
		echo 0 >"$d/tracing_on"
		echo >"$d/set_event"
		rmdir "$d"
	done
	true
}

# A closed pipe, a user's or a timer's signal killed tperf with its
# instance left enabled; now it restores tracefs and then ends as the
# signal would (128 + its number).
test_expect_success ROOT 'live mode into head: SIGPIPE restores tracefs, then ends tperf' '
	state >before &&
	ls $TFS/instances >inst.before &&
	test_when_finished "remove_new_instances inst.before" &&
	{ timeout 20 "$TPERF" ftrace -e sched:sched_switch -a | head -3 >out; } &&
	test "${PIPESTATUS[0]}" = 141 &&
	test "$(wc -l <out)" = 3 &&
	state >after &&
	test_cmp before after &&
	ls $TFS/instances >inst.after &&
	test_cmp inst.before inst.after
'

for sig in USR1 USR2 ALRM PROF; do
	test_expect_success ROOT "SIG$sig during a recording: tracefs restored, the signal's status" '
		state >before &&
		ls $TFS/instances >inst.before &&
		test_when_finished "remove_new_instances inst.before" &&
		test_expect_code $((128 + $(kill -l '$sig'))) stop_with '$sig' ftrace record -e sched:sched_switch -a -o u.dat &&
		state >after &&
		test_cmp before after
	'
done

# SIGKILL cannot be caught: the instance stays; the next run says so and
# --cleanup removes it (not an instance of a tperf that runs).
test_expect_success ROOT 'after SIGKILL: a warning names the instance, --cleanup removes it' '
	state >before &&
	ls $TFS/instances >inst.before &&
	test_when_finished "remove_new_instances inst.before" &&
	{ "$TPERF" ftrace record -e sched:sched_switch -a -o kill.dat 2>/dev/null & } &&
	pid=$! &&
	for i in $(seq 100); do test -d $TFS/instances/tperf-$pid && break; sleep 0.1; done &&
	sleep 0.3 && kill -KILL $pid && { wait $pid; test $? = 137; } &&
	test -d $TFS/instances/tperf-$pid &&
	{ "$TPERF" ftrace record -e sched:sched_switch -a -o busy.dat 2>/dev/null & } &&
	busy=$! &&
	for i in $(seq 100); do test -d $TFS/instances/tperf-$busy && break; sleep 0.1; done &&
	tperf ftrace -e sched:sched_switch -a -d 0.1 >/dev/null 2>err &&
	echo "tperf: warning: the tracefs instance '"'"'tperf-$pid'"'"' was left by a tperf that no longer runs (killed?): remove it with '"'"'tperf ftrace --cleanup'"'"'" >expect &&
	test_cmp expect err &&
	tperf ftrace --cleanup >out &&
	echo "removed the tracefs instance '"'"'tperf-$pid'"'"' (its tperf no longer runs)" >expect &&
	test_cmp expect out &&
	test -d $TFS/instances/tperf-$busy &&
	kill -INT $busy && wait $busy &&
	tperf ftrace --cleanup >out &&
	echo "no tracefs instance left by a tperf that no longer runs" >expect &&
	test_cmp expect out &&
	state >after &&
	test_cmp before after &&
	ls $TFS/instances >inst.after &&
	test_cmp inst.before inst.after &&
	test_expect_code 129 tperf ftrace --cleanup -- true
'

# An instance another process holds open cannot be removed: tperf tries for
# 5 s, then says so (it left the instance without a word before).
test_expect_success ROOT 'an instance held open by another process: a warning names it, --cleanup removes it' '
	ls $TFS/instances >inst.before &&
	test_when_finished "kill \$holder 2>/dev/null; remove_new_instances inst.before" &&
	{ "$TPERF" ftrace record -e sched:sched_switch -a -o held.dat 2>err & } &&
	pid=$! &&
	for i in $(seq 100); do test -d $TFS/instances/tperf-$pid && break; sleep 0.1; done &&
	{ sleep 30 <$TFS/instances/tperf-$pid/trace & } && holder=$! &&
	kill -INT $pid && wait $pid &&
	echo "tperf: warning: cannot remove the tracefs instance '"'"'tperf-$pid'"'"': Device or resource busy; '"'"'tperf ftrace --cleanup'"'"' removes it" >expect &&
	grep "cannot remove" err >actual &&
	test_cmp expect actual &&
	test -d $TFS/instances/tperf-$pid &&
	kill $holder && wait $holder;
	tperf ftrace --cleanup >out &&
	echo "removed the tracefs instance '"'"'tperf-$pid'"'"' (its tperf no longer runs)" >expect &&
	test_cmp expect out &&
	ls $TFS/instances >inst.after &&
	test_cmp inst.before inst.after
'

test_expect_success ROOT 'a workload killed by a signal: the file is written, tracefs restored' '
	state >before &&
	tperf ftrace record -e sched:sched_process_exit -o k.dat -- sh -c "kill -KILL \$\$" 2>err;
	state >after &&
	test_cmp before after &&
	tperf ftrace show -i k.dat | sed 1d >out &&
	grep -q "sched_process_exit: *comm=sh" out
'

test_done
