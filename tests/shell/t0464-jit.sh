#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# JIT code: anonymous executable maps get their symbols from
# /tmp/perf-PID.map (node --perf-basic-prof writes it); report shows the JS
# function names and the DSO "[JIT] tid PID", script the names, as perf 6.1.
. "$(dirname "$0")/lib.sh"

test_lazy_prereq NODE 'command -v node'

cat >"$TRASH/loop.js" <<'EOS'
function hotLoopInner(n) { let s = 0; for (let i = 0; i < n; i++) s = (s + i * 7) % 1000003; return s; }
function hotLoopOuter() { let t = 0; const end = Date.now() + 800; while (Date.now() < end) t += hotLoopInner(10000); return t; }
console.log(hotLoopOuter() > 0 ? "done" : "zero");
EOS

# The node process of a recording (its perf-PID.map is ours to remove).
node_pid() {
	tperf script -i "$1" -F comm,pid 2>/dev/null | awk '$1 == "node" { print $2; exit }'
}

test_expect_success NODE 'tperf record: report and script name the JS functions' '
	tperf record -q -F 999 -g -o t.data -- node --perf-basic-prof "$TRASH/loop.js" >out 2>/dev/null &&
	pid=$(node_pid t.data) && test -n "$pid" &&
	test_when_finished "rm -f /tmp/perf-$pid.map" &&
	test -s /tmp/perf-$pid.map &&
	tperf report -i t.data --stdio --no-children --sort dso,sym -g none >rep &&
	grep -q "\[JIT\] tid $pid  *\[\.\] JS:[*~]hotLoopInner .*loop.js:1:" rep &&
	tperf script -i t.data -G >scr &&
	grep -q " JS:[*~]hotLoopInner .*loop.js:1:[0-9]*+0x[0-9a-f]* (/tmp/perf-$pid.map)\$" scr
'

same_report() {
	perf report -i "$1" --stdio "${@:2}" 2>/dev/null | grep -v "^#" >expect &&
	tperf report -i "$1" --stdio "${@:2}" | grep -v "^#" >actual &&
	test_cmp expect actual
}

# The flat report without the rows of node's own binary: a sample inside
# both a function and a size-0 label of node's .text is credited to the
# one perf's symbol rb-tree happens to find (see same_js_lines), so those
# rows may differ; every other row (JIT, kernel, libraries) must not.
same_flat_report() {
	perf report -i "$1" --stdio "${@:2}" 2>/dev/null | grep -v "^#" |
		grep -v "^ *[0-9.]*%  *node  *node  " >expect &&
	tperf report -i "$1" --stdio "${@:2}" | grep -v "^#" |
		grep -v "^ *[0-9.]*%  *node  *node  " >actual &&
	grep -q "JS:" actual &&
	test_cmp expect actual
}

# The script lines of JIT frames.  (Whole outputs can differ where a frame
# is inside both a function and a size-0 label of node's .text: which one
# perf picks depends on the shape of its symbol rb-tree.)
same_js_lines() {
	perf script -i "$1" 2>/dev/null | grep "JS:" >expect &&
	tperf script -i "$1" | grep "JS:" >actual &&
	test_cmp expect actual &&
	grep -q "JS:[*~]hotLoopInner" actual
}

test_expect_success NODE,PERF 'the same report and script as perf 6.1, perf- and tperf-recorded' '
	perf record -q -F 999 -g -o p.data -- node --perf-basic-prof "$TRASH/loop.js" >out 2>/dev/null &&
	pid=$(node_pid p.data) && test -n "$pid" &&
	test_when_finished "rm -f /tmp/perf-$pid.map" &&
	same_flat_report p.data --no-children --sort comm,dso,sym --percent-limit 0 -g none &&
	same_report p.data --children --percent-limit 5 &&
	same_js_lines p.data &&
	tperf record -q -F 999 -g -o t.data -- node --perf-basic-prof "$TRASH/loop.js" >out 2>/dev/null &&
	pid2=$(node_pid t.data) && test -n "$pid2" &&
	test_when_finished "rm -f /tmp/perf-$pid2.map" &&
	same_flat_report t.data --no-children --sort comm,dso,sym --percent-limit 0 -g none &&
	same_js_lines t.data
'

test_expect_success NODE 'without the map file the JIT addresses stay unknown' '
	tperf record -q -F 999 -o n.data -- node --perf-basic-prof "$TRASH/loop.js" >out 2>/dev/null &&
	pid=$(node_pid n.data) && test -n "$pid" &&
	rm -f /tmp/perf-$pid.map &&
	tperf report -i n.data --stdio --no-children --sort dso,sym -g none >rep &&
	! grep -q "JS:" rep &&
	grep -q "\[JIT\] tid $pid  *\[\.\] 0x" rep
'

test_done
