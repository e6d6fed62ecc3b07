#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf ftrace record throughput: sched_switch + sched_wakeup while two
# processes pinned to CPU 0 ping-pong a byte over pipes.  Prints events/s,
# the workload slowdown (and trace-cmd record's, where it can run),
# lost events, the recorder's peak RSS (target <= 20 MiB) and the time of
# `tperf ftrace show` against `trace-cmd report` (target <= 1/2).  Prints,
# does not assert.  Usage: bench/ftrace.sh [TPERF] [SECONDS]
TPERF=${1:-./tperf}
SECS=${2:-3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# The bundled C workload (tests/workloads/pingpong.c, built by make):
# "N round trips" on stderr.
PINGPONG=${PINGPONG:-$(dirname "$0")/../tests/workloads/pingpong}
pingpong() {
	"$PINGPONG" "$SECS"
}

pingpong 2>"$dir/base"
base=$(grep -o "[0-9]* round trips" "$dir/base" | cut -d" " -f1)
start=$(date +%s.%N)
/usr/bin/time -f '%M' -o "$dir/rss" "$TPERF" ftrace record -e sched:sched_switch \
	-e sched:sched_wakeup -a -o "$dir/t.dat" -d "$SECS" 2>"$dir/summary" &
rec=$!
sleep 0.3
pingpong 2>"$dir/traced"
wait $rec
end=$(date +%s.%N)
cat "$dir/summary"
events=$(sed -n 's/^\[ tperf ftrace: \([0-9]*\) events.*/\1/p' "$dir/summary")
echo "events/s: $(echo "$events / ($end - $start)" | bc)"
traced=$(grep -o "[0-9]* round trips" "$dir/traced" | cut -d" " -f1)
echo "workload: $base round trips untraced, $traced under tperf ftrace record" \
	"(slowdown $(echo "scale=1; 100 - 100 * $traced / $base" | bc)%)"
if command -v trace-cmd >/dev/null; then
	if trace-cmd record -e sched:sched_switch -e sched:sched_wakeup -o "$dir/tc.dat" \
		sleep 0.1 >"$dir/tc.out" 2>&1; then
		{ trace-cmd record -e sched:sched_switch -e sched:sched_wakeup -o "$dir/tc.dat" \
			sleep "$SECS" >/dev/null 2>&1 & } && tc=$! && sleep 0.3 &&
		pingpong 2>"$dir/tctraced" && wait $tc &&
		echo "workload under trace-cmd record: $(grep -o "[0-9]* round trips" "$dir/tctraced")"
	else
		echo "trace-cmd record cannot run here: $(grep -m1 -i "error\|can.t\|fail" "$dir/tc.out")"
	fi
fi
t0=$(date +%s.%N); "$TPERF" ftrace show -i "$dir/t.dat" >/dev/null; t1=$(date +%s.%N)
show=$(echo "$t1 - $t0" | bc)
echo "show: $show s"
if command -v trace-cmd >/dev/null; then
	t0=$(date +%s.%N); trace-cmd report -i "$dir/t.dat" >/dev/null 2>&1; t1=$(date +%s.%N)
	report=$(echo "$t1 - $t0" | bc)
	echo "trace-cmd report: $report s"
	echo "show / trace-cmd report: $(echo "scale=2; $show / $report" | bc) (target <= 0.5)"
	"$TPERF" ftrace show -i "$dir/t.dat" >"$dir/s.txt"
	trace-cmd report -i "$dir/t.dat" 2>/dev/null | cmp -s - "$dir/s.txt" &&
		echo "show output == trace-cmd report output" ||
		echo "show output DIFFERS from trace-cmd report"
fi
echo "recorder peak RSS: $(cat "$dir/rss") KiB"
