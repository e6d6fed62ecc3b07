#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf probe against perf probe on a large DWARF binary: -V (variables of
# a function), -L (its source lines) and -n (one definition resolved), each
# run RUNS times, the best wall time shown.  Default binary: tperf itself
# (built with -g, so several MB of DWARF); BIN=path FUNC=name to change.
#
# Usage: bench/probe.sh     Environment: BIN, FUNC (default probe_def__parse), RUNS (5)
cd "$(dirname "$0")/.." || exit 1
BIN=${BIN:-./tperf}
FUNC=${FUNC:-probe_def__parse}
RUNS=${RUNS:-5}
TPERF=${TPERF:-./tperf}
export PERF_BUILDID_DIR=$(mktemp -d "${TMPDIR:-/tmp}/tperf-bench.XXXXXX")
trap 'rm -rf "$PERF_BUILDID_DIR"' EXIT

best() {
	b=
	for i in $(seq "$RUNS"); do
		s=$(date +%s%N)
		"$@" >/dev/null 2>&1
		e=$(date +%s%N)
		t=$(( (e - s) / 1000 ))
		[ -z "$b" ] || [ "$t" -lt "$b" ] && b=$t
	done
	awk -v t="$b" 'BEGIN { printf "%8.1f ms", t / 1000 }'
}

echo "binary $BIN ($(stat -c %s "$BIN") bytes), function $FUNC, best of $RUNS"
for what in "-V $FUNC" "-L $FUNC" "-n $FUNC"; do
	# shellcheck disable=SC2086
	printf "%-28s tperf %s   perf %s\n" "probe $what" \
		"$(best "$TPERF" probe -x "$BIN" $what)" \
		"$(best env HOME="$PERF_BUILDID_DIR" perf probe -x "$BIN" $what)"
done
