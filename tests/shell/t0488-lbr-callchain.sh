#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# --call-graph lbr recordings: report and script chains made as perf 6.1
# makes them (the kernel's frames, then the first branch's target and every
# branch's source), on synthetic files and on kdab-lbr-callstack.
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/shell/branch-lib.sh"

nosym="--symfs=/nonexistent --kallsyms=/dev/null"
notip() { grep -v '^# (Tip: '; }

test_expect_success PERF,CC 'LBR call stacks with kernel frames: perf'"'"'s chains' '
	make_prog &&
	L=$(off leaf) m12=$(off mid 12) m22=$(off mid 22) t6=$(off top 6) t14=$(off top 14) &&
	n6=$(off main 6) n11=$(off main 11) &&
	mkbranch lbr.data prog --lbr \
		"ip=$L;br=$m12>$L,$t6>$m12,$n6>$t6" \
		"k==ffffffff81000000,=ffffffff81000100;ip=$L;br=$m22>$L,$t14>$m22" \
		"ip=$(off top);br=$n11>$(off top)" \
		"k==ffffffff81000000;ip=$L;br=$m12>$L,$t6>$m12,$n6>$t6,=0>=0" &&
	perf script -i lbr.data >expect 2>/dev/null &&
	tperf script -i lbr.data >actual &&
	test_cmp expect actual &&
	grep -q "top+0x6 (prog)" actual &&
	for a in "" -G --no-children "--children -g callee" "-g caller --no-children"; do
		perf report -i lbr.data --stdio $a 2>/dev/null | notip >expect &&
		tperf report -i lbr.data --stdio $a 2>/dev/null | notip >actual &&
		test_cmp expect actual || { echo "options: $a"; exit 1; }
	done
'

# perf reads the first branch of an empty stack past the end of the
# record (the next record's bytes): tperf shows the kernel part only there,
# so its chains are perf's less that one line, of the 8 such samples
test_expect_success PERF 'kdab-lbr-callstack: perf'"'"'s chains but the empty stacks'"'"' garbage' '
	K=$DATA_DIR/kdab-lbr-callstack/perf.lbr.data &&
	perf script -i $K $nosym >expect 2>/dev/null &&
	tperf script -i $K $nosym >actual &&
	diff expect actual >d || true &&	# differences expected: checked below
	test $(grep -c "^>" d) = 0 &&
	test $(grep -c "^<" d) = 8 &&
	perf report -i $K $nosym --stdio --no-children -g caller 2>/dev/null | notip >expect &&
	tperf report -i $K $nosym --stdio --no-children -g caller | notip >actual &&
	test_cmp expect actual
'

test_done
