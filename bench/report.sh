#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf report against perf report on the same recording in the same run,
# on >= 1 million samples with frame-pointer callchains, in two cases:
#  calltree: two spinning threads and a call tree (cpu-clock every 20 us);
#  xz: `xz -9 -T1` compressing 24 MB of the system's shared libraries
#   (cpu-clock every 40 us, ~1.2M samples): Debian's liblzma is stripped
#   (.dynsym only), so most frames are unresolved addresses inside it,
#   tens of thousands of distinct ones, thousands under one callchain node.
# For each: 3 runs of `report --stdio` by each tool, alternately: the
# medians of wall time and peak RSS with their ratios (goals: time <= 1/3
# of perf's, 1/4 on xz; RSS <= 1/2), whether the outputs are the same
# (perf's random tip line aside), and the time of reading the file once
# (cat to /dev/null), the floor.  Prints numbers; asserts nothing.
# Usage: [BENCH=calltree|xz|all] bench/report.sh [perf.data]
#   (default: all, each recorded in a temp dir; a file given is the only case)
set -e
SRC=$(cd "$(dirname "$0")/.." && pwd)
TPERF=${TPERF:-$SRC/tperf}
RUNS=3
BENCH=${BENCH:-all}
command -v perf >/dev/null || { echo "perf is not installed: nothing to compare with"; exit 0; }
TMP=$(mktemp -d /tmp/tperf-bench-report.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

record_calltree() {
	cc -O0 -g -fno-omit-frame-pointer -o "$TMP/calltree" "$SRC/tests/workloads/record-calltree.c"
	cc -O0 -g -fno-omit-frame-pointer -o "$TMP/threads" "$SRC/tests/workloads/record-threads.c" -lpthread
	echo "recording calltree (about a minute)..."
	perf record -q -e cpu-clock -c 20000 -g -o "$1" -- \
		sh -c "$TMP/threads 3000000000 & $TMP/calltree 3000 & wait" >/dev/null 2>&1
}

# xz's own code has frame pointers nowhere, so chains are short and end in
# liblzma's addresses: what matters is how many distinct ones there are.
record_xz() {
	local libs=/usr/lib/$(cc -print-multiarch 2>/dev/null)

	[ -d "$libs" ] || libs=/usr/lib
	# compressible but not trivial: code and data of the installed libraries
	find "$libs" -maxdepth 1 -type f -name '*.so*' | LC_ALL=C sort |
		xargs cat 2>/dev/null | head -c 24M >"$TMP/xz.in"
	echo "recording xz -9 -T1 on $(stat -c %s "$TMP/xz.in") bytes (a minute or two)..."
	perf record -q -e cpu-clock -c 40000 -g -o "$1" -- \
		xz -9 -T1 -c "$TMP/xz.in" >/dev/null 2>&1
	rm -f "$TMP/xz.in"
}

# "seconds KB" of one run of "$@" (stdout to $TMP/out)
measure() {
	/usr/bin/time -f "%e %M" -o "$TMP/time" "$@" >"$TMP/out" 2>/dev/null
	cat "$TMP/time"
}
# field $2 (1: seconds, 2: KB) of the median line by that field of file $1
median() {
	sort -n -k"$2" "$1" | sed -n "$(((RUNS + 1) / 2))p" | cut -d' ' -f"$2"
}

# compare DATA GOAL: both reports of DATA, the time ratio's goal
compare() {
	local DATA=$1 goal=$2 samples ct pt pm tt tm

	samples=$(perf report -i "$DATA" --stats 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }')
	echo "file: $DATA, $(stat -c %s "$DATA") bytes, $samples samples"

	# alternately, so that a change in the machine's load hits both alike
	: >"$TMP/cat.t"
	: >"$TMP/perf.t"
	: >"$TMP/tperf.t"
	for _ in $(seq "$RUNS"); do
		measure cat "$DATA" >>"$TMP/cat.t"
		measure perf report -i "$DATA" --stdio >>"$TMP/perf.t"
		grep -v '^# (Tip: ' "$TMP/out" >"$TMP/perf.txt"
		measure "$TPERF" report -i "$DATA" --stdio >>"$TMP/tperf.t"
		grep -v '^# (Tip: ' "$TMP/out" >"$TMP/tperf.txt"
	done
	ct=$(median "$TMP/cat.t" 1)
	pt=$(median "$TMP/perf.t" 1)
	pm=$(median "$TMP/perf.t" 2)
	tt=$(median "$TMP/tperf.t" 1)
	tm=$(median "$TMP/tperf.t" 2)

	printf "%-28s %10s %12s\n" "report --stdio" "seconds" "peak RSS KB"
	printf "%-28s %10s %12s\n" "perf" "$pt" "$pm"
	printf "%-28s %10s %12s\n" "tperf" "$tt" "$tm"
	printf "%-28s %10s\n" "cat file >/dev/null" "$ct"
	printf "time ratio tperf/perf: %.3f (goal <= %s)\n" "$(echo "$tt / $pt" | bc -l)" "$goal"
	printf "RSS ratio tperf/perf:  %.3f (goal <= 0.500)\n" "$(echo "$tm / $pm" | bc -l)"
	if cmp -s "$TMP/perf.txt" "$TMP/tperf.txt"; then
		echo "output: identical"
	else
		echo "output: DIFFERENT ($(diff "$TMP/perf.txt" "$TMP/tperf.txt" | grep -c '^[<>]') lines)"
	fi
}

if [ -n "$1" ]; then
	compare "$1" 0.333
	exit 0
fi
case $BENCH in
calltree | all)
	record_calltree "$TMP/calltree.data"
	echo "== calltree"
	compare "$TMP/calltree.data" 0.333
	rm -f "$TMP/calltree.data"
	;;
xz) ;;
*) echo "BENCH: calltree, xz or all"; exit 1 ;;
esac
case $BENCH in
xz | all)
	if command -v xz >/dev/null; then
		record_xz "$TMP/xz.data"
		echo "== xz"
		compare "$TMP/xz.data" 0.250
	else
		echo "xz is not installed: no xz case"
	fi
	;;
esac
