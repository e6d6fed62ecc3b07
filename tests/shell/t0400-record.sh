#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf record: files perf 6.1 reads without a warning, the samples and
# symbols it finds in them, pipe mode, killed recordings, -p/-a targets,
# and the attrs of every option against perf's own recordings.
. "$(dirname "$0")/lib.sh"

W=$TESTS_DIR/workloads
test_lazy_prereq CC 'command -v cc'
# the kernel has perf events (software events need nothing else)
test_lazy_prereq EVENTS 'test -e /proc/sys/kernel/perf_event_paranoid'

# perf's stderr must not complain: warnings, errors, failures
no_complaint() {
	if grep -Ei 'warn|error|fail|lost|unknown|incompatible|invalid' "$1"; then
		echo "complaint in $1"; return 1
	fi
}

# the N of "(N samples)" in tperf's summary on stderr file $1
captured() { sed -n 's/.*Captured and wrote [0-9.]* MB .* (\([0-9]*\) samples) ]$/\1/p' "$1"; }
# the number of samples perf report --stats counts
perf_samples() {
	perf report -i "$1" --stats 2>/dev/null | sed -n "s/^ *SAMPLE events: *\([0-9]*\).*/\1/p" | head -1
}
test_must_be_empty() { test ! -s "$1" || { cat "$1"; return 1; }; }

test_expect_success CC 'build the workloads' '
	cd "$TRASH" &&
	for w in calltree threads forkexec; do
		cc -O0 -g -fno-omit-frame-pointer -o $w $W/record-$w.c -lpthread || exit 1
	done &&
	cc -O0 -g -fno-omit-frame-pointer -shared -fPIC -o librecordspin.so $W/record-shlib-lib.c &&
	cc -O0 -g -fno-omit-frame-pointer -o shlib $W/record-shlib.c -L. -Wl,--no-as-needed -lrecordspin -Wl,-rpath,"$TRASH"
'

test_expect_success 'usage errors exit 129' '
	test_expect_code 129 tperf record -o x.data 2>err &&
	grep -q "give a command to run, or -p, -t, -a or -C" err &&
	test_expect_code 129 tperf record --all-user --all-kernel -- true 2>err &&
	grep -q "exclude each other" err &&
	test_expect_code 129 tperf record --call-graph nosuch -- true 2>err &&
	grep -q "unknown call graph mode '"'"'nosuch'"'"'" err &&
	test_expect_code 129 tperf record -F abc -- true 2>err &&
	grep -q "invalid frequency '"'"'abc'"'"'" err
'

test_expect_success EVENTS 'a command that does not exist is an error' '
	test_expect_code 255 tperf record -q -o x.data -e cpu-clock -- /nonexistent/cmd 2>err &&
	echo "tperf: cannot run '"'"'/nonexistent/cmd'"'"': No such file or directory" >expect &&
	test_cmp expect err
'

test_expect_success EVENTS 'the exit status of the command is tperf'"'"'s' '
	test_expect_code 3 tperf record -o x.data -e cpu-clock -- sh -c "exit 3" 2>err &&
	grep -qx "tperf: note: '"'"'sh'"'"' exited with status 3" err
'

test_expect_success EVENTS 'summary lines in perf'"'"'s layout; an existing file becomes FILE.old' '
	echo old >x.data &&
	tperf record -o x.data -e cpu-clock -- true 2>err &&
	test "$(cat x.data.old)" = old &&
	sed -e "s/[0-9][0-9]*/N/g" err >actual &&
	grep -q "^\[ tperf record: Woken up N times to write data \]$" actual &&
	grep -Eq "^\[ tperf record: Captured and wrote N\.N MB x\.data( \(N samples\))? \]$" actual &&
	test $(wc -l <err) = 2 &&
	tperf record -q -o x.data -e cpu-clock -- true 2>err &&
	test_must_be_empty err
'

test_expect_success EVENTS '-F above the kernel limit is lowered with perf'"'"'s warning' '
	max=$(cat /proc/sys/kernel/perf_event_max_sample_rate) &&
	tperf record -o x.data -e cpu-clock -F $((max + 1)) -- true 2>err &&
	grep -qx "tperf: warning: maximum frequency rate ($max Hz) exceeded, throttling from $((max + 1)) Hz to $max Hz" err
