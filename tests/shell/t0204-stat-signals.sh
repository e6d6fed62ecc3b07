#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: alone (counts and timings that another test's load would change)
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

test_lazy_prereq MSR 'test -d /sys/bus/event_source/devices/msr'
test_expect_success ROOT,MSR 'msr/tsc/ system-wide counts more than zero' '
	tperf stat -a -x, -e msr/tsc/ sleep 0.1 2>err &&
	IFS=, read -r val unit name rest <err &&
	test "$name" = msr/tsc/ &&
	test "$val" -gt 0
'

# A program that faults in 20000 pages at once, sleeps 1.5 s, then faults in
# 5000 more: counting from 0.5 s sees the second burst only.  The margins
# (0.5 s to reach the sleep, 1 s to spare) keep it independent of load.
test_expect_success '-D: counting starts after the delay' '
	cat >faults.c <<-EOF &&
	#include <stdlib.h>
	#include <sys/mman.h>
	#include <unistd.h>
	static void touch(long pages)
	{
		char *m = mmap(0, pages * 4096, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		madvise(m, pages * 4096, MADV_NOHUGEPAGE);
		for (long i = 0; i < pages; i++)
			m[i * 4096] = 1;
	}
	int main(void) { touch(20000); usleep(1500000); touch(5000); return 0; }
	EOF
	cc -O1 -o faults faults.c &&
	tperf stat -x, -e page-faults ./faults 2>full &&
	tperf stat -x, -D 500 -e page-faults ./faults 2>delayed &&
	f=$(grep ,page-faults, full | cut -d, -f1) &&
	d=$(grep ,page-faults, delayed | cut -d, -f1) &&
	test "$f" -ge 25000 &&
	test "$d" -ge 5000 && test "$d" -lt 20000
'

test_expect_success PERF '-D: "Events disabled" and "Events enabled" as perf says them' '
	for d in 50 -1; do
		perf stat -D $d -x, -e task-clock sleep 0.1 2>perf.err &&
		tperf stat -D $d -x, -e task-clock sleep 0.1 2>tperf.err &&
		grep "^Events" perf.err >expect &&
		grep "^Events" tperf.err >actual &&
		test_cmp expect actual || return 1
	done &&
	printf "Events disabled\nEvents enabled\n" >expect &&
	tperf stat -D 50 -e task-clock -o out sleep 0.1 2>actual &&
	test_cmp expect actual &&
	tperf stat --quiet -D 50 -e task-clock sleep 0.1 2>actual &&
	test ! -s actual
'

test_done
