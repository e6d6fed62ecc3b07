#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: tracefs (tracefs and uprobe_events: changed, then checked restored)
# tperf probe on C++ (g++ -O0 and -O2): functions by qualified name, an
# overload by its parameters, a template instance; -F demangled as perf
# shows it (--no-demangle); -V, -L, -l and the uprobe lines against perf
# (which takes unqualified names only); the probes firing with the values
# the program printed.
. "$(dirname "$0")/lib.sh"

test_lazy_prereq CXX 'command -v g++'
B=$TRASH/bin
mkdir -p "$B"
if test_have_prereq CXX; then
	for o in 0 2; do
		g++ -O$o -g -o "$B/cxx$o" "$TESTS_DIR/probe/cxx.cc" || fail_all "g++ cannot build cxx.cc"
	done
	g++ -O2 -o "$B/cxx-nodwarf" "$TESTS_DIR/probe/cxx.cc"
fi
export PERF_BUILDID_DIR=$TRASH/.debug
UE=/sys/kernel/tracing/uprobe_events
cleanup='tperf probe -q -d "probe_cxx*:*" 2>/dev/null; :'
perf_lines() {
	HOME=$TRASH perf probe -n -v -x "$1" "$2" 2>&1 | sed -n 's/^Writing event: //p'
}
# the address of the uprobe lines
addrs() { sed 's/^[^ ]* [^:]*:\(0x[0-9a-f]*\).*/\1/' "$@" | sort; }

for bin in cxx0 cxx2; do
	for opt in "" "--no-demangle" "ns::*" "!*a*"; do
		test_expect_success CXX,PERF "$bin -F $opt as perf" '
			HOME=$TRASH perf probe -x "$B/$bin" -F $opt >expect &&
			tperf probe -x "$B/$bin" -F $opt >actual &&
			test_cmp expect actual
		'
	done

	test_expect_success CXX,PERF "$bin: 'ns::twice x' is perf's 'twice x'" '
		perf_lines "$B/$bin" "twice x" >expect &&
		test -s expect &&
		tperf probe -x "$B/$bin" -D "ns::twice x" >actual &&
		test_cmp expect actual
	'

	test_expect_success CXX,PERF "$bin: a mangled name, as perf takes it" '
		perf_lines "$B/$bin" "_ZN2ns5twiceEl x" >expect &&
		test -s expect &&
		tperf probe -x "$B/$bin" -D "_ZN2ns5twiceEl x" >actual &&
		test_cmp expect actual
	'

	test_expect_success CXX,PERF "$bin: a method, both overloads, at perf's addresses" '
		for m in _ZN2ns7Counter3addEi _ZN2ns7Counter3addEii; do
			perf_lines "$B/$bin" "$m" || exit 1
		done >perf &&
		addrs perf >expect &&
		test $(wc -l <expect) = 2 &&
		tperf probe -x "$B/$bin" -D "ns::Counter::add" >out &&
		addrs out >actual &&
		test_cmp expect actual &&
		test "$(cut -d" " -f1 out | sort -u)" = p:probe_$bin/add
	'

	test_expect_success CXX "$bin: one overload by its parameters" '
		tperf probe -x "$B/$bin" -D "ns::Counter::add(int,int)" >a &&
		tperf probe -x "$B/$bin" -D "Counter::add(int,int)" >b &&
		test $(wc -l <a) = 1 &&
		test_cmp a b &&
		tperf probe -x "$B/$bin" -D "add(int)" >c &&
		test $(wc -l <c) = 1 &&
		! test_cmp a c >/dev/null
	'

	test_expect_success CXX,PERF "$bin: a template instance, named by its function" '
		perf_lines "$B/$bin" _Z5maxofIiET_S0_S0_ | addrs >expect &&
		tperf probe -x "$B/$bin" -D "maxof<int>" >out &&
		addrs out >actual &&
		test_cmp expect actual &&
		grep -q "^p:probe_$bin/maxof " out
	'

	test_expect_success CXX,PERF "$bin: -V and -L of a qualified name as perf's of the plain one" '
		HOME=$TRASH perf probe -x "$B/$bin" -V twice >expect &&
		tperf probe -x "$B/$bin" -V "ns::twice" | sed "1s/ns::twice/twice/" >actual &&
		test_cmp expect actual &&
		HOME=$TRASH perf probe -x "$B/$bin" -V add --range >expect &&
		tperf probe -x "$B/$bin" -V "ns::Counter::add(int,int)" --range |
			sed "1s/at .*/at add/" >actual &&
		test_cmp expect actual &&
		HOME=$TRASH perf probe -x "$B/$bin" -L twice >expect &&
		tperf probe -x "$B/$bin" -L "ns::twice" | sed "1s/<ns::twice@/<twice@/" >actual &&
		test_cmp expect actual
	'
