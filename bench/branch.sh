#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf report against perf report in branch mode (the default on -b/-j
# recordings) on one large synthetic file: SAMPLES samples (500k by
# default) of 32 branches each (tests/shell/mk-perf-data-branch.py
# --bench: 512 branch sites in a copy of the tperf binary, 1 to 8 cycles),
# side by side in the same run: median and minimum wall time of RUNS
# alternating runs (output to /dev/null), the ratio (target <= 1/3), peak
# memory, and reading the file once (cat).  Checks first that both print
# the same text (after the tip line).  Asserts nothing else.
#
# Usage: bench/branch.sh [samples] [runs]      (TPERF=... for another binary)
SRC=$(cd "$(dirname "$0")/.." && pwd)
TPERF=${TPERF:-$SRC/tperf}
SAMPLES=${1:-500000}
RUNS=${2:-5}
command -v perf >/dev/null || { echo "perf is not installed: nothing to compare with"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -O2 -o "$tmp/exec-time" "$SRC/bench/exec-time.c" || exit 1
cp "$TPERF" "$tmp/prog" || exit 1
python3 "$SRC/tests/shell/mk-perf-data-branch.py" "$tmp/big.data" "$tmp/prog" \
	--bench="$SAMPLES",32 || { echo "cannot write the file"; exit 1; }
echo "file: $(stat -c %s "$tmp/big.data") bytes, $SAMPLES samples of 32 branches"

perf report -i "$tmp/big.data" --stdio 2>/dev/null | grep -v '^# (Tip:' >"$tmp/p.txt"
"$TPERF" report -i "$tmp/big.data" --stdio 2>/dev/null | grep -v '^# (Tip:' >"$tmp/t.txt"
if cmp -s "$tmp/p.txt" "$tmp/t.txt"; then
	echo "output: identical ($(wc -l <"$tmp/t.txt") lines)"
else
	echo "output: DIFFERENT (first lines below)"
	diff "$tmp/p.txt" "$tmp/t.txt" | head -5
fi
rm -f "$tmp/p.txt" "$tmp/t.txt"

"$tmp/exec-time" "$RUNS" "$TPERF" report -i "$tmp/big.data" --stdio \
	--- perf report -i "$tmp/big.data" --stdio >"$tmp/times" || exit 1
"$tmp/exec-time" "$RUNS" cat "$tmp/big.data" >"$tmp/cat" || exit 1
read -r t_med t_min _ < <(sed -n 1p "$tmp/times")
read -r p_med p_min _ < <(sed -n 2p "$tmp/times")
read -r c_med _ < "$tmp/cat"
peak() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }
printf 'tperf report: median %.3fs (min %.3fs), peak %s KB\n' \
	"$(echo "$t_med / 1000000" | bc -l)" "$(echo "$t_min / 1000000" | bc -l)" \
	"$(peak "$TPERF" report -i "$tmp/big.data" --stdio)"
printf 'perf report:  median %.3fs (min %.3fs), peak %s KB\n' \
	"$(echo "$p_med / 1000000" | bc -l)" "$(echo "$p_min / 1000000" | bc -l)" \
	"$(peak perf report -i "$tmp/big.data" --stdio)"
printf 'ratio tperf/perf: median %.3f, min %.3f (target <= 0.333)\n' \
	"$(echo "$t_med / $p_med" | bc -l)" "$(echo "$t_min / $p_min" | bc -l)"
printf 'read the file once (cat): %.3fs\n' "$(echo "$c_med / 1000000" | bc -l)"
