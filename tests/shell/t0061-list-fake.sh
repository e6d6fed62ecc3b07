#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf list on a made-up machine (tests/data/list-fake, see its README):
# whole outputs against expected files, the section and glob arguments,
# --raw-dump, JSON, descriptions, the pager layout and the errors.
. "$(dirname "$0")/lib.sh"

FAKE=$DATA_DIR/list-fake
export TPERF_SYSFS=$FAKE/sysfs TPERF_TRACEFS=$FAKE/tracefs TPERF_LIST_ALL=1 COLUMNS=80

test_expect_success 'the whole list is the expected one' '
	tperf list >actual &&
	test_cmp "$FAKE/expected-all.txt" actual
'

test_expect_success 'without TPERF_LIST_ALL only events this kernel opens are listed' '
	TPERF_LIST_ALL= tperf list sw >actual &&
	grep -c "\[Software event\]$" actual >n &&
	test "$(cat n)" -ge 9 &&
	TPERF_LIST_ALL= tperf list pmu >actual &&
	tperf list pmu >expect &&
	test_cmp expect actual
'

test_expect_success 'list sw: the software events, sorted, with their aliases' '
	tperf list sw >actual &&
	sed -n "/\[Software event\]$/p" "$FAKE/expected-all.txt" >expect &&
	test_cmp expect actual &&
	grep -qx "  context-switches OR cs  *\[Software event\]" actual
'

test_expect_success 'list hw, cache and pmu are their sections of the whole list' '
	for s in "hw:Hardware event" "cache:Hardware cache event"; do
		tperf list "${s%%:*}" >actual &&
		grep "\[${s#*:}\]$" "$FAKE/expected-all.txt" >expect &&
		test_cmp expect actual || exit 1
	done &&
	tperf list pmu >actual &&
	sed -n "/^  cycles-ct/,/^  rNNN/p" "$FAKE/expected-all.txt" | sed "\$d" >expect &&
	test_cmp expect actual
'

test_expect_success "list 'sched:*' and 'sys:glob' select tracepoints" '
	tperf list "sched:*" >actual &&
	cat >expect <<-\EOT &&
	  sched:sched_switch                                 [Tracepoint event]
	  sched:sched_wakeup                                 [Tracepoint event]
	EOT
	test_cmp expect actual &&
	tperf list "sys*:sys_e*" "f*:*" >actual &&
	cat >expect <<-\EOT &&
	  syscalls:sys_enter_openat                          [Tracepoint event]
	  syscalls:sys_exit_openat                           [Tracepoint event]
	  fib6:fib6_table_lookup                             [Tracepoint event]
	  fib:fib_table_lookup                               [Tracepoint event]
	  ftrace:function                                    [Tracepoint event]
	  ftrace:print                                       [Tracepoint event]
	EOT
	test_cmp expect actual
'

test_expect_success 'a word lists every event containing it; PMU names in any case' '
	tperf list LOAD >actual &&
	cat >expect <<-\EOT &&
	  mem-loads OR cpu/mem-loads/                        [Kernel PMU event]
	EOT
	test_cmp expect actual &&
	tperf list open >actual &&
	cat >expect <<-\EOT &&
	  syscalls:sys_enter_openat                          [Tracepoint event]
	  syscalls:sys_exit_openat                           [Tracepoint event]
	EOT
	test_cmp expect actual
'

test_expect_success 'a glob that matches nothing prints nothing and succeeds' '
	tperf list nosuchevent >actual &&
	test_cmp /dev/null actual &&
	tperf list "nosuch:*" >actual &&
	test_cmp /dev/null actual
'

test_expect_success '--raw-dump prints the names on one line' '
	tperf list --raw-dump >actual &&
	test_cmp "$FAKE/expected-raw-dump.txt" actual &&
	printf "msr/aperf/ msr/tsc/ " >expect &&
	tperf list --raw-dump msr >actual &&
	test_cmp expect actual &&
	printf "cpu/mem-loads,ldlat=?/ " >expect &&
	tperf list --raw-dump mem-loads >actual &&
	test_cmp expect actual