done

test_expect_success CXX 'errors: an unknown C++ name, a bad one' '
	test_must_fail tperf probe -n -x "$B/cxx0" "ns::nosuch" 2>err &&
	echo "tperf: no function '"'"'ns::nosuch'"'"' in the debug information" >expect &&
	test_cmp expect err &&
	test_must_fail tperf probe -n -x "$B/cxx0" "s::Counter::add" 2>err &&
	grep -q "no function" err &&
	test_must_fail tperf probe -n -x "$B/cxx0" "ns::" 2>err &&
	grep -q "expected a name after '"'"'::'"'"'" err
'

test_expect_success CXX 'without DWARF: a qualified name from the symbols' '
	tperf probe -x "$B/cxx-nodwarf" -D "ns::twice%return \$retval" >out &&
	grep -q "^r:probe_cxx_nodwarf/twice__return $B/cxx-nodwarf:0x[0-9a-f]* \$retval$" out &&
	tperf probe -x "$B/cxx-nodwarf" -D "ns::Counter::add" >out &&
	test $(wc -l <out) = 2
'

for bin in cxx0 cxx2; do
	test_expect_success CXX,ROOT,PERF "$bin: probes fire with the values the program printed" '
		test_when_finished "$cleanup" &&
		tperf probe -q -x "$B/$bin" "ns::Counter::add(int) v" &&
		tperf probe -q -x "$B/$bin" "ns::twice%return \$retval" &&
		tperf probe -q -x "$B/$bin" "maxof<int> a b" &&
		tperf record -q -o cxx.data -e "probe_$bin:*" -- "$B/$bin" >out &&
		HOME=$TRASH perf script -i cxx.data -F event,trace 2>/dev/null |
			sed "s/^ *//; s/: ([0-9a-f <-]*)//" | sort >actual &&
		read total twice maxi maxd <out &&
		sort >expect <<-EOT &&
		probe_$bin:add v=0
		probe_$bin:add v=1
		probe_$bin:add v=2
		probe_$bin:twice__return arg1=0x$(printf %x $twice)
		probe_$bin:maxof a=3 b=$maxi
		EOT
		test_cmp expect actual
	'
done

test_expect_success CXX,ROOT,PERF '-l shows C++ probes as perf lists them' '
	test_when_finished "$cleanup" &&
	tperf probe -q -x "$B/cxx0" "ns::Counter::add(int,int) v w" &&
	tperf probe -q -x "$B/cxx2" "maxof<int>" &&
	# perf shortens some source paths: compare the file names
	HOME=$TRASH perf probe -l "probe_cxx*:*" | sed "s|@[^ ]*/|@|" | sort >expect &&
	grep -q "_ZN2ns7Counter3addEii:2@cxx.cc in $B/cxx0 with v w" expect &&
	tperf probe -l "probe_cxx*:*" | sed "s|@[^ ]*/|@|" | sort >actual &&
	test_cmp expect actual
'

test_expect_success 'uprobe_events is left as found' '
	test ! -r $UE || ! grep -q "probe_cxx" $UE
'

test_done
