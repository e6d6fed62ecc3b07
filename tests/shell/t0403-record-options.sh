#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every option `tperf record --list-opts` prints changes something, and the
# same thing as in perf 6.1: the attrs (`tperf record --dry-run -vv`
# against `perf record -vv`), the -v lines, or the file (checked here or in
# the test file named in the table).  An option that changed nothing would
# be silently ignored: the worst kind of defect.
. "$(dirname "$0")/lib.sh"

. "$TESTS_DIR/shell/attr-lib.sh"

# One line per option: the option, then how its effect is shown:
#   attr OPTIONS...  its attrs are perf's for these options (PID: a live
#                    process of the test)
#   test NAME        a test below, or in the test file NAME
option_table() {
	cat <<-\EOT
	--event attr -e cpu-clock -e page-faults,task-clock
	--filter test t0401-record-filter.sh
	--exclude-perf test t0401-record-filter.sh
	--pid attr -e cpu-clock -p PID
	--tid attr -e cpu-clock -t PID
	--tid attr -e cpu-clock -t PID --no-no-inherit
	--all-cpus attr -e cpu-clock -a
	--cpu attr -e cpu-clock -C 0
	--no-inherit attr -e cpu-clock -i
	--no-inherit attr -e cpu-clock -a -i
	--freq attr -e cpu-clock -F 99
	--count attr -e cpu-clock -c 1234
	--call-graph attr -e cpu-clock --call-graph dwarf,4096
	--call-graph attr -e cpu-clock --call-graph lbr
	--call-graph attr -e cpu-clock -g
	--branch-any attr -e cpu-clock -b
	--branch-filter attr -e cpu-clock -j any_call,u
	--branch-filter test t0485-record-branch.sh
	--user-regs attr -e cpu-clock --user-regs=ax,bx
	--user-regs attr -e cpu-clock --user-regs
	--user-regs attr -e cpu-clock --call-graph dwarf --user-regs=ax
	--mmap-pages test -m, --mmap-flush
	--mmap-flush test -m, --mmap-flush
	--output test t0400-record.sh
	--timestamp attr -e cpu-clock -T
	--timestamp attr -e cpu-clock --no-timestamp
	--timestamp attr -e cpu-clock --no-timestamp -a
	--timestamp attr -e cpu-clock --no-timestamp -R
	--sample-cpu attr -e cpu-clock --sample-cpu
	--sample-identifier attr -e cpu-clock --sample-identifier
	--sample-identifier attr -e cpu-clock -e task-clock --sample-identifier
	--period attr -e cpu-clock -c 1000 -P
	--running-time attr -e cpu-clock --running-time
	--running-time attr -e {cpu-clock,task-clock}:S --running-time
	--no-buffering attr -e cpu-clock --no-buffering
	--group attr -e cpu-clock -e task-clock --group
	--group test group_file
	--realtime attr -e cpu-clock -r 1
	--realtime test realtime
	--synth test synth
	--per-thread attr -e cpu-clock --per-thread
	--per-thread attr -e cpu-clock --per-thread -T
	--per-thread attr -e cpu-clock -e task-clock --per-thread -p PID
	--per-thread test per_thread
	--tail-synthesize test tail_synthesize
	--user-callchains attr -e cpu-clock -g --user-callchains
	--user-callchains attr -e cpu-clock --call-graph dwarf --user-callchains
	--kernel-callchains attr -e cpu-clock -g --kernel-callchains
	--data attr -e cpu-clock -d
	--weight attr -e cpu-clock -W
	--data-src test check_data_src
	--phys-data attr -e cpu-clock --phys-data
	--raw-samples attr -e cpu-clock -R
	--stat attr -e cpu-clock -s
	--no-samples attr -e cpu-clock -n
	--switch-events attr -e cpu-clock --switch-events
	--switch-events attr -e cpu-clock --switch-events -a
	--namespaces attr -e cpu-clock --namespaces
	--namespaces test namespaces
	--no-bpf-event test bpf_event_attr
	--all-user attr -e cpu-clock:k --all-user
	--all-kernel attr -e cpu-clock:u --all-kernel
	--clockid attr -e cpu-clock -k monotonic_raw
	--clockid attr -e cpu-clock -k 4
	--no-buildid test t0475-record-buildid-cache.sh
	--no-buildid-cache test t0475-record-buildid-cache.sh
	--buildid-all test t0475-record-buildid-cache.sh
	--compression-level test t0406-record-compression.sh
	--delay test t0405-record-control-delay.sh
	--control test t0405-record-control-delay.sh
	--switch-output test t0404-record-switch-output.sh
	--switch-output-event test t0404-record-switch-output.sh
	--switch-max-files test t0404-record-switch-output.sh
	--timestamp-filename test t0404-record-switch-output.sh
	--max-size test t0404-record-switch-output.sh
	--dry-run test compare_record
	--verbose test compare_record
	--quiet test t0400-record.sh
	EOT
}

