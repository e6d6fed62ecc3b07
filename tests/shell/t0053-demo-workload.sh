#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The bundled workload (tests/workloads/tperf-demo-workload, built beside
# tperf) and `make demo`'s script.
. "$(dirname "$0")/lib.sh"

WORKLOAD=$(dirname "$TPERF")/tests/workloads/tperf-demo-workload

test_expect_success 'the demo workload is built beside tperf with frame pointers' '
	test -x "$WORKLOAD" &&
	"$WORKLOAD" -n 5 >out &&
	echo "rounds 5" >expect &&
	test_cmp expect out &&
	nm "$WORKLOAD" | sed -n "s/^[0-9a-f]* t \(spin\|child_a\|child_b\|parent\|run\)$/\1/p" | sort >syms &&
	printf "%s\n" child_a child_b parent run spin >expect &&
	test_cmp expect syms
'

test_expect_success 'the demo workload refuses bad arguments' '
	test_expect_code 129 "$WORKLOAD" -n 0 2>err &&
	echo "tperf-demo-workload: bad round count '"'"'0'"'"'" >expect &&
	test_cmp expect err &&
	test_expect_code 129 "$WORKLOAD" soon 2>err &&
	echo "tperf-demo-workload: bad duration '"'"'soon'"'"' (seconds, at most 3600)" >expect &&
	test_cmp expect err
'

test_expect_success 'the demo runs to the end' '
	sh "$SRC_DIR/scripts/demo.sh" "$TPERF" >out 2>&1 || { cat out; exit 1; }
	grep -q "^\$ .*tperf version --build-options$" out &&
	grep -q "^\[ tperf record: Captured and wrote .* MB .*perf.data ([0-9]* samples) \]$" out &&
	# the known call tree: spin under child_a (twice the work) and child_b, under parent
	sed -n "/tperf report/,\$p" out >report &&
	grep -Eq "^ +[0-9.]+% +tperf-demo-work +tperf-demo-workload +\[\.\] spin" report &&
	grep -Eq "^ +parent$" report &&
	a=$(sed -n "s/.*--\([0-9.]*\)%--child_a$/\1/p" report) &&
	b=$(sed -n "s/.*--\([0-9.]*\)%--child_b$/\1/p" report) &&
	awk -v a="$a" -v b="$b" "BEGIN { exit !(a > b && b > 0) }"
'

test_done
