#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf annotate --stdio against perf 6.1's on a real program with many hot
# functions: a copy of tperf itself (-O2 -g, inlined code, several
# threads) reporting a callchain recording, sampled in user space.
# make check compares its five hottest functions; make check-full all of
# them (about 80, objdump's time: half a minute each tool).
. "$(dirname "$0")/lib.sh"

WORKLOAD=$(dirname "$TPERF")/tests/workloads/tperf-demo-workload
test_lazy_prereq OBJDUMP 'command -v objdump' 'objdump (Debian binutils) is not installed'

same_annotate() {
	f=$1; shift
	perf annotate --stdio -i "$f" "$@" >expect 2>/dev/null &&
	tperf annotate --stdio -i "$f" "$@" >actual 2>/dev/null &&
	test_cmp expect actual || { echo "options: $*"; return 1; }
}

test_expect_success PERF,OBJDUMP 'record tperf report at work' '
	cp "$TPERF" "$TRASH/tperf-copy" &&
	perf record -q -e cpu-clock -g -o "$TRASH/in.data" "$WORKLOAD" 1 >/dev/null 2>&1 &&
	perf record -q -e cpu-clock:u -F 10000 -o "$TRASH/tp.data" \
		"$TRASH/tperf-copy" report -i "$TRASH/in.data" --stdio --children >/dev/null 2>&1 &&
	perf report -i "$TRASH/tp.data" --stdio -q --sort sym -d tperf-copy 2>/dev/null |
		sed -n "s/^ *[0-9.]*% *\[\.\] \([A-Za-z_][A-Za-z_0-9.]*\) *$/\1/p" >"$TRASH/syms" &&
	test $(wc -l <"$TRASH/syms") -ge 20
'

test_expect_success PERF,OBJDUMP 'its five hottest functions, as perf annotates them' '
	for s in $(head -5 "$TRASH/syms"); do
		same_annotate "$TRASH/tp.data" "$s" || exit 1
		grep -q "^ Percent |	Source code & Disassembly of tperf-copy for cpu-clock:u " actual ||
			exit 1
	done
'

test_expect_success PERF,OBJDUMP,FULL 'every function with samples, as perf annotates them' '
	same_annotate "$TRASH/tp.data" -d tperf-copy &&
	test $(grep -c "Source code & Disassembly" actual) -ge 20
'

test_done
