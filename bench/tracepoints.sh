#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Tracepoints, tperf against Linux perf (and trace-cmd) in one run:
#  (a) record -e sched:sched_switch -e sched:sched_wakeup -a while
#      tests/workloads/pingpong switches contexts for SECONDS: events/s
#      captured and events lost, for tperf record, perf record and
#      trace-cmd record (reported as failing when it fails here);
#  (b) script on a file of about 1 million tracepoint samples: tperf script
#      time against perf script time (target: ratio <= 0.5).
# Prints, does not assert.  Usage: bench/tracepoints.sh [TPERF] [SECONDS]
# (run as root from the source tree after `make workloads`).
TPERF=${1:-./tperf}
SECS=${2:-3}
PP=${PINGPONG:-tests/workloads/pingpong}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
EV="-e sched:sched_switch -e sched:sched_wakeup"

[ -x "$PP" ] || { echo "bench: build $PP first: make workloads" >&2; exit 1; }
now() { date +%s.%N; }
# samples and lost events in a perf.data, as perf report --stats counts them
stats() {
	perf report -i "$1" --stats 2>/dev/null | awk '
		/^ *SAMPLE events:/ { s = $3 } /^ *LOST events:/ { l = $3 }
		/^ *LOST_SAMPLES events:/ { ls = $3 }
		END { printf "%d %d\n", s, l + ls }'
}
# lost samples counted by the LOST records' totals (tperf report --stats)
lost_total() {
	"$TPERF" report -i "$1" --stats 2>/dev/null | sed -n 's/^ *LOST events: *\([0-9]*\).*/\1/p'
}

echo "== (a) record -a $EV during $SECS s of pipe ping-pong"
for tool in tperf perf; do
	cmd=$TPERF; [ $tool = perf ] && cmd=perf
	t0=$(now)
	$cmd record -q -a $EV -o "$dir/$tool.data" -- "$PP" "$SECS" 2>"$dir/$tool.err"
	t1=$(now)
	set -- $(stats "$dir/$tool.data")
	echo "$tool record: $1 events in $(echo "$t1 - $t0" | bc) s," \
	     "$(echo "$1 / ($t1 - $t0)" | bc) events/s, lost records: $2" \
	     "($(grep -o '[0-9]* .* lost[^]]*' "$dir/$tool.err" | head -1))"
	eval "n_$tool=$1"
done
[ "$n_perf" -gt 0 ] && echo "captured ratio tperf/perf: $(echo "scale=2; $n_tperf / $n_perf" | bc)"
if command -v trace-cmd >/dev/null; then
	t0=$(now)
	if trace-cmd record $EV -o "$dir/t.dat" "$PP" "$SECS" >"$dir/tc.out" 2>&1; then
		t1=$(now)
		n=$(trace-cmd report -i "$dir/t.dat" 2>/dev/null | grep -c 'sched_\(switch\|wakeup\):')
		echo "trace-cmd record: $n events, $(echo "$n / ($t1 - $t0)" | bc) events/s"
	else
		echo "trace-cmd record: fails on this kernel: $(grep -i -m1 'error\|fail\|cannot' "$dir/tc.out")"
	fi
else
	echo "trace-cmd: not installed"
fi

echo "== (b) script on a file of ~1M tracepoint samples"
"$TPERF" record -q -a $EV -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit \
	-m 2048 -o "$dir/big.data" -- "$PP" 4 2>/dev/null
set -- $(stats "$dir/big.data")
echo "file: $1 samples"
t0=$(now); "$TPERF" script -i "$dir/big.data" >/dev/null 2>&1; t1=$(now)
tp=$(echo "$t1 - $t0" | bc)
t0=$(now); perf script -i "$dir/big.data" >/dev/null 2>&1; t1=$(now)
pf=$(echo "$t1 - $t0" | bc)
echo "tperf script: $tp s, perf script: $pf s, ratio $(echo "scale=2; $tp / $pf" | bc) (target <= 0.5)"
t0=$(now); "$TPERF" script -i "$dir/big.data" -F trace >/dev/null 2>&1; t1=$(now)
tp=$(echo "$t1 - $t0" | bc)
t0=$(now); perf script -i "$dir/big.data" -F trace >/dev/null 2>&1; t1=$(now)
pf=$(echo "$t1 - $t0" | bc)
echo "-F trace: tperf $tp s, perf $pf s, ratio $(echo "scale=2; $tp / $pf" | bc)"
