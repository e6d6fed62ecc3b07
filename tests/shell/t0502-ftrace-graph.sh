#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: tracefs (tracefs and uprobe_events: changed, then checked restored)
# function_graph display on synthetic trace.dat files (this kernel has no
# function_graph tracer; the pages are laid out as the kernel lays them out,
# with its events/ftrace formats): leaves merged as trace-cmd merges them,
# nesting, the duration column and its markers, show's -D / --graph-thresh
# filters equal to trace-cmd report on files without the filtered records,
# lost events as trace-cmd marks them, and record's refusal of -D / thresh=
# (top-level-only tracefs files).
. "$(dirname "$0")/lib.sh"

MK="python3 $TESTS_DIR/shell/mk-trace-dat.py"
test_lazy_prereq FORMATS 'test -r /sys/kernel/tracing/events/ftrace/funcgraph_exit/format && command -v python3'

test_expect_success FORMATS 'leaf calls: the next record (on any CPU) is the same task'"'"'s exit of the same function' '
	cat >spec <<-\END &&
	comm 7 w
	comm 8 x
	0 1000 7 entry A 0
	1 1100 8 function kfree A
	0 1200 7 exit A 0 1000 1200
	0 1300 7 entry B 0
	0 1400 8 exit B 0 1300 1400
	0 1500 7 entry C 0
	0 1600 7 exit D 0 1500 1600
	0 1700 7 entry E 0
	0 1800 7 exit E 1 1700 1800
	0 1900 7 entry F 0
	1 1950 7 exit F 0 1900 1950
	END
	$MK g.dat <spec &&
	cat >expect <<-\END &&
	cpus=2
	               w-7     [000]     0.000001: funcgraph_entry:                   |  A() {
	               x-8     [001]     0.000001: function:             kfree
	               w-7     [000]     0.000001: funcgraph_exit:         0.200 us   |  }
	               w-7     [000]     0.000001: funcgraph_entry:                   |  B() {
	               x-8     [000]     0.000001: funcgraph_exit:         0.100 us   |  }
	               w-7     [000]     0.000002: funcgraph_entry:                   |  C() {
	               w-7     [000]     0.000002: funcgraph_exit:         0.100 us   |  }
	               w-7     [000]     0.000002: funcgraph_entry:        0.100 us   |  E();
	               w-7     [000]     0.000002: funcgraph_entry:        0.050 us   |  F();
	END
	tperf ftrace show -i g.dat >out &&
	test_cmp expect out
'

# durations around every threshold (ns), as leaves and as exits
durations="0 1 999 1000 1001 9999 10000 10001 99999 100000 100001 999999 1000000
	1000001 9999999 10000000 99999999 100000000 999999999 1000000000 1000000001
	9999999999 100000000000"

# durations around every threshold (ns): f as leaves, g as calls with a child
durations_spec() {
	echo "comm 7 w" && t=1000 &&
	for d in 0 1 999 1000 1001 9999 10000 10001 99999 100000 100001 999999 1000000 \
		 1000001 9999999 10000000 99999999 100000000 999999999 1000000000 1000000001 \
		 9999999999 100000000000; do
		echo "0 $t 7 entry f$d 0" && t=$((t + 10)) &&
		echo "0 $t 7 exit f$d 0 1000 $((1000 + d))" && t=$((t + 10)) &&
		echo "0 $t 7 entry g$d 0" && t=$((t + 10)) &&
		echo "0 $t 7 entry h 1" && t=$((t + 10)) &&
		echo "0 $t 7 exit h 1 5 6" && t=$((t + 10)) &&
		echo "0 $t 7 exit g$d 0 1000 $((1000 + d))" && t=$((t + 10)) || return 1
	done
}

