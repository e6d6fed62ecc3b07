#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The perf_event_attr tperf builds for an event string is the one Linux perf
# builds: `tperf stat --dry-run -vv -e E true` against `perf stat -vv -e E
# true`, attr block by attr block (perf prints the attr of every event before
# opening it, even of hardware events this machine cannot count).
. "$(dirname "$0")/lib.sh"

# The first $2 attr blocks of the -vv output on stdin.
attr_blocks() {
	awk -v N="$1" '/^-{60}$|^------------------------------------------------------------$/ {
		if (inb) { print; inb = 0; if (++n == N) exit; next } else inb = 1 }
		inb { print }'
}

compare_event() {
	local ev=$1 nr=$2
	perf stat -vv -e "$ev" true 2>&1 | attr_blocks "$nr" >expect &&
	test -s expect &&
	tperf stat --dry-run -vv -e "$ev" true 2>&1 | attr_blocks "$nr" >actual &&
	test_cmp expect actual
}

for ev in cpu-clock task-clock page-faults cycles cycles:u instructions:k \
	  L1-dcache-load-misses msr/tsc/ sched:sched_switch mem:0x1000:rw \
	  cycles:ppp cycles:Gu r1a8:uD; do
	test_expect_success PERF "attr of '$ev' is perf's" "compare_event '$ev' 1"
done

test_expect_success PERF "attrs of '{cpu-clock,task-clock}' are perf's" '
	compare_event "{cpu-clock,task-clock}" 2
'

test_done