'

test_expect_success EVENTS '-m rounds to a power of two as perf' '
	tperf record -o x.data -e cpu-clock -m 3 -- true 2>err &&
	grep -qx "rounding mmap pages size to 16K (4 pages)" err
'

test_expect_success CC 'rings of one or two pages still work (records wrap around)' '
	tperf record -o x.data -e cpu-clock -F 20000 -g -m 1 -- "$TRASH"/calltree 100 2>err &&
	n=$(captured err) && test "$n" -gt 0 &&
	{ grep -q "lost" err || test "$(perf_samples x.data)" = "$n"; }
'

# --- against perf ---

test_expect_success PERF,CC 'the call tree workload: perf reads it without a complaint' '
	tperf record -o ct.data -F 999 -g -- "$TRASH"/calltree 600 2>rec.err &&
	perf report -i ct.data --stdio >report 2>report.err &&
	no_complaint report.err &&
	perf script -i ct.data >script 2>script.err &&
	no_complaint script.err &&
	perf evlist -v -i ct.data >evlist 2>evlist.err &&
	no_complaint evlist.err &&
	perf report -i ct.data --header-only >header 2>header.err &&
	no_complaint header.err
'

test_expect_success PERF,CC 'the sample count perf reports is the count tperf printed' '
	n=$(captured "$TRASH"/t$((test_count - 1))/rec.err) &&
	test -n "$n" && test "$n" -gt 100 &&
	test "$(perf_samples "$TRASH"/t$((test_count - 1))/ct.data)" = "$n" &&
	test "$(perf script -i "$TRASH"/t$((test_count - 1))/ct.data -F tid | wc -l)" = "$n"
'

test_expect_success PERF,CC 'perf finds the known call tree, in the expected weight order' '
	d="$TRASH"/t$((test_count - 2)) &&
	perf report -i $d/ct.data --stdio --children --sort sym -g none 2>/dev/null |
		sed -n "s/.*\[\.\] \(work_[a-z]*\|run\|main\) *$/\1/p" >actual &&
	printf "%s\n" main run work_four work_two work_one >expect &&
	test_cmp expect actual &&
	perf report -i $d/ct.data --stdio --no-children --sort sym -g caller 2>/dev/null >graph &&
	grep -q -- "---main" graph
'

test_expect_success PERF,CC 'BUILD_ID holds the hit binaries with their ELF build-ids' '
	d="$TRASH"/t$((test_count - 3)) &&
	id=$(readelf -n "$TRASH"/calltree | sed -n "s/.*Build ID: //p") &&
	test -n "$id" &&
	perf buildid-list -i $d/ct.data >ids 2>err &&
	no_complaint err &&
	grep -qx "$id $TRASH/calltree" ids
'

test_expect_success PERF,CC 'the header features perf shows' '
	d="$TRASH"/t$((test_count - 4)) &&
	perf report -i $d/ct.data --header-only 2>/dev/null >h &&
	grep -q "^# hostname : $(uname -n)$" h &&
	grep -q "^# os release : $(uname -r)$" h &&
	grep -q "^# arch : $(uname -m)$" h &&
	grep -q "^# nrcpus online : $(nproc)$" h &&
	grep -q "^# cmdline : .*tperf record -o ct.data -F 999 -g -- $TRASH/calltree 600 $" h &&
	grep -q "^# event : name = cpu-clock:ppp, " h &&
	grep -q "^# time of first sample : " h &&
	grep -q "^# CPU_TOPOLOGY info available" h &&
	grep -q "^# NUMA_TOPOLOGY info available" h
'

test_expect_success PERF,CC 'pipe mode: tperf record -o - | perf report -i -' '
	tperf record -q -o - -F 999 -g -- "$TRASH"/calltree 300 2>rec.err | perf report -i - --stdio --no-children --sort sym >report 2>err &&
	test_must_be_empty rec.err &&
	no_complaint err &&
	grep -q "^# Samples: [1-9]" report &&
	grep -q "\[\.\] spin" report
'

