#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Shell test library, in git's test-lib style.  A test script:
#
#	. "$(dirname "$0")/lib.sh"
#	test_expect_success 'stat counts task-clock' '
#		tperf stat -x, -e task-clock true 2>err &&
#		grep -q task-clock err
#	'
#	test_expect_success PERF 'needs Linux perf' '...'
#	test_done
#
# Each test body runs in a subshell inside a scratch directory ($TRASH);
# `test_when_finished CMD` runs CMD after the body, pass or fail.  Output is
# TAP-like: "ok N - desc", "not ok N - desc", "ok N # skip desc (missing X)".
# A script that cannot run at all on this machine calls `skip_all "reason"`
# (exit 2); one that cannot run because of the tree calls `fail_all`.
#
# Honesty rules (checked by t0052-source-checks.sh): a prerequisite tests
# the machine (a command installed, root, tracefs), never tperf itself; a
# body does not end in `|| exit 0` or `|| true` unless a comment on the line
# above says why; a missing fixture fails.

TPERF=${TPERF:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/tperf}
TESTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SRC_DIR=$(cd "$TESTS_DIR/.." && pwd)
DATA_DIR=$TESTS_DIR/data
export TPERF TESTS_DIR SRC_DIR DATA_DIR
export TPERF_PAGER=cat LC_ALL=C
unset PAGER

tperf() { "$TPERF" "$@"; }

# perf 6.1's record starts a side-band thread for BPF events that polls
# with a 1-second timeout: every `perf record` took over a second, most of
# make check's time.  --no-bpf-event leaves it out (and clears the attr's
# bpf_event bit: a test comparing attrs passes the option to tperf too,
# and one compares the default bit with `command perf`).
perf() {
	if [ "${1:-}" = record ]; then
		shift
		command perf record --no-bpf-event "$@"
	else
		command perf "$@"
	fi
}

test_count=0
test_fail=0
test_skip=0
test_pass=0
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/tperf-test.XXXXXX")
# tperf record and perf record fill the build-id cache, $HOME/.debug: a
# test's own, never the real one (a test sets PERF_BUILDID_DIR for tperf's)
# (toolchains that live under the real HOME, rustup's, keep finding it)
TEST_HOME=$(mktemp -d "${TMPDIR:-/tmp}/tperf-home.XXXXXX")
export RUSTUP_HOME=${RUSTUP_HOME:-$HOME/.rustup} CARGO_HOME=${CARGO_HOME:-$HOME/.cargo}
export HOME=$TEST_HOME
unset PERF_BUILDID_DIR
trap 'rm -rf "$TRASH" "$TEST_HOME"' EXIT
cd "$TRASH" || exit 1

