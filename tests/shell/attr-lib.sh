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

# compare_record OPTIONS...: every attr tperf would open is perf's
compare_record() {
	tperf record --dry-run -vv "$@" -- true 2>&1 | attr_blocks 100 >actual &&
	n=$(grep -c "^perf_event_attr:" actual) && test "$n" -gt 0 &&
	perf record -vv -o p.data "$@" -- true 2>&1 | attr_blocks "$n" >expect &&
	test_cmp expect actual
}
