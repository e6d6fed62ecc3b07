#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf evlist on real perf.data files: the same text as perf 6.1's
# `perf evlist` (oracles in tests/data/*/expected-perf-evlist.txt), refused
# files with a clear message, and files perf records on this machine.
. "$(dirname "$0")/lib.sh"

# data file -> its oracle
fixtures() {
	for f in "$DATA_DIR"/*/expected-perf-evlist.txt "$DATA_DIR"/*/*.expected-perf-evlist.txt; do
		[ -s "$f" ] || continue
		case $f in
		*/expected-perf-evlist.txt)
			d=$(dirname "$f")
			data=$(ls "$d" | grep -v -e '\.txt$' -e '\.md$')
			echo "$d/$data $f" ;;
		*)	echo "${f%.expected-perf-evlist.txt} $f" ;;
		esac
	done
}

test_expect_success 'every fixture has a data file' '
	fixtures >list &&
	test $(wc -l <list) -ge 11 &&
	while read -r data oracle; do test -f "$data" || exit 1; done <list
'

test_expect_success 'evlist -v prints what perf 6.1 printed, on every fixture' '
	fixtures | while read -r data oracle; do
		tperf evlist -v -i "$data" >out 2>err || { echo "failed: $data"; exit 1; }
		test_cmp "$oracle" out || exit 1
	done
'

test_expect_success 'evlist without -v prints the names' '
	fixtures | while read -r data oracle; do
		sed -e "s/: \(type\|size\): .*//" "$oracle" >expect &&
		tperf evlist -i "$data" >out &&
		test_cmp expect out || exit 1
	done
'

test_expect_success 'evlist reads a pipe-mode stream from stdin' '
	d=$DATA_DIR/pdc-pipe-mode-6.12 &&
	cat $d/perf.data.piped.header_features_aligned-6.12 | tperf evlist -v >out &&
	test_cmp $d/expected-perf-evlist.txt out &&
	d=$DATA_DIR/lpd-aarch64-pipe-zstd &&
	cat $d/sleep.compressed.pipe.data | tperf evlist -v -i - >out &&
	test_cmp $d/expected-perf-evlist.txt out
'

test_expect_success 'evlist -F shows the frequency or the period' '
	tperf evlist -F -i "$DATA_DIR/kdab-uprobe-tracepoint/probe.data.file" >out &&
	cat >expect <<-\EOT &&
	probe_untitled1:main: sample_period=1
	# Tip: use '"'"'perf evlist --trace-fields'"'"' to show fields for tracepoint events
	EOT
	test_cmp expect out &&
	tperf evlist -F -i "$DATA_DIR/pdc-callgraph-fp-x86_64/perf.data.callgraph-3.8" >out &&
	echo "cycles: sample_freq=4000" >expect &&
	test_cmp expect out
'

# perf 6.1 refuses it ("more recent and unsupported ABI"); the 8 bytes
# past perf 6.1's attr (config3) are ignored.  The attr is the README's
# command line: cycles:Pu at 4000 Hz, -k monotonic (use_clockid, clockid 1).
test_expect_success 'a file-mode file with a newer, larger attr (perf 6.16) is read' '
	f=$DATA_DIR/lpd-newer-abi-refused/sleep.data &&
	tperf evlist -v -i $f >out 2>err &&
	test ! -s err &&
	echo "cycles:Pu: size: 136, { sample_period, sample_freq }: 4000, sample_type: IP|TID|TIME|PERIOD, read_format: ID|LOST, disabled: 1, inherit: 1, exclude_kernel: 1, exclude_hv: 1, mmap: 1, comm: 1, freq: 1, enable_on_exec: 1, task: 1, precise_ip: 3, sample_id_all: 1, mmap2: 1, comm_exec: 1, use_clockid: 1, ksymbol: 1, bpf_event: 1, clockid: 1" >expect &&
	test_cmp expect out &&
	tperf report -i $f --stats >stats &&
	grep -x "          SAMPLE events:          7  (35.0%)" stats
'

test_expect_success 'the same attr size in pipe mode is read' '
	f=$DATA_DIR/lpd-newer-abi-refused/sleep.compressed2.pipe.data &&
	tperf evlist -v -i $f >out &&
	test_cmp $f.expected-perf-evlist.txt out
'

