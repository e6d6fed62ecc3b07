#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: alone (shapes of interval rows and timings that another test's load would change)
# tperf stat's options from perf 6.1 beyond the first set (issue 26), each
# against what perf prints and returns for the same command line here.
. "$(dirname "$0")/lib.sh"

test_lazy_prereq STRACE 'command -v strace' 'strace (Debian strace) is not installed'
test_lazy_prereq NOHWPMU 'command perf stat -x, -e cycles true 2>&1 | grep -q "^<not supported>,"' \
	'the machine counts cycles: the group of an unsupported leader needs a VM without a PMU'

# The shape of stat's output: every number an N (signs of --table's
# differences, its bars and the K/M/G of rates dropped), runs of blanks one
# blank.
shape() {
	sed -E 's/[0-9][0-9.,]*/N/g; s/\([+-]N\) #+$/(N) #/; s/ [KMG]\/sec/ \/sec/; s/ +/ /g; s/ +$//'
}

# Wait until tperf (pid $1) has its counters open: a perf_event descriptor.
wait_counting() {
	local i
	for i in $(seq 100); do
		ls -l /proc/$1/fd 2>/dev/null | grep -q perf_event && return 0
		sleep 0.05
	done
	echo "tperf $1 opened no counter in 5 s" >&2
	return 1
}

test_expect_success PERF 'no command: system-wide until --timeout, as perf' '
	perf stat -e task-clock --timeout 100 2>perf.err &&
	tperf stat -e task-clock --timeout 100 2>tperf.err &&
	shape <perf.err >expect &&
	shape <tperf.err >actual &&
	test_cmp expect actual &&
	grep -q "^ Performance counter stats for '"'"'system wide'"'"':$" tperf.err &&
	grep -Eq "^ +[0-9.]+ msec task-clock +# +[0-9.]+ CPUs utilized" tperf.err
'

test_expect_success 'no command: counts until SIGINT, which ends tperf as perf (130)' '
	"$TPERF" stat -e task-clock,context-switches 2>err &
	pid=$! &&
	test_when_finished "kill $pid 2>/dev/null" &&
	wait_counting $pid &&
	sleep 0.1 &&
	kill -INT $pid &&
	test_expect_code 130 wait $pid &&
	grep -q "for '"'"'system wide'"'"':" err &&
	grep -Eq "^ +[0-9.]+ msec task-clock " err &&
	grep -Eq "^ +[0-9]+ +context-switches " err
'

test_expect_success 'no command with -I and --interval-count: that many intervals' '
	tperf stat -x, -e task-clock -I 100 --interval-count 2 2>err &&
	test $(grep -c ",task-clock," err) = 2
'

test_expect_success PERF '--timeout: the command gets SIGTERM, status 0, as perf' '
	perf stat --timeout 100 -e task-clock sleep 5 2>perf.err &&
	tperf stat --timeout 100 -e task-clock sleep 5 2>tperf.err &&
	shape <perf.err >expect &&
	shape <tperf.err >actual &&
	test_cmp expect actual &&
	head -1 tperf.err >first &&
	echo "sleep: Terminated" >expect &&
	test_cmp expect first &&
	elapsed=$(awk "/seconds time elapsed/ { print \$1 }" tperf.err) &&
	awk "BEGIN { exit !($elapsed >= 0.09 && $elapsed < 1) }"
'

test_expect_success '--timeout with -r: every run is stopped' '
	tperf stat -r 2 --timeout 100 -x, -e task-clock sleep 5 2>err &&
	test $(grep -c "^sleep: Terminated$" err) = 2
'

test_expect_success PERF '--timeout usage errors: perf'"'"'s status 234' '
	test_expect_code 234 perf stat --timeout 5 -e task-clock true 2>/dev/null &&
	test_expect_code 234 tperf stat --timeout 5 -e task-clock true 2>err &&
	grep -q "^error: --timeout must be >= 10 ms$" err &&
	test_expect_code 234 perf stat --timeout 100 -I 100 -e task-clock true 2>/dev/null &&
	test_expect_code 234 tperf stat --timeout 100 -I 100 -e task-clock true 2>err &&
	grep -q "^error: --timeout is not supported with --interval-print$" err
'

