#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# DWARF callchains, side by side with Linux perf in one run: a
# `--call-graph dwarf` recording of a multi-process workload (PROCS copies
# of tests/workloads/dwarf-unwind (forked), -O2 -fomit-frame-pointer, at 4000 Hz:
# >= 50,000 samples with the defaults), recorded once by perf and once by
# tperf.  Prints the sample counts and file sizes (tperf's bytes per
# sample against perf's: target <= 1), and the time of `report --stdio`
# of perf's file and of tperf's by tperf and by perf (target <= 1/10), wall
# and CPU (with a second CPU tperf opens the libraries' debug info, builds
# the hists and their callchains, reads kallsyms and inflates debug sections
# on threads of their own), with whether the two reports are the same.
# Prints, does not assert.
# Usage: bench/dwarf.sh [TPERF] [ROUNDS] [PROCS]
TPERF=$(realpath "${1:-./tperf}")
ROUNDS=${2:-2800}
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

# wall and CPU (user + system) seconds of a command, its stdout to $1
timed() {
	out=$1
	shift
	/usr/bin/time -f "%e %U %S" -o time.txt "$@" >"$out" 2>/dev/null
	awk '{ printf "%s %.2f", $1, $2 + $3 }' time.txt
}

compare() {	# $1 file, then report options
	f=$1
	shift
	set -- "$f" "$(timed perf.out perf report -i "$f" --stdio "$@")" \
		"$(timed tperf.out "$TPERF" report -i "$f" --stdio "$@")" "$*"
	grep -v '^# (Tip:' perf.out >a
	grep -v '^# (Tip:' tperf.out >b
	same=different
	cmp -s a b && same=same
	echo "$2 $3" | awk -v f="$1" -v o="$4" -v s="$same" '{
		printf "report --stdio %s of %s: perf %.2fs (cpu %.2fs), tperf %.2fs (cpu %.2fs), ratio wall %.3f cpu %.3f (target <= 0.1), output %s\n",
			o, f, $1, $2, $3, $4, ($1 > 0 ? $3 / $1 : 0), ($2 > 0 ? $4 / $2 : 0), s }'
}

for f in p.data t.data; do
	compare $f
	compare $f --no-inline
done
