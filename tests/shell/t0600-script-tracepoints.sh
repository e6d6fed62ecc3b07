#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: alone (system-wide tracepoints and tracefs)
# Tracepoints in script and report: the payloads perf 6.1's `perf script`
# prints, byte for byte, on files recorded by perf and by tperf (and each
# reads the other's tracing data), -F with trace, --list-fields, formats
# that do not parse, report's trace and field sort keys, and the messages
# about tracefs (not mounted: mounted with a note; not root: permissions).
. "$(dirname "$0")/lib.sh"

UP=$DATA_DIR/kdab-uprobe-tracepoint
EVENTS="-e sched:* -e irq:* -e raw_syscalls:* -e timer:* -e kmem:* -e syscalls:sys_enter_openat -e syscalls:sys_exit_openat -e syscalls:sys_enter_execve -e syscalls:sys_enter_write"
test_lazy_prereq TRACEFS 'ls /sys/kernel/tracing/events/sched/sched_switch/format'
test_lazy_prereq NOBODY 'command -v setpriv && id nobody'
test_lazy_prereq UNSHARE 'unshare -m --propagation private true'

# a workload with forks, execs, file I/O, timers and allocations
work() { sh -c 'for i in 1 2 3; do cat /etc/hostname >/dev/null; ls / >/dev/null; sleep 0.01; done'; }
export -f work

same_as_perf() {	# same_as_perf FILE [script options...]
	f=$1; shift
	perf script -i "$f" "$@" >expect 2>/dev/null &&
	tperf script -i "$f" "$@" >actual 2>err &&
	test -s expect && cmp expect actual && test ! -s err ||
	{ diff expect actual | head -20; cat err; return 1; }
}

test_expect_success PERF,ROOT,TRACEFS 'perf-recorded tracepoints: tperf script prints what perf script prints' '
	perf record -q -o "$TRASH/perf.data" $EVENTS -- bash -c work 2>err &&
	same_as_perf "$TRASH/perf.data" &&
	grep -q "sched:sched_process_exec: filename=/usr/bin/ls" actual &&
	grep -q "syscalls:sys_enter_openat: dfd: 0x" actual &&
	grep -q "kmem:kmalloc: call_site=" actual
'

test_expect_success PERF,ROOT,TRACEFS 'tperf-recorded tracepoints: perf script prints what tperf script prints' '
	tperf record -q -o "$TRASH/tperf.data" $EVENTS -- bash -c work 2>err &&
	same_as_perf "$TRASH/tperf.data" &&
	grep -q "sched:sched_process_fork: comm=" actual &&
	perf record -q -o sys.data -a -e sched:sched_switch,sched:sched_wakeup -e irq:* -e timer:* -- sleep 0.1 &&
	same_as_perf sys.data &&
	tperf record -q -o sys.data -a -e sched:sched_switch,sched:sched_wakeup -e irq:* -e timer:* -- sleep 0.1 &&
	same_as_perf sys.data
'

test_expect_success PERF,ROOT,TRACEFS 'pipe mode and callchains' '
	tperf record -q -o - -e sched:sched_switch -e raw_syscalls:sys_enter -- bash -c work >pipe.data &&
	perf script -i - <pipe.data >expect 2>/dev/null &&
	tperf script -i - <pipe.data >actual &&
	test -s expect && test_cmp expect actual &&
	tperf record -q -g -o "$TRASH/g.data" -e sched:sched_switch -e cpu-clock -- bash -c work &&
	same_as_perf "$TRASH/g.data"
'

test_expect_success PERF 'the uprobe fixture (file and pipe) prints as perf prints it' '
	same_as_perf $UP/probe.data.file &&
	echo "       untitled1 30594 [000] 13732.862216: probe_untitled1:main: (55d1db028560)" >expect1 &&
	head -1 actual >actual1 && test_cmp expect1 actual1 &&
	same_as_perf $UP/probe.data.stream
'

test_expect_success PERF 'sched_switch of a file from another machine (zstd) as perf prints it' '
	f=$DATA_DIR/kdab-zstd-sched-switch-dwarf/perf.data.zstd &&
	perf script -i $f 2>/dev/null | grep "sched:sched_switch:" >expect &&
	tperf script -i $f | grep "sched:sched_switch:" >actual &&
	test $(wc -l <expect) = 9 && test_cmp expect actual
'

