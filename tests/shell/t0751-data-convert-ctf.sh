#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf data convert --to-ctf: babeltrace 1.5 and babeltrace2 read tperf's
# CTF with no warning and print the same events, fields and timestamps as
# for perf 6.1's `perf data convert --to-ctf` of the same file (recorded
# here: software events with callchains, tracepoints with fields, --all's
# side-band records, --tod; and the fixtures); the output directory rules
# and the errors.
. "$(dirname "$0")/lib.sh"

test_lazy_prereq BABELTRACE 'command -v babeltrace' 'babeltrace 1.5 (Debian babeltrace) is not installed'
test_lazy_prereq BABELTRACE2 'command -v babeltrace2' 'babeltrace2 (Debian babeltrace2) is not installed'

# $1: babeltrace or babeltrace2; $2: the data file, then convert's options.
# Both tools' traces, read by $1: the same text, and nothing on stderr.
same_ctf_as_perf() {
	reader=$1 f=$2; shift 2
	rm -rf p.ctf t.ctf &&
	perf data convert -i "$f" --to-ctf p.ctf "$@" >/dev/null 2>&1 &&
	tperf data convert -i "$f" --to-ctf t.ctf "$@" 2>err ||
		{ echo "conversion failed: $f $*"; cat err; return 1; }
	$reader p.ctf >expect 2>/dev/null &&
	$reader t.ctf >actual 2>warnings &&
	test_cmp expect actual &&
	test_cmp /dev/null warnings &&
	test -s actual
}

workload='i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; ls / >/dev/null'

test_expect_success PERF 'record the files' '
	perf record -q -e task-clock -c 100000 -g -o "$TRASH/cc.data" -- sh -c "$workload" 2>/dev/null &&
	perf record -q -e cpu-clock,task-clock -c 200000 -k mono -o "$TRASH/two.data" \
		-- sh -c "$workload" 2>/dev/null &&
	tperf record -q -e task-clock -c 100000 -g -o "$TRASH/tperf.data" -- sh -c "$workload" 2>/dev/null &&
	tperf record -q -e task-clock -c 200000 -k mono -o "$TRASH/tperf-mono.data" \
		-- sh -c "$workload" 2>/dev/null
'

test_expect_success PERF,ROOT 'record tracepoints system-wide' '
	perf record -q -a -g -e sched:sched_switch -e syscalls:sys_enter_openat \
		-e sched:sched_process_exec -o "$TRASH/tp.data" -- sh -c "$workload" 2>/dev/null
'

for reader in babeltrace babeltrace2; do
	pre=BABELTRACE
	[ $reader = babeltrace2 ] && pre=BABELTRACE2

	test_expect_success PERF,$pre "$reader: software events, callchains, --all, --tod" '
		same_ctf_as_perf $reader "$TRASH/cc.data" &&
		same_ctf_as_perf $reader "$TRASH/cc.data" --all &&
		grep -q "perf_comm: " actual &&
		same_ctf_as_perf $reader "$TRASH/two.data" --tod &&
		same_ctf_as_perf $reader "$TRASH/tperf.data" --all &&
		same_ctf_as_perf $reader "$TRASH/tperf-mono.data" --tod
	'

	test_expect_success PERF,ROOT,$pre "$reader: tracepoint fields by name, a stream per CPU" '
		same_ctf_as_perf $reader "$TRASH/tp.data" --all &&
		grep -q "prev_comm = " actual &&
		grep -q "filename = " actual
	'

	test_expect_success PERF,$pre "$reader: the fixtures, with --all" '
		n=0 &&
		for f in dwarf-inline/thr.data kdab-dwarf-unwind-x86_64/perf.data \
			 kdab-lbr-callstack/perf.lbr.data kdab-uprobe-tracepoint/probe.data.file \
			 kdab-zstd-sched-switch-dwarf/perf.data.zstd lost-records/perf.data \
			 pdc-armv7-32bit/perf.data.armv7-3.4 pdc-branch-stack-lbr/perf.data.branch-4.14 \
			 pdc-callgraph-fp-x86_64/perf.data.callgraph-3.8 \
			 rcppthread-perf-mem-record/perf.data; do
			same_ctf_as_perf $reader "$DATA_DIR/$f" --all || exit 1
			n=$((n + 1))
		done &&
		test $n = 10
	'
