#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf data convert against perf data convert on one large recording with
# frame-pointer callchains (task-clock every 20 us of the calltree
# workload, ~1M samples by default), for each format both tools have
# (JSON, CTF), side by side in the same run: median and minimum wall time
# of RUNS alternating runs, the ratio (target <= 1/2), peak memory; and
# tperf's pprof export alone (perf has none: target < 2 s).  Checks first
# that both outputs say the same (JSON: the same bytes; CTF: the same
# babeltrace text, when babeltrace is installed).  Asserts nothing else.
#
# Usage: bench/convert.sh [rounds] [runs]   (TPERF=... for another binary,
#        FORMATS="json ctf pprof" for a subset, DATA=perf.data to skip recording)
SRC=$(cd "$(dirname "$0")/.." && pwd)
TPERF=${TPERF:-$SRC/tperf}
ROUNDS=${1:-5000}
RUNS=${2:-3}
FORMATS=${FORMATS:-json ctf pprof}
command -v perf >/dev/null || { echo "perf is not installed: nothing to compare with"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -O2 -o "$tmp/exec-time" "$SRC/bench/exec-time.c" || exit 1
data=$DATA
if [ -z "$data" ]; then
	${CC:-cc} -O0 -g -fno-omit-frame-pointer -o "$tmp/calltree" \
		"$SRC/tests/workloads/record-calltree.c" || exit 1
	data=$tmp/big.data
	perf record -q -e task-clock -c 20000 -g -o "$data" -- "$tmp/calltree" "$ROUNDS" \
		>/dev/null 2>&1 || { echo "perf record failed"; exit 1; }
fi
samples=$(perf report -i "$data" --stats 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }')
echo "file: $(stat -c %s "$data") bytes, $samples samples with callchains"
peak() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }
us() { echo "$1 / 1000000" | bc -l; }

for fmt in $FORMATS; do
	if [ $fmt = pprof ]; then
		"$tmp/exec-time" "$RUNS" "$TPERF" data convert -f -i "$data" --to-pprof "$tmp/t.pb.gz" \
			>"$tmp/times" || exit 1
		read -r t_med t_min _ <"$tmp/times"
		printf 'pprof tperf: median %.3fs (min %.3fs), peak %s KB, %s bytes (target < 2 s)\n' \
			"$(us "$t_med")" "$(us "$t_min")" \
			"$(peak "$TPERF" data convert -f -i "$data" --to-pprof "$tmp/t.pb.gz")" \
			"$(stat -c %s "$tmp/t.pb.gz")"
		continue
	fi
	case $fmt in
	json) t_out=$tmp/t.json; p_out=$tmp/p.json; opt=--to-json ;;
	ctf) t_out=$tmp/t.ctf; p_out=$tmp/p.ctf; opt=--to-ctf ;;
	*) echo "unknown format '$fmt'"; exit 129 ;;
	esac
	perf data convert -f -i "$data" $opt "$p_out" >/dev/null 2>&1
	"$TPERF" data convert -f -i "$data" $opt "$t_out" >/dev/null 2>&1
	if [ $fmt = json ]; then
		cmp -s "$p_out" "$t_out" && same="identical ($(stat -c %s "$t_out") bytes)" ||
			same=DIFFERENT
	elif command -v babeltrace >/dev/null; then
		babeltrace "$p_out" >"$tmp/p.txt" 2>&1
		babeltrace "$t_out" >"$tmp/t.txt" 2>&1
		cmp -s "$tmp/p.txt" "$tmp/t.txt" &&
			same="babeltrace text identical ($(wc -l <"$tmp/t.txt") lines)" || same=DIFFERENT
		rm -f "$tmp/p.txt" "$tmp/t.txt"
	else
		same="not compared (no babeltrace)"
	fi
	echo "$fmt output: $same"
	"$tmp/exec-time" "$RUNS" "$TPERF" data convert -f -i "$data" $opt "$t_out" \
		--- perf data convert -f -i "$data" $opt "$p_out" >"$tmp/times" || exit 1
	read -r t_med t_min _ < <(sed -n 1p "$tmp/times")
	read -r p_med p_min _ < <(sed -n 2p "$tmp/times")
	printf '%s tperf: median %.3fs (min %.3fs), peak %s KB\n' $fmt "$(us "$t_med")" \
		"$(us "$t_min")" "$(peak "$TPERF" data convert -f -i "$data" $opt "$t_out")"
	printf '%s perf:  median %.3fs (min %.3fs), peak %s KB\n' $fmt "$(us "$p_med")" \
		"$(us "$p_min")" "$(peak perf data convert -f -i "$data" $opt "$p_out")"
	printf '%s ratio tperf/perf: median %.3f, min %.3f (target <= 0.5)\n' $fmt \
		"$(echo "$t_med / $p_med" | bc -l)" "$(echo "$t_min / $p_min" | bc -l)"
	rm -rf "$t_out" "$p_out"
done
