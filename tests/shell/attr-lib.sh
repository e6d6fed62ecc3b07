#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Comparing the attrs tperf record would open with perf's (-vv), for the
# record tests: source it after lib.sh.

# The attr blocks of -vv output on stdin, the first $1 of them.  An attr
# perf opens again after a failure (cycles falling back to cpu-clock, a
# lower precise_ip, exclude_guest off) is a retry of the one before: left out.
attr_blocks() {
	awk -v D=------------------------------------------------------------ -v N="$1" '
		$0 == D && !inb { inb = 1; skip = retry; retry = 0; blk = D "\n"; next }
		$0 == D && inb { inb = 0; if (!skip && n < N) printf "%s%s\n", blk, D; if (!skip) n++; next }
		inb { blk = blk $0 "\n"; next }
		/trying to fall back|decreasing precise_ip|switching off/ { retry = 1 }'
}

# compare_record OPTIONS...: every attr tperf would open is perf's (lib.sh
# gives `perf record` --no-bpf-event: tperf gets it too; `bpf_event_attr`
# compares the default)
compare_record() {
	tperf record --dry-run -vv --no-bpf-event "$@" -- true 2>&1 | attr_blocks 100 >actual &&
	n=$(grep -c "^perf_event_attr:" actual) && test "$n" -gt 0 &&
	perf record -vv -o p.data "$@" -- true 2>&1 | attr_blocks "$n" >expect &&
	test_cmp expect actual
}

# the bpf_event bit: set by default, cleared by --no-bpf-event, as perf 6.1
# does (`command perf`: lib.sh's perf adds the option)
bpf_event_attr() {
	command perf record -vv -o p.data -e cpu-clock -- true 2>&1 | attr_blocks 1 >expect &&
	grep -q "^  bpf_event  *1$" expect &&
	tperf record --dry-run -vv -e cpu-clock -- true 2>&1 | attr_blocks 1 >actual &&
	test_cmp expect actual &&
	command perf record -vv --no-bpf-event -o p.data -e cpu-clock -- true 2>&1 | attr_blocks 1 >expect &&
	! grep -q bpf_event expect &&
	tperf record --dry-run -vv --no-bpf-event -e cpu-clock -- true 2>&1 | attr_blocks 1 >actual &&
	test_cmp expect actual
}
