#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf stat's CSV (-x) and JSON (-j) rows under perf 6.1's options, field
# by field against perf's for the same command line here: each row's
# fields with the numbers made N, in the same order, and the same exit
# status.  tperf's additions are taken out first: the "runs", "mean",
# "stddev" and "values" keys of -j -r rows, and "" where perf's JSON says
# "(null)" (Documentation/tperf-stat.txt, DIFFERENCES FROM PERF).
. "$(dirname "$0")/lib.sh"

test_lazy_prereq MSR 'command perf stat -a -e tsc true' 'no msr PMU with a tsc event here'
test_lazy_prereq CGROUP 'command perf stat -a -e cpu-clock -G / true' 'perf cannot count in a cgroup here'

# The data rows (the messages left out), every number an N.
rows() {
	grep -E '^ *(\{|[0-9]|<not|CPU|S[0-9]|N[0-9]|summary)|^ *[^ ]+-[0-9]+[;,]' |
	sed -E 's/, "runs" : [0-9]+, "mean" : .*\}$/}/; s/"\(null\)"/""/g; s/^(\{"core" : "[^"]*")"/\1, "/' |
	sed -E 's/[0-9][0-9.]*(e[-+][0-9]+)?/N/g; s/[KMG]?\/sec/\/sec/; s/ +/ /g; s/ +$//'
}

# compare SEP OPTIONS...: perf's and tperf's rows and statuses alike
compare() {
	local sep=$1 prc trc
	shift
	command perf stat $sep "$@" 2>perf.err >/dev/null
	prc=$?
	tperf stat $sep "$@" 2>tperf.err >/dev/null
	trc=$?
	rows <perf.err >expect &&
	rows <tperf.err >actual &&
	test -s expect &&
	test_cmp expect actual &&
	test $prc = $trc || { echo "stat $sep $*: perf exit $prc, tperf $trc"; return 1; }
}

# each case: the options and command (the same for both tools)
while IFS='|' read -r prereq opts; do
	test_expect_success "PERF$prereq" "stat -x, and -j $opts: perf's rows" '
		compare -x, '"$opts"' && compare -j '"$opts"'
	'
done <<'EOF'
|-e task-clock,page-faults true
|-r 3 -e task-clock,page-faults true
|-a -A -e cpu-clock sleep 0.02
|-a --per-core -e cpu-clock sleep 0.02
|-a --per-socket -e cpu-clock sleep 0.02
|-a --per-die -e cpu-clock sleep 0.02
|-a --per-node -e cpu-clock sleep 0.02
|-I 50 --interval-count 2 -e task-clock sleep 0.3
|-I 50 --interval-count 2 --summary -e task-clock sleep 0.3
|-I 50 --interval-count 2 --summary --no-csv-summary -e task-clock sleep 0.3
|-a -A -I 50 --interval-count 2 -e cpu-clock sleep 0.3
|-a --per-core -I 50 --interval-count 2 -e cpu-clock sleep 0.3
|--all-user -e task-clock,page-faults true
|--all-kernel -e task-clock,page-faults true
|-d -e task-clock true
|-e cycles,task-clock true
|-e msr/event=0x99/,task-clock true
|-e task-clock -r 2 --pre true true
|-e task-clock --timeout 50
|true
,CGROUP|-a -e cpu-clock -G / sleep 0.02
,CGROUP|--for-each-cgroup / -a -e cpu-clock,page-faults sleep 0.02
,MSR|--no-merge -a -e tsc sleep 0.02
,MSR|-a -e tsc:u,cpu-clock sleep 0.02
,MSR|-a --per-core -e msr/tsc,percore/ sleep 0.02
,MSR|-a -A -e msr/tsc,percore/ sleep 0.02
,MSR|-a -A --percore-show-thread -e msr/tsc,percore/ sleep 0.02
EOF

test_expect_success PERF 'another separator (-x";"): perf'"'"'s rows' '
	compare "-x;" -r 2 -e task-clock,cycles true &&
	compare "-x;" -a -A -I 50 --interval-count 2 -e cpu-clock sleep 0.3
'

test_expect_success PERF '--per-thread -p: perf'"'"'s rows' '
	sleep 10 &
	pid=$! &&
	test_when_finished "kill $pid" &&
	compare -x, --per-thread -p $pid -e task-clock,context-switches --timeout 100 &&
	compare -j --per-thread -p $pid -e task-clock,context-switches --timeout 100
'

test_done
