#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf report --header-only and --header: perf 6.1's "# ========" block
# on the fixtures (oracles: tests/data/*/expected-perf-header.txt, written
# without their "captured on" line) and on files perf records here.
. "$(dirname "$0")/lib.sh"
. "$TESTS_DIR/shell/report-lib.sh"

nocaptured() { grep -v '^# captured on    : '; }

# data file -> its header oracle
oracles() {
	for f in "$DATA_DIR"/*/expected-perf-header.txt "$DATA_DIR"/*/*.expected-perf-header.txt; do
		[ -s "$f" ] || continue
		case $f in
		*/expected-perf-header.txt)
			d=$(dirname "$f")
			echo "$d/$(ls "$d" | grep -v -e '\.txt$' -e '\.md$' | head -1) $f" ;;
		*)	echo "${f%.expected-perf-header.txt} $f" ;;
		esac
	done
}

# the fixture whose BPF_PROG_INFO perf prints (tperf does not decode it)
nobpf() { grep -v '^# bpf_prog_info '; }

test_expect_success '--header-only prints what perf 6.1 printed, on the fixtures' '
	oracles >list &&
	test $(wc -l <list) -ge 10 &&
	while read -r data oracle; do
		# perf printed the features of pipe files it read on stdin
		case ${data##*/} in
		*pipe*) cat "$data" | tperf report --header-only >out 2>/dev/null ;;
		*)	tperf report -i "$data" --header-only >out 2>/dev/null ;;
		esac
		nocaptured <out | nobpf >actual &&
		nobpf <"$oracle" >expect &&
		test_cmp expect actual || { echo "differs: $data"; exit 1; }
	done <list
'

test_expect_success '"captured on" is the file time, the offsets are the header'"'"'s' '
	f=$DATA_DIR/pdc-callgraph-fp-x86_64/perf.data.callgraph-3.8 &&
	cp $f x.data && touch -d "2024-02-03 04:05:06" x.data &&
	TZ=UTC tperf report -i x.data --header-only | sed -n "1,6p" >actual &&
	cat >expect <<-\EOT &&
	# ========
	# captured on    : Sat Feb  3 04:05:06 2024
	# header version : 1
	# data offset    : 320
	# data size      : 404200
	# feat offset    : 404520
	EOT
	test_cmp expect actual
'

test_expect_success CC 'build the call tree workload' '
	build_calltree
'

test_expect_success PERF 'recorded here: --header-only and --header then the report' '
	perf_rec cc -F 999 -g -- "$TRASH/calltree" 50 &&
	same_as_perf "$TRASH/cc.data" --header-only &&
	same_as_perf "$TRASH/cc.data" --header --no-children &&
	perf_rec sys -F 499 -a -e cpu-clock,task-clock -- sleep 0.2 &&
	same_as_perf "$TRASH/sys.data" --header-only
'

test_expect_success PERF 'pipe mode: features follow the header block' '
	perf record -q -F 999 -o - -- "$TRASH/calltree" 20 2>/dev/null >p.data &&
	cat p.data | perf report --header-only 2>/dev/null | nocaptured >expect &&
	cat p.data | tperf report --header-only | nocaptured >actual &&
	test_cmp expect actual &&
	grep -q "^# cmdline : " actual
'

test_done
