#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: alone (reads the tracepoint list, which the probe and ftrace tests change)
# tperf list against Linux perf 6.1's `perf list` on this machine: the same
# lines, section by section, in text and --raw-dump form.  perf's tool
# events (listed by tperf once its parser takes them), SDT events from
# perf's build-id cache and metrics (tperf lists neither) are left out.
. "$(dirname "$0")/lib.sh"

# perf's listing without tool events and without the metric groups
perf_list() {
	perf list "$@" 2>/dev/null | sed '/\[Tool event\]$/d; /\[SDT event\]$/d; /^$/,$d'
}
# the names of a raw dump, one a line, without tool events and metrics
raw_names() {
	tr ' ' '\n' | sed '/^\(duration_time\|user_time\|system_time\|\)$/d; /^sdt_[^:]*:/d'
}
tperf_list() {
	tperf list "$@" | sed '/\[Tool event\]$/d'
}

test_expect_success PERF 'tperf list prints the lines perf list prints' '
	perf_list >expect &&
	tperf_list >actual &&
	test_cmp expect actual
'

for s in hw sw cache pmu tracepoint; do
	test_expect_success PERF "tperf list $s is perf list $s" '
		perf_list '"$s"' >expect &&
		tperf_list '"$s"' >actual &&
		test_cmp expect actual
	'
	test_expect_success PERF "tperf list --raw-dump $s is perf's" '
		perf list --raw-dump '"$s"' 2>/dev/null | raw_names >expect &&
		tperf list --raw-dump '"$s"' | raw_names >actual &&
		test_cmp expect actual
	'
done

for g in 'sched:*' 'sched:sched_s*' clock TSC msr cs nosuchevent 'sched:'; do
	test_expect_success PERF "tperf list '$g' selects what perf selects" '
		perf_list "'"$g"'" >expect &&
		tperf_list "'"$g"'" >actual &&
		test_cmp expect actual
	'
done

test_expect_success PERF 'every tracepoint perf lists is listed, with its kind' '
	perf_list tracepoint | grep -c "\[Tracepoint event\]$" >expect &&
	tperf list -j tracepoint | grep -c "\"EventType\": \"Tracepoint event\"" >actual &&
	test_cmp expect actual
'

# perf reads sysfs from /sys only: give it the fake PMUs in a private mount
# namespace (nothing leaks out of it), and compare the sysfs aliases.  perf
# adds its own JSON events for a core PMU (names with a dot) and reads .desc
# files as aliases it cannot parse (topdown-*): those lines are left out.
test_lazy_prereq UNSHARE 'command -v unshare && [ "$(id -u)" = 0 ] && unshare -m true'
test_expect_success PERF,UNSHARE 'on a fake sysfs, tperf list pmu shows what perf shows' '
	fake=$DATA_DIR/list-fake/sysfs &&
	unshare -m sh -c "mount --bind $fake/bus/event_source/devices /sys/bus/event_source/devices &&
		perf list pmu 2>/dev/null" >perf.out &&
	grep "\[Kernel PMU event\]$" perf.out | grep -v -e "\." -e "^  topdown-" >expect &&
	TPERF_SYSFS=$fake tperf list pmu | grep "\[Kernel PMU event\]$" >actual &&
	test_cmp expect actual
'

test_done
