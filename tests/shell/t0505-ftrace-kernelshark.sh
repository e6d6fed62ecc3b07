#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: tracefs (tracefs and uprobe_events: changed, then checked restored)
# KernelShark opens tperf's trace.dat files: libkshark (KernelShark's own
# loader, Debian libkshark-dev) loads every event of a v6 and of a
# zstd-compressed v7 file, the same events, tasks and order as
# `tperf ftrace show` prints.
. "$(dirname "$0")/lib.sh"

test_lazy_prereq KSHARK 'pkg-config --exists libkshark'

# "PID EVENT" of each line of ftrace show
show_events() {
	tperf ftrace show -i "$1" | sed -n 's/^ *.*-\([0-9]*\) *\[[0-9]*\] *[0-9.]*: *\([a-z_0-9]*\):.*/\1 \2/p'
}

test_expect_success ROOT,KSHARK 'build the loader' '
	cc -o "$TRASH/ks" "$TESTS_DIR/shell/kshark-load.c" $(pkg-config --cflags --libs libkshark)
'

for v in 6 7; do
	test_expect_success ROOT,KSHARK "a version $v file loads in KernelShark with every event" '
		opts="--file-version '$v'" &&
		if [ '$v' = 7 ]; then opts="$opts --compression zstd"; fi &&
		tperf ftrace record $opts -e sched:sched_switch -e sched:sched_wakeup \
			-e sched:sched_process_exec -o t.dat -- sh -c "sleep 0.05; true" 2>rec.err &&
		"$TRASH/ks" t.dat >ks.out &&
		sed "s/^\([0-9]*\) .* [a-z_]*\/\([a-z_0-9]*\)$/\1 \2/" ks.out >actual &&
		show_events t.dat >expect &&
		test $(wc -l <expect) -ge 4 &&
		test_cmp expect actual &&
		grep -q " sched\/sched_process_exec$" ks.out
	'
done

test_done