test_expect_success PERF 'the fields: -F trace, +trace, -time, lists with trace, +ip, --ns' '
	for F in trace +trace -time comm,tid,event,trace comm,trace,ip +ip; do
		same_as_perf $UP/probe.data.file -F $F || exit 1
	done &&
	same_as_perf $UP/probe.data.file --ns &&
	tperf script -i $UP/probe.data.file -F comm,trace >actual &&
	echo "       untitled1 (55d1db028560)" >expect && test_cmp expect actual
'

test_expect_success PERF,ROOT,TRACEFS 'the fields on a recorded file: -F lists, changes and callchains' '
	for F in trace comm,tid,event,trace -cpu +ip comm,time,trace; do
		same_as_perf "$TRASH/perf.data" -F $F || exit 1
	done
'

test_expect_success '--list-fields prints the fields as the format file has them' '
	tperf script -i $UP/probe.data.file --list-fields >actual &&
	printf "%s\n" "probe_untitled1:main" \
		"	field:unsigned short common_type;	offset:0;	size:2;	signed:0;" \
		"	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;" \
		"	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;" \
		"	field:int common_pid;	offset:4;	size:4;	signed:1;" \
		"	field:unsigned long __probe_ip;	offset:8;	size:8;	signed:0;" >expect &&
	test_cmp expect actual &&
	tperf script -i $UP/probe.data.stream --list-fields=main >actual &&
	test_cmp expect actual &&
	test_expect_code 1 tperf script -i $UP/probe.data.file --list-fields=sched:nosuch 2>err &&
	echo "tperf: no tracepoint '"'"'sched:nosuch'"'"' in '"'"'$UP/probe.data.file'"'"': list them all with --list-fields" >expect &&
	test_cmp expect err
'

test_expect_success ROOT,TRACEFS '--list-fields of a recorded event equals its format file' '
	tperf script -i "$TRASH/tperf.data" --list-fields=sched:sched_switch >actual &&
	{ echo sched:sched_switch; grep "field:" /sys/kernel/tracing/events/sched/sched_switch/format |
		sed "s/^[[:space:]]*/	/"; } >expect &&
	test_cmp expect actual
'

# A format made unparsable in place (same length, so the file stays valid).
corrupt() { perl -0777 -pe "$1" $UP/probe.data.file >bad.data; cmp -s $UP/probe.data.file bad.data && return 1; return 0; }
LINE="       untitled1 30594 [000] 13732.862216: probe_untitled1:main:"

test_expect_success 'a print fmt that does not parse: raw fields and one warning' '
	corrupt "s/\"\\(%lx\\)\", REC->__probe_ip/\"(%lx)\", R#C->__probe_ip/" &&
	tperf script -i bad.data >actual 2>err &&
	echo "$LINE [FAILED TO PARSE] __probe_ip=0x55d1db028560" >expect &&
	test_cmp expect actual &&
	echo "tperf: warning: cannot parse the format of '"'"'probe_untitled1:main'"'"' in '"'"'bad.data'"'"': its samples are printed with their raw fields" >expect &&
	test_cmp expect err
'

test_expect_success 'a print fmt naming another record than REC: raw fields, no crash' '
	corrupt "s/\"\\(%lx\\)\", REC->__probe_ip/\"(%lx)\", R\/C->__probe_ip/" &&
	tperf script -i bad.data >actual 2>err &&
	echo "$LINE [FAILED TO PARSE] __probe_ip=0x55d1db028560" >expect &&
	test_cmp expect actual &&
	grep -q "^tperf: warning: cannot parse the format of .probe_untitled1:main." err
'

test_expect_success 'fields that do not parse, or no format: the raw bytes and one warning' '
	corrupt "s/print fmt: \"\\(%lx\\)\"/print fmt: (((((((/" &&
	tperf script -i bad.data >actual 2>err &&
	echo "$LINE raw=3105000082770000608502dbd155000000000000" >expect &&
	test_cmp expect actual &&
	test $(wc -l <err) = 1 &&
	corrupt "s/field:unsigned long __probe_ip;/field:unsigned long __probe_ip[/" &&
	tperf script -i bad.data >actual 2>err &&
	echo "$LINE raw=3105000082770000608502dbd155000000000000" >expect &&
	test_cmp expect actual &&
	test $(wc -l <err) = 1 && grep -q "^tperf: warning: cannot parse the format of '"'"'probe_untitled1:main'"'"'" err &&
	corrupt "s/ID: 1329/ID: 9999/" &&
	tperf script -i bad.data >actual 2>err &&
	test_cmp expect actual &&
	echo "tperf: warning: '"'"'bad.data'"'"' has no format for some tracepoint samples: they are printed as raw bytes" >expect &&
	test_cmp expect err
