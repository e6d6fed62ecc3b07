#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Run every test: the unit tests in `tperf test`, then each shell test in
# tests/shell/ (TPERF_TEST_FULL=1, `make check-full`, also runs the tests
# that need the FULL prerequisite: the long fuzz runs).  Prints the outputs,
# then every skip with its reason, and ends with "N passed, N failed, N
# skipped".
SELF=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
cd "$(dirname "$0")/.." || exit 1
TPERF=${TPERF:-$PWD/tperf}
export TPERF

# --one SCRIPT DIR: run one shell test into DIR/NAME.{log,rc,time} (the
# pool below runs several at once this way)
if [ "${1:-}" = --one ]; then
	b=$3/$(basename "$2")
	t0=$(date +%s)
	bash "$2" >"$b.log" 2>&1
	echo $? >"$b.rc"
	echo $(($(date +%s) - t0)) >"$b.time"
	exit 0
fi
log=$(mktemp)
skips=$(mktemp)
logs=$(mktemp -d)
unmount=
cleanup() {
	rm -rf "$log" "$skips" "$logs"
	[ -z "$unmount" ] || umount /sys/kernel/tracing 2>/dev/null
}
trap cleanup EXIT
trap 'exit 130' INT TERM
pass=0 fail=0 skip=0
# (the run-tests tests select: TPERF_TEST_UNITS, names or numbers for
# `tperf test`; TPERF_TEST_SHELL, the shell test files)
UNITS=${TPERF_TEST_UNITS:-}

# tracefs is where the tracepoint tests read formats: mount it for the run
# when it is not (as root), and put the machine back as it was afterwards
if [ "$(id -u)" = 0 ] && [ -d /sys/kernel/tracing ] &&
   ! grep -q " /sys/kernel/tracing tracefs " /proc/mounts &&
   mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; then
	unmount=1
fi

echo "== tperf test"
t0=$(date +%s)
# shellcheck disable=SC2086
"$TPERF" test $UNITS >"$log" 2>&1
cat "$log"
echo "# tperf test took $(($(date +%s) - t0)) s"
p=$(grep -c ': Ok$' "$log"); f=$(grep -c 'FAILED!$' "$log"); s=$(grep -c ': Skip (' "$log")
sed -n 's/^ *\([0-9]*\): *\(.*[^ ]\) *: Skip (\(.*\))$/tperf test \1: \2: \3/p' "$log" >>"$skips"
# shellcheck disable=SC2086
n=$("$TPERF" test --list $UNITS 2>/dev/null | grep -c '^ *[0-9]*: ')
if [ "$p$f$s" = 000 ]; then f=1; echo "tperf test ran no test"; fi
if [ $((p + f + s)) != "$n" ]; then
	echo "tperf test: $n tests listed but $((p + f + s)) results read (a crash?)"
	f=$((n - p - s))
fi
pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))

# The shell tests, by the mark in their header: "# run-tests: tracefs"
# (they change tracefs or uprobe_events and check them restored) run one
# at a time, in a lane of their own beside the unmarked ones, which run
# TPERF_TEST_JOBS at once (default: one per CPU); then "# run-tests:
# alone" (counts and timings a busy CPU would change, the tracepoint list
# the tracefs ones change, machine-wide settings) run one at a time with
# nothing else.
ALL=${TPERF_TEST_SHELL:-$(ls tests/shell/t[0-9]*.sh)}
ALONE= SHARED= TRACEFS=
for t in $ALL; do
	if grep -q "^# run-tests: alone" "$t"; then ALONE="$ALONE $t"
	elif grep -q "^# run-tests: tracefs" "$t"; then TRACEFS="$TRACEFS $t"
	else SHARED="$SHARED $t"; fi
done
JOBS=${TPERF_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
(
	for t in $TRACEFS; do
		sh "$SELF" --one "$t" "$logs"
	done
) &
lane=$!
# shellcheck disable=SC2086
printf "%s\n" $SHARED | xargs -r -P "$JOBS" -I{} sh "$SELF" --one {} "$logs"
wait $lane
for t in $ALONE; do
	sh "$SELF" --one "$t" "$logs"
done

for t in $ALL; do
	echo "== $t"
	b=$logs/$(basename "$t")
	cp "$b.log" "$log"
	rc=$(cat "$b.rc")
	cat "$log"
	echo "# $t took $(cat "$b.time") s"
	p=$(grep -c '^ok [0-9]* - ' "$log"); f=$(grep -c '^not ok ' "$log")
	s=$(grep -c '^ok [0-9]* # skip' "$log")
	sed -n "s|^ok \([0-9]*\) # skip \(.*\)$|$t \1: \2|p" "$log" >>"$skips"
	if [ $rc = 2 ] && [ "$p$f" = 00 ]; then
		s=$((s + 1))
		sed -n "s|^1\.\.0 # SKIP [^:]*: \(.*\)$|$t: \1|p" "$log" >>"$skips"
	elif [ $rc != 0 ] && [ "$f" = 0 ]; then
		echo "$t: exited with status $rc"
		f=1
	fi
	pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
done

# every skip is listed with its reason, or the run fails
if [ "$(wc -l <"$skips")" != "$skip" ]; then
	echo "run-tests: $skip skips counted but $(wc -l <"$skips") listed with a reason"
	fail=$((fail + 1))
fi
if [ -s "$skips" ]; then
	echo "== skipped ($skip), with the reason"
	cat "$skips"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