# Prerequisites, evaluated once when first needed.
# test_lazy_prereq NAME CMD [WHY]: WHY, shown in the skip line, says what
# the machine lacks when CMD fails (the default names the prerequisite).
declare -A _prereq_cmd _prereq_val _prereq_why
test_lazy_prereq() { _prereq_cmd[$1]=$2; _prereq_why[$1]=${3:-}; }
test_have_prereq() {
	local p
	for p in ${1//,/ }; do
		if [ -z "${_prereq_val[$p]}" ]; then
			if (eval "${_prereq_cmd[$p]:-false}") >/dev/null 2>&1; then
				_prereq_val[$p]=yes
			else
				_prereq_val[$p]=no
			fi
		fi
		[ "${_prereq_val[$p]}" = yes ] || { _missing=$p; return 1; }
	done
}
test_lazy_prereq PERF 'command -v perf && perf --version' 'Linux perf (Debian linux-perf) is not installed'
test_lazy_prereq ROOT '[ "$(id -u)" = 0 ]' 'needs root'
test_lazy_prereq TRACECMD 'command -v trace-cmd' 'trace-cmd (Debian trace-cmd) is not installed'
test_lazy_prereq MAN 'command -v man' 'man (Debian man-db) is not installed'
test_lazy_prereq FULL '[ -n "$TPERF_TEST_FULL" ]' 'a slow test: make check-full runs it'

# test_pick I N: in make check, a loop over a large matrix of cases runs
# every Nth (I counts the cases from 0); make check-full runs them all
test_pick() { [ -n "${TPERF_TEST_FULL:-}" ] || [ $(($1 % $2)) = 0 ]; }

test_when_finished() { _cleanup="$1; $_cleanup"; }

# The body runs in a subshell; its clean-up runs from the subshell's EXIT
# trap, so a body that leaves with `exit 1` (as loops do) still restores
# what it changed.  The clean-up's own status is not the test's.
_run_body() {
	(
		_cleanup=:
		mkdir -p "$TRASH/t$test_count" && cd "$TRASH/t$test_count" || exit 1
		trap '_rc=$?; trap - EXIT; eval "$_cleanup"; exit $_rc' EXIT
		eval "$1"
	) >"$TRASH/out.$test_count" 2>&1
}

test_expect_success() {
	local prereq=
	[ $# = 3 ] && { prereq=$1; shift; }
	test_count=$((test_count + 1))
	if [ -n "$prereq" ] && ! test_have_prereq "$prereq"; then
		test_skip=$((test_skip + 1))
		echo "ok $test_count # skip $1 (missing $_missing${_prereq_why[$_missing]:+: ${_prereq_why[$_missing]}})"
		return
	fi
	local t0=${EPOCHREALTIME/[.,]/}
	if _run_body "$2"; then
		test_pass=$((test_pass + 1))
		echo "ok $test_count - $1"
	else
		test_fail=$((test_fail + 1))
		echo "not ok $test_count - $1"
		sed 's/^/#	/' "$TRASH/out.$test_count" | head -60
	fi
	# TPERF_TEST_TIMES=1: how long each test took (where make check's time goes)
	[ -z "${TPERF_TEST_TIMES:-}" ] ||
		printf '# %d.%d s\n' $(((${EPOCHREALTIME/[.,]/} - t0) / 1000000)) \
			$(((${EPOCHREALTIME/[.,]/} - t0) / 100000 % 10))
}

test_done() {
	echo "# $(basename "$0"): $test_pass passed, $test_fail failed, $test_skip skipped"
	[ $test_fail = 0 ]
	exit $?
}

skip_all() {
	echo "1..0 # SKIP $(basename "$0"): $1"
	exit 2
}

# The script cannot run because of the tree (a fixture missing, a test
# program that does not build): that is a failure, not a skip.
fail_all() {
	echo "not ok 1 - $(basename "$0"): $1"
	exit 1
}

# Compare expected (first) and actual (second) files; show a diff on mismatch.
test_cmp() { diff -u "$1" "$2"; }

# Run a command that must fail: exit status 1..125, 129 (tperf's usage
# error) or 255 (perf's error), never 126..128 (not executable, not found:
# a misspelt command is no expected failure) nor a death by a signal.
test_must_fail() {
	"$@"
	local rc=$?
	case $rc in
	0)
		echo "test_must_fail: command succeeded: $*" >&2
		return 1 ;;
	126 | 127 | 128)
		echo "test_must_fail: command not found or not executable ($rc): $*" >&2
		return 1 ;;
	129) ;;
	*)
		# 128 + a signal's number: a crash; above 192, perf's negative
		# error codes (255, 254 -ENOENT, 243 -EACCES ...), which tperf's
		# stat, record and probe exit with as perf does
		if [ $rc -gt 128 ] && [ $rc -le 192 ]; then
			echo "test_must_fail: command died with status $rc: $*" >&2
			return 1
		fi ;;
	esac
	return 0
}

test_path_is_missing() {
	[ ! -e "$1" ] || { echo "test_path_is_missing: $1 exists" >&2; return 1; }
}

# Run a command and check its exit status: test_expect_code N cmd...
test_expect_code() {
	local want=$1
	shift
	"$@"
	local rc=$?
	[ $rc = "$want" ] || { echo "test_expect_code: want $want, got $rc: $*" >&2; return 1; }
}

# test_limit_memory MB CMD...: run CMD with at most MB megabytes of address
# space and for 20 seconds at most, so that a reader that grows without
# bound or blocks fails fast instead of taking the machine's memory.  A
# sanitizer build maps terabytes of shadow memory, so there the limit is
# on one allocation (ASan's max_allocation_size_mb; larger ones fail).
test_limit_memory() {
	local mb=$1
	shift
	if [ -z "${_tperf_asan:-}" ]; then
		_tperf_asan=no
		nm "$TPERF" 2>/dev/null | grep -q ' __asan_init$' && _tperf_asan=yes
	fi
	if [ $_tperf_asan = yes ]; then
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}max_allocation_size_mb=$mb:allocator_may_return_null=1 \
			timeout 20 "$@"
	else
		(ulimit -v $((mb * 1024)) && exec timeout 20 "$@")
	fi
}
