#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf annotate --stdio against perf annotate --stdio on the same files,
# in one run: the demo workload at -O2 (a few symbols) and gcc compiling
# one of tperf's sources (hundreds of symbols in cc1, the many-function
# case), recorded with cpu-clock by perf.  Prints the wall and CPU seconds
# of both, their ratio (tperf over perf) and whether the texts are the
# same.  Then the disassembler choice (Documentation/design.md,
# "annotate"): the time of objdump and of capstone (bench/annotate-capstone.c)
# on the whole .text of cc1, and how many of capstone's lines equal
# objdump's.  Prints, does not assert.
# Usage: bench/annotate.sh [TPERF] [SOURCE_TO_COMPILE]
TPERF=$(realpath "${1:-./tperf}")
SRC=$(cd "$(dirname "$0")/.." && pwd)
CSRC=$(realpath "${2:-$SRC/util/report/hist.c}")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1

cc -O2 -g -o demo2 "$SRC/tests/workloads/tperf-demo-workload.c" || exit 1
perf record -q --no-bpf-event -e cpu-clock -o demo.data ./demo2 1 >/dev/null 2>&1
perf record -q --no-bpf-event -e cpu-clock -o gcc.data \
	gcc -O2 -I"$SRC" -D_GNU_SOURCE -c "$CSRC" -o /dev/null 2>/dev/null

# wall and CPU (user + system) seconds of a command, its stdout to $1
timed() {
	out=$1
	shift
	/usr/bin/time -f "%e %U %S" -o time.txt "$@" >"$out" 2>/dev/null
	awk '{ printf "%s %.2f", $1, $2 + $3 }' time.txt
}

for f in demo gcc; do
	n=$(perf annotate --stdio -i $f.data 2>/dev/null | grep -c "Source code & Disassembly")
	p=$(timed perf.out perf annotate --stdio -i $f.data)
	t=$(timed tperf.out "$TPERF" annotate --stdio -i $f.data)
	same=different
	cmp -s perf.out tperf.out && same=same
	echo "$p $t" | awk -v f=$f -v n="$n" -v s=$same '{
		printf "%-5s %4d symbols: perf %6.2f s wall %6.2f s CPU, tperf %6.2f s wall %6.2f s CPU, ratio %.2f wall %.2f CPU, %s\n",
			f, n, $1, $2, $3, $4, $3 / $1, $4 / $2, s }'
done

# the disassembler: objdump's text of cc1's .text against capstone's
cc1=$(gcc -print-prog-name=cc1)
cc -O2 -o annotate-capstone "$SRC/bench/annotate-capstone.c" -lcapstone -lelf || exit 1
o=$(timed objdump.out objdump -d --no-show-raw-insn -j .text "$cc1")
c=$(timed capstone.out ./annotate-capstone "$cc1")
# objdump's instruction lines as "addr:\ttext", its spaces after the mnemonic kept
sed -n 's/^ *\([0-9a-f]*\):\t\(.*\)$/\1:\t\2/p' objdump.out | sed 's/ *$//' >o.txt
sed 's/ *$//' capstone.out >c.txt
total=$(wc -l <o.txt)
equal=$(sort o.txt >os.txt; sort c.txt >cs.txt; comm -12 os.txt cs.txt | wc -l)
echo "$o $c" | awk -v t="$total" -v e="$equal" '{
	printf "disassembly of cc1 .text, %d instructions: objdump %.2f s wall %.2f s CPU, capstone %.2f s wall %.2f s CPU (%.2f of objdump), %d lines equal (%.1f%%)\n",
		t, $1, $2, $3, $4, $3 / $1, e, 100 * e / t }'
