#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Run every test: the unit tests in `tperf test`, then each shell test in
# tests/shell/ (and tests/shell/full/ when TPERF_TEST_FULL is set).  Prints
# the outputs and ends with "N passed, N failed, N skipped".
cd "$(dirname "$0")/.." || exit 1
TPERF=${TPERF:-$PWD/tperf}
export TPERF
log=$(mktemp)
trap 'rm -f "$log"' EXIT
pass=0 fail=0 skip=0

echo "== tperf test"
"$TPERF" test >"$log" 2>&1
cat "$log"
p=$(grep -c ': Ok$' "$log"); f=$(grep -c 'FAILED!$' "$log"); s=$(grep -c ': Skip (' "$log")
n=$("$TPERF" test --list 2>/dev/null | grep -c '^ *[0-9]*: ')
if [ "$p$f$s" = 000 ]; then f=1; echo "tperf test ran no test"; fi
if [ $((p + f + s)) != "$n" ]; then
	echo "tperf test: $n tests listed but $((p + f + s)) results read (a crash?)"
	f=$((n - p - s))
fi
pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))

dirs=tests/shell
[ -n "$TPERF_TEST_FULL" ] && dirs="$dirs tests/shell/full"
for t in $(for d in $dirs; do ls "$d"/t[0-9]*.sh 2>/dev/null; done); do
	echo "== $t"
	bash "$t" >"$log" 2>&1
	rc=$?
	cat "$log"
	p=$(grep -c '^ok [0-9]* - ' "$log"); f=$(grep -c '^not ok ' "$log")
	s=$(grep -c '^ok [0-9]* # skip' "$log")
	if [ $rc = 2 ] && [ "$p$f" = 00 ]; then
		s=$((s + 1))
	elif [ $rc != 0 ] && [ "$f" = 0 ]; then
		echo "$t: exited with status $rc"
		f=1
	fi
	pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
done

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
