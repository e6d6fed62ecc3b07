#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf record against perf record on the same workload in the same run:
# workload slowdown under `record -F 4000 -g`, file size and lost samples.
# Prints ratios; asserts nothing.  Usage: bench/record.sh [rounds] [runs]
set -e
SRC=$(cd "$(dirname "$0")/.." && pwd)
TPERF=${TPERF:-$SRC/tperf}
ROUNDS=${1:-2000}
RUNS=${2:-3}
command -v perf >/dev/null || { echo "perf is not installed: nothing to compare with"; exit 0; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cc -O0 -g -fno-omit-frame-pointer -o "$TMP/calltree" "$SRC/tests/workloads/record-calltree.c"
cc -O0 -g -fno-omit-frame-pointer -o "$TMP/threads" "$SRC/tests/workloads/record-threads.c" -lpthread

now() { date +%s.%N; }
# best wall time of $RUNS runs of "$@"
best() {
	local b= t0 t1 t
	for _ in $(seq "$RUNS"); do
		t0=$(now); "$@" >/dev/null 2>&1; t1=$(now)
		t=$(echo "$t1 - $t0" | bc -l)
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc -l)" = 1 ]; then b=$t; fi
	done
	echo "$b"
}
lost() {
	perf report -i "$1" --stats 2>/dev/null |
		awk '/LOST(_SAMPLES)? events:/ { n += $3 } END { print n + 0 }'
}
samples() {
	perf report -i "$1" --stats 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }'
}

for w in "calltree $ROUNDS" "threads 300000000"; do
	set -- $w
	cmd=("$TMP/$1" "$2")
	base=$(best "${cmd[@]}")
	p=$(best perf record -q -o "$TMP/p.data" -F 4000 -g -- "${cmd[@]}")
	t=$(best "$TPERF" record -q -o "$TMP/t.data" -F 4000 -g -- "${cmd[@]}")
	ps=$(stat -c %s "$TMP/p.data"); ts=$(stat -c %s "$TMP/t.data")
	printf '%s: base %.3fs  perf %.3fs (x%.3f)  tperf %.3fs (x%.3f)  tperf/perf time %.3f\n' \
		"$1" "$base" "$p" "$(echo "$p / $base" | bc -l)" "$t" "$(echo "$t / $base" | bc -l)" \
		"$(echo "$t / $p" | bc -l)"
	printf '%s: file perf %d B (%s samples), tperf %d B (%s samples), size ratio %.3f, bytes/sample ratio %.3f\n' \
		"$1" "$ps" "$(samples "$TMP/p.data")" "$ts" "$(samples "$TMP/t.data")" \
		"$(echo "$ts / $ps" | bc -l)" \
		"$(echo "($ts / $(samples "$TMP/t.data")) / ($ps / $(samples "$TMP/p.data"))" | bc -l)"
	printf '%s: lost samples perf %s, tperf %s\n' "$1" "$(lost "$TMP/p.data")" "$(lost "$TMP/t.data")"
done