test_expect_success PERF,CC 'threads created after the exec are followed' '
	tperf record -q -o th.data -F 999 -- "$TRASH"/threads 30000000 &&
	perf report -i th.data --stdio --sort sym 2>err >report &&
	no_complaint err &&
	grep -q "\[\.\] thread_a" report &&
	grep -q "\[\.\] thread_b" report &&
	test "$(perf script -i th.data -F tid 2>/dev/null | sort -u | wc -l)" -ge 2
'

test_expect_success PERF,CC 'a fork/exec storm: every exec and the children'"'"'s samples' '
	tperf record -q -o fe.data -F 999 -- "$TRASH"/forkexec 20 &&
	perf script -i fe.data --show-task-events 2>err >script &&
	no_complaint err &&
	test "$(grep -c "PERF_RECORD_COMM exec: " script)" = 21 &&
	perf report -i fe.data --stdio --sort sym 2>/dev/null | grep -q "\[\.\] child_work"
'

test_expect_success PERF,CC 'samples in a shared library resolve to it' '
	tperf record -q -o sl.data -F 999 -- "$TRASH"/shlib &&
	perf report -i sl.data --stdio --sort dso,sym 2>err >report &&
	no_complaint err &&
	grep -E "^ +[0-9.]+% +librecordspin\.so +\[\.\] lib_spin" report
'

test_expect_success PERF,CC '-p of a running process: its earlier mmaps resolve' '
	"$TRASH"/shlib wait long & pid=$! &&
	sleep 0.5 &&
	tperf record -q -o p.data -F 999 -p $pid 2>rec.err;
	wait $pid &&
	test_must_be_empty rec.err &&
	perf report -i p.data --stdio --sort dso,sym 2>err >report &&
	no_complaint err &&
	grep -E "^ +[0-9.]+% +librecordspin\.so +\[\.\] lib_spin" report &&
	perf script -i p.data --show-mmap-events 2>/dev/null | grep -q "PERF_RECORD_MMAP2 $pid/$pid: .* r-xp $TRASH/librecordspin.so$"
'

test_expect_success PERF,CC '-a records several processes' '
	# each job in braces: "A & a=$! && B &" would put "a=$! && B" in
	# the background, and neither pid would be known here
	{ "$TRASH"/calltree 100000 & } && a=$! &&
	{ "$TRASH"/threads 10000000000 & } && b=$! &&
	test_when_finished "kill $a $b 2>/dev/null; true" &&
	sleep 0.2 &&
	tperf record -q -a -o a.data -F 499 -- sleep 0.5 &&
	kill $a $b && { wait $a $b; true; } &&
	perf report -i a.data --stdio --sort comm 2>err >report &&
	no_complaint err &&
	grep -q " calltree *$" report &&
	grep -q " threads *$" report &&
	perf report -i a.data --stdio --sort sym 2>/dev/null >syms &&
	grep -q "\[\.\] spin" syms &&
	grep -q "\[\.\] thread_a" syms
'

test_expect_success PERF,CC 'SIGINT: the rings are drained and the file completed' '
	# $! must be tperf, not a subshell that ignores SIGINT in the
	# background and leaves tperf running: "$TPERF" in braces
	{ "$TPERF" record -o int.data -F 999 -- "$TRASH"/calltree 100000 2>err & } && pid=$! &&
	test_when_finished "pkill -f \"$TRASH/calltree 100000\"; true" &&
	sleep 0.7 && kill -INT $pid &&
	{ wait $pid; test $? = 130; } &&
	test_must_fail pgrep -f "$TRASH/calltree 100000" &&
	grep -q "Captured and wrote" err &&
	n=$(captured err) && test "$n" -gt 0 &&
	test "$(perf_samples int.data)" = "$n" &&
	perf report -i int.data --header-only 2>/dev/null | grep -q "^# time of last sample"
'

