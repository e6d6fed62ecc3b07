#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf's own trace.dat reader against libtracecmd's (Debian
# libtracecmd-dev), for Documentation/design.md's choice between them:
#  - speed: one large recording of sched_switch + sched_wakeup (tperf
#    ftrace record -a while two processes ping-pong over pipes), read and
#    printed by `tperf ftrace show`, by bench/tracecmd-read.c (libtracecmd,
#    the events printed as trace-cmd report prints them) and by `trace-cmd
#    report`: median wall time and peak RSS of RUNS runs, ratios to tperf;
#  - formats: the files trace-cmd 3.1 and tperf write here (versions 6 and 7,
#    zstd, zlib, instance buffers, latency files, the fixtures from other
#    machines), read by each: event lines printed, or the failure, and
#    whether tperf's text equals trace-cmd report's.
# tracecmd-read prints events only: trace-cmd report's "[N EVENTS DROPPED]"
# lines are one more line each in the other two columns.
# Prints numbers; asserts nothing.  Usage: bench/ftrace-reader.sh [SECONDS]
SRC=$(cd "$(dirname "$0")/.." && pwd)
TPERF=${TPERF:-$SRC/tperf}
SECS=${1:-10}
RUNS=${RUNS:-3}
command -v trace-cmd >/dev/null || { echo "trace-cmd is not installed: nothing to compare with"; exit 0; }
pkg-config --exists libtracecmd || { echo "libtracecmd-dev is not installed: nothing to compare with"; exit 0; }
[ -r /sys/kernel/tracing/events/sched/sched_switch/format ] ||
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
dir=$(mktemp -d /tmp/tperf-bench-reader.XXXXXX)
trap 'rm -rf "$dir"' EXIT
READ=$dir/tracecmd-read
# shellcheck disable=SC2046
cc -O2 -o "$READ" "$SRC/bench/tracecmd-read.c" $(pkg-config --cflags --libs libtracecmd) ||
	{ echo "cannot build bench/tracecmd-read.c"; exit 1; }

# "seconds KB" of one run of "$@" (stdout to $dir/out)
measure() {
	/usr/bin/time -f "%e %M" -o "$dir/time" "$@" >"$dir/out" 2>/dev/null
	cat "$dir/time"
}
# the median of $RUNS runs, by column $1 (1: time, 2: RSS)
median() {
	local col=$1
	shift
	for _ in $(seq "$RUNS"); do measure "$@"; done | sort -n -k"$col" |
		sed -n "$(((RUNS + 1) / 2))p" | cut -d" " -f"$col"
}

echo "== speed: sched_switch + sched_wakeup, $SECS s of ping-pong (version 6)"
PINGPONG=${PINGPONG:-$SRC/tests/workloads/pingpong}
"$TPERF" ftrace record -e sched:sched_switch -e sched:sched_wakeup -a \
	-o "$dir/big.dat" -d "$SECS" 2>"$dir/summary" &
rec=$!
sleep 0.3
"$PINGPONG" "$SECS" 2>/dev/null
wait $rec
sed -n 's/^\[ tperf ftrace: \(.*\) \]$/recorded: \1/p' "$dir/summary"
printf "%-34s %9s %9s %10s %9s\n" reader "time (s)" "/ tperf" "RSS (KiB)" "/ tperf"
t_tperf=$(median 1 "$TPERF" ftrace show -i "$dir/big.dat")
r_tperf=$(median 2 "$TPERF" ftrace show -i "$dir/big.dat")
row() {
	local name=$1 t r
	shift
	t=$(median 1 "$@")
	r=$(median 2 "$@")
	printf "%-34s %9s %9s %10s %9s\n" "$name" "$t" "$(echo "scale=2; $t / $t_tperf" | bc)" \
		"$r" "$(echo "scale=2; $r / $r_tperf" | bc)"
}
printf "%-34s %9s %9s %10s %9s\n" "tperf ftrace show" "$t_tperf" 1 "$r_tperf" 1
row "libtracecmd (tracecmd-read)" "$READ" "$dir/big.dat"
row "trace-cmd report" trace-cmd report -i "$dir/big.dat"
"$TPERF" ftrace show -i "$dir/big.dat" >"$dir/tperf.txt"
trace-cmd report -i "$dir/big.dat" 2>/dev/null >"$dir/tc.txt"
"$READ" "$dir/big.dat" 2>/dev/null >"$dir/lib.txt"
cmp -s "$dir/tperf.txt" "$dir/tc.txt" && echo "tperf ftrace show == trace-cmd report" ||
	echo "tperf ftrace show DIFFERS from trace-cmd report"
