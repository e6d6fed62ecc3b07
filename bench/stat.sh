#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark: how long `tperf stat -e task-clock -- true` takes against Linux
# perf's, run alternately RUNS times each (target: tperf at most half of
# perf), and the start-up time of `tperf --version` over STARTUP_RUNS runs
# (target: under 1 ms).  Prints medians; never fails on a missed target.
#
# Usage: bench/stat.sh [path/to/tperf]
# Environment: RUNS (default 50), STARTUP_RUNS (default 1000), PERF (perf).
cd "$(dirname "$0")/.." || exit 1
TPERF=${1:-${TPERF:-$PWD/tperf}}
RUNS=${RUNS:-50}
STARTUP_RUNS=${STARTUP_RUNS:-1000}
PERF=${PERF:-perf}

if [ ! -x "$TPERF" ]; then
	echo "bench: no tperf at '$TPERF': run make first" >&2
	exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tperf-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -O2 -o "$tmp/exec-time" bench/exec-time.c || exit 1

ms() { awk -v us="$1" 'BEGIN { printf "%.3f ms", us / 1000 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

echo "== start-up: tperf --version, median of $STARTUP_RUNS runs (target < 1 ms)"
"$tmp/exec-time" "$STARTUP_RUNS" "$TPERF" --version --- /bin/true >"$tmp/start" || exit 1
set -- $(sed -n 1p "$tmp/start"); t_med=$1 t_min=$2
set -- $(sed -n 2p "$tmp/start"); b_med=$1 b_min=$2
echo "tperf --version:  median $(ms "$t_med")  min $(ms "$t_min")"
echo "/bin/true:        median $(ms "$b_med")  min $(ms "$b_min")  (fork+exec floor)"
echo "linked: $(ldd "$TPERF" 2>/dev/null | grep -c '=>') shared libraries"

echo "== stat: task-clock of 'true', $RUNS runs each, alternating (target ratio <= 0.5)"
if ! "$TPERF" --list-cmds | grep -qx stat; then
	echo "skip: this tperf has no 'stat' command yet"
	exit 0
fi
if ! command -v "$PERF" >/dev/null 2>&1; then
	echo "skip: Linux perf ('$PERF') not installed"
	exit 0
fi
"$tmp/exec-time" "$RUNS" "$TPERF" stat -e task-clock -- true \
	--- "$PERF" stat -e task-clock -- true >"$tmp/stat" || exit 1
set -- $(sed -n 1p "$tmp/stat"); t_med=$1
set -- $(sed -n 2p "$tmp/stat"); p_med=$1
echo "tperf stat:  median $(ms "$t_med")"
echo "perf stat:   median $(ms "$p_med")"
echo "ratio tperf/perf: $(ratio "$t_med" "$p_med")"
