#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: tracefs (tracefs and uprobe_events: changed, then checked restored)
# trace.dat version 7: trace-cmd's sectioned files (zstd or uncompressed)
# shown as trace-cmd report shows them; tperf's own v7 files (zstd, zlib,
# none) read by trace-cmd and by show; corrupt v7 files refused with the
# file and the offset; the record options that choose the format.
. "$(dirname "$0")/lib.sh"

V7=$DATA_DIR/trace-cmd-v7-graph
ARM=$DATA_DIR/trappy-trace-dat-arm32

test_expect_success 'show on trace-cmd'"'"'s v7 zstd file (3 chunks per CPU) equals trace-cmd report' '
	zcat "$V7/expected-trace-cmd-report.txt.gz" >expect &&
	tperf ftrace show -i "$V7/graph-v7-zstd.dat" >out &&
	test_cmp expect out
'

test_expect_success 'report reads v7 files: event counts equal those of show' '
	tperf ftrace report -i "$V7/graph-v7-zstd.dat" --sort event >out &&
	zcat "$V7/spec.txt.gz" | awk "\$1 != \"comm\" { print \$4 }" |
		sed "s/^entry$/funcgraph_entry/; s/^exit$/funcgraph_exit/" | sort | uniq -c |
		awk "{ printf \"%s: %s\n\", \$2, \$1 }" >expect &&
	sed -n "s/^ *[0-9.]*%  *\([0-9]*\)  ftrace:\([a-z_]*\)$/\2: \1/p" out | sort >actual &&
	test_cmp expect actual
'

test_expect_success TRACECMD 'the arm32 fixture converted to v7 by trace-cmd shows as trace-cmd reports it' '
	for c in zstd none; do
		trace-cmd convert -i "$ARM/trace.dat" -o arm-$c.dat --file-version 7 --compression $c >/dev/null 2>&1 &&
		tperf ftrace show -i arm-$c.dat >out-$c &&
		head -100 out-$c >head &&
		test_cmp "$ARM/expected-trace-cmd-report-head.txt" head &&
		wc -l <out-$c >count &&
		test_cmp "$ARM/expected-trace-cmd-report-linecount.txt" count || exit 1
	done
'

test_expect_success 'a truncated v7 file is refused naming the file and the offset' '
	head -c 1000 "$V7/graph-v7-zstd.dat" >cut.dat &&
	test_expect_code 1 tperf ftrace show -i cut.dat 2>err &&
	echo "tperf: '"'"'cut.dat'"'"': truncated: the section at offset 1040 is beyond the end of the file (1000 bytes)" >expect &&
	test_cmp expect err
'

test_expect_success 'corrupt compressed metadata and CPU data are refused with their offsets' '
	cp "$V7/graph-v7-zstd.dat" meta.dat &&
	printf "\377\377\377\377" | dd of=meta.dat bs=1 seek=70 conv=notrunc 2>/dev/null &&
	test_expect_code 1 tperf ftrace show -i meta.dat 2>err &&
	echo "tperf: '"'"'meta.dat'"'"': cannot decompress (zstd) the section at offset 37" >expect &&
	test_cmp expect err &&
	cp "$V7/graph-v7-zstd.dat" data.dat &&
	printf "\377\377\377\377" | dd of=data.dat bs=1 seek=4108 conv=notrunc 2>/dev/null &&
	test_expect_code 1 tperf ftrace show -i data.dat >out 2>err &&
	echo "tperf: '"'"'data.dat'"'"': corrupt CPU data at offset 4108" >expect &&
	test_cmp expect err &&
	cp "$V7/graph-v7-zstd.dat" chunk.dat &&
	printf "\377\377\377\177" | dd of=chunk.dat bs=1 seek=4100 conv=notrunc 2>/dev/null &&
	test_expect_code 1 tperf ftrace show -i chunk.dat >out 2>err &&
	echo "tperf: '"'"'chunk.dat'"'"': truncated: chunk needs 2147483647 bytes, 48538 left at offset 4108" >expect &&
	test_cmp expect err
'

test_expect_success 'record: --compression needs version 7, unknown versions and algorithms are usage errors' '
	test_expect_code 129 tperf ftrace record --file-version 6 --compression zstd -- true 2>err &&
	echo "tperf: --compression needs --file-version 7 (version 6 files are not compressed)" >expect &&
	test_cmp expect err &&
	test_expect_code 129 tperf ftrace record --compression lz4 -- true 2>err &&
	echo "tperf: unknown compression '"'"'lz4'"'"': use zstd, zlib, any or none" >expect &&
	test_cmp expect err &&
	test_expect_code 129 tperf ftrace record --file-version 8 -- true 2>err &&
	echo "tperf: unsupported trace.dat version 8: use 6 or 7" >expect &&
	test_cmp expect err
'

test_expect_success ROOT 'record --file-version 7: trace-cmd reads zstd and uncompressed files as show does' '
	for c in zstd none; do
		tperf ftrace record --file-version 7 --compression $c -e sched:sched_switch \
			-e sched:sched_wakeup -e sched:sched_process_* -a -o r-$c.dat -- \
			sh -c "ls / >/dev/null; sleep 0.02" 2>/dev/null &&
		tperf ftrace show -i r-$c.dat >show-$c &&
		trace-cmd report -i r-$c.dat >tc-$c 2>/dev/null &&
		test_cmp tc-$c show-$c &&
		test $(wc -l <show-$c) -gt 5 || exit 1
	done &&
	trace-cmd dump --summary -i r-zstd.dat 2>/dev/null | grep -q "	zstd	\[Compression algorithm\]$" &&
	trace-cmd dump --summary -i r-none.dat 2>/dev/null | grep -q "	none	\[Compression algorithm\]$"
'

test_expect_success ROOT 'record --compression zlib: show prints the events the summary counted' '
	tperf ftrace record --compression zlib -e sched:sched_process_* -a -o z.dat -- \
		sh -c "ls / >/dev/null" 2>summary &&
	n=$(sed -n "s/^\[ tperf ftrace: \([0-9]*\) events.*/\1/p" summary) &&
	tperf ftrace show -i z.dat | sed 1d >out &&
	test $(wc -l <out) = $n &&
	grep -q "sched_process_exec: *filename=/usr/bin/ls\|sched_process_exec: *filename=/bin/ls" out
'

test_done
