#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A short tour of tperf on this machine (`make demo`): the build, then the
# bundled workload (tests/workloads/tperf-demo-workload, a known call tree)
# under `tperf stat`, recorded with callchains and reported, and the event
# list; with the commands this tperf has.
#
# Usage: scripts/demo.sh /abs/path/tperf
cd "$(dirname "$0")/.." || exit 1
TPERF=${1:-$PWD/tperf}
if [ ! -x "$TPERF" ]; then
	echo "demo: no tperf at '$TPERF': run make first" >&2
	exit 1
fi
has() { "$TPERF" --list-cmds | grep -qx "$1"; }
run() {
	echo
	echo "\$ $*"
	"$@"
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tperf-demo.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# the workload sits in the build output beside tperf; else build it here
WORKLOAD=$(dirname "$TPERF")/tests/workloads/tperf-demo-workload
if [ ! -x "$WORKLOAD" ]; then
	WORKLOAD=$tmp/tperf-demo-workload
	${CC:-cc} -O0 -g -fno-omit-frame-pointer -o "$WORKLOAD" \
		tests/workloads/tperf-demo-workload.c || exit 1
fi

status=0
run "$TPERF" version --build-options || status=1
if has stat; then
	run "$TPERF" stat -e task-clock,context-switches,page-faults -- "$WORKLOAD" 0.5 ||
		status=1
else
	echo
	echo "(this tperf has no 'stat' command yet: running a few self tests)"
	run "$TPERF" test "option parsing" || status=1
fi
if has record && has report; then
	run "$TPERF" record -g -o "$tmp/perf.data" -- "$WORKLOAD" 0.5 || status=1
	run "$TPERF" report -i "$tmp/perf.data" --stdio --no-children --percent-limit 5 \
		--sort comm,dso,sym -g caller,5 || status=1
fi
if has list; then
	run "$TPERF" --no-pager list sw || status=1
fi
exit $status
