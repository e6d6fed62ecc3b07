#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark of the regression check's noise (issue 26): task-clock of
# tests/workloads/stat-work compared TRIALS times (default 20) at RUNS runs
# a side (default 10), three ways:
#   --compare-with   baseline and command alternated in one job (paired test)
#   --compare        a baseline file recorded just before (Welch's test)
#   stat diff        a baseline recorded once, at the start (Welch's test)
# each for the workload against itself (a flag is a false alarm) and against
# the workload with LOOPS10 = 1.1 x LOOPS (a miss is a regression let by).
# Prints the counts; never fails on them.
#
# Usage: bench/stat-noise.sh [path/to/tperf]
# Environment: TRIALS (20), RUNS (10), LOOPS (20000: thousands of rounds).
cd "$(dirname "$0")/.." || exit 1
TPERF=${1:-${TPERF:-$PWD/tperf}}
TRIALS=${TRIALS:-20}
RUNS=${RUNS:-10}
LOOPS=${LOOPS:-20000}
WORK=$PWD/tests/workloads/stat-work
SLOW=$((LOOPS * 11 / 10))

if [ ! -x "$TPERF" ] || [ ! -x "$WORK" ]; then
	echo "bench: no tperf or $WORK: run make first" >&2
	exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tperf-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# trial MODE LOOPS: the exit status of one comparison with the base at $LOOPS
trial() {
	case $1 in
	with)
		"$TPERF" stat -r "$RUNS" -e task-clock --compare-with "$WORK 0 $LOOPS" \
			-- "$WORK" 0 "$2" >/dev/null 2>&1 ;;
	file)
		"$TPERF" stat -r "$RUNS" -j -o "$tmp/b.json" -e task-clock -- "$WORK" 0 "$LOOPS" 2>/dev/null &&
		"$TPERF" stat --compare "$tmp/b.json" -r "$RUNS" -e task-clock \
			-- "$WORK" 0 "$2" >/dev/null 2>&1 ;;
	once)
		"$TPERF" stat -r "$RUNS" -j -o "$tmp/n.json" -e task-clock -- "$WORK" 0 "$2" 2>/dev/null &&
		"$TPERF" stat diff "$tmp/once.json" "$tmp/n.json" >/dev/null 2>&1 ;;
	esac
}

"$TPERF" stat -r "$RUNS" -j -o "$tmp/once.json" -e task-clock -- "$WORK" 0 "$LOOPS" 2>/dev/null || exit 1
echo "== task-clock, $RUNS runs a side, $TRIALS trials each: flagged as a regression (exit 1)"
printf "%-34s %12s %16s\n" "" "itself" "10% more loops"
for mode in with file once; do
	same=0 slow=0 i=0
	while [ $i -lt "$TRIALS" ]; do
		trial $mode "$LOOPS"; [ $? = 1 ] && same=$((same + 1))
		trial $mode "$SLOW"; [ $? = 1 ] && slow=$((slow + 1))
		i=$((i + 1))
	done
	case $mode in
	with) name="--compare-with (alternated, paired)" ;;
	file) name="--compare (fresh baseline file)" ;;
	once) name="stat diff (one early baseline)" ;;
	esac
	printf "%-34s %6d of %-3d %10d of %-3d\n" "$name" $same "$TRIALS" $slow "$TRIALS"
done
echo "(target: itself 0, 10% more loops all, for --compare-with)"
