#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What tperf record writes besides the kernel's records, against perf 6.1
# recording the same command line: ID_INDEX, EVENT_UPDATE, THREAD_MAP,
# CPU_MAP, the workload's "perf-exec" COMM and FINISHED_INIT before the
# kernel's records; the feature sections (the same set, and the same bytes
# where perf's are deterministic: PMU_MAPPINGS, GROUP_DESC, CACHE,
# MEM_TOPOLOGY, BPF_PROG_INFO, BPF_BTF, CPU_PMU_CAPS, PMU_CAPS); the
# vDSO's build-id, written and cached whether a sample hit it or not; and
# perf reading every file without a word on stderr.
. "$(dirname "$0")/lib.sh"

test_lazy_prereq EVENTS 'test -e /proc/sys/kernel/perf_event_paranoid'

cases='-e cpu-clock
-e cpu-clock:u
-e page-faults
-e task-clock -c 100000
-e {cpu-clock,task-clock}
-e cpu-clock,{task-clock,page-faults}
-e cpu-clock -C 0
-e cpu-clock -a
-e cpu-clock -o -'

# record case $1 with perf (p.data) and tperf (t.data) running "sleep 0.1";
# once per case: the tests below share the recordings (kept in $TRASH)
rec() {
	local k
	k=$TRASH/rec.$(echo "$1" | md5sum | cut -c1-12)
	if ! [ -f "$k.t" ]; then
		case $1 in
		*"-o -") perf record -q ${1% -o -} -o - -- sleep 0.1 >"$k.p" 2>/dev/null &&
			 tperf record -q ${1% -o -} -o - -- sleep 0.1 >"$k.t" ;;
		*) perf record -q $1 -o "$k.p" -- sleep 0.1 2>/dev/null &&
		   tperf record -q $1 -o "$k.t" -- sleep 0.1 ;;
		esac || { rm -f "$k.p" "$k.t"; return 1; }
	fi
	cp "$k.p" p.data && cp "$k.t" t.data
}

# The records before FINISHED_INIT as perf -D shows them, ids, pids and
# offsets masked; with -a the synthesized tasks (MMAP*, COMM, FORK) are
# left out (the machine's processes change between the two recordings),
# and so are a pipe's FEATURE records (tperf pads them to 8 bytes, as
# perf 6.12 does)
head_records() {
	perf script -D -i "$1" 2>/dev/null | sed -n "1,/PERF_RECORD_FINISHED_INIT/p" |
	grep -E "^([0-9]+ )+0x[0-9a-f]+ \[|^ \.\.\. |^\.\.\. " | grep -v "PERF_RECORD_FEATURE$" |
	if [ "$2" = all ]; then grep -Ev "PERF_RECORD_(MMAP|MMAP2|COMM|FORK)[:( ]"; else cat; fi |
	sed -E "s/^([0-9]+ )+0x[0-9a-f]+ /X /; s/(id|tid|thread|id:):? *[0-9-]+/\1 N/g;
		s/(COMM[^:]*: [a-z-]+:)[0-9]+\/[0-9]+/\1P\/P/"
}

# The feature sections of each file-mode perf.data named, into FILE.feat:
# "bit size hex" per line (one python for all: its start-up is slow here)
features() {
	python3 - "$@" <<-\EOF
	import struct, sys
	for name in sys.argv[1:]:
	    f = open(name, 'rb').read()
	    do, dsz = struct.unpack_from('<QQ', f, 40)
	    words = struct.unpack_from('<4Q', f, 72)
	    bits = [i for i in range(256) if words[i // 64] >> (i % 64) & 1]
	    with open(name + '.feat', 'w') as out:
	        for k, b in enumerate(bits):
	            o, s = struct.unpack_from('<QQ', f, do + dsz + 16 * k)
	            print(b, s, f[o:o + s].hex(), file=out)
	EOF
}

test_expect_success EVENTS,PERF 'the records before the kernel'"'"'s are perf'"'"'s' '
	echo "$cases" | while read -r c; do
		rec "$c" || exit 1
		case $c in *-a*|*-C*) w=all ;; *) w=task ;; esac
		head_records p.data $w >expect &&
		head_records t.data $w >actual &&
		grep -q FINISHED_INIT expect &&
		test_cmp expect actual || { echo "case: $c"; exit 1; }
	done
'

test_expect_success EVENTS,PERF 'the same feature sections, the same bytes where perf'"'"'s are fixed' '
	echo "$cases" | grep -v -- "-o -" | while read -r c; do
		rec "$c" || exit 1
		features p.data t.data &&
		cut -d" " -f1 p.data.feat >expect &&
		cut -d" " -f1 t.data.feat >actual &&
		test_cmp expect actual &&
		grep -E "^(16|17|20|22|25|26|28|31) " p.data.feat >expect &&
		grep -E "^(16|17|20|22|25|26|28|31) " t.data.feat >actual &&
		test_cmp expect actual || { echo "case: $c"; exit 1; }
	done
'

test_expect_success EVENTS,PERF 'perf report --header-only -I shows the same machine' '
	rec "-e {cpu-clock,task-clock}" &&
	filter="captured on|data size|feat offset|perf version|cmdline|event :|meminfo|sample" &&
	perf report --header-only -I -i p.data | grep -Ev "$filter" >expect &&
	perf report --header-only -I -i t.data | grep -Ev "$filter" >actual &&
	test_cmp expect actual
'

