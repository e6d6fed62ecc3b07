#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# record -z/--compression-level: the rings' records go into zstd
# PERF_RECORD_COMPRESSED records with the COMPRESSED header feature, as
# perf 6.1 writes them; perf 6.1 and tperf read the file with nothing on
# stderr and find every sample record said it wrote.
. "$(dirname "$0")/lib.sh"

. "$TESTS_DIR/shell/attr-lib.sh"

BUSY='i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done'

# the SAMPLE and COMPRESSED records perf counts in file $1
stats() { perf report -i "$1" --stats 2>&1 | sed -n 's/^ *\(SAMPLE\|COMPRESSED\) events: *\([0-9]*\).*/\1 \2/p' | head -2; }

test_expect_success PERF '-z: COMPRESSED records perf 6.1 reads; every sample there; the feature' '
	tperf record -z -e cpu-clock -o z.data -- sh -c "$BUSY" 2>err &&
	n=$(sed -n "s/.* (\([0-9]*\) samples), compressed (original [0-9.]* MB, ratio is [0-9.]*) \]$/\1/p" err) &&
	test -n "$n" &&
	stats z.data >actual &&
	test "$(head -1 actual)" = "SAMPLE $n" &&
	c=$(sed -n "s/^COMPRESSED //p" actual) && test "$c" -gt 0 &&
	perf report -i z.data --stdio >/dev/null 2>err.perf && test ! -s err.perf &&
	perf script -i z.data 2>err.perf | wc -l >lines && test ! -s err.perf &&
	echo $n >expect && test_cmp expect lines &&
	perf report -i z.data --header-only >hdr &&
	grep -q "^# compressed : Zstd, level = 1, ratio = [1-9][0-9]*$" hdr &&
	grep -q "^# missing features: .*BUILD_ID" hdr
'

test_expect_success PERF '-z: perf and tperf report the same profile; perf -z files are the same shape' '
	tperf record -z -e cpu-clock -o z.data -- sh -c "$BUSY" 2>/dev/null &&
	perf report -i z.data --stdio --sort comm,dso --symfs=/nonexistent --kallsyms=/dev/null 2>/dev/null | grep -v "^#" >expect &&
	tperf report -i z.data --stdio --sort comm,dso --symfs=/nonexistent --kallsyms=/dev/null 2>/dev/null | grep -v "^#" >actual &&
	test_cmp expect actual &&
	perf record -z -e cpu-clock -o p.data -- sh -c "$BUSY" 2>/dev/null &&
	perf report -i p.data --header-only | grep "^# compressed" | sed "s/ratio = .*//" >expect &&
	perf report -i z.data --header-only | grep "^# compressed" | sed "s/ratio = .*//" >actual &&
	test_cmp expect actual
'

test_expect_success PERF '--compression-level: 22, and perf'"'"'s bounds (0 is 1, more than 22 is 22)' '
	for l in 22:22 0:1 30:22; do
		tperf record --compression-level=${l%:*} -e cpu-clock -o z.data -- sh -c "$BUSY" 2>/dev/null &&
		perf report -i z.data --header-only | sed -n "s/^# compressed : Zstd, level = \([0-9]*\),.*/\1/p" >actual &&
		echo ${l#*:} >expect && test_cmp expect actual || exit 1
	done &&
	test_expect_code 129 tperf record --compression-level=x -e cpu-clock -- true 2>err &&
	echo "tperf: invalid compression level '"'"'x'"'"': give a number from 1 to 22" >expect &&
	head -1 err >actual && test_cmp expect actual
'

test_expect_success PERF '-z changes no attr; -v says the build-ids are not collected, as perf' '
	compare_record -e cpu-clock -z &&
	perf record -v -z -e cpu-clock -o p.data -- true 2>&1 | grep "^Compression enabled" >expect &&
	tperf record -v -z -e cpu-clock -o t.data -- true 2>&1 | grep "^Compression enabled" >actual &&
	test_cmp expect actual
'

test_expect_success '-z into a pipe: tperf reads it back (perf 6.1 cannot decompress a pipe, its own neither)' '
	tperf record -q -z -e cpu-clock -o - -- sh -c "$BUSY" >z.pipe &&
	tperf report -i z.pipe --stdio --sort comm 2>err >rep &&
	test ! -s err &&
	grep -q "^ .*%  sh *$" rep
'

test_expect_success PERF '-z with --switch-output: each file compressed and whole' '
	tperf record -z --switch-output -e cpu-clock -o p.data -- \
		sh -c "i=0; while [ \$i -lt 50000 ]; do i=\$((i+1)); done; kill -USR2 \$PPID; $BUSY" 2>err &&
	ls p.data.* >files && test $(wc -l <files) = 2 &&
	for f in $(cat files); do
		perf report -i $f --header-only | grep -q "^# compressed : Zstd, level = 1," &&
		perf script -i $f >/dev/null 2>err.perf && test ! -s err.perf || exit 1
	done
'

test_done