# a process for -p and -t to watch: its pid in file "pid"
start_target() {
	sleep 30 &
	echo $! >pid
}

# --data-src is tperf's (perf 6.1 has none): perf's attr with DATA_SRC added
check_data_src() {
	perf record -vv -o p.data -e cpu-clock -- true 2>&1 | attr_blocks 1 |
		sed "s/^\(  sample_type  *IP|TID|TIME|PERIOD\)$/\1|DATA_SRC/" >expect &&
	grep -q "|DATA_SRC$" expect &&
	tperf record --dry-run -vv --no-bpf-event -e cpu-clock --data-src -- true 2>&1 | attr_blocks 1 >actual &&
	test_cmp expect actual
}

# --group: the file's events are one group, as perf's (with --no-buffering too)
group_file() {
	perf record -q -o p.data --group -e cpu-clock -e task-clock -- true &&
	perf evlist -g -i p.data >expect &&
	echo "{cpu-clock,task-clock}" >want && test_cmp want expect &&
	tperf record -q -o t.data --group --no-buffering -e cpu-clock -e task-clock -- true &&
	perf evlist -g -i t.data >actual &&
	test_cmp expect actual
}

test_expect_success PERF 'each option in the table; its attrs as perf 6.1 sets them' '
	tperf record --list-opts >opts &&
	for o in $(cat opts); do
		option_table | grep -q "^$o " || { echo "option $o is not in the table"; exit 1; }
	done &&
	for f in $(option_table | sed -n "s/^[^ ]* test \(t[0-9].*\)/\1/p" | sort -u); do
		test -f "$SRC_DIR/tests/shell/$f" || { echo "no test file $f"; exit 1; }
	done &&
	start_target &&
	test_when_finished "kill $(cat pid)" &&
	option_table | sed -n "s/^\([^ ]*\) attr //p" | sed "s/PID/$(cat pid)/" >cases &&
	while read -r opts; do
		compare_record $opts || { echo "options: $opts"; exit 1; }
	done <cases &&
	check_data_src &&
	bpf_event_attr &&
	group_file
'

test_expect_success PERF '-m, --mmap-flush: perf'"'"'s -v lines (ring size with its header page)' '
	perf record -v -o p.data -e cpu-clock -m 16 --mmap-flush 4096 -- true 2>&1 |
		grep -E "^mmap (flush: [0-9]+|size [0-9]+B)$" | head -2 >expect &&
	tperf record -v -o t.data -e cpu-clock -m 16 --mmap-flush 4096 -- true 2>&1 |
		grep -E "^mmap (flush: [0-9]+|size [0-9]+B)$" >actual &&
	printf "mmap flush: 4096\nmmap size 69632B\n" >want &&
	test_cmp want expect &&
	test_cmp expect actual &&
	test_expect_code 129 tperf record -m 16,16 -e cpu-clock -- true 2>err &&
	echo "tperf: '"'"'-m 16,16'"'"': the size after '"'"','"'"' is for AUX area events (intel_pt and the like), which tperf record does not support; give -m PAGES" >expect &&
	test_cmp expect err
'

# --realtime: the recorder runs SCHED_FIFO at that priority, the command
# (forked before) as it was, as under perf
realtime() {
	perf record -q -o p.data -r 1 -e cpu-clock -- sh -c 'chrt -p $$; chrt -p $PPID' |
		sed "s/^pid [0-9]*/pid N/" >expect &&
	printf "%s\n" "pid N's current scheduling policy: SCHED_OTHER" \
		"pid N's current scheduling priority: 0" \
		"pid N's current scheduling policy: SCHED_FIFO" \
		"pid N's current scheduling priority: 1" >want &&
	test_cmp want expect &&
	tperf record -q -o t.data -r 1 -e cpu-clock -- sh -c 'chrt -p $$; chrt -p $PPID' |
		sed "s/^pid [0-9]*/pid N/" >actual &&
	test_cmp expect actual &&
	test_expect_code 129 tperf record -r 100 -e cpu-clock -- true 2>err &&
	grep -q "^ *error: --realtime takes a SCHED_FIFO priority from 1 to 99$" err
}