test_expect_success EVENTS,PERF 'perf report --group shows a group tperf recorded' '
	tperf record -q -e "{cpu-clock,task-clock}" -o t.data -- sleep 0.1 &&
	perf report --group --stdio -i t.data 2>err | grep "^# Samples:" >actual &&
	grep -q "of events '"'"'anon group { cpu-clock, task-clock }'"'"'$" actual &&
	test_must_be_empty() { test ! -s "$1" || { cat "$1"; return 1; }; } &&
	test_must_be_empty err
'

test_expect_success EVENTS,PERF 'perf reads every file without a word on stderr; tperf reads both' '
	echo "$cases" | while read -r c; do
		rec "$c" || exit 1
		for cmd in "report --stdio" script "report --stats"; do
			perf $cmd -i t.data >/dev/null 2>err &&
			if test -s err; then echo "case: $c: perf $cmd"; cat err; exit 1; fi
		done &&
		for f in p.data t.data; do
			perf report --stats -i $f >expect &&
			tperf report --stats -i $f >actual &&
			test_cmp expect actual || { echo "case: $c, $f"; exit 1; }
		done
	done
'

test_expect_success EVENTS 'the workload is "perf-exec" until its exec, as in perf'"'"'s files' '
	tperf record -q -e cpu-clock -o t.data -- sleep 0.1 &&
	tperf script --show-task-events -i t.data 2>/dev/null |
	sed -n "s/.*PERF_RECORD_COMM\(.*\): \([a-z-]*\):.*/\2\1/p" | head -2 >actual &&
	printf "perf-exec\nsleep exec\n" >expect &&
	test_cmp expect actual
'

test_expect_success EVENTS,PERF 'pipe mode: perf report --header prints the header of tperf'"'"'s stream' '
	tperf record -q -e cpu-clock -o - -- true >t.data &&
	perf report --header --stdio -i t.data >out 2>err &&
	test_must_be_empty() { test ! -s "$1" || { cat "$1"; return 1; }; } &&
	test_must_be_empty err &&
	grep -x "# hostname : $(uname -n)" out &&
	grep -q "^# time of first sample : 0.000000$" out
'

# A sysfs with caches and PMU caps this machine lacks (TPERF_SYSFS): two
# CPUs with their own L1 caches and a shared L2, a "cpu" PMU with a cap
# and an "msr" PMU with one
fake_sysfs() {
	mkdir -p fs/devices/system/cpu fs/bus/event_source/devices &&
	for f in online possible present; do
		echo 0-1 >fs/devices/system/cpu/$f || return 1
	done &&
	for c in 0 1; do
		for i in 0 1 2; do
			d=fs/devices/system/cpu/cpu$c/cache/index$i &&
			mkdir -p $d &&
			echo $((i == 2 ? 2 : 1)) >$d/level &&
			echo 64 >$d/coherency_line_size &&
			echo 64 >$d/number_of_sets &&
			echo 8 >$d/ways_of_associativity &&
			case $i in 0) echo Data ;; 1) echo Instruction ;; 2) echo Unified ;; esac >$d/type &&
			case $i in 2) echo 1024K ;; *) echo 32K ;; esac >$d/size &&
			case $i in 2) echo 0-1 ;; *) echo $c ;; esac >$d/shared_cpu_list || return 1
		done
	done &&
	for p in software:1 cpu:4 msr:9; do
		mkdir -p fs/bus/event_source/devices/${p%:*}/caps &&
		echo ${p#*:} >fs/bus/event_source/devices/${p%:*}/type || return 1
	done &&
	echo skylake >fs/bus/event_source/devices/cpu/caps/pmu_name &&
	echo 3 >fs/bus/event_source/devices/msr/caps/max_precise
}

test_expect_success EVENTS,PERF 'perf reads the CACHE, CPU_PMU_CAPS and PMU_CAPS sections tperf writes' '
	fake_sysfs &&
	TPERF_SYSFS=$PWD/fs tperf record -q -e cpu-clock -o t.data -- true &&
	perf report --header-only -I -i t.data >out 2>err &&
	test_must_be_empty() { test ! -s "$1" || { cat "$1"; return 1; }; } &&
	test_must_be_empty err &&
	sed -n "/^# CPU cache info:/,/^#  L2/p; /capabilities/p" out >actual &&
	cat >expect <<-\EOF &&
	# CPU cache info:
	#  L1 Data                 32K [0]
	#  L1 Instruction          32K [0]
	#  L1 Data                 32K [1]
	#  L1 Instruction          32K [1]
	#  L2 Unified            1024K [0-1]
	# cpu pmu capabilities: pmu_name=skylake
	# msr pmu capabilities: max_precise=3
	EOF
	test_cmp expect actual
'

test_expect_success EVENTS,PERF 'the vDSO'"'"'s build-id is written and cached, hit or not, as perf' '
	mkdir p t &&
	HOME=$PWD/p perf record -q -e cpu-clock -o p.data -- true &&
	HOME=$PWD/t tperf record -q -e cpu-clock -o t.data -- true &&
	perf buildid-list -i p.data | grep " \[vdso\]$" >expect &&
	perf buildid-list -i t.data | grep " \[vdso\]$" >actual &&
	test -s expect &&
	test_cmp expect actual &&
	id=$(cut -d" " -f1 expect) &&
	cmp "p/.debug/[vdso]/$id/vdso" "t/.debug/[vdso]/$id/vdso" &&
	readlink "p/.debug/.build-id/${id:0:2}/${id:2}" >expect &&
	readlink "t/.debug/.build-id/${id:0:2}/${id:2}" >actual &&
	test_cmp expect actual
'

test_done
