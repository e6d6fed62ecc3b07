#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tperf record fills the build-id cache as perf 6.1 does: the hit DSOs
# (elf, debug, probes), kallsyms, the vDSO, the .build-id links; -N and -B
# turn it off; failures only warn.  report and script then use it: the
# vDSO for DWARF unwinding, the recorded copy of a rebuilt binary.
. "$(dirname "$0")/lib.sh"

export PERF_BUILDID_DIR=$TRASH/cache

bid_of() { readelf -n "$1" | sed -n 's/.*Build ID: //p'; }

# The GNU build-id note of the running kernel: namesz 4, descsz 20, type 3, "GNU"
kernel_bid() {
	od -An -tx1 -v /sys/kernel/notes | tr -d ' \n' |
		sed -n 's/^\(..\)*0400000014000000030000004[7]4e5500\([0-9a-f]\{40\}\).*/\2/p'
}

# The warning's first DSO and count vary with the samples
normalize_dso() {
	sed "s/^tperf: warning: cannot add '[^']*'\( (and [0-9]* more)\)\? to/tperf: warning: cannot add DSO to/"
}

# type, mode, name and link target of everything in cache $1
listing() { (cd "$1" && find . -printf '%y %m %p -> %l\n' | LC_ALL=C sort); }

# One line per sample whose leaf frame is in the [vdso]: its symbols
vdso_chains() {
	tperf script -i "$1" -F ip,sym,dso 2>/dev/null | awk '
		/^\t/ { if (n++ == 0) leaf = ($NF == "([vdso])"); if (leaf) line = line " " $2; next }
		{ if (line != "") print line; line = ""; n = 0; leaf = 0 }
		END { if (line != "") print line }'
}

test_expect_success 'setup: a workload calling clock_gettime in a loop' '
	cd "$TRASH" &&
	cat >w.c <<-\EOF &&
	#include <stdlib.h>
	#include <time.h>
	static volatile long sink;
	__attribute__((noinline)) static void spin(void)
	{
		struct timespec ts;

		for (int i = 0; i < 200000; i++) {
			clock_gettime(CLOCK_MONOTONIC, &ts);
			for (int k = 0; k < 50; k++)
				sink += ts.tv_nsec + k;
		}
	}
	int main(int argc, char **argv)
	{
		int n = argc > 1 ? atoi(argv[1]) : 10;

		for (int j = 0; n <= 0 || j < n; j++)
			spin();
		return argc > 2 ? atoi(argv[2]) : 0;
	}
	EOF
	cc -O2 -fno-plt -fomit-frame-pointer -g -o w w.c &&
	test -n "$(bid_of w)" && test -n "$(kernel_bid)"
'

test_expect_success 'record -g puts the workload in the cache: hard link, probes, .build-id link' '
	cd "$TRASH" &&
	tperf record -q -e cpu-clock -g -o perf.data ./w &&
	bid=$(bid_of w) &&
	e=cache$TRASH/w/$bid &&
	cmp w $e/elf &&
	test "$(stat -c %i w)" = "$(stat -c %i $e/elf)" &&
	test -f $e/probes && test ! -s $e/probes &&
	test "$(stat -c %a $e/probes)" = 644 &&
	echo "../..$TRASH/w/$bid" >expect &&
	readlink cache/.build-id/${bid:0:2}/${bid:2} >actual &&
	test_cmp expect actual &&
	test "$(readlink -f cache/.build-id/${bid:0:2}/${bid:2}/elf)" = "$(readlink -f $e/elf)"
'

test_expect_success 'the kernel (--buildid-all): a 0755 copy of /proc/kallsyms under its build-id' '
	cd "$TRASH" &&
	tperf record -q --buildid-all -e cpu-clock -o all.data ./w 1 &&
	wc -l </proc/kallsyms >kallsyms.lines &&
	k=$(kernel_bid) &&
	f=cache/[kernel.kallsyms]/$k/kallsyms &&
	test "$(stat -c %a "$f")" = 755 &&
	head -1 /proc/kallsyms >expect && head -1 "$f" >actual && test_cmp expect actual &&
	n=$(wc -l <"$f") && m=$(cat kallsyms.lines) &&
	test $n -gt $((m - 100)) && test $n -lt $((m + 100)) &&
	test ! -e "cache/[kernel.kallsyms]/$k/probes" &&
	echo "../../[kernel.kallsyms]/$k" >expect &&
	readlink cache/.build-id/${k:0:2}/${k:2} >actual && test_cmp expect actual