# --synth: the records of the existing task that perf writes for each
# value (-p), the pids of the workloads made alike
synth() {
	sleep 30 &
	spid=$! &&
	for v in no task mmap all task,mmap cgroup; do
		for tool in perf tperf; do
			$tool record -q --synth=$v -e cpu-clock -p $spid -o $tool.data -- sleep 0.01 &&
			perf script -i $tool.data --show-task-events --show-mmap-events 2>/dev/null |
				grep " 0.000000: PERF_RECORD_" |
				sed "s/perf-exec:[0-9]*\/[0-9]*/perf-exec:N/" >$tool.synth || return 1
		done
		test_cmp perf.synth tperf.synth || { echo "--synth=$v"; kill $spid; return 1; }
	done &&
	kill $spid &&
	test_expect_code 129 tperf record --synth=bogus -e cpu-clock -- true 2>err &&
	echo "tperf: invalid --synth 'bogus': give no, all, task, mmap or cgroup, separated by commas" >expect &&
	head -1 err >actual && test_cmp expect actual
}

test_expect_success PERF '--synth: the existing tasks'"'"' records as perf writes them' '
	synth
'

# --per-thread: one ring per thread on any CPU; the ID_INDEX perf writes
# (cpu -1, the thread's ring), samples perf reads
per_thread() {
	sh -c 'i=0; while [ $i -lt 3000000 ]; do i=$((i+1)); done' &
	bpid=$! &&
	for tool in perf tperf; do
		$tool record -q --per-thread -e cpu-clock -e task-clock -p $bpid -o $tool.data -- sleep 0.2 &&
		perf script -i $tool.data -D 2>/dev/null | grep -a "^ \.\.\. id: " |
			sed "s/id: [0-9]*/id: N/" >$tool.ids || { kill $bpid; return 1; }
	done &&
	kill $bpid &&
	printf " ... id: N  idx: 0  cpu: -1  tid: $bpid\n ... id: N  idx: 0  cpu: -1  tid: $bpid\n" >want &&
	test_cmp want perf.ids &&
	test_cmp perf.ids tperf.ids &&
	perf report -i tperf.data --stdio >/dev/null 2>err && test ! -s err &&
	test "$(perf script -i tperf.data -F comm | tr -d " " | sort -u)" = sh &&
	test_expect_code 129 tperf record --per-thread -a -e cpu-clock -- true 2>err &&
	grep -q "^ *error: --per-thread is for a command, -p or -t, not for -a or -C$" err
}

test_expect_success PERF '--per-thread: a ring per thread, perf'"'"'s ID_INDEX' '
	per_thread
'

# --tail-synthesize: the records in the file's order, as perf's (-p: the
# state of the process after the samples)
tail_synthesize() {
	sleep 30 &
	spid=$! &&
	for tool in perf tperf; do
		$tool record -q --tail-synthesize -e cpu-clock -p $spid -o $tool.data -- sleep 0.01 &&
		perf script -i $tool.data -D 2>/dev/null | grep -a -o "PERF_RECORD_[A-Z0-9_]*" |
			uniq -c >$tool.order || { kill $spid; return 1; }
	done &&
	kill $spid &&
	test "$(tail -1 perf.order | sed "s/^ *[0-9]* //")" = PERF_RECORD_MMAP2 &&
	test_cmp perf.order tperf.order
}

test_expect_success PERF '--tail-synthesize: the state written at the end, as perf' '
	tail_synthesize
'

test_expect_success PERF,ROOT '--realtime: SCHED_FIFO for the recorder, not for the command, as perf' '
	realtime
'

# the NAMESPACES records of file $1, without comm, pid and time
namespaces() {
	perf script -i "$1" --show-namespace-events 2>/dev/null |
		sed -n "/PERF_RECORD_NAMESPACES/{s/.*PERF_RECORD_NAMESPACES [0-9]*\/[0-9]* //;N;N;p}"
}

test_expect_success PERF '--namespaces: the workload'"'"'s namespaces are written, as perf writes them' '
	perf record -q -o p.data -e cpu-clock --namespaces -- true &&
	tperf record -q -o t.data -e cpu-clock --namespaces -- true &&
	namespaces p.data >expect &&
	namespaces t.data >actual &&
	grep -q "nr_namespaces: 7" expect &&
	test_cmp expect actual
'

test_done