test_expect_success '--timeout under 100 ms: a warning, as perf gives' '
	tperf stat --timeout 50 -e task-clock true 2>err &&
	grep -q "^tperf: warning: a timeout under 100 ms" err
'

# The exclude_* lines of -vv's attrs, one block per event.
excludes() {
	awk '/^perf_event_attr:/ { n++ } /exclude_/ { print n, $1, $2 }'
}

for opt in --all-user --all-kernel; do
	test_expect_success PERF "$opt: the exclude bits of perf's attrs, modifiers overridden" "
		perf stat -vv $opt -e task-clock,page-faults:k,context-switches:u true 2>perf.err &&
		tperf stat -vv $opt -e task-clock,page-faults:k,context-switches:u true 2>tperf.err &&
		excludes <perf.err >expect &&
		excludes <tperf.err >actual &&
		test -s expect &&
		test_cmp expect actual &&
		grep -Eq '^ +[0-9.]+ msec task-clock +#' tperf.err
	"
done

test_expect_success PERF '--all-user with --all-kernel: a usage error (129), as perf' '
	test_expect_code 129 perf stat --all-user --all-kernel -e task-clock true 2>/dev/null &&
	test_expect_code 129 tperf stat --all-user --all-kernel -e task-clock true 2>err &&
	grep -q "^error: --all-user and --all-kernel exclude each other$" err
'

test_expect_success PERF '--pre and --post around each run, as perf' '
	perf stat --pre "echo PRE" --post "echo POST" -r 2 -e task-clock true >perf.out 2>perf.err &&
	tperf stat --pre "echo PRE" --post "echo POST" -r 2 -e task-clock true >tperf.out 2>tperf.err &&
	test_cmp perf.out tperf.out &&
	printf "PRE\nPOST\nPRE\nPOST\n" >expect &&
	test_cmp expect tperf.out &&
	shape <perf.err >expect &&
	shape <tperf.err >actual &&
	test_cmp expect actual
'

test_expect_success PERF '--pre runs before the counters open, --post after they close' '
	tperf stat --pre "echo pre >>order" --post "echo post >>order" -x, -e task-clock \
		sh -c "echo run >>order" 2>err &&
	printf "pre\nrun\npost\n" >expect &&
	test_cmp expect order
'

test_expect_success PERF 'a failed --pre: the run is skipped, perf'"'"'s rows and status' '
	test_expect_code 0 perf stat --pre "exit 3" -e task-clock true 2>perf.err &&
	test_expect_code 0 tperf stat --pre "exit 3" -e task-clock true 2>tperf.err &&
	grep -v "^tperf: warning:" tperf.err | shape >actual &&
	shape <perf.err >expect &&
	test_cmp expect actual &&
	grep -q "^   <not supported> msec task-clock " tperf.err &&
	grep -q "^tperf: warning: --pre '"'"'exit 3'"'"' failed in 1 of 1 runs: that run was not counted$" tperf.err &&
	test_expect_code 9 perf stat --pre "kill -9 \$\$" -e task-clock true 2>/dev/null &&
	test_expect_code 9 tperf stat --pre "kill -9 \$\$" -e task-clock true 2>/dev/null
'

test_expect_success PERF 'a failed --post: the counts and the command'"'"'s status stay, as perf' '
	test_expect_code 5 perf stat --post "exit 2" -x, -e task-clock sh -c "exit 5" 2>perf.err &&
	test_expect_code 5 tperf stat --post "exit 2" -x, -e task-clock sh -c "exit 5" 2>tperf.err &&
	grep -q ",task-clock," tperf.err &&
	grep -q "^tperf: warning: --post '"'"'exit 2'"'"' failed in 1 of 1 runs$" tperf.err
'

test_expect_success STRACE '-S: sync() before each run' '
	# LeakSanitizer cannot run under ptrace (a SANITIZE=1 build)
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 &&
	strace -f -e trace=sync -o trace "$TPERF" stat -S -r 2 -x, -e task-clock true 2>err &&
	test $(grep -c "sync()" trace) = 2 &&
	strace -f -e trace=sync -o trace "$TPERF" stat -x, -e task-clock true 2>err &&
	! grep -q "sync()" trace
'

