#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: tracefs (tracefs and uprobe_events: changed, then checked restored)
# SDT markers: --list-sdt, the uprobe lines (arguments converted, the
# semaphore as reference counter) against perf's, and the markers firing.
. "$(dirname "$0")/lib.sh"

B=$TRASH/bin
sh "$TESTS_DIR/probe/build.sh" "$B" || fail_all "cannot build the probe targets"
export PERF_BUILDID_DIR=$TRASH/.debug
cleanup='tperf probe -q -d "sdt_target*:*" 2>/dev/null; :'
NOMARK=$(realpath "$(type -P true)")

test_expect_success '--list-sdt lists provider, name, arguments and semaphores' '
	tperf probe --list-sdt -x "$B/target0" >actual &&
	cat >expect <<-\EOT &&
	sdt_target:visited             -4@-36(%rbp) -8@-16(%rbp)
	sdt_target:loop                -4@-24(%rbp)
	sdt_target:sem                 8@-8(%rbp) [semaphore]
	EOT
	test_cmp expect actual
'

test_expect_success '--list-sdt of a library; of a binary without markers: nothing' '
	tperf probe --list-sdt -x "$B/O0/libtarget.so" >actual &&
	echo "sdt_targetlib:scale            -4@-4(%rbp)" >expect &&
	test_cmp expect actual &&
	tperf probe --list-sdt -x "$NOMARK" >actual &&
	test ! -s actual
'

for bin in target0 target2 target-nodwarf; do
	test_expect_success PERF "$bin: the SDT lines perf writes" '
		HOME=$TRASH perf buildid-cache -a "$B/$bin" &&
		HOME=$TRASH perf probe -n -v -x "$B/$bin" "sdt_target:*" 2>&1 |
			sed -n "s/^Writing event: //p" >expect &&
		test $(wc -l <expect) = 3 &&
		tperf probe -x "$B/$bin" -D "sdt_target:*" >actual &&
		test_cmp expect actual &&
		grep -q "^p:sdt_target/sem $B/$bin:0x[0-9a-f]*(0x[0-9a-f]*) arg1=" actual
	'
done

test_expect_success 'the other spellings of a marker' '
	tperf probe -x "$B/target2" -D sdt_target:loop >expect &&
	tperf probe -x "$B/target2" -D %sdt_target:loop >actual &&
	test_cmp expect actual &&
	tperf probe -x "$B/target2" -D %target:loop >actual &&
	test_cmp expect actual &&
	tperf probe -x "$B/target2" -D "myloop=%target:loop" | sed "s/myloop/loop/" >actual &&
	test_cmp expect actual
'

test_expect_success 'unknown markers and binaries without markers' '
	test_must_fail tperf probe -n -x "$B/target0" sdt_target:nosuch 2>err &&
	echo "tperf: no SDT marker target:nosuch in '"'"'$B/target0'"'"': list them with '"'"'tperf probe --list-sdt -x $B/target0'"'"'" >expect &&
	test_cmp expect err &&
	test_must_fail tperf probe -n -x "$NOMARK" sdt_target:loop 2>err &&
	echo "tperf: '"'"'$NOMARK'"'"' has no SDT markers (no .note.stapsdt section)" >expect &&
	test_cmp expect err &&
	test_must_fail tperf probe -n -x "$B/target0" "sdt_target:loop x" 2>err &&
	grep -q "SDT markers take no arguments" err
'

test_expect_success ROOT 'markers fire: 5 loops, 1 visit, and the semaphore-guarded one' '
	test_when_finished "$cleanup" &&
	tperf probe -q -x "$B/target2" "sdt_target:*" &&
	tperf stat -x, -e sdt_target:loop,sdt_target:visited,sdt_target:sem -- "$B/target2" >/dev/null 2>err &&
	cut -d, -f1,3 err >actual &&
	printf "5,sdt_target:loop\n1,sdt_target:visited\n1,sdt_target:sem\n" >expect &&
	test_cmp expect actual
'

test_expect_success ROOT 'tperf stat -e sdt_*: probes for the run, in the workload and its library' '
	test_when_finished "$cleanup" &&
	tperf stat -x, -e sdt_target:loop,sdt_targetlib:scale -- "$B/target2" >/dev/null 2>err &&
	cut -d, -f1,3 err >actual &&
	printf "5,sdt_target:loop\n1,sdt_targetlib:scale\n" >expect &&
	test_cmp expect actual &&
	! grep -q sdt_target /sys/kernel/tracing/uprobe_events
'

test_expect_success ROOT 'tperf stat -e sdt_*: an existing event is used and kept' '
	test_when_finished "$cleanup" &&
	tperf probe -q -x "$B/target0" sdt_target:loop &&
	tperf stat -x, -e sdt_target:loop -- "$B/target0" >/dev/null 2>err &&
	grep -q "^5,,sdt_target:loop," err &&
	grep -q "^p:sdt_target/loop " /sys/kernel/tracing/uprobe_events
'

test_expect_success ROOT 'tperf stat -e sdt_*: the probes go when tperf is stopped by a signal' '
	test_when_finished "$cleanup" &&
	# (INT is ignored by background jobs of a script: TERM and HUP)
	for sig in TERM HUP; do
		"$TPERF" stat -e sdt_target:loop -- "$B/target2" sleep >/dev/null 2>&1 &
		pid=$! &&
		for i in $(seq 100); do
			grep -q sdt_target /sys/kernel/tracing/uprobe_events && break
			sleep 0.05
		done &&
		grep -q "^p:sdt_target/loop " /sys/kernel/tracing/uprobe_events &&
		sleep 0.2 && kill -$sig $pid && wait $pid
		# (the workload, left running, holds the probe until it ends: 3s)
		for i in $(seq 100); do
			grep -q sdt_target /sys/kernel/tracing/uprobe_events || break
			sleep 0.1
		done
		! grep -q sdt_target /sys/kernel/tracing/uprobe_events || exit 1
	done
'

test_expect_success 'tperf stat -e sdt_*: errors' '
	test_must_fail tperf stat -e sdt_target:loop "$B/target2" 2>err &&
	grep -q "SDT events need the workload after '"'"'--'"'"'" err &&
	test_must_fail tperf stat -e sdt_target:nosuch -- "$B/target2" 2>err &&
	grep -q "no SDT marker '"'"'sdt_target:nosuch'"'"' in '"'"'$B/target2'"'"' or its libraries" err
'

test_done
