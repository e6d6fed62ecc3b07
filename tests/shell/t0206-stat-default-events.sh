#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: alone (counts and timings that another test's load would change)
# tperf stat without -e: perf 6.1's default events, rows, order and text in
# the table, CSV and JSON, with -r, -a, -C, -A, --per-socket and -I; the
# hardware rows this machine cannot count are perf's <not supported> rows.
. "$(dirname "$0")/lib.sh"

# Mask what varies from run to run: -I timestamps, and every number of the
# counted rows (their K/M/G rate prefixes, the ( +- x% ) noise that shows
# only when not zero, the widths).  <not supported> rows stay byte for byte.
# tperf's keys after perf's in -j -r rows go (t0201 checks them).
normalize() {
	sed -E 's/, "runs" : [0-9]+, "mean" : [^,]+, "stddev" : [^,]+, "values" : \[[^]]*\]\}$/}/
		s/^ *[0-9]+\.[0-9]{9}/T/
		/<not supported>/!{
			s/[0-9]+(\.[0-9]+)?/N/g
			s/[KMG]?\/sec/\/sec/g
			s/ *\( \+- *N% \)//g
			s/ +/ /g
			s/ $//
		}'
}

# Run perf stat and tperf stat with the same arguments; same exit status,
# same normalized stderr.
same_as_perf() {
	perf stat "$@" 2>perf.err
	perf_rc=$?
	tperf stat "$@" 2>tperf.err
	tperf_rc=$?
	test $perf_rc = $tperf_rc &&
	normalize <perf.err >expect &&
	normalize <tperf.err >actual &&
	test_cmp expect actual
}

# The rows this machine cannot count are the ones this file is about.
test_lazy_prereq NOPMU 'perf stat -x, -e cycles true 2>&1 | grep -q "^<not supported>,,cycles,"'
test_lazy_prereq PYTHON 'python3 -c "import json"'

# The whole of stderr, so no note either: scripts read perf's lines.
test_expect_success PERF 'std: the rows of perf stat true' '
	same_as_perf true &&
	grep -q " task-clock " actual
'

test_expect_success PERF,NOPMU 'std: the <not supported> rows, exactly' '
	perf stat true 2>perf.err &&
	tperf stat true 2>tperf.err &&
	grep "<not supported>" perf.err >expect &&
	grep "<not supported>" tperf.err >actual &&
	test $(wc -l <actual) -ge 4 &&
	test_cmp expect actual
'

test_expect_success PERF 'CSV and JSON: perf'"'"'s rows' '
	same_as_perf -x, true &&
	same_as_perf -x";" true &&
	same_as_perf -j true
'

test_expect_success PYTHON 'JSON: every row parses' '
	tperf stat -j true 2>err &&
	python3 -m json.tool --json-lines <err >/dev/null &&
	test $(wc -l <err) -ge 8
'

test_expect_success PERF '-r 3: std, CSV and JSON as perf' '
	same_as_perf -r 3 true &&
	same_as_perf -r 3 -x, true &&
	same_as_perf -r 3 -j true
'

test_expect_success PERF '-a: cpu-clock first, as perf' '
	same_as_perf -a sleep 0.05 &&
	grep -q " msec cpu-clock " tperf.err &&
	same_as_perf -a -x, sleep 0.05 &&
	same_as_perf -a -j sleep 0.05 &&
	same_as_perf -a -r 2 sleep 0.05
'

test_expect_success PERF '-C 0: cpu-clock too' '
	same_as_perf -C 0 sleep 0.05 &&
	same_as_perf -C 0 -x, sleep 0.05
'

test_expect_success PERF '-a with -A, --per-socket and --per-core' '
	same_as_perf -a -A sleep 0.05 &&
	same_as_perf -a -A -x, sleep 0.05 &&
	same_as_perf -a --per-socket -x, sleep 0.05 &&
	same_as_perf -a --per-core -j sleep 0.05
'

test_expect_success PERF '-a -I: every interval has every row' '
	same_as_perf -a -I 100 --interval-count 2 sleep 1 &&
	same_as_perf -a -I 100 --interval-count 2 -x, sleep 1 &&
	test $(wc -l <actual) = 16
'

test_lazy_prereq SCRIPT 'command -v script'
test_expect_success NOPMU,SCRIPT 'on a terminal a note says why they are not supported' '
	script -qec "$TPERF stat true" /dev/null >out &&
	grep -q "<not supported>      cycles" out &&
	tr -d "\r" <out | tail -1 >actual &&
	echo "tperf: note: hardware events are not supported on this machine (no PMU?); try -e cpu-clock" >expect &&
	test_cmp expect actual
'

# type:config of each attr a dry run prints (the zero fields are omitted).
attrs() {
	awk '/^perf_event_attr:/ { t = 0; c = "0x0" }
	     /^  type / { t = $2 }
	     /^  config / { c = $2 }
	     /^-+$/ && t != "" { print t ":" c; t = "" }'
}

# A cpu PMU that lists the stall events in sysfs, as some AMD ones do.
make_cpu_pmu() {
	d=sys/bus/event_source/devices/cpu &&
	mkdir -p $d/events $d/format &&
	echo 4 >$d/type &&
	echo config:0-7 >$d/format/event &&
	echo event=0xa9 >$d/events/stalled-cycles-frontend &&
	echo event=0xa8 >$d/events/stalled-cycles-backend
}

test_expect_success 'the stall events when the cpu PMU has them, in perf'"'"'s order' '
	make_cpu_pmu &&
	TPERF_SYSFS=$PWD/sys tperf stat --dry-run -vv true 2>err &&
	attrs <err >actual &&
	printf "%s\n" 1:0x1 1:0x3 1:0x4 1:0x2 0:0x7 0:0x8 0:0x0 0:0x1 0:0x4 0:0x5 >expect &&
	test_cmp expect actual &&
	rm sys/bus/event_source/devices/cpu/events/stalled-cycles-frontend &&
	TPERF_SYSFS=$PWD/sys tperf stat --dry-run -vv -a 2>err &&
	attrs <err >actual &&
	printf "%s\n" 1:0x0 1:0x3 1:0x4 1:0x2 0:0x8 0:0x0 0:0x1 0:0x4 0:0x5 >expect &&
	test_cmp expect actual
'

test_done