# perf dies of SIGHUP and SIGPIPE with its file unfinished; tperf ignored
# SIGPIPE (a `kill -PIPE` went unnoticed and the recording went on).  Both
# now end the recording as SIGTERM does: file completed, 128 + the signal.
test_expect_success CC 'SIGHUP and SIGPIPE: the recording stops, the file is completed' '
	test_when_finished "pkill -f \"$TRASH/calltree 100000\"; true" &&
	for sig in HUP PIPE; do
		{ "$TPERF" record -o $sig.data -F 999 -- "$TRASH"/calltree 100000 2>err & } &&
		pid=$! &&
		sleep 0.5 && kill -$sig $pid &&
		{ wait $pid; echo $? >status; } &&
		echo $((128 + $(kill -l $sig))) >expect &&
		test_cmp expect status &&
		test_must_fail pgrep -f "$TRASH/calltree 100000" &&
		n=$(captured err) && test "$n" -gt 0 &&
		tperf report -i $sig.data --stats >stats 2>err2 &&
		test_must_be_empty err2 &&
		grep -q "^ *SAMPLE events: *$n\$" stats || exit 1
	done
'

test_expect_success CC 'SIGKILL: what was written is still read (tperf evlist, tperf script)' '
	# a high rate, so the rings wake tperf and it writes before the kill
	{ "$TPERF" record -q -o kill.data -e cpu-clock -c 10000 -- "$TRASH"/calltree 100000 & } &&
	pid=$! &&
	test_when_finished "pkill -f \"$TRASH/calltree 100000\"; true" &&
	for i in $(seq 100); do
		test "$(stat -c %s kill.data 2>/dev/null || echo 0)" -gt 65536 && break
		sleep 0.1
	done &&
	kill -KILL $pid &&
	{ wait $pid; test $? = 137; } &&
	tperf evlist -i kill.data >out 2>err &&
	echo cpu-clock >expect &&
	test_cmp expect out &&
	tperf script -i kill.data -F event >out 2>err &&
	test "$(wc -l <out)" -gt 1000 &&
	sort -u out >events &&
	echo "cpu-clock: " >expect &&
	test_cmp expect events &&
	grep -q "the header gives no valid data size (was perf record killed?)" err
'

# the samples tperf report counts in file $1 (a killed record's too)
tperf_samples() {
	tperf report -i "$1" --stats 2>/dev/null | sed -n "s/^ *SAMPLE events: *\([0-9]*\).*/\1/p" | head -1
}

# record -g -F 1000 ($1: tperf or perf) of the call tree workload into $2,
# SIGKILLed after $3 seconds
record_killed() {
	{ "$1" record -q -g -F 1000 -o "$2" -- "$TRASH"/calltree 100000 & } && pid=$! &&
	sleep "$3" &&
	kill -KILL $pid &&
	{ wait $pid; test $? = 137; } &&
	pkill -f "$TRASH/calltree 100000"
	true
}

# The data leaves the buffer at every round and the rings are read every
# 100 ms: a kill loses a fraction of a second (it lost up to 1 MiB, all of
# this run's samples; perf loses up to half a ring).  The counts are
# loose (at least 100 after 1.5 s, 200 after 3 s, 80% of perf's): a loaded
# machine gives the workload less CPU, and the old code kept 0.
test_expect_success CC 'SIGKILL loses no more than the last fraction of a second' '
	test_when_finished "pkill -f \"$TRASH/calltree 100000\"; true" &&
	record_killed "$TPERF" k1.data 1.5 &&
	n=$(tperf_samples k1.data) &&
	echo "samples after 1.5 s: $n" &&
	test "$n" -ge 100 &&
	if test_have_prereq PERF; then
		record_killed perf kp.data 3 &&
		record_killed "$TPERF" kt.data 3 &&
		p=$(perf_samples kp.data) && t=$(tperf_samples kt.data) &&
		echo "after 3 s: perf $p, tperf $t samples" &&
		test "$t" -ge 200 && test $((t * 10)) -ge $((${p:-0} * 8))
	fi
'

test_expect_success PERF '--dry-run -vv prints the attr perf -vv prints' '
	for opts in "-e cpu-clock" "-e cpu-clock -g" "-e cpu-clock -c 1000 --all-user" \
		    "-e task-clock --call-graph dwarf,4096 -s" "-e cpu-clock -d -W --phys-data"; do
		perf record -vv -o p.data $opts -- true 2>&1 | awk -v d="$(printf "%060d" 0 | tr 0 -)" "\$0 == d {n++; print; if (n == 2) exit; next} n == 1" >expect &&
		tperf record --dry-run -vv --no-bpf-event $opts -- true 2>actual &&
		test_cmp expect actual || { echo "options: $opts"; exit 1; }
	done
