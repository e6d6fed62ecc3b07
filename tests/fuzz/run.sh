#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Build and run tperf's libFuzzer targets (see tests/fuzz/README.md).
#
# Usage: tests/fuzz/run.sh [fuzz-NAME ...]     (default: every tests/fuzz/fuzz-*.c)
#
# Environment:
#   FUZZ_SECONDS  time each target runs (default 60); 0 builds only
#   FUZZ_OUT      build folder (default build/fuzz in the source tree)
#   FUZZ_ARGS     extra libFuzzer arguments for every target
#
# One line a target: the inputs run, the seconds taken, libFuzzer's coverage
# (edges) after the seed corpus and at the end, and the corpus size with the
# inputs that added coverage.
#
# Each target fuzz-NAME starts from its seed corpus tests/fuzz/corpus/NAME/
# (or tests/fuzz/corpus/fuzz-NAME/), copied to
# a scratch folder so the tree is never modified; NAME.options (libFuzzer
# arguments, one or more a line) and NAME.dict are used when present.  Exits
# 1 when a target crashes, leaks or hangs, naming the reproducer.
cd "$(dirname "$0")/../.." || exit 1
SRC=$PWD
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_OUT=${FUZZ_OUT:-build/fuzz}

if ! command -v clang >/dev/null 2>&1; then
	echo "fuzz: clang not found: install the Debian package clang" >&2
	exit 1
fi

if [ $# = 0 ]; then
	for f in tests/fuzz/fuzz-*.c; do
		[ -e "$f" ] && set -- "$@" "$(basename "$f" .c)"
	done
fi
if [ $# = 0 ]; then
	echo "fuzz: no fuzz target in tests/fuzz/" >&2
	exit 1
fi
for t in "$@"; do
	if [ ! -f "tests/fuzz/$t.c" ]; then
		echo "fuzz: no fuzz target 'tests/fuzz/$t.c'" >&2
		exit 1
	fi
done

echo "fuzz: building $* in $FUZZ_OUT"
make -s --no-print-directory -j"$(nproc 2>/dev/null || echo 2)" O="$FUZZ_OUT" FUZZ=1 FUZZ_TARGETS="$*" fuzz-build || {
	echo "fuzz: build failed" >&2
	exit 1
}
[ "$FUZZ_SECONDS" = 0 ] && exit 0

scratch=$(mktemp -d "${TMPDIR:-/tmp}/tperf-fuzz.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
failed=0
for t in "$@"; do
	bin=$SRC/$FUZZ_OUT/tests/fuzz/$t
	art=$SRC/$FUZZ_OUT/artifacts/$t
	log=$SRC/$FUZZ_OUT/logs/$t.log
	corpus=$scratch/$t
	mkdir -p "$art" "$(dirname "$log")" "$corpus"
	seeds=tests/fuzz/corpus/${t#fuzz-}
	[ -d "$seeds" ] || seeds=tests/fuzz/corpus/$t
	if [ -d "$seeds" ]; then
		cp -R "$seeds/." "$corpus/"
	fi
	opts="-max_len=4096"
	[ -f "tests/fuzz/$t.options" ] && opts="$opts $(cat "tests/fuzz/$t.options")"
	[ -f "tests/fuzz/$t.dict" ] && opts="$opts -dict=$SRC/tests/fuzz/$t.dict"
	before=$(ls "$art" | wc -l)
	seeded=$(ls "$corpus" | wc -l)
	start=$(date +%s)
	# shellcheck disable=SC2086
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
	"$bin" $opts ${FUZZ_ARGS:-} -max_total_time="$FUZZ_SECONDS" -timeout=20 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$art/" "$corpus" >"$log" 2>&1
	rc=$?
	secs=$(($(date +%s) - start))
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	# coverage (libFuzzer's "cov:" edges) after the seeds, and at the end
	cov0=$(sed -n 's/.*INITED cov: \([0-9]*\).*/\1/p' "$log" | head -1)
	cov1=$(sed -n 's/.* cov: \([0-9]*\) .*/\1/p' "$log" | tail -1)
	if [ $rc = 0 ]; then
		echo "fuzz: $t: ok, ${runs:-?} inputs in ${secs}s, coverage ${cov0:-?} -> ${cov1:-?}," \
			"$(ls "$corpus" | wc -l) in corpus ($(($(ls "$corpus" | wc -l) - seeded)) new)"
		continue
	fi
	failed=1
	repro=$(ls -t "$art" 2>/dev/null | head -1)
	echo "fuzz: $t: FAILED (exit $rc); log $log"
	grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" | head -5 | sed 's/^/  /'
	if [ -n "$repro" ] && [ "$(ls "$art" | wc -l)" -gt "$before" ]; then
		echo "  reproducer: $art/$repro"
		echo "  rerun:      $bin $art/$repro"
	else
		tail -20 "$log" | sed 's/^/  /'
	fi
done
exit $failed
