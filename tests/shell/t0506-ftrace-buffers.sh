#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: tracefs (tracefs and uprobe_events: changed, then checked restored)
# ftrace show on the trace.dat files trace-cmd 3.x writes besides one
# buffer's flyrecord: instance buffers (trace-cmd record -B: BUFFER options,
# each pointing at its own table of CPU data) in version 6 and, converted
# by trace-cmd itself, in version 7 (zstd or not: several BUFFER options and
# options sections); latency files (the text of tracing/trace, record -p
# irqsoff) in both versions.  Made by mk-trace-dat.py with this kernel's
# ftrace formats; every buffer's events merged by time with trace-cmd
# report's "NAME: " column, as trace-cmd report 3.1 shows them.
. "$(dirname "$0")/lib.sh"

MK="python3 $TESTS_DIR/shell/mk-trace-dat.py"
test_lazy_prereq FORMATS 'test -r /sys/kernel/tracing/events/ftrace/funcgraph_exit/format && command -v python3'

# two buffers of graphs, lost events, an empty buffer and a last one
cat >"$TRASH/m.spec" <<\END
comm 7 w
comm 8 x
0 1000 7 entry A 0
0 1200 7 exit A 0 1000 1200
1 5000 8 function kfree A
buffer g
missed 0 5
0 1100 8 entry B 0
0 1150 8 entry C 1
0 1160 8 exit C 1 1150 1160
0 9000 8 exit B 0 1100 9000
1 1300 7 function kmalloc B
buffer empty
buffer tail
1 20000 7 entry D 0
1 20001 7 exit D 0 20000 20001
END

test_expect_success FORMATS 'two instances next to the top buffer: the lines trace-cmd prints' '
	cat >spec <<-\END &&
	comm 100 alpha
	comm 200 beta
	0 1000000 100 function do_a caller_a
	1 1500000 200 function do_b caller_b
	buffer inst1
	0 1200000 100 function do_c caller_c
	1 1300000 200 function do_d caller_d
	buffer longbuffername
	0 1100000 200 function do_e caller_e
	END
	$MK b.dat <spec &&
	cat >expect <<-\END &&
	cpus=2
	                           alpha-100   [000]     0.001000: function:             do_a
	longbuffername:             beta-200   [000]     0.001100: function:             do_e
	         inst1:            alpha-100   [000]     0.001200: function:             do_c
	         inst1:             beta-200   [001]     0.001300: function:             do_d
	                            beta-200   [001]     0.001500: function:             do_b
	END
	tperf ftrace show -i b.dat >actual &&
	test_cmp expect actual
'

test_expect_success FORMATS,TRACECMD 'graphs, lost events and an empty buffer: as trace-cmd report' '
	$MK m.dat <"$TRASH/m.spec" &&
	trace-cmd report -i m.dat >expect 2>/dev/null &&
	grep -q "^ *g: CPU:0 \[5 EVENTS DROPPED\]$" expect &&
	tperf ftrace show -i m.dat >actual &&
	test_cmp expect actual
'

test_expect_success FORMATS,TRACECMD 'version 7 with several buffers (trace-cmd convert): as trace-cmd report' '
	$MK m6.dat <"$TRASH/m.spec" &&
	for c in zstd none; do
		trace-cmd convert -i m6.dat -o m7-$c.dat --file-version 7 --compression $c \
			>/dev/null 2>&1 &&
		trace-cmd report -i m7-$c.dat >expect 2>/dev/null &&
		grep -q "^ *g: CPU:0 \[5 EVENTS DROPPED\]$" expect &&
		tperf ftrace show -i m7-$c.dat >actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success FORMATS,TRACECMD 'latency files, versions 6 and 7: the text, as trace-cmd report' '
	cat >lat.txt <<-\END &&
	# tracer: irqsoff
	#
	# irqsoff latency trace v1.1.5 on 6.1.0
	#  cmd     pid     ||||| time  |   caller
	#     \   /        |||||  \    |   /
	  <idle>-0         0d...    0us : do_idle
	  <idle>-0         0d...   16us : do_idle
	END
	printf "comm 1 x\n" | $MK --latency lat.txt lat6.dat &&
	trace-cmd report -i lat6.dat >expect 2>/dev/null &&
	grep -q "16us : do_idle" expect &&
	tperf ftrace show -i lat6.dat >actual &&
	test_cmp expect actual &&
	for c in zstd none; do
		trace-cmd convert -i lat6.dat -o lat7-$c.dat --file-version 7 --compression $c \
			>/dev/null 2>&1 &&
		tperf ftrace show -i lat7-$c.dat >actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success FORMATS,TRACECMD 'a single buffer: no column, as before' '
	printf "comm 9 y\n0 1000 9 function f g\n" | $MK one.dat &&
	trace-cmd report -i one.dat >expect 2>/dev/null &&
	tperf ftrace show -i one.dat >actual &&
	test_cmp expect actual
'

test_expect_success FORMATS 'an instance cut short: an error naming the file and offset' '
	printf "comm 9 y\n0 1000 9 function f g\nbuffer b\n0 1100 9 function f g\n" | $MK bad.dat &&
	size=$(stat -c %s bad.dat) &&
	head -c $((size - 4096 - 16 - 10)) bad.dat >cut.dat &&
	test_must_fail tperf ftrace show -i cut.dat 2>err &&
	echo "tperf: '"'"'cut.dat'"'"': CPU data beyond the end of the file at offset 8202" >expect &&
	test_cmp expect err
'

test_done
