#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: tracefs (tracefs and uprobe_events: changed, then checked restored)
# The uprobes of a run (record/stat -e sdt_*) of a tperf killed by SIGKILL
# stay: the commands that use uprobe_events say so, naming each and how to
# remove it, and 'tperf probe --cleanup' removes them with their markers,
# never the probes of a tperf that runs nor those made to stay.
. "$(dirname "$0")/lib.sh"

B=$TRASH/bin
sh "$TESTS_DIR/probe/build.sh" "$B" || fail_all "cannot build the probe targets"
export PERF_BUILDID_DIR=$TRASH/.debug
TFS=/sys/kernel/tracing
UE=$TFS/uprobe_events

# tracefs as it was: mounted for the test if it was not, unmounted after
# (call first: the clean-ups registered later run before)
tracefs_up() {
	grep -q " $TFS tracefs " /proc/mounts && return 0
	mount -t tracefs nodev $TFS &&
	test_when_finished "umount $TFS"
}

# The GROUP/EVENT names in uprobe_events, sorted.
uprobe_names() {
	sed -n "s/^[pr]:\([^ ]*\) .*/\1/p" $UE | sort -u
}

# Delete the uprobes not in file $1 (names, as uprobe_names prints them).
restore_uprobes() {
	uprobe_names | comm -23 - "$1" | while read -r n; do echo "-:$n" >>$UE; done
}

# Start `tperf record -e sdt_target:$1 -- target0 sleep` (3 s) in the
# background, its pid in the file $2, once its probe is in uprobe_events.
start_record() {
	{ "$TPERF" record -q -o "$1.data" -e "sdt_target:$1" -- "$B/target0" sleep \
		>/dev/null 2>&1 & } &&
	echo $! >"$2" &&
	for i in $(seq 100); do
		grep -q "^p:sdt_target/$1 " $UE && return 0
		sleep 0.1
	done
	return 1
}

# SIGKILL the tperf of pid file $1 and its workload.
kill_record() {
	local pid child
	pid=$(cat "$1") &&
	child=$(pgrep -P "$pid" || :) &&
	kill -KILL "$pid" &&
	{ test -z "$child" || kill -KILL $child; } &&
	{ wait "$pid"; test $? = 137; }
}

warning() {
	echo "tperf: warning: the uprobe event '$1' was left by a tperf that no longer runs (killed?): remove it with 'tperf probe --cleanup'"
}

test_expect_success ROOT 'a killed tperf: warnings name its probes, --cleanup removes them' '
	tracefs_up &&
	uprobe_names >before &&
	test_when_finished "restore_uprobes $PWD/before" &&
	start_record loop dead.pid &&
	dead=$(cat dead.pid) &&
	grep -q "^p:tperf_${dead}_sdt_target/loop " $UE &&
	kill_record dead.pid &&
	grep -q "^p:sdt_target/loop " $UE &&
	tperf probe -l >/dev/null 2>err &&
	warning sdt_target:loop >expect &&
	test_cmp expect err &&
	tperf stat -e sdt_target:visited -- "$B/target0" >/dev/null 2>err &&
	grep "left by" err >actual &&
	test_cmp expect actual &&
	tperf probe -q -x "$B/target0" sdt_target:sem 2>err &&
	test_cmp expect err &&
	start_record visited live.pid &&
	tperf probe --cleanup >out &&
	echo "removed the uprobe event '"'"'sdt_target:loop'"'"' (its tperf no longer runs)" >expect &&
	test_cmp expect out &&
	grep -q "^p:sdt_target/visited " $UE &&
	grep -q "^p:sdt_target/sem " $UE &&
	! grep -q "sdt_target/loop" $UE &&
	wait $(cat live.pid) &&
	! grep -q "sdt_target/visited" $UE &&
	tperf probe -q -d sdt_target:sem &&
	tperf probe --cleanup >out &&
	echo "no uprobe event left by a tperf that no longer runs" >expect &&
	test_cmp expect out &&
	uprobe_names >after &&
	test_cmp before after
'

test_expect_success ROOT 'a marker whose probe was deleted: removed alone' '
	tracefs_up &&
	uprobe_names >before &&
	test_when_finished "restore_uprobes $PWD/before" &&
	start_record loop dead.pid &&
	dead=$(cat dead.pid) &&
	kill_record dead.pid &&
	tperf probe -d sdt_target:loop 2>err &&
	warning sdt_target:loop >expect &&
	echo "Removed event: sdt_target:loop" >>expect &&
	test_cmp expect err &&
	tperf probe -l >/dev/null 2>err &&
	warning tperf_${dead}_sdt_target:loop >expect &&
	test_cmp expect err &&
	tperf probe --cleanup >out &&
	echo "removed the uprobe event '"'"'tperf_${dead}_sdt_target:loop'"'"' (its tperf no longer runs)" >expect &&
	test_cmp expect out &&
	uprobe_names >after &&
	test_cmp before after
'

test_expect_success ROOT 'a run that ends leaves neither probes nor markers' '
	tracefs_up &&
	uprobe_names >before &&
	test_when_finished "restore_uprobes $PWD/before" &&
	tperf stat -e sdt_target:loop -e sdt_targetlib:scale -- "$B/target0" >/dev/null 2>err &&
	! grep -q "left by" err &&
	uprobe_names >after &&
	test_cmp before after
'

test_expect_success '--cleanup takes no other action or argument' '
	test_expect_code 129 tperf probe --cleanup -x "$B/target0" 2>err &&
	echo "tperf: --cleanup takes no other action or argument" >expect &&
	test_cmp expect err &&
	test_expect_code 129 tperf probe --cleanup add 2>err &&
	test_cmp expect err
'

test_done
