#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf script: the sample lines and callchains of perf 6.1's `perf script`
# on the fixtures (tests/data/*/expected-perf-script-head.txt) and on files
# perf records here.
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/shell/script-lib.sh"

fixtures() {
	for f in "$DATA_DIR"/*/expected-perf-script-head.txt "$DATA_DIR"/*/*.expected-perf-script-head.txt; do
		[ -s "$f" ] || continue
		case $f in
		*/expected-perf-script-head.txt)
			d=$(dirname "$f")
			data=$(ls "$d" | grep -v -e '\.txt$' -e '\.md$')
			echo "$d/$data $f" ;;
		*)	echo "${f%.expected-perf-script-head.txt} $f" ;;
		esac
	done
}

test_expect_success 'script prints what perf 6.1 printed, on the fixtures' '
	fixtures >list &&
	test $(wc -l <list) -ge 6 &&
	while read -r data oracle; do
		tperf script -i "$data" --symfs=/nonexistent --kallsyms=/dev/null >out 2>err ||
			{ echo "failed: $data"; cat err; exit 1; }
		head -60 out >actual &&
		test_cmp "$oracle" actual || exit 1
	done <list
'

test_expect_success 'tracepoint events print their payload, -F picks fields' '
	f=$DATA_DIR/kdab-zstd-sched-switch-dwarf/perf.data.zstd &&
	tperf script -i $f >out 2>err &&
	test ! -s err &&
	grep -m1 sched_switch out >actual &&
	echo "parallel_static 56092 [017]  3909.100226: sched:sched_switch: prev_comm=parallel_static prev_pid=56092 prev_prio=120 prev_state=D ==> next_comm=swapper/17 next_pid=0 next_prio=120" >expect &&
	test_cmp expect actual &&
	tperf script -i $f -F comm,tid,time,event >out &&
	head -2 out | sed "s/ \$/|/" >actual &&
	cat >expect <<-\EOT &&
	       perf-exec 56089  3909.099108:             cycles:|
	       perf-exec 56089  3909.099122:             cycles:|
	EOT
	test_cmp expect actual
'

test_expect_success 'an unknown -F field is a usage error' '
	test_expect_code 129 tperf script -F comm,nosuch -i /dev/null 2>err &&
	grep "unknown field '"'"'nosuch'"'"' in -F" err
'

workload='i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done; ls / >/dev/null'

test_expect_success PERF 'samples with and without callchains, two events, -F, --ns' '
	perf record -q -F 999 -g -o "$TRASH/cc.data" -- sh -c "$workload" 2>/dev/null &&
	same_as_perf "$TRASH/cc.data" &&
	same_as_perf "$TRASH/cc.data" --ns &&
	same_as_perf "$TRASH/cc.data" -F comm,tid,time,event,ip,sym &&
	same_as_perf "$TRASH/cc.data" -F +pid &&
	same_as_perf "$TRASH/cc.data" --symfs=/nonexistent --kallsyms=/dev/null &&
	perf record -q -F 999 -e cpu-clock,task-clock -o "$TRASH/two.data" -- sh -c "$workload" 2>/dev/null &&
	same_as_perf "$TRASH/two.data" &&
	same_as_perf "$TRASH/two.data" -F -dso &&
	perf record -q -c 200000 -e task-clock -g -o "$TRASH/c.data" -- sh -c "$workload" 2>/dev/null &&
	same_as_perf "$TRASH/c.data"
'

test_expect_success PERF,ROOT 'system wide (CPU column, kernel callchains)' '
	perf record -q -F 499 -g -a -o "$TRASH/sys.data" -- sleep 1 2>/dev/null &&
	same_as_perf "$TRASH/sys.data"
'

test_done