test_expect_success FORMATS 'the duration column: digits, padding and the + ! # $ markers' '
	durations_spec >spec &&
	$MK g.dat <spec &&
	tperf ftrace show -i g.dat | sed -n "s/^.*funcgraph_//p" | grep -v "h();\|g[0-9]*() {" >out &&
	cat >expect <<-\END &&
	entry:        0.000 us   |  f0();
	exit:         0.000 us   |  }
	entry:        0.001 us   |  f1();
	exit:         0.001 us   |  }
	entry:        0.999 us   |  f999();
	exit:         0.999 us   |  }
	entry:        1.000 us   |  f1000();
	exit:         1.000 us   |  }
	entry:        1.001 us   |  f1001();
	exit:         1.001 us   |  }
	entry:        9.999 us   |  f9999();
	exit:         9.999 us   |  }
	entry:        10.000 us  |  f10000();
	exit:         10.000 us  |  }
	entry:      + 10.001 us  |  f10001();
	exit:       + 10.001 us  |  }
	entry:      + 99.999 us  |  f99999();
	exit:       + 99.999 us  |  }
	entry:      + 100.000 us |  f100000();
	exit:       + 100.000 us |  }
	entry:      ! 100.001 us |  f100001();
	exit:       ! 100.001 us |  }
	entry:      ! 999.999 us |  f999999();
	exit:       ! 999.999 us |  }
	entry:      ! 1000.000 us |  f1000000();
	exit:       ! 1000.000 us |  }
	entry:      # 1000.001 us |  f1000001();
	exit:       # 1000.001 us |  }
	entry:      # 9999.999 us |  f9999999();
	exit:       # 9999.999 us |  }
	entry:      # 10000.000 us |  f10000000();
	exit:       # 10000.000 us |  }
	entry:      # 99999.999 us |  f99999999();
	exit:       # 99999.999 us |  }
	entry:      # 100000.000 us |  f100000000();
	exit:       # 100000.000 us |  }
	entry:      # 999999.999 us |  f999999999();
	exit:       # 999999.999 us |  }
	entry:      # 1000000 us |  f1000000000();
	exit:       # 1000000 us |  }
	entry:      $ 1000000 us |  f1000000001();
	exit:       $ 1000000 us |  }
	entry:      $ 9999999 us |  f9999999999();
	exit:       $ 9999999 us |  }
	entry:      $ 100000000 us |  f100000000000();
	exit:       $ 100000000 us |  }
	END
	test_cmp expect out
'

test_expect_success FORMATS,TRACECMD 'the whole duration file equals trace-cmd report' '
	durations_spec >spec &&
	$MK g.dat <spec &&
	trace-cmd report -i g.dat >expect 2>/dev/null &&
	tperf ftrace show -i g.dat >out &&
	test_cmp expect out
'

test_expect_success FORMATS,TRACECMD 'show -D N equals trace-cmd report of the file recorded without depth N and deeper' '
	zcat "$DATA_DIR/trace-cmd-v7-graph/spec.txt.gz" >spec &&
	$MK full.dat <spec &&
	for n in 1 2 4; do
		awk -v n=$n "\$1 == \"comm\" || \$4 == \"function\" || \$6 < n" spec >cut &&
		$MK cut.dat <cut &&
		trace-cmd report -i cut.dat >expect 2>/dev/null &&
		tperf ftrace show -D $n -i full.dat >out &&
		test_cmp expect out || exit 1
	done &&
	grep -q "();" out && grep -q "() {" out
'

