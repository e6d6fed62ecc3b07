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
	$cmd record -q -a $EV -o "$dir/$tool.data" -- "$PP" "$SECS" 2>"$dir/$tool.err"
	set -- $(stats "$dir/$tool.data")
	rt=$(sed -n 's/^pingpong: \([0-9]*\) round trips/\1/p' "$dir/$tool.err")
	echo "$tool record: $1 events, $(echo "$1 / $SECS" | bc) events/s of workload," \
	     "$(echo "scale=2; $1 / ${rt:-1}" | bc) per round trip ($rt), lost: $2"
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
		echo "trace-cmd record: fails on this kernel: $(grep -v '^ *$' "$dir/tc.out" | head -2 | tr '\n' ' ')"
	fi
else
	echo "trace-cmd: not installed"
fi

echo "== (b) script on a file of ~1M tracepoint samples"
"$TPERF" record -q -a $EV -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit \
	-m 2048 -o "$dir/big.data" -- "$PP" 4 2>/dev/null
set -- $(stats "$dir/big.data")
echo "file: $1 samples"
# wall and CPU (user+sys) seconds of "$@" > /dev/null: the CPU time is
# what compares on a loaded machine
timed() {
	/usr/bin/time -f '%e %U %S' -o "$dir/time" "$@" >/dev/null 2>&1
	awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$dir/time"
}
for F in "" "-F trace"; do
	set -- $(timed "$TPERF" script -i "$dir/big.data" $F)
	tw=$1 tc=$2
	set -- $(timed perf script -i "$dir/big.data" $F)
	echo "script ${F:-(default fields)}: tperf ${tw}s (cpu ${tc}s), perf ${1}s (cpu ${2}s)," \
	     "ratio wall $(echo "scale=2; $tw / $1" | bc), cpu $(echo "scale=2; $tc / $2" | bc) (target <= 0.5)"
done
