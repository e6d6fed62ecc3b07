#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf probe against perf probe on a large DWARF binary: -V (variables of
# a function), -L (its source lines) and -n (one definition resolved), each
# run RUNS times, the best wall time shown, and tperf's over perf's (target
# <= 0.5).  Default binary: tperf itself (built with -g, so several MB of
# DWARF); BIN=path FUNC=name to change.  BIN=big: the 100k-line program of
# bench/gen-big.sh, built once into BIGDIR (default $TMPDIR/tperf-bench-big,
# ~40 s); BIN=libc: glibc with libc6-dbg's compressed DWARF; BIN=all: the
# three of tperf, libc and big.
#
# Usage: bench/probe.sh     Environment: BIN, FUNC (default probe_def__parse), RUNS (5)
cd "$(dirname "$0")/.." || exit 1
BIN=${BIN:-./tperf}
RUNS=${RUNS:-5}
TPERF=${TPERF:-./tperf}
BIGDIR=${BIGDIR:-${TMPDIR:-/tmp}/tperf-bench-big}
export PERF_BUILDID_DIR=$(mktemp -d "${TMPDIR:-/tmp}/tperf-bench.XXXXXX")
trap 'rm -rf "$PERF_BUILDID_DIR"' EXIT

# best CMD...: the best wall time of RUNS runs, in microseconds
best() {
	b=
	for i in $(seq "$RUNS"); do
		s=$(date +%s%N)
		"$@" >/dev/null 2>&1
		e=$(date +%s%N)
		t=$(( (e - s) / 1000 ))
		[ -z "$b" ] || [ "$t" -lt "$b" ] && b=$t
	done
	echo "$b"
}

# bench BINARY FUNCTION
bench() {
	echo "binary $1 ($(stat -L -c %s "$1") bytes), function $2, best of $RUNS"
	printf "%-28s %14s %14s %7s\n" "" tperf perf ratio
	for what in "-V $2" "-L $2" "-n $2"; do
		# shellcheck disable=SC2086
		t=$(best "$TPERF" probe -x "$1" $what)
		p=$(best env HOME="$PERF_BUILDID_DIR" perf probe -x "$1" $what)
		awk -v w="probe $what" -v t="$t" -v p="$p" 'BEGIN {
			printf "%-28s %11.1f ms %11.1f ms %7.2f\n", w, t / 1000, p / 1000, t / p }'
	done
}

big() {
	if [ ! -x "$BIGDIR/big" ] || [ bench/gen-big.sh -nt "$BIGDIR/big" ]; then
		echo "building $BIGDIR/big (bench/gen-big.sh)"
		sh bench/gen-big.sh "$BIGDIR" >/dev/null || exit 1
	fi
	bench "$BIGDIR/big" "${FUNC:-u26_f30}"
}

libc() {
	l=$(ldd "$TPERF" 2>/dev/null | sed -n 's/.*libc\.so\.6 => \([^ ]*\).*/\1/p')
	bench "${l:-/lib/x86_64-linux-gnu/libc.so.6}" "${FUNC:-__libc_malloc}"
}

case $BIN in
big)	big ;;
libc)	libc ;;
all)	bench ./tperf probe_def__parse; libc; big ;;
*)	bench "$BIN" "${FUNC:-probe_def__parse}" ;;
esac
