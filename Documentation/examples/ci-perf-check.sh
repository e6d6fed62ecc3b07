#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# ci-perf-check.sh: a performance regression check for a CI job, with
# tperf stat (see tperf-stat(1), COMPARING RUNS).  Copy it into your CI.
#
# Usage: ci-perf-check.sh BASELINE -- COMMAND [ARGS...]
#
# Without BASELINE (the first run, or after it was deleted to accept a
# change), it runs COMMAND $RUNS times and writes the counts there.  With
# it, it runs COMMAND $RUNS times, compares each counter with the
# baseline (Welch's t-test) and fails on a regression: a change that is
# significant at $CONFIDENCE% and beyond $THRESHOLD% of the baseline.
# The new runs are left in BASELINE.new, the comparison in JSON in
# $REPORT, for the CI system to show or archive.
#
# Settings (environment):
#   TPERF       the tperf binary (default: tperf)
#   EVENTS      counters to compare (default: page-faults,task-clock)
#   RUNS        runs of COMMAND on each side (default: 10)
#   THRESHOLD   percent beyond which a significant slowdown fails (default: 5)
#   CONFIDENCE  percent (default: 95)
#   REPORT      where the JSON comparison goes (default: BASELINE.report.json)
#   UPDATE=1    after a passing check, make the new runs the baseline
#
# Exit status: 0 no regression (or a baseline recorded), 1 a regression,
# 2 an error (no COMMAND, COMMAND failed, a baseline that cannot be read).
#
# Noise: runs are only comparable when made under the same conditions.
# On shared CI runners time (task-clock) moves with the other jobs' load
# by more than 5% between two sets of runs; counts such as page-faults
# (and instructions, where the runner has a hardware PMU) do not.  Count
# those, give time a larger THRESHOLD, or, best, build the base revision
# in the same job and let tperf alternate the two builds run for run,
# compared pair by pair (no BASELINE file then):
#   tperf stat -r 10 -j -e task-clock --compare-with "./base-build/app ARGS" \
#       -- ./app ARGS
# (exit 0, 1 on a regression, 2 on an error, as here; 0 of 20 false alarms
# and 20 of 20 10% slowdowns caught on a loaded 2-CPU VM: tperf-stat(1)).
set -u

usage() {
	echo "usage: ci-perf-check.sh BASELINE -- COMMAND [ARGS...]" >&2
	exit 2
}

[ $# -ge 3 ] && [ "$2" = "--" ] || usage
base=$1
shift 2
TPERF=${TPERF:-tperf}
EVENTS=${EVENTS:-page-faults,task-clock}
RUNS=${RUNS:-10}
THRESHOLD=${THRESHOLD:-5}
CONFIDENCE=${CONFIDENCE:-95}
REPORT=${REPORT:-$base.report.json}

if [ ! -e "$base" ]; then
	# tperf stat's own status is the command's: a failing command fails here
	if ! "$TPERF" stat -r "$RUNS" -j -o "$base" -e "$EVENTS" -- "$@"; then
		rm -f "$base"
		echo "ci-perf-check: cannot record a baseline of '$*'" >&2
		exit 2
	fi
	echo "ci-perf-check: baseline of $RUNS runs recorded in $base"
	exit 0
fi

# the runs, compared with the baseline: the table on stdout, the counts in
# $base.new, exit 0, 1 (a regression) or 2
"$TPERF" stat --compare "$base" --threshold "$THRESHOLD" --confidence "$CONFIDENCE" \
	-r "$RUNS" -j -o "$base.new" -e "$EVENTS" -- "$@" >"$REPORT"
status=$?
case $status in
0 | 1)
	# the same comparison as a table, for the job's log
	"$TPERF" stat diff --threshold "$THRESHOLD" --confidence "$CONFIDENCE" \
		"$base" "$base.new"
	;;
*)
	echo "ci-perf-check: no comparison (tperf stat exited $status)" >&2
	exit 2
	;;
esac
if [ $status = 1 ]; then
	echo "ci-perf-check: regression beyond $THRESHOLD% (see $REPORT)" >&2
	exit 1
fi
if [ "${UPDATE:-0}" = 1 ]; then
	mv "$base.new" "$base"
	echo "ci-perf-check: the new runs are the baseline"
fi
echo "ci-perf-check: no regression beyond $THRESHOLD%"
exit 0