# The group_fd of each open of -vv, the descriptors numbered by first use.
group_fds() {
	awk '/^sys_perf_event_open/ {
		fd = $NF; g = $7
		if (!(fd in n)) n[fd] = ++k
		print (g == -1 ? -1 : n[g])
	}'
}

test_expect_success PERF '-g: every event in one group, the groups of -e merged, as perf' '
	perf stat -g -vv -e "{task-clock,page-faults},context-switches" true 2>perf.err &&
	tperf stat -g -vv -e "{task-clock,page-faults},context-switches" true 2>tperf.err &&
	group_fds <perf.err >expect &&
	group_fds <tperf.err >actual &&
	printf -- "-1\n1\n1\n" >want &&
	test_cmp want expect &&
	test_cmp expect actual &&
	grep "read_format" tperf.err | sort -u >actual &&
	echo "  read_format                      TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING|ID|GROUP" >expect &&
	test_cmp expect actual &&
	tperf stat -g -x, -e task-clock,page-faults true 2>err &&
	grep -Eq "^[0-9]+,,page-faults," err
'

test_expect_success PERF '-g with one event: no group, as perf' '
	tperf stat -g -vv -e task-clock true 2>err &&
	grep -q "read_format                      TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING$" err
'

for d in -d -dd -ddd "-d -d"; do
	test_expect_success PERF "$d: perf's events, <not supported> where it shows them" "
		perf stat $d -x, true 2>perf.err &&
		tperf stat $d -x, true 2>tperf.err &&
		cut -d, -f3 perf.err >expect &&
		cut -d, -f3 tperf.err >actual &&
		test_cmp expect actual &&
		grep '^<not supported>,' perf.err >expect &&
		grep '^<not supported>,' tperf.err >actual &&
		test_cmp expect actual
	"
done

test_expect_success PERF '-d with -e: the events of -e, then those of -d' '
	perf stat -d -x, -e task-clock true 2>perf.err &&
	tperf stat -d -x, -e task-clock true 2>tperf.err &&
	cut -d, -f2,3 perf.err >expect &&
	cut -d, -f2,3 tperf.err >actual &&
	test_cmp expect actual &&
	test $(wc -l <actual) = 5
'

# The label columns of --per-node rows, and the event.
node_labels() {
	awk '/ (task-clock|page-faults) / { print $1, $2, ($0 ~ / task-clock /) ? "task-clock" : "page-faults" }'
}

test_expect_success PERF '--per-node -a: the rows of perf, in std, CSV and JSON' '
	perf stat --per-node -a -e task-clock,page-faults sleep 0.05 2>perf.err &&
	tperf stat --per-node -a -e task-clock,page-faults sleep 0.05 2>tperf.err &&
	node_labels <perf.err >expect &&
	node_labels <tperf.err >actual &&
	test -s expect &&
	test_cmp expect actual &&
	nodes=$(ls -d /sys/devices/system/node/node[0-9]* | wc -l) &&
	test $(grep -c "^N[0-9]" tperf.err) = $((2 * nodes)) &&
	perf stat --per-node -a -x, -e task-clock sleep 0.05 2>perf.err &&
	tperf stat --per-node -a -x, -e task-clock sleep 0.05 2>tperf.err &&
	cut -d, -f1,2,4,5 perf.err >expect &&
	cut -d, -f1,2,4,5 tperf.err >actual &&
	test_cmp expect actual &&
	perf stat --per-node -a -j -e task-clock sleep 0.05 2>perf.err &&
	tperf stat --per-node -a -j -e task-clock sleep 0.05 2>tperf.err &&
	sed -E "s/\"counter-value\" : \"[0-9.]+\"/V/; s/: [0-9.]+/: N/g" perf.err >expect &&
	sed -E "s/\"counter-value\" : \"[0-9.]+\"/V/; s/: [0-9.]+/: N/g" tperf.err >actual &&
	test_cmp expect actual
'

test_expect_success PERF '--per-node -I: perf'"'"'s heading' '
	perf stat --per-node -a -I 100 --interval-count 1 -e task-clock 2>perf.err &&
	tperf stat --per-node -a -I 100 --interval-count 1 -e task-clock 2>tperf.err &&
	head -1 perf.err >expect &&
	head -1 tperf.err >actual &&
	test_cmp expect actual
