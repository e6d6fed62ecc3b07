#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf script against perf script on one large recording with frame-pointer
# callchains (task-clock every 20 µs of the calltree workload, ~1M samples
# by default), side by side in the same run: median and minimum wall time
# of RUNS alternating runs (output to /dev/null), the ratio (target <= 1/3),
# peak memory, and the physical limit: reading the file once (cat).
# Checks first that both print the same text.  Asserts nothing else.
#
# Usage: bench/script.sh [rounds] [runs]      (TPERF=... for another binary)
SRC=$(cd "$(dirname "$0")/.." && pwd)
TPERF=${TPERF:-$SRC/tperf}
ROUNDS=${1:-5000}
RUNS=${2:-5}
command -v perf >/dev/null || { echo "perf is not installed: nothing to compare with"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -O2 -o "$tmp/exec-time" "$SRC/bench/exec-time.c" || exit 1
${CC:-cc} -O0 -g -fno-omit-frame-pointer -o "$tmp/calltree" \
	"$SRC/tests/workloads/record-calltree.c" || exit 1

perf record -q -e task-clock -c 20000 -g -o "$tmp/big.data" -- "$tmp/calltree" "$ROUNDS" \
	>/dev/null 2>&1 || { echo "perf record failed"; exit 1; }
samples=$(perf report -i "$tmp/big.data" --stats 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }')
size=$(stat -c %s "$tmp/big.data")
echo "file: $size bytes, $samples samples with callchains"

perf script -i "$tmp/big.data" >"$tmp/p.txt" 2>/dev/null
"$TPERF" script -i "$tmp/big.data" >"$tmp/t.txt" 2>/dev/null
if cmp -s "$tmp/p.txt" "$tmp/t.txt"; then
	echo "output: identical ($(stat -c %s "$tmp/t.txt") bytes)"
else
	echo "output: DIFFERENT (first lines below)"
	diff "$tmp/p.txt" "$tmp/t.txt" | head -5
fi
rm -f "$tmp/p.txt" "$tmp/t.txt"

"$tmp/exec-time" "$RUNS" "$TPERF" script -i "$tmp/big.data" \
	--- perf script -i "$tmp/big.data" >"$tmp/times" || exit 1
"$tmp/exec-time" "$RUNS" cat "$tmp/big.data" >"$tmp/cat" || exit 1
read -r t_med t_min _ < <(sed -n 1p "$tmp/times")
read -r p_med p_min _ < <(sed -n 2p "$tmp/times")
read -r c_med _ < "$tmp/cat"
peak() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }
printf 'tperf script: median %.3fs (min %.3fs), peak %s KB\n' \
	"$(echo "$t_med / 1000000" | bc -l)" "$(echo "$t_min / 1000000" | bc -l)" \
	"$(peak "$TPERF" script -i "$tmp/big.data")"
printf 'perf script:  median %.3fs (min %.3fs), peak %s KB\n' \
	"$(echo "$p_med / 1000000" | bc -l)" "$(echo "$p_min / 1000000" | bc -l)" \
	"$(peak perf script -i "$tmp/big.data")"
printf 'ratio tperf/perf: median %.3f, min %.3f (target <= 0.333)\n' \
	"$(echo "$t_med / $p_med" | bc -l)" "$(echo "$t_min / $p_min" | bc -l)"
printf 'read the file once (cat): %.3fs\n' "$(echo "$c_med / 1000000" | bc -l)"