'

# option sets whose attrs perf evlist -v must print identically for perf's
# file and ours
attr_cases() {
	cat <<-\EOT
	-e cpu-clock
	-e cpu-clock,task-clock
	-e {cpu-clock,task-clock}
	-e {cpu-clock,task-clock}:S
	-e cpu-clock -a
	-e cpu-clock -C 0
	-e cpu-clock --sample-cpu
	-e cpu-clock -c 10000
	-e cpu-clock -g
	-e cpu-clock --call-graph fp
	-e cpu-clock --call-graph dwarf
	-e cpu-clock --call-graph dwarf,4096
	-e cpu-clock -d
	-e cpu-clock -W
	-e cpu-clock --phys-data
	-e cpu-clock -R
	-e cpu-clock -s
	-e cpu-clock -n
	-e cpu-clock --switch-events
	-e cpu-clock --namespaces
	-e cpu-clock --all-user
	-e cpu-clock --all-kernel
	-e cpu-clock --no-inherit
	-e cpu-clock -T
	-e cpu-clock:u
	-e cpu-clock -F 500
	-e cpu-clock -e page-faults
	-e cpu-clock -k mono
	-e cpu-clock/period=1000/
	-e cpu-clock/freq=100/ -c 5000
	-e cpu-clock -a -g
	-e cpu-clock -a -s
	-e cpu-clock -a --switch-events -d
	-F 999 -g
	-e sched:sched_switch
	-e cpu-clock,sched:sched_switch
	-e sched:sched_switch -a
	EOT
}

# make check: the cases whose file attrs could differ from the opened ones
# (several events, groups, CPUs, callchains, tracepoints); t0403 compares
# each option's opened attrs; make check-full runs every case here
attr_cases_check() {
	if [ -n "${TPERF_TEST_FULL:-}" ]; then
		attr_cases
	else
		attr_cases | grep -E -- "task-clock|page-faults| -a( |$)| -C |-g|dwarf|sched:|period="
	fi
}

test_expect_success PERF 'every option sets the attr as perf 6.1 does (perf evlist -v)' '
	attr_cases_check | while read -r opts; do
		perf record -q -o p.data $opts -- true >/dev/null 2>&1 &&
		tperf record -q -o t.data --no-bpf-event $opts -- true >/dev/null 2>&1 &&
		perf evlist -v -i p.data >expect 2>&1 &&
		perf evlist -v -i t.data >actual 2>&1 &&
		test_cmp expect actual || { echo "options: $opts"; exit 1; }
	done &&
	# without the option (lib.sh gives it to perf): the bpf_event bit
	command perf record -q -o p.data -e cpu-clock -- true >/dev/null 2>&1 &&
	tperf record -q -o t.data -e cpu-clock -- true >/dev/null 2>&1 &&
	perf evlist -v -i p.data >expect 2>&1 &&
	grep -q "bpf_event: 1" expect &&
	perf evlist -v -i t.data >actual 2>&1 &&
	test_cmp expect actual
'

test_expect_success PERF 'tracepoints: perf script formats them from our tracing data (file and pipe)' '
	tperf record -q -a -o tp.data -e sched:sched_switch -- sleep 0.2 &&
	perf script -i tp.data >script 2>err &&
	no_complaint err &&
	grep -q " sched:sched_switch: prev_comm=.* prev_pid=[0-9]* .* ==> next_comm=" script &&
	tperf record -q -a -o - -e sched:sched_switch -- sleep 0.2 | perf script -i - >script 2>err &&
	no_complaint err &&
	grep -q " sched:sched_switch: prev_comm=.* ==> next_comm=" script
'

test_expect_success PERF 'synthesized kernel map as perf writes it' '
	perf record -q -o p.data -e cpu-clock -- true >/dev/null 2>&1 &&
	tperf record -q -o t.data -e cpu-clock -- true &&
	perf script -i p.data --show-mmap-events 2>/dev/null | grep "PERF_RECORD_MMAP.*kernel.kallsyms" >expect &&
	perf script -i t.data --show-mmap-events 2>/dev/null | grep "PERF_RECORD_MMAP.*kernel.kallsyms" >actual &&
	test_cmp expect actual
'

test_done
