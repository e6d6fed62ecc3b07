#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf stat record and stat report: the perf.data of a counting run
# (file and pipe mode, per task, per CPU with -a -A, intervals with -I,
# --per-thread with the threads' names)
# and its report, against perf 6.1 both ways: perf stat report reads
# tperf's files as tperf does, tperf stat report prints what perf's does
# for perf's files (-x, -j, -A, --per-core, --per-socket), the records
# and the header's features are perf's, record by record, and script
# shows a stat file's rounds (and -D its records) as perf script.
. "$(dirname "$0")/lib.sh"

EV=task-clock,page-faults

# the run's own lines that a report has not: user and sys times
run_lines() {
	sed -e '/seconds user$/d' -e '/seconds sys$/d' "$@" | cat -s
}

# the records of `perf report -D`, without what changes from run to run
# (ids, counts, times, pids)
records() {
	perf report -D -i "$1" 2>&1 | grep -v -e '^\.' -e '^$' -e '^0x' |
		sed -E -e 's/id [0-9]+/id N/' -e 's/value .*/value N/' -e 's/time [0-9]+/time T/' \
			-e 's/thread: [0-9]+/thread: P/' -e 's/id: +[0-9]+/id: N/'
}

# the attrs of a pipe's HEADER_ATTR records, in hex (perf leaves
# sample_type IDENTIFIER out of stat record's stream)
pipe_attrs() {
	python3 - "$1" <<-\EOF
	import struct, sys
	d = open(sys.argv[1], "rb").read()
	p = 16
	while p + 8 <= len(d):
	    typ, misc, size = struct.unpack_from("<IHH", d, p)
	    if typ != 64 or size < 8:
	        break
	    asz = struct.unpack_from("<I", d, p + 12)[0]
	    print(d[p + 8:p + 8 + asz].hex())
	    p += size
	EOF
}

# perf's header lines, what changes from run to run left out
header() {
	perf report --header-only -i "$1" 2>&1 |
		sed -E -e '/^# (captured on|perf version|cmdline) /d' -e 's/id = \{ [0-9, ]+ \}/id = { N }/'
}

test_expect_success 'stat record writes perf.data, prints the counts, keeps the old file as .old' '
	tperf stat record -e $EV -- sleep 0.05 2>err1 &&
	test -s perf.data &&
	grep -q "^ Performance counter stats for '"'"'sleep 0.05'"'"':" err1 &&
	grep -q " msec task-clock " err1 &&
	cp perf.data first &&
	tperf stat record -e $EV -- true 2>err2 &&
	cmp first perf.data.old &&
	test -s perf.data
'

test_expect_success 'stat report prints the counts the run printed' '
	tperf stat record -o r.data -e $EV,context-switches -- sleep 0.05 2>run &&
	tperf stat report -i r.data 2>rep >out &&
	test_cmp /dev/null out &&
	run_lines run | sed 1,2d >expect &&
	sed 1,2d rep >actual &&
	test_cmp expect actual &&
	grep -q "^ Performance counter stats for '"'"'.*tperf stat record -o r.data -e $EV,context-switches -- sleep 0.05'"'"':$" rep
'

test_expect_success 'stat report -x, and -j of a recording: the run'"'"'s CSV and JSON' '
	tperf stat record -o r.data -e $EV -- true 2>/dev/null &&
	tperf stat -x, report -i r.data 2>csv &&
	tperf stat -j report -i r.data 2>json &&
	cut -d, -f3 csv >events &&
	printf "task-clock\npage-faults\n" >expect &&
	test_cmp expect events &&
	grep -c "^{\"counter-value\" : " json >n &&
	echo 2 >expect &&
	test_cmp expect n
'

test_expect_success 'stat record -I: a report prints each interval, in time order' '
	tperf stat record -o i.data -I 20 -e $EV -- sleep 0.1 2>run &&
	tperf stat report -i i.data 2>rep &&
	grep -q "^#           time             counts unit events$" rep &&
	awk "/task-clock/ { print \$1 }" rep >times &&
	test $(wc -l <times) -ge 3 &&
	sort -n times | test_cmp times -
'

test_expect_success 'stat record -o -: pipe mode, read back from stdin' '
	tperf stat record -o - -e $EV -- true >p.pipe 2>/dev/null &&
	tperf stat report -i - <p.pipe 2>rep &&
	grep -q "^ Performance counter stats for '"'"'pipe'"'"':$" rep &&
	grep -q " task-clock " rep
'

test_expect_success 'stat record refuses -r; stat report of no file fails' '
	test_expect_code 255 tperf stat record -r 2 -o x.data -e task-clock true 2>err &&
	echo "tperf: cannot use -r with stat record" >expect &&
	test_cmp expect err &&
	test_path_is_missing x.data &&
	test_expect_code 255 tperf stat report -i nosuch.data 2>err &&
	grep -q "nosuch.data" err
'