test_expect_success FORMATS,TRACECMD 'show --graph-thresh US equals trace-cmd report of the exits tracing_thresh keeps' '
	zcat "$DATA_DIR/trace-cmd-v7-graph/spec.txt.gz" >spec &&
	$MK full.dat <spec &&
	for us in 5 150.5 2000; do
		awk -v ns=$(echo "$us * 1000" | bc) "\$1 == \"comm\" || \$4 == \"function\" ||
			(\$4 == \"exit\" && \$8 - \$7 >= ns)" spec >cut &&
		$MK cut.dat <cut &&
		trace-cmd report -i cut.dat >expect 2>/dev/null &&
		tperf ftrace show --graph-thresh $us -i full.dat >out &&
		test_cmp expect out || exit 1
	done &&
	grep -q "# .* |      }" out && ! grep -q funcgraph_entry out
'

test_expect_success FORMATS 'events lost between pages: one line before the next event of that CPU' '
	cat >spec <<-\END &&
	comm 7 w
	0 1000 7 function kfree schedule
	missed 0 12
	0 2000 7 function kmalloc schedule
	missed 0 -1
	0 3000 7 function kfree schedule
	1 1500 7 function kfree schedule
	missed 1 3
	1 2500 7 function kfree schedule
	END
	$MK g.dat <spec &&
	cat >expect <<-\END &&
	cpus=2
	               w-7     [000]     0.000001: function:             kfree
	               w-7     [001]     0.000002: function:             kfree
	CPU:0 [12 EVENTS DROPPED]
	               w-7     [000]     0.000002: function:             kmalloc
	CPU:1 [3 EVENTS DROPPED]
	               w-7     [001]     0.000003: function:             kfree
	CPU:0 [EVENTS DROPPED]
	               w-7     [000]     0.000003: function:             kfree
	END
	tperf ftrace show -i g.dat >out &&
	test_cmp expect out
'

test_expect_success 'report (sort by function by default on a function_graph trace): calls and total time from the records' '
	zcat "$DATA_DIR/trace-cmd-v7-graph/spec.txt.gz" |
		awk "\$4 == \"exit\" { n[\$5]++; t[\$5] += \$8 - \$7 }
		     END { for (f in n) printf \"%s %d %.3f\n\", f, n[f], t[f] / 1000 }" | sort >expect &&
	tperf ftrace report -i "$DATA_DIR/trace-cmd-v7-graph/graph-v7-zstd.dat" >out &&
	sed -n "s/^ *[0-9.]*%  *\([0-9]*\)  *\([0-9.]*\)  *[0-9.]*  *[0-9.]*  \([a-z_]*\)$/\3 \1 \2/p" out | sort >actual &&
	test $(wc -l <actual) = 8 &&
	test_cmp expect actual &&
	head -1 out >first &&
	echo "# Functions: 8" >expect &&
	test_cmp expect first
'

test_expect_success FORMATS 'report of a function trace counts the hits per function by default' '
	printf "comm 7 w\n0 1 7 function kfree a\n0 2 7 function kfree a\n0 3 7 function memcpy a\n" >spec &&
	$MK f.dat <spec &&
	tperf ftrace report -i f.dat >out &&
	cat >expect <<-\END &&
	# Samples: 3
	#
	# Overhead   Samples  sym
	# ........  ........
	#
	    66.67%         2  kfree
	    33.33%         1  memcpy
	END
	test_cmp expect out
'

test_expect_success 'record -D and --graph-opts depth=/thresh= point to show (tracefs has them only at the top level)' '
	test_expect_code 129 tperf ftrace record -t function_graph -D 3 -- true 2>err &&
	echo "tperf: -D/--graph-depth: max_graph_depth exists only at the top level of tracefs, which tperf leaves alone; record without it and show with '"'"'tperf ftrace show -D 3'"'"'" >expect &&
	test_cmp expect err &&
	test_expect_code 129 tperf ftrace record -t function_graph --graph-opts depth=5 -- true 2>err &&
	sed "s/-D 3/-D 5/" expect >expect5 &&
	test_cmp expect5 err &&
	test_expect_code 129 tperf ftrace record -t function_graph --graph-opts nosleep-time,thresh=100 -- true 2>err &&
	echo "tperf: --graph-opts thresh: tracing_thresh exists only at the top level of tracefs, which tperf leaves alone; record without it and show with '"'"'tperf ftrace show --graph-thresh 100'"'"'" >expect &&
	test_cmp expect err
'

test_done
