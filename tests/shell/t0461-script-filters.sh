#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf script --comms/--pid/--tid/--cpu/--time/--dsos/--symbols, -G and
# --show-{task,mmap,switch,lost}-events: the lines perf script 6.1 prints,
# on a fixture (goldens from perf) and on files perf records here.
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/shell/script-lib.sh"

fx=$DATA_DIR/pdc-callgraph-fp-x86_64

test_expect_success 'filters and side-band events on the fixture, as perf 6.1' '
	n=0 &&
	while read -ra w; do
		n=$((n + 1)) && args=() &&
		for a in "${w[@]}"; do args+=("${a//\~/ }"); done &&
		tperf script -i $fx/perf.data.callgraph-3.8 "${args[@]}" $nosym >actual 2>err ||
			{ echo "case $n failed: ${w[*]}"; cat err; exit 1; }
		test_cmp $fx/expected-perf-script-filter-$n.txt actual ||
			{ echo "case $n: ${w[*]}"; exit 1; }
	done <$fx/script-filter-cases.txt &&
	test $n -ge 9
'

test_expect_success 'bad filter lists are usage errors naming the option' '
	f=$fx/perf.data.callgraph-3.8 &&
	test_expect_code 129 tperf script -i $f --time 1234 2>err &&
	grep "^error: invalid time string '"'"'1234'"'"' in --time: use START,STOP in seconds (either may be empty) or percentages such as 10%/2 or 0%-10%\$" err &&
	test_expect_code 129 tperf script -i $f --pid 1,x 2>err &&
	grep "^error: invalid number '"'"'x'"'"' in --pid\$" err &&
	test_expect_code 129 tperf script -i $f -C 3-1 2>err &&
	grep "^error: invalid CPU list '"'"'3-1'"'"' in --cpu" err
'

test_expect_success 'percent --time needs the SAMPLE_TIME feature; --cpu needs CPU in the samples' '
	f=$fx/perf.data.callgraph-3.8 &&
	test_expect_code 1 tperf script -i $f --time 10%/2 >out 2>err &&
	echo "tperf: '"'"'$f'"'"' has no first and last sample times (SAMPLE_TIME header feature): use --time with seconds, not percentages" >expect &&
	test_cmp expect err &&
	g=$DATA_DIR/kdab-dwarf-unwind-x86_64/perf.data &&
	test_expect_code 1 tperf script -i $g -C 0 >out 2>err &&
	echo "tperf: '"'"'$g'"'"' has events without the CPU of their samples: --cpu cannot filter them; record with -a or --sample-cpu" >expect &&
	test_cmp expect err
'

workload='i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done; ls / >/dev/null'

test_expect_success PERF 'perf-recorded files: filters, -G, task and mmap events, percent times' '
	perf record -q -F 999 -g -o "$TRASH/cc.data" -- sh -c "$workload" 2>/dev/null &&
	same_as_perf "$TRASH/cc.data" -G &&
	same_as_perf "$TRASH/cc.data" --comms ls &&
	same_as_perf "$TRASH/cc.data" --comms sh -G --ns &&
	same_as_perf "$TRASH/cc.data" --show-task-events --show-mmap-events &&
	same_as_perf "$TRASH/cc.data" --show-task-events -F comm,tid,time &&
	for t in 10%/2 0%-10%,30%-40% 5% 10%/1,10%/2 50%/2 10%-5%; do
		same_as_perf "$TRASH/cc.data" -G --time $t || exit 1
	done &&
	same_as_perf "$TRASH/cc.data" --dsos libc.so.6 -G &&
	sym=$(perf script -i "$TRASH/cc.data" -G -F ip,sym 2>/dev/null | awk "\$2 != \"[unknown]\" { print \$2; exit }") &&
	test -n "$sym" &&
	same_as_perf "$TRASH/cc.data" -S "$sym" -G &&
	pid=$(perf script -i "$TRASH/cc.data" -F pid 2>/dev/null | tail -1 | tr -d " ") &&
	same_as_perf "$TRASH/cc.data" --pid $pid &&
	same_as_perf "$TRASH/cc.data" --tid $pid -G
'

test_expect_success PERF 'tperf-recorded and piped files: the same lines as perf script' '
	tperf record -q -F 999 -g -o t.data -- sh -c "$workload" &&
	same_as_perf t.data --show-task-events --show-mmap-events &&
	same_as_perf t.data --time 20%-60% -G &&
	same_as_perf t.data -D &&
	perf record -q -F 999 -o - -- ls / 2>/dev/null >pipe.data &&
	perf script -i - -D <pipe.data >expect 2>/dev/null &&
	tperf script -i - -D <pipe.data >actual &&
	test_cmp expect actual &&
	perf script -i - --show-task-events --show-mmap-events <pipe.data >expect 2>/dev/null &&
	tperf script -i - --show-task-events --show-mmap-events <pipe.data >actual &&
	test_cmp expect actual
'

test_expect_success PERF,ROOT 'system wide: --cpu, switch events' '
	perf record -q -a --switch-events -e cpu-clock -F 199 -o "$TRASH/sw.data" -- sleep 0.3 2>/dev/null &&
	same_as_perf "$TRASH/sw.data" --show-switch-events --show-task-events &&
	same_as_perf "$TRASH/sw.data" -C 1 --show-switch-events &&
	same_as_perf "$TRASH/sw.data" -C 0-1 -F comm,tid,cpu --show-switch-events --show-lost-events
'

test_done
