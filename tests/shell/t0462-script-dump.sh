#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf script -D: every record with its offset, hex dump and decoded line,
# as perf script -D 6.1 prints them (goldens from perf on the fixtures,
# and perf itself on files recorded here).
. "$(dirname "$0")/lib.sh"

nosym="--symfs=/nonexistent --kallsyms=/dev/null"

dump() {
	# run from tests/data: perf printed the path as given (DIR/FILE)
	(cd "$DATA_DIR" && tperf script -i "${1#$DATA_DIR/}" -D -F comm,tid,time $nosym)
}

test_expect_success 'file, old file and pipe+zstd fixtures: the first 400 lines' '
	dump $DATA_DIR/pdc-armv7-32bit/perf.data.armv7-3.4 >out &&
	head -400 out >actual &&
	test_cmp $DATA_DIR/pdc-armv7-32bit/expected-perf-script-D-head.txt actual &&
	f=$DATA_DIR/lpd-aarch64-pipe-zstd/sleep.compressed.pipe.data &&
	dump $f >out &&
	head -400 out >actual &&
	test_cmp $f.expected-perf-script-D-head.txt actual
'

test_expect_success 'samples with user regs and stack, data_src (DWARF fixture)' '
	dump $DATA_DIR/kdab-dwarf-unwind-x86_64/perf.data >out &&
	sed -n 2100,2200p out >actual &&
	test_cmp $DATA_DIR/kdab-dwarf-unwind-x86_64/expected-perf-script-D-2100-2200.txt actual
'

test_expect_success 'LBR call-stack samples: the LBR call chain and the branch callstack' '
	dump $DATA_DIR/kdab-lbr-callstack/perf.lbr.data >out &&
	head -600 out >actual &&
	test_cmp $DATA_DIR/kdab-lbr-callstack/expected-perf-script-D-head.txt actual
'

test_expect_success 'a cut file: the dump stops at the last whole record, with the warning' '
	head -c 3000 $DATA_DIR/pdc-armv7-32bit/perf.data.armv7-3.4 >cut.data &&
	tperf script -i cut.data -D -F comm,tid >out 2>err &&
	grep "^tperf: warning: '"'"'cut.data'"'"': " err &&
	tail -1 out | grep -q .
'

same_as_perf() {
	perf script "$@" >expect 2>/dev/null &&
	tperf script "$@" >actual &&
	test_cmp expect actual
}

test_expect_success PERF 'perf-recorded files: callchains, two events, -D with the script lines' '
	(cd "$TRASH" &&
	perf record -q -F 999 -g -o cc.data -- sh -c "i=0; while [ \$i -lt 20000 ]; do i=\$((i+1)); done" 2>/dev/null &&
	same_as_perf -i cc.data -D &&
	same_as_perf -i cc.data -D -G --time 10%/2 &&
	same_as_perf -i cc.data -D --comms sh --show-mmap-events &&
	perf record -q -F 999 -e cpu-clock,task-clock -o two.data -- ls / >/dev/null 2>&1 &&
	same_as_perf -i two.data -D &&
	perf record -q -F 999 -o - -- ls / 2>/dev/null >pipe.data &&
	same_as_perf -i pipe.data -D)
'

test_expect_success PERF,ROOT 'system wide with switch events: cpu in the time stamps' '
	(cd "$TRASH" &&
	perf record -q -a --switch-events -e cpu-clock -F 199 -o sw.data -- sleep 0.2 2>/dev/null &&
	same_as_perf -i sw.data -D -F comm,tid,cpu,time &&
	same_as_perf -i sw.data -D -C 1 --show-switch-events)
'

test_done
