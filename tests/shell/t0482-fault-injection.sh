#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: tracefs (ftrace record makes a tracefs instance, which t05* check)
# Interrupted and short transfers: tests/fault/fault-inject.c, preloaded,
# makes read/write/pread/pwrite/readv/writev on files, pipes and sockets
# fail with EINTR or move fewer bytes than asked, and poll, wait and sleep
# calls fail with EINTR, as signals and pipes make them do.  Every command
# must carry on: the same output as without the faults, files that read
# back whole; a disk that fails (EIO) ends record with what reached the
# file readable.  And a perf.data read while record still writes it.  Each
# command runs with 3 seeds in make check, 20 in make check-full.
. "$(dirname "$0")/lib.sh"

test_lazy_prereq CC 'command -v cc' 'needs a C compiler (Debian gcc)'
test_lazy_prereq WORK 'test -x "$TESTS_DIR/workloads/record-calltree"' 'the test workloads are not built (make workloads)'
test_lazy_prereq TRACEFS '[ "$(id -u)" = 0 ] && test -w /sys/kernel/tracing/instances &&
	test -e /sys/kernel/tracing/events/sched/sched_switch' 'needs root and tracefs with sched events'

DATA=$SRC_DIR/tests/data
q="'"
# the seeds each command runs with: a few in make check, 20 in check-full
if [ -n "${TPERF_TEST_FULL:-}" ]; then SEEDS=$(seq 20); else SEEDS="1 2 3"; fi
WORK=$TESTS_DIR/workloads/record-calltree
# an ASan build wants its runtime first among the libraries: not so here
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

# faulty SEED CMD...: CMD with 30% of the calls interrupted and 50% of the
# transfers cut short; fault.log gets the counts of what was injected
faulty() {
	local seed=$1
	shift
	LD_PRELOAD=$TRASH/libfault.so FAULT_SEED=$seed FAULT_EINTR=30 FAULT_SHORT=50 \
		FAULT_LOG=$TRASH/fault.log "$@"
}
# faults were injected (a test that injects none proves nothing); with
# "both", of both kinds
injected() {
	awk -v both="${1:-}" '{ n[$1] += $2 }
		END { exit !(both ? n["eintr"] > 0 && n["short"] > 0 : n["eintr"] + n["short"] > 0) }' \
		"$TRASH/fault.log" ||
	{ echo "no faults injected:"; cat "$TRASH/fault.log"; return 1; }
}

test_expect_success CC 'the fault library builds and injects' '
	cc -O1 -shared -fPIC -o "$TRASH/libfault.so" "$SRC_DIR/tests/fault/fault-inject.c" -ldl &&
	: >"$TRASH/fault.log" &&
	printf "%065536d" 0 >big &&
	faulty 1 sh -c "cat big | cat >copy" &&
	cmp big copy &&
	injected both
'

test_expect_success CC 'report and script of a pipe: the same with the faults' '
	f=$DATA/pdc-pipe-mode-6.12/perf.data.piped.header_features_aligned-6.12 &&
	for cmd in "report --stdio" "script" "report --stats"; do
		: >"$TRASH/fault.log" &&
		"$TPERF" $cmd -i - --symfs=/nonexistent --kallsyms=/dev/null <"$f" >expect 2>&1 &&
		for seed in $SEEDS; do
			cat "$f" | faulty $seed "$TPERF" $cmd -i - --symfs=/nonexistent \
				--kallsyms=/dev/null >actual 2>&1 &&
			test_cmp expect actual || exit 1
		done &&
		injected || exit 1
	done
'

test_expect_success CC,WORK 'record to a file with the faults: a whole file, every sample reported' '
	for seed in $SEEDS; do
		: >"$TRASH/fault.log" &&
		faulty $seed "$TPERF" record -e cpu-clock -g -o f.data -- "$WORK" >out 2>err &&
		injected both &&
		n=$(sed -n "s/.*Captured and wrote .* (\([0-9]*\) samples) ]$/\1/p" err) &&
		test "$n" -gt 0 &&
		"$TPERF" report -i f.data --stats >stats 2>rerr &&
		test ! -s rerr &&
		grep -q "^ *SAMPLE events: *$n\$" stats || { cat err rerr stats; exit 1; }
	done
'

test_expect_success CC,WORK 'record to a pipe into report, both with the faults' '
	: >"$TRASH/fault.log" &&
	faulty 4 "$TPERF" record -e cpu-clock -o - -- "$WORK" 2>err |
		faulty 5 "$TPERF" report -i - --stdio --sort comm,sym -q >out 2>rerr &&
	injected &&
	test ! -s rerr &&
	grep -q "^ *[0-9.]*%  record-calltree  \[\.\] spin$" out
'

test_expect_success CC,TRACEFS 'ftrace record with the faults: the file reads as without them' '
	test_when_finished "\"$TPERF\" ftrace --cleanup >/dev/null 2>&1" &&
	for seed in $SEEDS; do
		: >"$TRASH/fault.log" &&
		faulty $seed "$TPERF" ftrace record -e sched:sched_switch -o t.dat -- \
			"$WORK" >out 2>err &&
		injected both &&
		n=$(sed -n "s/^\[ tperf ftrace: \([0-9]*\) events .*/\1/p" err) &&
		test "$n" -gt 0 &&
		"$TPERF" ftrace show -i t.dat >expect &&
		test $(grep -c " sched_switch: " expect) = $n &&
		faulty $seed "$TPERF" ftrace show -i t.dat >actual &&
		test_cmp expect actual || { cat err; exit 1; }
	done