done

test_expect_success BABELTRACE 'the tracepoint fields of a fixture, as babeltrace prints them' '
	tperf data convert -i "$DATA_DIR/kdab-zstd-sched-switch-dwarf/perf.data.zstd" --to-ctf z.ctf 2>/dev/null &&
	babeltrace z.ctf >out &&
	grep -m1 "sched:sched_switch" out | sed "s/perf_callchain = \[.*\], common_type/perf_callchain = [...], common_type/" >actual &&
	echo "[01:05:09.100226436] (+0.000001012) sched:sched_switch: { cpu_id = 17 }, { perf_ip = 0xFFFFFFFFAE5A3721, perf_tid = 56092, perf_pid = 56089, perf_id = 6371, perf_period = 1, perf_data_src = 84410401, perf_callchain_size = 8, perf_callchain = [...], common_type = 317, common_flags = 1, common_preempt_count = 3, common_pid = 56092, prev_comm = \"parallel_static\", prev_pid = 56092, prev_prio = 120, prev_state = 2, next_comm = \"swapper/17\", next_pid = 0, next_prio = 120 }" >expect &&
	test_cmp expect actual
'

test_expect_success '-v counts the samples of each event and the events of each stream' '
	tperf data convert -v -i "$DATA_DIR/lost-records/perf.data" --to-ctf v.ctf 2>err &&
	grep "^  " err >actual &&
	n=$(grep -c "^  .*: [0-9]* samples$" actual) &&
	test $n -ge 1 &&
	grep -q "^  perf_stream_[0-9]*: [0-9]* events$" actual
'

test_expect_success 'a non-empty directory needs -f, which replaces the CTF files only' '
	f=$DATA_DIR/kdab-lbr-callstack/perf.lbr.data &&
	mkdir d.ctf && echo x >d.ctf/perf_stream_9 && echo keep >d.ctf/notes.txt &&
	test_expect_code 1 tperf data convert -i $f --to-ctf d.ctf 2>err &&
	echo "tperf: cannot write the CTF trace in '"'"'d.ctf'"'"': the directory is not empty; use -f/--force to replace the CTF files in it" >expect &&
	test_cmp expect err &&
	tperf data convert -f -i $f --to-ctf d.ctf 2>/dev/null &&
	(cd d.ctf && ls) >actual &&
	printf "metadata\nnotes.txt\nperf_stream_0\n" >expect &&
	test_cmp expect actual
'

test_expect_success BABELTRACE 'tperf record -k writes the clock data --tod needs: dates of today' '
	d1=$(date -u +%Y-%m-%d) &&
	tperf record -q -e task-clock -k mono -o mono.data -- sh -c "$workload" 2>/dev/null &&
	d2=$(date -u +%Y-%m-%d) &&
	tperf data convert --tod -i mono.data --to-ctf mono.ctf 2>/dev/null &&
	TZ=UTC babeltrace --clock-date mono.ctf >out &&
	test -s out &&
	! grep -v -e "^\[$d1 " -e "^\[$d2 " out
'

test_expect_success 'a directory that cannot be made is named, with the reason' '
	test_expect_code 1 tperf data convert -i "$DATA_DIR/lost-records/perf.data" --to-ctf nodir/x.ctf 2>err &&
	echo "tperf: cannot create the CTF directory '"'"'nodir/x.ctf'"'"': No such file or directory" >expect &&
	test_cmp expect err
'

test_expect_success '--tod needs clock data, pipe mode is refused' '
	f=$DATA_DIR/lost-records/perf.data &&
	test_expect_code 1 tperf data convert --tod -i $f --to-ctf tod.ctf 2>err &&
	echo "tperf: cannot convert the time of '"'"'$f'"'"' to wall-clock time (--tod): the file has no clock data; record with -k/--clockid" >expect &&
	test_cmp expect err &&
	test_path_is_missing tod.ctf &&
	p=$DATA_DIR/kdab-uprobe-tracepoint/probe.data.stream &&
	test_expect_code 1 tperf data convert -i $p --to-ctf pipe.ctf 2>err &&
	echo "tperf: cannot convert the pipe-mode data of '"'"'$p'"'"' to CTF: its events are known only as they come; save it to a file with '"'"'tperf record -o FILE'"'"'" >expect &&
	test_cmp expect err
'

test_done