test_expect_success 'stat report refuses a STAT of an id no event of the file has' '
	tperf stat record -o r.data -e $EV -- true 2>/dev/null &&
	python3 - r.data <<-\EOF &&
	import struct, sys
	d = bytearray(open(sys.argv[1], "rb").read())
	off, size = struct.unpack_from("<QQ", d, 40)
	end, p = off + size, off
	while p < end:
	    typ, misc, sz = struct.unpack_from("<IHH", d, p)
	    if typ == 76:
	        struct.pack_into("<Q", d, p + 8, 12345)
	    p += sz
	open(sys.argv[1], "wb").write(d)
	EOF
	test_expect_code 255 tperf stat report -i r.data 2>err &&
	echo "tperf: '"'"'r.data'"'"': a STAT record of no event of the file" >expect &&
	test_cmp expect err
'

# perf's recordings of each kind, and tperf's of the same command lines
test_expect_success PERF 'recordings by perf and tperf' '
	sleep 5 &
	sp=$! &&
	test_when_finished "kill $sp" &&
	for t in perf tperf; do
		$t stat record -o $TRASH/$t-thr.data -e $EV --per-thread -p $sp -- sleep 0.05 2>/dev/null &&
		$t stat record -o $TRASH/$t-task.data -- sleep 0.05 2>/dev/null &&
		$t stat record -o $TRASH/$t-cpu.data -e $EV -a -A -- sleep 0.05 2>/dev/null &&
		$t stat record -o $TRASH/$t-node.data -e $EV -a --per-node -- sleep 0.05 2>/dev/null &&
		$t stat record -o $TRASH/$t-int.data -e $EV -I 20 --interval-count 3 -- sleep 1 2>/dev/null &&
		$t stat record -o - -e $EV -- sleep 0.05 >$TRASH/$t-pipe.data 2>/dev/null ||
			exit 1
	done
'

test_expect_success PERF 'the records are perf'"'"'s, record by record' '
	for k in task cpu node int thr; do
		records $TRASH/perf-$k.data >expect &&
		records $TRASH/tperf-$k.data >actual &&
		test_cmp expect actual || exit 1
	done &&
	perf report -D -i - <$TRASH/perf-pipe.data 2>&1 | grep PERF_RECORD_ | sed "s/^[^:]*: //" >expect &&
	perf report -D -i - <$TRASH/tperf-pipe.data 2>&1 | grep PERF_RECORD_ | sed "s/^[^:]*: //" >actual &&
	sed -i "s/thread: [0-9]*/thread: P/" expect actual &&
	test_cmp expect actual &&
	pipe_attrs $TRASH/perf-pipe.data >expect &&
	pipe_attrs $TRASH/tperf-pipe.data >actual &&
	test_cmp expect actual
'

test_expect_success PERF 'the header and its features are perf'"'"'s' '
	for k in task cpu node int thr; do
		header $TRASH/perf-$k.data >expect &&
		header $TRASH/tperf-$k.data >actual &&
		test_cmp expect actual || exit 1
	done
'

test_expect_success PERF 'tperf stat report prints what perf stat report prints, on both recordings' '
	for t in perf tperf; do
		for k in task cpu node int thr; do
			for o in "" "-x," "-j" "-x, -A" "-j --per-core" "-x, --per-socket"; do
				f=$TRASH/$t-$k.data
				case "$o" in
				*-A|*--per-*) a=${o#* } p=${o%% *} ;;
				*) a= p=$o ;;
				esac
				perf stat $p report -i $f $a 2>expect &&
				tperf stat $p report -i $f $a 2>actual &&
				sed -i "s/^tperf: warning: /warning: /" actual &&
				test_cmp expect actual || { echo "$f: $o"; exit 1; }
			done
		done &&
		perf stat report -i - <$TRASH/$t-pipe.data 2>expect &&
		tperf stat report -i - <$TRASH/$t-pipe.data 2>actual &&
		test_cmp expect actual || exit 1
	done
'

test_expect_success PERF 'script of a stat file: each round'"'"'s counts, and -D, as perf script' '
	for t in perf tperf; do
		for k in task cpu node int thr; do
			f=$TRASH/$t-$k.data
			perf script -i $f >expect 2>&1 &&
			tperf script -i $f >actual 2>&1 &&
			test_cmp expect actual &&
			perf script -D -i $f >expect 2>/dev/null &&
			tperf script -D -i $f >actual 2>/dev/null &&
			test_cmp expect actual || { echo "$f"; exit 1; }
		done &&
		perf script -i - <$TRASH/$t-pipe.data >expect 2>&1 &&
		tperf script -i - <$TRASH/$t-pipe.data >actual 2>&1 &&
		test_cmp expect actual || exit 1
	done &&
	grep -q "^CPU   THREAD             VAL             ENA             RUN            TIME EVENT$" actual
'

test_expect_success PERF 'report of a stat file: no samples, as perf report says' '
	perf report -i $TRASH/tperf-task.data >expect 2>/dev/null &&
	tperf report -i $TRASH/tperf-task.data >actual 2>err &&
	test_cmp expect actual &&
	grep -q "has no samples" err
'

test_done