'

test_expect_success PERF '--per-node without -a: perf'"'"'s 234' '
	test_expect_code 234 perf stat --per-node -e task-clock true 2>/dev/null &&
	test_expect_code 234 tperf stat --per-node -e task-clock true 2>err &&
	grep -q "^error: -A and --per-core/--per-die/--per-node/--per-socket need -a or -C$" err
'

test_expect_success PERF '--summary -I: perf'"'"'s table of the totals after the intervals' '
	perf stat -I 100 --summary -e task-clock,page-faults sleep 0.25 2>perf.err &&
	tperf stat -I 100 --summary -e task-clock,page-faults sleep 0.25 2>tperf.err &&
	shape <perf.err >expect &&
	shape <tperf.err >actual &&
	test_cmp expect actual &&
	grep -q "^ Performance counter stats for '"'"'sleep 0.25'"'"':$" tperf.err
'

test_expect_success '--summary: the totals are the sum of the intervals' '
	tperf stat -I 100 --summary -x, -e page-faults sleep 0.25 2>err &&
	sum=$(grep -v summary err | awk -F, "{ n += \$2 } END { print n }") &&
	total=$(grep "^ *summary," err | cut -d, -f2) &&
	{ test "$sum" = "$total" || { cat err; false; }; }
'

test_expect_success PERF '--summary -x: a summary column, not with --no-csv-summary; -j: none' '
	perf stat -I 100 --summary -x, -e task-clock sleep 0.15 2>perf.err &&
	tperf stat -I 100 --summary -x, -e task-clock sleep 0.15 2>tperf.err &&
	cut -d, -f1,3,4 perf.err | sed -E "s/^ +[0-9.]+,/T,/" >expect &&
	cut -d, -f1,3,4 tperf.err | sed -E "s/^ +[0-9.]+,/T,/" >actual &&
	test_cmp expect actual &&
	tail -1 tperf.err | grep -q "^         summary,[0-9.]*,msec,task-clock," &&
	perf stat -I 100 --summary --no-csv-summary -x, -e task-clock sleep 0.15 2>perf.err &&
	tperf stat -I 100 --summary --no-csv-summary -x, -e task-clock sleep 0.15 2>tperf.err &&
	tail -1 perf.err | cut -d, -f2,3 >expect &&
	tail -1 tperf.err | cut -d, -f2,3 >actual &&
	test_cmp expect actual &&
	tail -1 tperf.err | grep -q "^[0-9.]*,msec,task-clock," &&
	perf stat -I 100 --summary -j -e task-clock sleep 0.15 2>perf.err &&
	tperf stat -I 100 --summary -j -e task-clock sleep 0.15 2>tperf.err &&
	tail -1 perf.err | sed -E "s/: \"?[0-9.]+\"?/: N/g" >expect &&
	tail -1 tperf.err | sed -E "s/: \"?[0-9.]+\"?/: N/g" >actual &&
	test_cmp expect actual
'

test_expect_success PERF '--summary without -I changes nothing, as perf' '
	tperf stat --summary -x, -e task-clock true 2>err &&
	test $(wc -l <err) = 1 &&
	grep -q "^[0-9.]*,msec,task-clock," err
'

test_expect_success PERF '--interval-clear: the clear on stdout, a heading each interval' '
	perf stat -I 100 --interval-clear -e task-clock sleep 0.25 >perf.out 2>perf.err &&
	tperf stat -I 100 --interval-clear -e task-clock sleep 0.25 >tperf.out 2>tperf.err &&
	test_cmp perf.out tperf.out &&
	printf "\033[H\033[2J\n" >one &&
	cat one one one >expect &&
	test_cmp expect tperf.out &&
	shape <perf.err >expect &&
	shape <tperf.err >actual &&
	test_cmp expect actual &&
	for f in "-x," -j; do
		perf stat -I 100 --interval-clear $f -e task-clock sleep 0.15 2>perf.err >/dev/null &&
		tperf stat -I 100 --interval-clear $f -e task-clock sleep 0.15 2>tperf.err >/dev/null &&
		grep "^#" perf.err >expect &&
		grep "^#" tperf.err >actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success PERF '--table -r: each run'"'"'s time as perf lays it out' '
	perf stat -r 3 --table -e task-clock sleep 0.05 2>perf.err &&
	tperf stat -r 3 --table -e task-clock sleep 0.05 2>tperf.err &&
	shape <perf.err >expect &&
	shape <tperf.err >actual &&
	test_cmp expect actual &&
	awk "/# Table of individual/ { t = 1; next } /^\$/ { t = 0 } t" tperf.err >rows &&
	test $(wc -l <rows) = 3 &&
	indent=$(grep "# Final result:" tperf.err | sed "s/#.*//" | wc -c) &&
	final=$(grep "seconds time elapsed" tperf.err | sed -E "s/^( *).*/\1/" | wc -c) &&
	test $indent = $final
