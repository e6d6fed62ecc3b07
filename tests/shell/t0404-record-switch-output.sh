#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# record --switch-output (signal, size, time, an event), --switch-max-files,
# --timestamp-filename and --max-size: the rotated files are named as perf
# names them, each is read on its own by perf 6.1 (report, script, evlist
# with nothing on stderr), and no sample is lost across a switch: the
# files' samples add up to the count record says it wrote.
. "$(dirname "$0")/lib.sh"

test_lazy_prereq TRACEFS 'test -d /sys/kernel/tracing/events/syscalls || test -d /sys/kernel/debug/tracing/events/syscalls' 'no syscall tracepoints in tracefs'

# busy N: a shell loop of N turns (work for cpu-clock to sample);
# waitfor N: spin (no sleep: no clock_nanosleep) until N files p.data.* are
# there, so that the test does not depend on how fast record switches
BUSY='busy() { i=0; while [ $i -lt $1 ]; do i=$((i+1)); done; };
waitfor() { while [ $(ls p.data.* 2>/dev/null | wc -l) -lt $1 ]; do :; done; }'

# samples FILE: the SAMPLE records perf reads in FILE
samples() {
	perf script -i "$1" -D 2>/dev/null | grep -c ": PERF_RECORD_SAMPLE("
}

# check_files PREFIX: each PREFIX.<16 digits> is read by perf without a
# word on stderr; prints the sum of their samples
check_files() {
	local f sum=0 n
	for f in "$1".*; do
		case ${f#"$1".} in
		[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]) ;;
		*) echo "unexpected file $f" >&2; return 1 ;;
		esac
		n=$(samples "$f")
		# a file may hold no sample (the last, when the workload ended
		# just after a switch): perf report says so and stops
		: >err.report
		[ "$n" = 0 ] || perf report -i "$f" --stdio >/dev/null 2>err.report || return 1
		perf script -i "$f" >/dev/null 2>err.script &&
		perf evlist -i "$f" >/dev/null 2>err.evlist &&
		cat err.report err.script err.evlist >err.perf &&
		{ test ! -s err.perf || { echo "perf on $f:" >&2; cat err.perf >&2; return 1; }; } || return 1
		sum=$((sum + n))
	done
	echo $sum
}

# the count of "(N files, M samples)" in record's summary on stderr $1
written() { sed -n 's/.*(\([0-9]*\) files, \([0-9]*\) samples) \]$/\1 \2/p' "$1"; }

test_expect_success PERF '--switch-output=signal: a file per SIGUSR2, each whole, no sample lost' '
	tperf record --switch-output -e cpu-clock -o p.data -- \
		sh -c "$BUSY; busy 20000; kill -USR2 \$PPID; waitfor 1; busy 20000; kill -USR2 \$PPID; waitfor 2; busy 20000" 2>err &&
	test_path_is_missing p.data &&
	ls p.data.* >files && test $(wc -l <files) = 3 &&
	sed "s/^/[ tperf record: Dump /; s/$/ ]/" files >expect &&
	grep "Dump" err >actual && test_cmp expect actual &&
	test $(grep -c "^\[ tperf record: dump data: Woken up [0-9]* times \]$" err) = 2 &&
	sum=$(check_files p.data) &&
	echo "3 $sum" >expect && written err >actual && test_cmp expect actual &&
	echo "[ tperf record: Captured and wrote" >expect &&
	tail -1 err | cut -c1-34 >actual && test_cmp expect actual &&
	for f in $(cat files); do
		test "$(tperf evlist -i $f)" = cpu-clock || exit 1
	done
'

test_expect_success PERF 'the files after the first describe the workload again (its maps, its children)' '
	tperf record --switch-output -e cpu-clock -o p.data -- \
		sh -c "$BUSY; busy 5000; kill -USR2 \$PPID; waitfor 1; busy 150000" 2>err &&
	set -- $(ls p.data.*) && test $# = 2 &&
	perf report -i $2 --stdio --sort comm,dso 2>/dev/null | grep "^ " >rep &&
	grep -q " sh  *dash" rep &&
	! grep "\[unknown\]" rep
