#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A binary rebuilt after it was recorded has another build-id: report and
# script say so once per DSO and show no symbols from the wrong file
# (recorded with -N: otherwise the build-id cache has the recorded file,
# t0475 tests that).
. "$(dirname "$0")/lib.sh"

build() {	# $1: the spin function's name, $2: a step (another build-id)
	printf '%s\n' "volatile unsigned long x;" \
		"__attribute__((noinline)) void $1(void) { for (unsigned long i = 0; i < 300000000UL; i++) x += i * $2; }" \
		"int main(void) { $1(); return 0; }" >w.c &&
	cc -O1 -o w w.c
}

test_expect_success 'setup: record a workload, then rebuild it' '
	cd "$TRASH" &&
	build spin_recorded 1 &&
	tperf record -N -q -e task-clock -o perf.data ./w &&
	tperf report -i perf.data --stdio --sort sym -q >before 2>err &&
	grep -q "spin_recorded" before &&
	test ! -s err &&
	build spin_rebuilt 2
'

test_expect_success 'report warns once and does not use the rebuilt file' '
	cd "$TRASH" &&
	tperf report -i perf.data --stdio --sort dso,sym >out 2>err &&
	grep -c "build-id" err >count &&
	echo 1 >one && test_cmp one count &&
	grep "^tperf: warning: .*/w. is not the file that was recorded (build-id [0-9a-f]*): its samples get no symbols; put the recorded file under --symfs or in the build-id cache$" err &&
	! grep -q "spin_re" out
'

test_expect_success 'script warns the same way; -q silences it' '
	cd "$TRASH" &&
	tperf script -i perf.data >out 2>err &&
	test $(grep -c "is not the file that was recorded" err) = 1 &&
	! grep -q "spin_re" out &&
	tperf report -q -i perf.data --stdio >out 2>err &&
	test ! -s err
'

test_expect_success 'the recorded file in the build-id cache gives the symbols back' '
	cd "$TRASH" &&
	build spin_recorded 1 &&
	bid=$(readelf -n w | sed -n "s/.*Build ID: //p") &&
	dir=cache/.build-id/$(echo $bid | cut -c1-2)/$(echo $bid | cut -c3-) &&
	mkdir -p $dir && cp w $dir/elf &&
	build spin_rebuilt 2 &&
	PERF_BUILDID_DIR=$PWD/cache tperf report -i perf.data --stdio --sort sym -q >out 2>err &&
	grep -q spin_recorded out &&
	test ! -s err
'

test_done