'

test_expect_success '--table: the bar has one # and one more per 5% off the mean' '
	tperf stat -r 3 --table -e task-clock sleep 0.05 2>err &&
	avg=$(awk "/seconds time elapsed/ { print \$1 }" err) &&
	awk -v avg=$avg "/# Table of individual/ { t = 1; next } /^\$/ { t = 0 }
		t { d = 100 * (\$1 - avg) / \$1; d = d < 0 ? -d : d
		    if (length(\$3) != 1 + int(int(d) / 5)) { print \"bad: \" \$0; bad = 1 } }
		END { exit bad }" err
'

test_expect_success PERF '--table without -r: perf'"'"'s 234' '
	test_expect_code 234 perf stat --table -e task-clock true 2>/dev/null &&
	test_expect_code 234 tperf stat --table -e task-clock true 2>err &&
	grep -q "^error: --table is only supported with -r$" err
'

test_expect_success PERF '--log-fd: the counts on that descriptor, no "# started on", as perf' '
	perf stat --log-fd 5 -x, -e task-clock true 5>perf.log 2>perf.err &&
	tperf stat --log-fd 5 -x, -e task-clock true 5>tperf.log 2>tperf.err &&
	test ! -s tperf.err &&
	cut -d, -f2,3 perf.log >expect &&
	cut -d, -f2,3 tperf.log >actual &&
	test_cmp expect actual &&
	tperf stat --log-fd 5 --append -e task-clock true 5>>tperf.log &&
	grep -q "msec task-clock" tperf.log &&
	! grep -q "started on" tperf.log
'

test_expect_success PERF '--log-fd errors: perf'"'"'s 234' '
	test_expect_code 234 perf stat --log-fd 9 -e task-clock true 2>/dev/null &&
	test_expect_code 234 tperf stat --log-fd 9 -e task-clock true 2>err &&
	grep -q "^tperf: cannot write the counts to --log-fd 9: Bad file descriptor$" err &&
	test_expect_code 234 perf stat --log-fd 5 -o x -e task-clock true 5>/dev/null 2>/dev/null &&
	test_expect_code 234 tperf stat --log-fd 5 -o x -e task-clock true 5>/dev/null 2>err &&
	grep -q "^error: cannot use both --output and --log-fd$" err &&
	test_expect_code 234 perf stat --log-fd -1 -e task-clock true 2>/dev/null &&
	test_expect_code 234 tperf stat --log-fd -1 -e task-clock true 2>err
'

# --control: send each command of $@ to tperf's (or perf's) FIFO and log its ack.
control_session() {
	exec 7>ctl 8<ack &&
	for c in "$@"; do
		echo "$c" >&7 &&
		{ read -t 2 a <&8 || a=none; } &&
		echo "$c: $a" >>acks || return 1
	done
	exec 7>&- 8<&-
}

for tool in perf tperf; do
	test_expect_success PERF "--control fifo: enable, disable, a named event, evlist, acks ($tool)" "
		mkfifo ctl ack || exit 1
		$tool stat --control fifo:ctl,ack -D -1 -x, -e task-clock,page-faults sleep 1 2>err &
		pid=\$! &&
		test_when_finished \"kill \$pid 2>/dev/null\" &&
		sleep 0.1 &&
		control_session 'enable page-faults' ping evlist enable 'disable task-clock' &&
		wait \$pid &&
		printf '%s\n' 'enable page-faults: ack' 'ping: ack' 'evlist: ack' 'enable: ack' \
			'disable task-clock: ack' >expect &&
		test_cmp expect acks &&
		printf '%s\n' 'Events disabled' 'Event page-faults enabled' task-clock page-faults \
			'Events enabled' 'Event task-clock disabled' >expect &&
		head -6 err >actual &&
		test_cmp expect actual &&
		grep -Eq '^[0-9]+,,page-faults,' err
	"
done

test_expect_success '--control: an unknown command gets no ack, as in perf' '
	mkfifo ctl ack || exit 1
	"$TPERF" stat --control fifo:ctl,ack -x, -e task-clock sleep 0.5 2>err &
	pid=$! &&
	test_when_finished "kill $pid 2>/dev/null" &&
	exec 7>ctl 8<ack &&
	echo bogus >&7 &&
	! read -t 0.2 a <&8 &&
	echo ping >&7 &&
	read -t 2 a <&8 &&
	test "$a" = ack &&
	exec 7>&- 8<&- &&
	wait $pid
'

test_expect_success '--control fd: descriptors given by the caller; one not open is ignored, as perf' '
	mkfifo ctl ack || exit 1
	"$TPERF" stat --control fd:5,6 -x, -e task-clock sleep 0.5 5<>ctl 6<>ack 2>err &
	pid=$! &&
	test_when_finished "kill $pid 2>/dev/null" &&
	exec 7>ctl 8<ack &&
	echo disable >&7 &&
	read -t 2 a <&8 &&
	test "$a" = ack &&
	exec 7>&- 8<&- &&
	wait $pid &&
	head -1 err >actual &&
	echo "Events disabled" >expect &&
	test_cmp expect actual &&
	tperf stat --control fd:9 -x, -e task-clock true 2>err &&
	grep -q ",task-clock," err
'

test_expect_success PERF '--control errors: usage errors (129), as perf' '
	test_expect_code 129 perf stat --control fifo:/nonexistent/x -e task-clock true 2>/dev/null &&
	test_expect_code 129 tperf stat --control fifo:/nonexistent/x -e task-clock true 2>err &&
	grep -q "^tperf: cannot open the --control FIFO '"'"'/nonexistent/x'"'"': No such file or directory$" err &&
	test_expect_code 129 perf stat --control foo -e task-clock true 2>/dev/null &&
	test_expect_code 129 tperf stat --control foo -e task-clock true 2>/dev/null
'

# The hierarchy perf counts cgroups in: cgroup v1's perf_event, else cgroup2.
cgroup_root() {
	awk '$3 == "cgroup" && $4 ~ /(^|,)perf_event(,|$)/ { print $2; found = 1; exit }
	     $3 == "cgroup2" && !v2 { v2 = $2 }
	     END { if (!found && v2) print v2 }' /proc/self/mounts | head -1
}
CGROOT=$(cgroup_root)
test_lazy_prereq CGROUP 'test -n "$CGROOT" && test -w "$CGROOT"' \
	'no writable cgroup2 or perf_event cgroup hierarchy'

# A cgroup of our own (the test's pid in its name); removed at the end of the test.
make_cgroup() {
	mkdir "$CGROOT/$1" &&
	test_when_finished "rmdir '$CGROOT/$1' 2>/dev/null"
}

# CSV rows of stat without the numbers: value (N or <not counted>), unit, event, cgroup.
cg_rows() {
	cut -d, -f1-4 | sed -E 's/^[0-9.]+,/N,/'
}

test_expect_success ROOT,CGROUP,PERF '-G: the k-th cgroup to the k-th event, one to all, empty ones, as perf' '
	a=tperf-t0208-a-$$ b=tperf-t0208-b-$$ &&
	make_cgroup $a && make_cgroup $b &&
	for args in "-e task-clock,page-faults -G $a" \
		    "-e task-clock -G $a -e page-faults,context-switches -G $b" \
		    "-e task-clock,page-faults,context-switches -G $a,,$b"; do
		perf stat -a -x, $args sleep 0.05 2>perf.err &&
		tperf stat -a -x, $args sleep 0.05 2>tperf.err &&
		cg_rows <perf.err >expect &&
		cg_rows <tperf.err >actual &&
		test_cmp expect actual || return 1
	done &&
	grep -Eq "^[0-9]+,,page-faults,,[0-9]+,100.00,,$" tperf.err
'

test_expect_success ROOT,CGROUP,PERF '-G: what runs in the cgroup is counted, std and JSON as perf' '
	a=tperf-t0208-c-$$ &&
	make_cgroup $a &&
	work="echo \$\$ >$CGROOT/$a/cgroup.procs; i=0; while [ \$i -lt 3000 ]; do i=\$((i+1)); done" &&
	tperf stat -a -x, -e task-clock,page-faults -G $a sh -c "$work" 2>err &&
	grep -Eq "^[0-9.]+,msec,task-clock,$a,[0-9]+,100.00,[0-9.]+,CPUs utilized$" err &&
	grep -Eq "^[1-9][0-9]*,,page-faults,$a," err &&
	perf stat -a -e task-clock,page-faults -G $a sh -c "$work" 2>perf.err &&
	tperf stat -a -e task-clock,page-faults -G $a sh -c "$work" 2>tperf.err &&
	shape <perf.err | sed "s/sh -c .*/sh -c/" >expect &&
	shape <tperf.err | sed "s/sh -c .*/sh -c/" >actual &&
	test_cmp expect actual &&
	perf stat -a -j -e task-clock -G $a sleep 0.05 2>perf.err &&
	tperf stat -a -j -e task-clock -G $a sleep 0.05 2>tperf.err &&
	test_cmp perf.err tperf.err
'

test_expect_success ROOT,CGROUP,PERF '--for-each-cgroup: every event per cgroup, defaults and groups too' '
	a=tperf-t0208-d-$$ b=tperf-t0208-e-$$ &&
	make_cgroup $a && make_cgroup $b &&
	for args in "--for-each-cgroup $a,$b" "-e {task-clock,page-faults} --for-each-cgroup $a,/" \
		    "-d -e task-clock --for-each-cgroup $b"; do
		perf stat -a -x, $args sleep 0.05 2>perf.err &&
		tperf stat -a -x, $args sleep 0.05 2>tperf.err &&
		cg_rows <perf.err >expect &&
		cg_rows <tperf.err >actual &&
		test_cmp expect actual || return 1
	done &&
	perf stat -a -vv -x, -e "{task-clock,page-faults}" --for-each-cgroup $a,$b sleep 0.05 2>perf.err &&
	tperf stat -a -vv -x, -e "{task-clock,page-faults}" --for-each-cgroup $a,$b sleep 0.05 2>tperf.err &&
	grep -c "flags 0xc" perf.err >expect &&
	grep -c "flags 0xc" tperf.err >actual &&
	test_cmp expect actual
'

test_expect_success ROOT,CGROUP,PERF 'cgroup errors: perf'"'"'s statuses' '
	a=tperf-t0208-f-$$ &&
	make_cgroup $a &&
	test_expect_code 129 perf stat -a -G $a -e task-clock true 2>/dev/null &&
	test_expect_code 129 tperf stat -a -G $a -e task-clock true 2>err &&
	grep -q "^tperf: must define events before cgroups" err &&
	test_expect_code 129 perf stat -a -e task-clock -G $a,$a true 2>/dev/null &&
	test_expect_code 129 tperf stat -a -e task-clock -G $a,$a true 2>/dev/null &&
	test_expect_code 129 perf stat -a -e task-clock -G nosuch-$$ true 2>/dev/null &&
	test_expect_code 129 tperf stat -a -e task-clock -G nosuch-$$ true 2>err &&
	grep -q "^tperf: no access to cgroup .*/nosuch-$$: No such file or directory$" err &&
	test_expect_code 234 perf stat -e task-clock -G $a true 2>/dev/null &&
	test_expect_code 234 tperf stat -e task-clock -G $a true 2>/dev/null &&
	test_expect_code 234 tperf stat -e task-clock --for-each-cgroup $a true 2>/dev/null &&
	test_expect_code 234 perf stat -a -e task-clock -G $a --for-each-cgroup $a true 2>/dev/null &&
	test_expect_code 234 tperf stat -a -e task-clock -G $a --for-each-cgroup $a true 2>err &&
	grep -q "^error: --cgroup and --for-each-cgroup cannot be used together$" err
'

test_lazy_prereq NOTOPDOWN '! ls /sys/bus/event_source/devices/cpu/events/topdown-* /sys/bus/event_source/devices/cpu/events/slots' \
	'the cpu PMU has topdown events'
test_lazy_prereq NOSMI '! test -e /sys/bus/event_source/devices/cpu/freeze_on_smi' \
	'the cpu PMU has freeze_on_smi'
test_lazy_prereq NOCPUPMU '! test -e /sys/bus/event_source/devices/cpu' 'the machine has a cpu PMU'
test_lazy_prereq NOIIO '! ls -d /sys/bus/event_source/devices/uncore_iio_*' 'the machine has uncore_iio PMUs'
test_lazy_prereq NOHYBRID '! test -e /sys/bus/event_source/devices/cpu_core' 'the machine is hybrid'

test_expect_success PERF,NOTOPDOWN '--topdown, --td-level without topdown events: perf'"'"'s checks and 234' '
	test_expect_code 234 perf stat --topdown --td-level 2 true 2>/dev/null &&
	test_expect_code 234 tperf stat --topdown --td-level 2 true 2>err &&
	grep -q "^error: invalid top-down metrics level: the max level is 1$" err &&
	test_expect_code 234 perf stat --topdown true 2>/dev/null &&
	test_expect_code 234 tperf stat --topdown true 2>err &&
	grep -q "^error: top-down event configuration requires system-wide mode (-a)$" err &&
	test_expect_code 234 perf stat --topdown -a true 2>/dev/null &&
	test_expect_code 234 tperf stat --topdown -a true 2>err &&
	echo "tperf: system does not support topdown (no topdown events in the cpu PMU)" >expect &&
	test_cmp expect err &&
	perf stat --td-level 1 -x, -e task-clock true 2>perf.err &&
	tperf stat --td-level 1 -x, -e task-clock true 2>tperf.err &&
	cut -d, -f2,3 perf.err >expect &&
	cut -d, -f2,3 tperf.err >actual &&
	test_cmp expect actual
'

test_expect_success PERF,NOSMI '--smi-cost without freeze_on_smi: perf'"'"'s 234' '
	test_expect_code 234 perf stat --smi-cost -a true 2>/dev/null &&
	test_expect_code 234 tperf stat --smi-cost -a true 2>err &&
	echo "tperf: freeze_on_smi is not supported (no cpu PMU with freeze_on_smi)" >expect &&
	test_cmp expect err
'

test_expect_success PERF,NOCPUPMU '-T without a cpu PMU: perf'"'"'s 234' '
	test_expect_code 234 perf stat -T true 2>/dev/null &&
	test_expect_code 234 tperf stat -T true 2>err &&
	echo "tperf: cannot set up transaction events: no '"'"'cpu'"'"' PMU (hardware events are not supported on this machine)" >expect &&
	test_cmp expect err
'

test_expect_success PERF,NOIIO '--iostat without uncore_iio PMUs: perf'"'"'s usage error' '
	test_expect_code 129 perf stat --iostat true 2>/dev/null &&
	test_expect_code 129 tperf stat --iostat true 2>err &&
	grep -q "^error: --iostat: unsupported uncore PMU configuration (no uncore_iio PMU)$" err &&
	test_expect_code 129 perf stat --iostat=list true 2>/dev/null &&
	test_expect_code 129 tperf stat --iostat=list true 2>/dev/null
'

test_expect_success PERF,NOHYBRID '--cputype on a machine that is not hybrid: perf'"'"'s usage error' '
	test_expect_code 129 perf stat --cputype core true 2>/dev/null &&
	test_expect_code 129 tperf stat --cputype core true 2>err &&
	grep -q "^error: --cputype core is not supported (no cpu_core PMU)$" err
'

test_expect_success PERF,NOHWPMU 'an event that cannot open leads a group: perf'"'"'s 255' '
	test_expect_code 255 perf stat -e "{cycles,task-clock}" true 2>/dev/null &&
	test_expect_code 255 tperf stat -e "{cycles,task-clock}" true 2>/dev/null &&
	test_expect_code 255 perf stat -g -e cycles,task-clock true 2>/dev/null &&
	test_expect_code 255 tperf stat -g -e cycles,task-clock true 2>/dev/null
'

test_done