'

test_expect_success CC 'stat -I with the faults: every interval printed' '
	: >"$TRASH/fault.log" &&
	faulty 6 "$TPERF" stat -I 100 -x, -e task-clock -- sleep 0.55 2>out &&
	injected &&
	test $(grep -c ",task-clock," out) -ge 5
'

test_expect_success CC 'stat -r with a command run by a shell: the faults change no count' '
	: >"$TRASH/fault.log" &&
	faulty 7 "$TPERF" stat -r 3 -x, -e page-faults -- true 2>out &&
	grep -q ",page-faults," out
'

# Until record ends, the header's data size is the last written out (or
# none): a reader takes what is there.  Records are read with pread(), so
# a file that grows under it never faults a mapping.
test_expect_success WORK 'a perf.data read while record writes it' '
	{ "$TPERF" record -e cpu-clock -F 2000 -g -o g.data -- sh -c \
		"i=0; while [ \$i -lt 2000000 ]; do i=\$((i + 1)); done" 2>rec.err & } &&
	pid=$! &&
	test_when_finished "kill $pid 2>/dev/null; wait $pid 2>/dev/null" &&
	sleep 0.5 &&
	for i in 1 2 3; do
		timeout 30 "$TPERF" report -i g.data --stdio --sort comm -q >out 2>err ||
			{ cat err; exit 1; } &&
		grep -q "%  *sh *\$" out &&
		timeout 30 "$TPERF" script -i g.data >out 2>err &&
		test -s out &&
		sleep 0.2 || exit 1
	done &&
	wait $pid &&
	"$TPERF" report -i g.data --stdio -q --sort comm >out 2>err &&
	test ! -s err
'

# EMFILE: the fewest descriptors perf records and counts with are enough
# for tperf too (it raises the soft limit to the hard one, and its room to
# spare is no need); events that cannot fit are refused before one opens,
# with the count to ask for, and perf's status
test_expect_success PERF,WORK 'a low open-files limit: what perf can do, tperf does' '
	for n in 6 7 8 9 10 11 12 14 16; do
		(ulimit -n $n && perf record -q -e cpu-clock -o p.data -- true) >/dev/null 2>&1 &&
			break
	done &&
	(ulimit -n $n && "$TPERF" record -q -e cpu-clock -o t.data -- "$WORK") &&
	"$TPERF" report -i t.data --stats | grep -q "SAMPLE events" &&
	for n in 6 7 8 9 10 11 12 14 16; do
		(ulimit -n $n && perf stat -e task-clock -- true) >/dev/null 2>&1 && break
	done &&
	(ulimit -n $((n + 1)) && "$TPERF" stat -x, -e task-clock -- true) 2>out &&
	grep -q ",task-clock," out
'

test_expect_success PERF 'too many events for the limit: refused before opening, the limit to ask for' '
	(ulimit -n 20 && perf stat -e "sched:*" -a -- true) >/dev/null 2>&1; p=$? &&
	(ulimit -n 20 && "$TPERF" stat -e "sched:*" -a -- true) >/dev/null 2>err; t=$? &&
	test $t = $p && test $t = 255 &&
	grep -q "^tperf: too many open files: [0-9]* descriptors are needed but the limit (RLIMIT_NOFILE) is 20, hard limit 20; " err &&
	(ulimit -n 20 && "$TPERF" record -e "sched:*" -a -o s.data -- true) >/dev/null 2>err; t=$? &&
	test $t = 255 && grep -q "^tperf: too many open files" err &&
	test ! -s s.data
'

# EIO: a disk that fails once N bytes are written (FAULT_EIO_AFTER), as
# a dying disk or a lost network file system does
test_expect_success CC,WORK 'a disk that fails (EIO) under record: perf'"'"'s status, what reached the file reads' '
	: >"$TRASH/fault.log" &&
	test_expect_code 255 env LD_PRELOAD="$TRASH/libfault.so" FAULT_EIO_AFTER=60000 \
		FAULT_LOG="$TRASH/fault.log" "$TPERF" record -N -e cpu-clock -g -F 10000 \
		-o e.data -- "$WORK" >out 2>err &&
	grep -q "^eio [1-9]" "$TRASH/fault.log" &&
	sed -n 1p err >actual &&
	echo "tperf: cannot write ${q}e.data$q: Input/output error" >expect &&
	test_cmp expect actual &&
	grep -q "^\[ tperf record: [0-9.]* MB written to e.data before the error: the file is incomplete \]$" err &&
	! grep -q "Captured and wrote" err &&
	"$TPERF" report -i e.data --stats >stats 2>rerr &&
	n=$(sed -n "s/^ *SAMPLE events: *\([0-9]*\)$/\1/p" stats) &&
	test "$n" -gt 0
'

test_done