'

same_report() {	# same_report FILE SORT
	perf report -i "$1" --stdio --sort "$2" 2>/dev/null | grep -v "^# (Tip" >expect &&
	tperf report -i "$1" --stdio --sort "$2" | grep -v "^# (Tip" >actual &&
	test_cmp expect actual
}

test_expect_success PERF,ROOT,TRACEFS 'report --sort trace and field keys print what perf report prints' '
	perf record -q -o sw.data -a -e sched:sched_switch -e sched:sched_wakeup -- sleep 0.1 &&
	for f in sw.data "$TRASH/perf.data"; do
		for k in trace comm,trace trace,comm next_pid sched:sched_switch.next_comm,prev_pid \
			 next_comm,comm prev_state,trace pid,comm; do
			same_report $f $k || exit 1
		done
	done &&
	same_report "$TRASH/perf.data" call_site,bytes_req &&
	same_report "$TRASH/perf.data" kmem:kmalloc.gfp_flags &&
	same_report "$TRASH/perf.data" irq,trace &&
	for k in trace comm,trace; do	# with a software event: "N/A"
		perf report -i "$TRASH/g.data" --stdio --no-children -g none --sort $k 2>/dev/null |
			grep -v "^# (Tip" >expect &&
		tperf report -i "$TRASH/g.data" --stdio --no-children -g none --sort $k |
			grep -v "^# (Tip" >actual &&
		grep -q "N/A" actual && test_cmp expect actual || exit 1
	done
'

test_expect_success PERF 'report trace keys on the uprobe fixture' '
	same_report $UP/probe.data.file trace &&
	same_report $UP/probe.data.file __probe_ip &&
	same_report $UP/probe.data.file probe_untitled1:main.__probe_ip,comm &&
	# perf 6.1 refuses field keys in pipe mode (it has no formats yet): tperf has them
	tperf report -i $UP/probe.data.stream --stdio --sort probe_untitled1:main.__probe_ip,comm >out &&
	grep "^   100.00%" out >actual &&
	echo "   100.00%      0x55cc51d16560  untitled1" >expect &&
	test_cmp expect actual
'

test_expect_success 'report: a field no event has is perf'"'"'s usage error' '
	test_expect_code 129 tperf report -i $UP/probe.data.file --stdio --sort next_pid >out 2>err &&
	test ! -s out &&
	grep -q "^error: unknown sort key in '"'"'next_pid'"'"'" err
'

test_expect_success UNSHARE,ROOT,TRACEFS 'tracefs not mounted: record mounts it, with a note' '
	unshare -m --propagation private sh -c "
		for m in \$(awk \"\\\$3 == \\\"tracefs\\\" { print \\\$2 }\" /proc/mounts | sort -r); do
			umount \$m || exit 1
		done
		! grep -q tracefs /proc/mounts &&
		\"$TPERF\" record -o um.data -e sched:sched_process_exec -- true 2>err &&
		grep -q tracefs /proc/mounts" &&
	echo "tperf: note: tracefs was not mounted: mounted it at /sys/kernel/tracing" >expect &&
	grep -v "^\[ tperf record:" err >actual &&
	test_cmp expect actual &&
	tperf script -i um.data >actual &&
	grep -q "sched:sched_process_exec: filename=/usr/bin/true pid=" actual
'

test_lazy_prereq TRACEFS_PRIVATE 'test "$(stat -c %a /sys/kernel/tracing)" != 755'
test_expect_success NOBODY,ROOT,TRACEFS,TRACEFS_PRIVATE 'not root: a clear message about permissions' '
	test_expect_code 129 setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$TPERF" record -o /dev/null -e sched:sched_switch -- true 2>err &&
	cat >expect <<-EOT &&
	tperf: event syntax error: '"'"'sched:sched_switch'"'"'
	                            ^ no permission to read tracefs ('"'"'/sys/kernel/tracing'"'"'), cannot find tracepoint '"'"'sched:sched_switch'"'"'
	run as root, or as root: mount -o remount,mode=755 /sys/kernel/tracing
	EOT
	test_cmp expect err
'

test_done