tail -n +2 "$dir/tc.txt" | cmp -s - "$dir/lib.txt" && echo "tracecmd-read == trace-cmd report (events)" ||
	echo "tracecmd-read DIFFERS from trace-cmd report"

echo
echo "== formats: event lines each reader prints (or its failure)"
MK="python3 $SRC/tests/shell/mk-trace-dat.py"
f=$dir/fmt
mkdir -p "$f"
"$TPERF" ftrace record -e sched:sched_switch -a -o "$f/tperf-v6.dat" -- sleep 0.2 2>/dev/null
for c in zstd zlib; do
	"$TPERF" ftrace record -e sched:sched_switch -a --file-version 7 --compression $c \
		-o "$f/tperf-v7-$c.dat" -- sleep 0.2 2>/dev/null
done
have_graph=$(test -r /sys/kernel/tracing/events/ftrace/funcgraph_exit/format && echo 1)
if [ -n "$have_graph" ]; then
	printf "comm 7 w\ncomm 8 x\n0 1000 7 entry A 0\n0 1200 7 exit A 0 1000 1200\nbuffer g\nmissed 0 5\n0 1100 8 entry B 0\n0 9000 8 exit B 0 1100 9000\nbuffer tail\n1 20000 7 function kfree A\n" |
		$MK "$f/buffers-v6.dat"
	trace-cmd convert -i "$f/buffers-v6.dat" -o "$f/buffers-v7-zstd.dat" --file-version 7 \
		--compression zstd >/dev/null 2>&1
	printf "# tracer: irqsoff\n#\n  <idle>-0         0d...    0us : do_idle\n" >"$dir/lat.txt"
	printf "comm 1 x\n" | $MK --latency "$dir/lat.txt" "$f/latency-v6.dat"
	trace-cmd convert -i "$f/latency-v6.dat" -o "$f/latency-v7.dat" --file-version 7 \
		--compression none >/dev/null 2>&1
fi
cp "$SRC/tests/data/trace-cmd-v7-graph/graph-v7-zstd.dat" "$f/fixture-graph-v7-zstd.dat"
cp "$SRC/tests/data/trappy-trace-dat-arm32/trace.dat" "$f/fixture-arm32-v6.dat"
# event lines of a reader's output, or "fails (exit N)"
lines() {
	local out=$1 rc=$2
	[ "$rc" -gt 128 ] && { echo "crashes (signal $((rc - 128)))"; return; }
	[ "$rc" = 0 ] || { echo "fails (exit $rc)"; return; }
	grep -vc "^cpus=\|^version = \|^CPU [0-9]* is empty\|^\s*$" "$out"
}
printf "%-28s %14s %18s %18s %s\n" file "tperf show" "libtracecmd" "trace-cmd report" "tperf == report"
for d in "$f"/*.dat; do
	"$TPERF" ftrace show -i "$d" >"$dir/a" 2>/dev/null; ra=$?
	{ "$READ" "$d" >"$dir/b" 2>/dev/null; } 2>/dev/null; rb=$?
	trace-cmd report -i "$d" >"$dir/c" 2>/dev/null; rc=$?
	same=no
	[ $ra = 0 ] && [ $rc = 0 ] && cmp -s "$dir/a" "$dir/c" && same=yes
	printf "%-28s %14s %18s %18s %s\n" "$(basename "$d")" "$(lines "$dir/a" $ra)" \
		"$(lines "$dir/b" $rb)" "$(lines "$dir/c" $rc)" "$same"
done