'

test_expect_success 'the vDSO: its ELF image, named by its own build-id (--buildid-all)' '
	cd "$TRASH" &&
	ls cache/[vdso] >ids && test $(wc -l <ids) = 1 &&
	v=$(cat ids) && f=cache/[vdso]/$v/vdso &&
	test "$(bid_of "$f")" = "$v" &&
	test $(($(stat -c %s "$f") % 4096)) = 0 &&
	test "$(stat -c %a "$f")" = 600 &&
	echo "../../[vdso]/$v" >expect &&
	readlink cache/.build-id/${v:0:2}/${v:2} >actual && test_cmp expect actual
'

# (a cache of its own: the --buildid-all recordings above add DSOs that
# this one's samples may not hit)
test_expect_success PERF 'exactly the DSOs of the BUILD_ID feature are cached' '
	cd "$TRASH" &&
	PERF_BUILDID_DIR=$TRASH/hit tperf record -q -e cpu-clock -g -o hit.data ./w &&
	perf buildid-list -i hit.data 2>/dev/null | awk "{ print \$1 }" | sort >expect &&
	test $(wc -l <expect) -ge 3 &&
	ls hit/.build-id/* | sed -n "s|^hit/.build-id/\(..\):|\1|p" >dirs &&
	for d in $(cat dirs); do ls hit/.build-id/$d | sed "s/^/$d/"; done | sort >actual &&
	test_cmp expect actual
'

test_expect_success PERF 'the same cache as perf record --buildid-all: names, types, modes, links' '
	cd "$TRASH" &&
	tperf record -q --buildid-all -e cpu-clock -o all.data ./w 3 &&
	mv cache tcache &&
	perf --buildid-dir "$TRASH/pcache" record -q --buildid-all -e cpu-clock -o pall.data ./w 3 &&
	listing pcache >expect &&
	listing tcache >actual &&
	test_cmp expect actual &&
	mv tcache cache
'

test_expect_success 'an existing entry is kept' '
	cd "$TRASH" &&
	bid=$(bid_of w) &&
	e=cache$TRASH/w/$bid &&
	rm $e/elf && echo kept >$e/elf &&
	tperf record -q -e cpu-clock -o perf.data ./w 3 &&
	echo kept >expect && test_cmp expect $e/elf &&
	rm $e/elf && ln w $e/elf
'

test_expect_success 'a copy (mode 0755) when a hard link cannot be made' '
	cd "$TRASH" &&
	test_when_finished "rm -f /dev/shm/t0475-w.$$" &&
	cc -O2 -o /dev/shm/t0475-w.$$ w.c && chmod 700 /dev/shm/t0475-w.$$ &&
	PERF_BUILDID_DIR=$TRASH/c-copy tperf record -q -e cpu-clock -o c.data /dev/shm/t0475-w.$$ 3 &&
	bid=$(bid_of /dev/shm/t0475-w.$$) &&
	f=c-copy/dev/shm/t0475-w.$$/$bid/elf &&
	cmp /dev/shm/t0475-w.$$ $f &&
	test "$(stat -c %a $f)" = 755 &&
	if [ "$(stat -c %d /dev/shm)" != "$(stat -c %d .)" ]; then
		test "$(stat -c %i $f)" != "$(stat -c %i /dev/shm/t0475-w.$$)"
	fi
'

test_expect_success '-N leaves the cache alone, -B too and writes no build-ids, a pipe too' '
	cd "$TRASH" &&
	PERF_BUILDID_DIR=$TRASH/c-n tperf record -q -N -e cpu-clock -o n.data ./w 3 &&
	test ! -e c-n &&
	PERF_BUILDID_DIR=$TRASH/c-b tperf record -q -B -e cpu-clock -o b.data ./w 3 &&
	test ! -e c-b &&
	tperf report -i b.data --header-only >h &&
	grep "^# missing features:.* BUILD_ID" h &&
	tperf report -i n.data --header-only >h &&
	! grep "^# missing features:.* BUILD_ID" h &&
	PERF_BUILDID_DIR=$TRASH/c-p tperf record -q -e cpu-clock -o - ./w 3 >p.data &&
	test -s p.data && test ! -e c-p
'

test_expect_success 'a cache that cannot be written: one warning, the exit status of the workload' '
	cd "$TRASH" &&
	: >afile &&
	test_expect_code 3 env PERF_BUILDID_DIR=$TRASH/afile/x \
		"$TPERF" record -e cpu-clock -o e.data ./w 3 3 2>err &&
	grep -v "^\[ tperf record: " err | grep -v "^tperf: note: " |
		normalize_dso >actual &&
	echo "tperf: warning: cannot add DSO to the build-id cache '\''$TRASH/afile/x'\'': Not a directory" >expect &&
	test_cmp expect actual &&
	tperf report -i e.data --stdio -q --sort dso >dsos &&
	test -s dsos &&
	test_expect_code 3 env PERF_BUILDID_DIR=$TRASH/afile/x \
		"$TPERF" record -q -e cpu-clock -o e.data ./w 3 3 2>err &&
	test ! -s err
'

test_expect_success ROOT 'a read-only cache: recorded, exit 0, one warning' '
	cd "$TRASH" &&
	mkdir ro &&
	mount -t tmpfs -o ro,size=1m tmpfs ro &&
	test_when_finished "umount $TRASH/ro" &&
	PERF_BUILDID_DIR=$TRASH/ro tperf record -e cpu-clock -o ro.data ./w 3 2>err &&
	grep -v "^\[ tperf record: " err | normalize_dso >actual &&
	echo "tperf: warning: cannot add DSO to the build-id cache '\''$TRASH/ro'\'': Read-only file system" >expect &&
	test_cmp expect actual &&
	test -s ro.data
'

test_expect_success ROOT 'a full cache: no partial entry' '
	cd "$TRASH" &&
	mkdir full &&
	mount -t tmpfs -o size=256k tmpfs full &&
	test_when_finished "umount $TRASH/full" &&
	PERF_BUILDID_DIR=$TRASH/full tperf record -e cpu-clock -o full.data ./w 3 2>err &&
	grep "^tperf: warning: cannot add .*: No space left on device$" err &&
	test $(grep -c "^tperf: warning" err) = 1 &&
	test ! -e "full/[kernel.kallsyms]/$(kernel_bid)" &&
	find full -name "*.tmp*" >partial &&
	test ! -s partial &&
	cmp w "full$TRASH/w/$(bid_of w)/elf"
'

test_expect_success 'a recording ended by SIGTERM fills the cache too' '
	cd "$TRASH" || exit 1
	PERF_BUILDID_DIR=$TRASH/c-term "$TPERF" record -q -e cpu-clock -o term.data ./w 0 &
	pid=$! &&
	test_when_finished "kill -TERM $pid 2>/dev/null" &&
	for i in $(seq 100); do test -s term.data && break; sleep 0.1; done &&
	sleep 0.5 &&
	kill -TERM $pid &&
	test_expect_code 143 wait $pid &&
	cmp w c-term$TRASH/w/$(bid_of w)/elf
'

test_expect_success 'DWARF unwinding through the vDSO uses the cached image' '
	cd "$TRASH" &&
	tperf record -q -e cpu-clock --call-graph dwarf -o dw.data ./w 5 &&
	vdso_chains dw.data >chains &&
	total=$(wc -l <chains) && full=$(grep -c " spin main" chains) &&
	echo "$total vDSO samples, $full reach main" &&
	test $total -ge 20 && test $((full * 100)) -ge $((total * 95)) &&
	grep -q "^ __vdso_clock_gettime .* spin main" chains
'

test_expect_success 'without the cache the same samples stop in the vDSO' '
	cd "$TRASH" &&
	mkdir empty &&
	PERF_BUILDID_DIR=$TRASH/empty tperf script -G -F ip,dso -i dw.data >ips &&
	test $(grep -c "(\[vdso\])$" ips) -ge 20 &&
	PERF_BUILDID_DIR=$TRASH/empty vdso_chains dw.data >chains &&
	test $(grep -c " main" chains) = 0
'

test_expect_success PERF 'the vDSO callchains are perf report'\''s on the same file' '
	cd "$TRASH" &&
	tperf report -i dw.data --stdio --no-children --dsos "[vdso]" 2>err |
		grep -v "^# (Tip" >actual &&
	test ! -s err &&
	perf --buildid-dir "$PERF_BUILDID_DIR" report -i dw.data --stdio --no-children \
		--dsos "[vdso]" 2>/dev/null |
		grep -v "^# (Tip" >expect &&
	test_cmp expect actual &&
	grep -q "__vdso_clock_gettime" actual
'

test_expect_success PERF 'a [vdso] the file has no build-id of: this machine'\''s own, as perf' '
	cd "$TRASH" &&
	tperf record -q -B -e cpu-clock -g -o nob.data ./w 3 &&
	perf --buildid-dir "$TRASH/empty" script -i nob.data >expect 2>/dev/null &&
	PERF_BUILDID_DIR=$TRASH/empty tperf script -i nob.data >actual &&
	test_cmp expect actual &&
	grep -q " __vdso_clock_gettime+0x[0-9a-f]* (\[vdso\])$" actual &&
	perf script -i nob.data --symfs=/nonexistent --kallsyms=/dev/null >expect 2>/dev/null &&
	tperf script -i nob.data --symfs=/nonexistent --kallsyms=/dev/null >actual &&
	test_cmp expect actual &&
	grep -q " \[unknown\] (\[vdso\])$" actual
'

test_expect_success PERF 'under --symfs the build-id cache is its .debug; no local kallsyms' '
	cd "$TRASH" &&
	tperf record -q -e cpu-clock -o k.data dd if=/dev/zero of=/dev/null bs=64 count=300000 &&
	mkdir -p sym && cp -a "$PERF_BUILDID_DIR" sym/.debug &&
	for f in dw.data k.data; do
		for o in "" "--kallsyms=/proc/kallsyms"; do
			perf report -i $f --stdio --no-children --symfs=$TRASH/sym/ $o 2>/dev/null |
				grep -v "^# (Tip" >expect &&
			tperf report -i $f --stdio --no-children --symfs=$TRASH/sym/ $o |
				grep -v "^# (Tip" >actual &&
			test_cmp expect actual || return 1
		done
	done &&
	grep -q "\[k\] [a-z_]" actual &&
	tperf report -i k.data --stdio --no-children --symfs=$TRASH/sym/ >actual &&
	grep -q "\[k\] 0xffff" actual && ! grep "\[k\] [a-z_]" actual &&
	tperf report -i dw.data --stdio --no-children --symfs=$TRASH/sym/ >actual &&
	grep -q "\[\.\] spin$" actual && grep -q "\[\.\] __vdso_clock_gettime$" actual
'

build_r() {	# $1: the loop function's name
	printf '%s\n' "volatile unsigned long x;" \
		"__attribute__((noinline)) void $1(void) { for (unsigned long i = 0; i < 100000000UL; i++) x += i; }" \
		"int main(void) { $1(); return 0; }" >r.c &&
	cc -O1 -o r r.c
}

test_expect_success 'a binary rebuilt after recording: symbols from the cached copy' '
	cd "$TRASH" &&
	build_r loop_recorded &&
	tperf record -q -e cpu-clock -o r.data ./r &&
	build_r loop_rebuilt &&
	tperf report -i r.data --stdio -q --sort dso,sym >out 2>err &&
	test ! -s err &&
	grep -q " r  *\[\.\] loop_recorded *$" out &&
	! grep -q loop_rebuilt out &&
	tperf script -i r.data -F ip,sym >s 2>err &&
	test ! -s err &&
	grep -q loop_recorded s && ! grep -q loop_rebuilt s
'

test_expect_success PERF 'perf reports the rebuilt binary the same way' '
	cd "$TRASH" &&
	tperf report -i r.data --stdio -q --sort dso,sym >actual &&
	perf --buildid-dir "$PERF_BUILDID_DIR" report -i r.data --stdio -q --sort dso,sym >expect 2>/dev/null &&
	test_cmp expect actual
'

# (install -s: a new, stripped file; strip in place would strip the cache's
# hard link too)
test_expect_success 'a binary stripped after recording: symbols from the cached copy' '
	cd "$TRASH" &&
	printf "%s\n" "volatile unsigned long x;" \
		"static __attribute__((noinline)) void loop_static(void)" \
		"{ for (unsigned long i = 0; i < 100000000UL; i++) x += i; }" \
		"int main(void) { loop_static(); return 0; }" >st.c &&
	cc -O1 -o st st.c &&
	tperf record -q -e cpu-clock -o st.data ./st &&
	strip -o st.new st && mv st.new st && ! readelf -SW st | grep -q "\.symtab" &&
	tperf report -i st.data --stdio -q --sort dso,sym >out &&
	grep -q " st  *\[\.\] loop_static *$" out &&
	if test_have_prereq PERF; then
		perf --buildid-dir "$PERF_BUILDID_DIR" report -i st.data --stdio -q \
			--sort dso,sym >expect 2>/dev/null &&
		test_cmp expect out
	fi
'

test_done