'

test_expect_success '-j prints the expected JSON, which parses' '
	tperf list -j >actual &&
	test_cmp "$FAKE/expected-all.json" actual &&
	python3 -m json.tool actual >/dev/null &&
	python3 -c "
import json, sys
ev = json.load(open(\"actual\"))
text = [l for l in open(\"$FAKE/expected-all.txt\") if l.startswith(\"  \") and not l.startswith(\"   \")]
assert len(ev) == len(text), (len(ev), len(text))
keys = {\"Unit\", \"EventName\", \"EventAlias\", \"ScaleUnit\", \"EventType\", \"BriefDescription\", \"Encoding\"}
for e in ev:
    assert set(e) <= keys and \"EventName\" in e and \"EventType\" in e, e
" &&
	tperf list -j nosuchevent >actual &&
	printf "[\n]\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'descriptions wrap to COLUMNS; --no-desc puts them on one line' '
	COLUMNS=60 tperf list pmu | sed -n "/^  topdown-slots/,\$p" >actual &&
	printf "  %-50s\n" topdown-slots >expect &&
	cat >>expect <<-\EOT &&
	       [Issue slots: the number of slots the front end could
	        deliver to the back end, one per cycle and thread,
	        counted while the core is not halted]
	EOT
	test_cmp expect actual &&
	tperf list --no-desc pmu | tail -2 >actual &&
	cat >expect <<-\EOT &&
	  topdown-retiring                                   [Kernel PMU event]
	  topdown-slots                                      [Kernel PMU event]
	EOT
	test_cmp expect actual
'

test_expect_success '--long-desc prints the descriptions, even after --no-desc' '
	tperf list pmu >expect &&
	tperf list --no-desc -v pmu >actual &&
	test_cmp expect actual &&
	tperf list --long-desc pmu >actual &&
	test_cmp expect actual
'

test_expect_success 'powercap energy events stand in for a missing power PMU' '
	TPERF_SYSFS=$FAKE/sysfs-powercap tperf list pmu >actual &&
	test_cmp "$FAKE/expected-powercap.txt" actual &&
	TPERF_SYSFS=$FAKE/sysfs-powercap tperf list -j energy-pkg >actual &&
	grep -q "\"EventType\": \"Powercap event\"" actual
'

test_lazy_prereq SCRIPT 'command -v script'
test_expect_success SCRIPT 'in a pager: a heading and blank lines between sections' '
	script -q -c "TPERF_PAGER=\"sed -n p\" $TPERF list sw pmu tracepoint" /dev/null |
		tr -d "\r" >actual &&
	{
		printf "\nList of pre-defined events (to be used in -e or -M):\n\n" &&
		tperf list sw && echo &&
		tperf list pmu && echo &&
		tperf list tracepoint && echo
	} >expect &&
	test_cmp expect actual
'

test_expect_success 'output to a full device fails with a message' '
	test_must_fail tperf list >/dev/full 2>err &&
	echo "tperf: cannot write output: No space left on device" >expect &&
	test_cmp expect err
'

test_expect_success 'usage errors exit 129' '
	test_expect_code 129 tperf list --raw-dump -j 2>err &&
	head -1 err >first &&
	echo "error: options '"'"'--raw-dump'"'"' and '"'"'--json'"'"' cannot be used together" >expect &&
	test_cmp expect first &&
	test_expect_code 129 tperf list --frob 2>/dev/null
'

test_expect_success 'an unreadable tracefs is a warning when tracepoints are asked for' '
	TPERF_TRACEFS=$PWD/none tperf list tracepoint >out 2>err &&
	test_cmp /dev/null out &&
	echo "tperf: warning: cannot list tracepoints: cannot read '"'"'$PWD/none/events'"'"': No such file or directory" >expect &&
	test_cmp expect err &&
	TPERF_TRACEFS=$PWD/none tperf list >out 2>err &&
	test_cmp /dev/null err &&
	grep -q "Hardware breakpoint" out
'

test_done