'

test_expect_success PERF '--switch-output=SIZE with --switch-max-files: the newest files stay' '
	tperf record --switch-output=4K --switch-max-files=2 -m 8 -F 4000 -e cpu-clock -o p.data -- \
		sh -c "$BUSY; busy 300000" 2>err &&
	sed -n "s/^\[ tperf record: Dump \(.*\) \]$/\1/p" err >dumped &&
	test $(wc -l <dumped) -gt 2 &&
	tail -2 dumped >expect && ls p.data.* >actual && test_cmp expect actual &&
	check_files p.data >/dev/null
'

test_expect_success PERF '--switch-output=TIME: a file a second' '
	tperf record --switch-output=1s -e cpu-clock -o p.data -- sleep 1.3 2>err &&
	ls p.data.* >files && test $(wc -l <files) = 2 &&
	grep -c "Dump" err >n && echo 2 >expect && test_cmp expect n
'

test_expect_success PERF,ROOT,TRACEFS '--switch-output-event: tracepoints rotated at each sleep, the switch event not written' '
	tperf record -e syscalls:sys_enter_getpid,cpu-clock \
		--switch-output-event syscalls:sys_enter_clock_nanosleep -o p.data -- \
		sh -c "$BUSY; busy 5000; sleep 0.01; waitfor 1; busy 5000; sleep 0.01; waitfor 2; busy 5000" 2>err &&
	ls p.data.* >files && test $(wc -l <files) = 3 &&
	sum=$(check_files p.data) && echo "3 $sum" >expect && written err >actual &&
	test_cmp expect actual &&
	printf "syscalls:sys_enter_getpid\ncpu-clock\n" >expect &&
	for f in $(cat files); do
		perf evlist -i $f | grep -v "^#" >actual && test_cmp expect actual || exit 1
	done
'

test_expect_success PERF '--timestamp-filename alone: the one file is renamed at the end' '
	tperf record --timestamp-filename -e cpu-clock -o p.data -- sh -c "$BUSY; busy 5000" 2>err &&
	ls p.data.* >files && test $(wc -l <files) = 1 &&
	sum=$(check_files p.data) && echo "1 $sum" >expect && written err >actual &&
	test_cmp expect actual
'

test_expect_success PERF '--max-size: the recording stops, perf'"'"'s words, the file whole' '
	tperf record --max-size=8K -m 8 -F 4000 -e cpu-clock -o p.data -- sh -c "$BUSY; busy 300000" 2>err &&
	grep -q "^\[ tperf record: tperf size limit reached ([0-9]* KB), stopping session \]$" err &&
	! grep -q "killed by signal" err &&
	n=$(sed -n "s/.*(\([0-9]*\) samples) \]$/\1/p" err) &&
	test "$(samples p.data)" = "$n" &&
	perf report -i p.data --stdio >/dev/null 2>err.perf && test ! -s err.perf &&
	test $(stat -c %s p.data) -lt 65536
'

test_expect_success 'usage errors: a bad --switch-output, a pipe, --switch-max-files alone, --max-size' '
	test_expect_code 129 tperf record --switch-output=100 -e cpu-clock -- true 2>err &&
	echo "tperf: invalid --switch-output '"'"'100'"'"': give '"'"'signal'"'"', a size with B/K/M/G (such as 10M) or a time with s/m/h/d (such as 30s)" >expect &&
	head -1 err >actual && test_cmp expect actual &&
	test_expect_code 129 tperf record --switch-output -o - -e cpu-clock -- true 2>err &&
	grep -q "^ *error: --switch-output needs a file: it cannot rotate a pipe ('"'"'-o -'"'"')$" err &&
	test_expect_code 129 tperf record --switch-max-files=3 -e cpu-clock -- true 2>err &&
	grep -q "^ *error: --switch-max-files needs --switch-output$" err &&
	test_expect_code 129 tperf record --max-size=10 -e cpu-clock -- true 2>err &&
	echo "tperf: invalid --max-size '"'"'10'"'"': give a size with B/K/M/G, such as 100M" >expect &&
	head -1 err >actual && test_cmp expect actual
'

test_done
