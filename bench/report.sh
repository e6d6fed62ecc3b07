#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf report against perf report on the same recording in the same run:
# >= 1 million samples with frame-pointer callchains (two spinning threads
# and a call tree, cpu-clock every 20 us), then the median of 3 runs of
# `report --stdio` by each: wall time and peak RSS with their ratios
# (goals: time <= 1/3, RSS <= 1/2 of perf's), whether the outputs are the
# same (perf's random tip line aside), and the time of reading the file
# once (cat to /dev/null), the floor.  Prints numbers; asserts nothing.
# Usage: bench/report.sh [perf.data]   (default: record one in a temp dir)
set -e
SRC=$(cd "$(dirname "$0")/.." && pwd)
TPERF=${TPERF:-$SRC/tperf}
RUNS=3
command -v perf >/dev/null || { echo "perf is not installed: nothing to compare with"; exit 0; }
TMP=$(mktemp -d /tmp/tperf-bench-report.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

DATA=$1
if [ -z "$DATA" ]; then
	cc -O0 -g -fno-omit-frame-pointer -o "$TMP/calltree" "$SRC/tests/workloads/record-calltree.c"
	cc -O0 -g -fno-omit-frame-pointer -o "$TMP/threads" "$SRC/tests/workloads/record-threads.c" -lpthread
	DATA=$TMP/big.data
	echo "recording (about a minute)..."
	perf record -q -e cpu-clock -c 20000 -g -o "$DATA" -- \
		sh -c "$TMP/threads 3000000000 & $TMP/calltree 3000 & wait" >/dev/null 2>&1
fi
samples=$(perf report -i "$DATA" --stats 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }')
echo "file: $DATA, $(stat -c %s "$DATA") bytes, $samples samples"

# "seconds KB" of one run of "$@" (stdout to $TMP/out)
measure() {
	/usr/bin/time -f "%e %M" -o "$TMP/time" "$@" >"$TMP/out" 2>/dev/null
	cat "$TMP/time"
}
# the median line (by its first number) of $RUNS runs
median() {
	for _ in $(seq "$RUNS"); do measure "$@"; done | sort -n | sed -n "$(((RUNS + 1) / 2))p"
}
# the same for the second number (peak RSS)
median_rss() {
	for _ in $(seq "$RUNS"); do measure "$@"; done | sort -n -k2 | sed -n "$(((RUNS + 1) / 2))p"
}

read -r ct _ <<<"$(median cat "$DATA")"
read -r pt _ <<<"$(median perf report -i "$DATA" --stdio)"
read -r _ pm <<<"$(median_rss perf report -i "$DATA" --stdio)"
grep -v '^# (Tip: ' "$TMP/out" >"$TMP/perf.txt"
read -r tt _ <<<"$(median "$TPERF" report -i "$DATA" --stdio)"
read -r _ tm <<<"$(median_rss "$TPERF" report -i "$DATA" --stdio)"
grep -v '^# (Tip: ' "$TMP/out" >"$TMP/tperf.txt"

printf "%-28s %10s %12s\n" "report --stdio" "seconds" "peak RSS KB"
printf "%-28s %10s %12s\n" "perf" "$pt" "$pm"
printf "%-28s %10s %12s\n" "tperf" "$tt" "$tm"
printf "%-28s %10s\n" "cat file >/dev/null" "$ct"
printf "time ratio tperf/perf: %.3f (goal <= 0.333)\n" "$(echo "$tt / $pt" | bc -l)"
printf "RSS ratio tperf/perf:  %.3f (goal <= 0.500)\n" "$(echo "$tm / $pm" | bc -l)"
if cmp -s "$TMP/perf.txt" "$TMP/tperf.txt"; then
	echo "output: identical"
else
	echo "output: DIFFERENT ($(diff "$TMP/perf.txt" "$TMP/tperf.txt" | grep -c '^[<>]') lines)"
fi