test_expect_success 'a missing file, a text file, an empty file are errors' '
	test_expect_code 1 tperf evlist -i nosuch 2>err &&
	echo "tperf: cannot open '"'"'nosuch'"'"': No such file or directory" >expect &&
	test_cmp expect err &&
	echo hello >text &&
	test_expect_code 1 tperf evlist -i text 2>err &&
	echo "tperf: '"'"'text'"'"' is too small to be a perf.data file (6 bytes)" >expect &&
	test_cmp expect err &&
	printf "%040d" 0 >zeros &&
	test_expect_code 1 tperf evlist -i zeros 2>err &&
	echo "tperf: '"'"'zeros'"'"' is not a perf.data file (no PERFILE2 magic)" >expect &&
	test_cmp expect err &&
	: >empty &&
	test_expect_code 1 tperf evlist -i empty 2>err &&
	echo "tperf: '"'"'empty'"'"' is empty: no perf.data header (was perf record stopped before it wrote anything?)" >expect &&
	test_cmp expect err
'

test_expect_success 'a big-endian file is refused with a clear message' '
	{ printf "2ELIFREP" && tail -c +9 "$DATA_DIR/pdc-branch-stack-lbr/perf.data.branch-4.14"; } >be.data &&
	test_expect_code 1 tperf evlist -i be.data 2>err &&
	echo "tperf: '"'"'be.data'"'"' is a big-endian perf.data file (from ppc64 or s390x?): byte-swapped files are not supported; read it on the machine that wrote it" >expect &&
	test_cmp expect err
'

test_expect_success 'a file-mode perf.data on a pipe is refused' '
	cat "$DATA_DIR/pdc-branch-stack-lbr/perf.data.branch-4.14" |
	test_expect_code 1 tperf evlist -i - 2>err &&
	echo "tperf: '"'"'-'"'"': a file-mode perf.data cannot be read from a pipe: give its name with -i" >expect &&
	test_cmp expect err
'

test_expect_success 'a perf.data directory is read through its data file' '
	mkdir dir.data &&
	cp "$DATA_DIR/kdab-lbr-callstack/perf.lbr.data" dir.data/data &&
	tperf evlist -v -i dir.data >out &&
	test_cmp "$DATA_DIR/kdab-lbr-callstack/expected-perf-evlist.txt" out
'

test_expect_success PERF 'live perf evlist (-v, -F, -g) on every fixture prints the same' '
	fixtures | while read -r data oracle; do
		for o in -v -F -g ""; do
			perf evlist $o -i "$data" >expect 2>/dev/null
			# perf 6.1 prints uninitialised attr bytes past a short
			# attr of a pipe stream (aux_sample_size: 286029424 ...):
			# only output perf prints twice alike is an oracle; the
			# stored oracles above cover every fixture.
			perf evlist $o -i "$data" >expect2 2>/dev/null
			cmp -s expect expect2 || continue
			tperf evlist $o -i "$data" >out 2>/dev/null
			test_cmp expect out || { echo "differs: evlist $o $data"; exit 1; }
		done
	done
'

# perf record on this machine (software events work without a PMU)
record() { perf record -q "$@" -- sleep 0.1 2>/dev/null; }

test_expect_success PERF 'a file perf records here: same text as perf evlist' '
	record -e cpu-clock -F 999 -o p.data &&
	perf evlist -v -i p.data >expect 2>/dev/null &&
	tperf evlist -v -i p.data >out &&
	test_cmp expect out
'

test_expect_success PERF 'pipe mode (-o -) from perf record here' '
	record -e cpu-clock -F 999 -o - >p.pipe &&
	perf evlist -v -i p.pipe >expect 2>/dev/null &&
	tperf evlist -v -i p.pipe >out &&
	test_cmp expect out &&
	cat p.pipe | tperf evlist -v >out &&
	test_cmp expect out
'

test_expect_success PERF 'zstd (-z), groups and several events from perf record here' '
	record -z -e "{cpu-clock,task-clock}",page-faults:u -F 999 -o z.data &&
	perf evlist -v -i z.data >expect 2>/dev/null &&
	tperf evlist -v -i z.data >out &&
	test_cmp expect out &&
	perf evlist -g -i z.data >expect 2>/dev/null &&
	tperf evlist -g -i z.data >out &&
	test_cmp expect out
'

test_done
