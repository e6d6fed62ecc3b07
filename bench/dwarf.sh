#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# DWARF callchains, side by side with Linux perf in one run: a
# `--call-graph dwarf` recording of a multi-process workload (PROCS copies
# of tests/workloads/dwarf-unwind (forked), -O2 -fomit-frame-pointer, at 4000 Hz:
# >= 50,000 samples with the defaults), recorded once by perf and once by
# tperf.  Prints the sample counts and file sizes (tperf's bytes per
# sample against perf's: target <= 1), and the time of `report --stdio`
# of perf's file by tperf and by perf (target <= 1/10), with whether the
# two reports are the same.  Prints, does not assert.
# Usage: bench/dwarf.sh [TPERF] [ROUNDS] [PROCS]
TPERF=$(realpath "${1:-./tperf}")
ROUNDS=${2:-2500}
PROCS=${3:-4}
SRC=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1

F="-O2 -fomit-frame-pointer -g"
cc $F -shared -fPIC -o libdwarfspin.so "$SRC/tests/workloads/dwarf-unwind-lib.c" &&
cc $F -o dwarf-unwind "$SRC/tests/workloads/dwarf-unwind.c" -L. -Wl,--no-as-needed \
	-ldwarfspin -Wl,-rpath,"$dir" || exit 1

now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc; }
samples() {
	"$TPERF" report -i "$1" --stats 2>/dev/null |
		sed -n 's/^ *SAMPLE events: *\([0-9]*\).*/\1/p' | head -1
}

perf record -q -e cpu-clock -F 4000 --call-graph dwarf -o p.data -- ./dwarf-unwind $ROUNDS all $PROCS 2>/dev/null
"$TPERF" record -q -e cpu-clock -F 4000 --call-graph dwarf -o t.data -- ./dwarf-unwind $ROUNDS all $PROCS
ps=$(stat -c %s p.data) pn=$(samples p.data)
ts=$(stat -c %s t.data) tn=$(samples t.data)
echo "perf  recording: $pn samples, $ps bytes, $((ps / pn)) bytes/sample"
echo "tperf recording: $tn samples, $ts bytes, $((ts / tn)) bytes/sample" \
	"($(echo "scale=2; ($ts / $tn) / ($ps / $pn)" | bc) of perf's)"

for f in p.data t.data; do
	t0=$(now)
	perf report -i $f --stdio >perf.out 2>/dev/null
	t1=$(now)
	"$TPERF" report -i $f --stdio >tperf.out 2>/dev/null
	t2=$(now)
	pt=$(secs "$t0" "$t1") tt=$(secs "$t1" "$t2")
	grep -v '^# (Tip:' perf.out >a
	grep -v '^# (Tip:' tperf.out >b
	same=different
	cmp -s a b && same=same
	echo "report --stdio of $f: perf ${pt}s, tperf ${tt}s," \
		"ratio $(echo "scale=3; $tt / $pt" | bc) (target <= 0.1), output $same"
	t0=$(now)
	perf report -i $f --stdio --no-inline >perf.out 2>/dev/null
	t1=$(now)
	"$TPERF" report -i $f --stdio --no-inline >tperf.out 2>/dev/null
	t2=$(now)
	pt=$(secs "$t0" "$t1") tt=$(secs "$t1" "$t2")
	grep -v '^# (Tip:' perf.out >a
	grep -v '^# (Tip:' tperf.out >b
	same=different
	cmp -s a b && same=same
	echo "report --stdio --no-inline of $f: perf ${pt}s, tperf ${tt}s," \
		"ratio $(echo "scale=3; $tt / $pt" | bc), output $same"
done
