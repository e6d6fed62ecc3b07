#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: tracefs (tracefs and uprobe_events: changed, then checked restored)
# tperf probe's symbols as perf 6.1 loads them: -F lists the .symtab of the
# file perf takes (a debug file of the same build first: glibc's from
# libc6-dbg, a .gnu_debuglink file), IFUNCs and data included, PLT entries
# as "NAME@plt"; a function the DWARF does not name (glibc's IFUNC strcpy,
# versioned names) is probed at its symbol's DWARF function, with perf's
# warning; -n prints what a real run prints and writes nothing.
. "$(dirname "$0")/lib.sh"

B=$TRASH/bin
sh "$TESTS_DIR/probe/build.sh" "$B" || fail_all "cannot build the probe targets"
export PERF_BUILDID_DIR=$TRASH/.debug
LIBC=$(realpath "$(ldd "$B/target0" | sed -n 's/.*libc\.so\.6 => \([^ ]*\).*/\1/p')")
LIBC_ID=$(readelf -n "$LIBC" 2>/dev/null | sed -n 's/.*Build ID: //p')
test_lazy_prereq LIBCDBG 'test -r /usr/lib/debug/.build-id/${LIBC_ID:0:2}/${LIBC_ID:2}.debug'
test_lazy_prereq CXX 'command -v g++'

# perf's uprobe_events lines for a definition (perf probe -n -v)
perf_lines() {
	HOME=$TRASH perf probe -n -v -x "$1" "$2" 2>&1 | sed -n 's/^Writing event: //p'
}

test_expect_success 'setup: a stripped binary with a debuglink, one stripped bare' '
	cp "$B/target2" "$B/linked" &&
	objcopy --only-keep-debug "$B/linked" "$B/linked.debug" &&
	objcopy --strip-all --add-gnu-debuglink="$B/linked.debug" "$B/linked" &&
	cp "$B/target2" "$B/bare" &&
	strip --strip-all "$B/bare"
'

test_expect_success LIBCDBG,PERF 'libc -F: the debug file'"'"'s symbols, as perf' '
	HOME=$TRASH perf probe -x "$LIBC" -F >expect &&
	test $(wc -l <expect) -gt 3000 &&
	tperf probe -x "$LIBC" -F >actual &&
	test_cmp expect actual
'

test_expect_success LIBCDBG,PERF 'libc -F with globs: IFUNCs and resolvers' '
	printf "strcpy\nstrcpy_ifunc\nstrncpy\nstrncpy_ifunc\n" >expect &&
	HOME=$TRASH perf probe -x "$LIBC" --funcs="str*cpy*" >perf.out &&
	test_cmp expect perf.out &&
	tperf probe -x "$LIBC" --funcs="str*cpy*" >actual &&
	test_cmp expect actual
'

for f in "-F" "-F *" "-F !*a* --filter=*b*" "-F --filter=str*"; do
	test_expect_success LIBCDBG,PERF "libc $f as perf (versioned names, @plt)" '
		set -f &&
		HOME=$TRASH perf probe -x "$LIBC" $f >expect &&
		tperf probe -x "$LIBC" $f >actual &&
		set +f &&
		test_cmp expect actual
	'
done

for bin in linked target0 target-nodwarf; do
	for f in "-F" "-F *" "--no-demangle -F *"; do
		test_expect_success PERF "$bin $f as perf" '
			set -f &&
			HOME=$TRASH perf probe -x "$B/$bin" $f >expect &&
			test -s expect &&
			tperf probe -x "$B/$bin" $f >actual &&
			set +f &&
			test_cmp expect actual
		'
	done
done

test_expect_success PERF 'a stripped binary: no symbols, perf'"'"'s error' '
	test_expect_code 255 env HOME=$TRASH perf probe -x "$B/bare" -F >out 2>expect &&
	test_must_fail tperf probe -x "$B/bare" -F >out 2>actual &&
	test_cmp expect actual &&
	test ! -s out
'

test_expect_success CXX,PERF 'C++ library -F, demangled or not, @plt entries too' '
	lib=$(realpath "$(g++ -print-file-name=libstdc++.so.6)") &&
	for f in "-F *" "--no-demangle -F *" "-F std::*"; do
		set -f &&
		HOME=$TRASH perf probe -x "$lib" $f >expect &&
		tperf probe -x "$lib" $f >actual &&
		set +f &&
		test_cmp expect actual || return 1
	done
'

for def in strcpy memcpy time gettimeofday "strcpy+7" __strcpy_avx2 fclose fopen \
	"malloc%return" "memcpy%return" "malloc %di" "memcpy \$comm"; do
	test_expect_success LIBCDBG,PERF "libc '$def': the lines perf writes" '
		perf_lines "$LIBC" "$def" >expect &&
		test -s expect &&
		tperf probe -x "$LIBC" -D "$def" >actual 2>err &&
		test_cmp expect actual
	'
done

# perf 6.1 places strcpy+4 inside the first instruction (7 bytes) of the
# IFUNC's resolver; tperf refuses it (t0561 tests the check)
test_expect_success LIBCDBG,PERF "libc 'strcpy+4': perf writes a line inside an instruction, tperf refuses" '
	perf_lines "$LIBC" strcpy+4 >lines &&
	test -s lines &&
	test_expect_code 234 tperf probe -x "$LIBC" -D strcpy+4 >out 2>err &&
	test ! -s out &&
	tail -1 err >actual &&
	echo "tperf: offset 4 is inside an instruction of '"'"'strcpy_ifunc'"'"' (at strcpy_ifunc, 7 bytes): probe strcpy_ifunc or strcpy_ifunc+7" >expect &&
	test_cmp expect actual
'

# perf finds versioned names by walking its tree of names: some it misses
for def in aio_cancel "strcpy%return" "time%return" "strcpy %di"; do
	test_expect_success LIBCDBG,PERF "libc '$def': no probe, as perf" '
		test_expect_code 254 env HOME=$TRASH perf probe -n -x "$LIBC" "$def" 2>/dev/null &&
		test_must_fail tperf probe -n -x "$LIBC" "$def" 2>/dev/null
	'
done

test_expect_success LIBCDBG,PERF 'an IFUNC: perf'"'"'s warning and text, nothing written (-n)' '
	HOME=$TRASH perf probe -n -x "$LIBC" "t0559ifunc=strcpy" >out 2>perf.err &&
	test ! -s out &&
	sed "s/all perf tools/all tperf tools/; s/^\tperf record/\ttperf record/" perf.err >expect &&
	tperf probe -n -x "$LIBC" "t0559ifunc=strcpy" >out 2>actual &&
	test ! -s out &&
	test_cmp expect actual &&
	! grep -q t0559ifunc /sys/kernel/tracing/uprobe_events 2>/dev/null
'

test_expect_success LIBCDBG,PERF 'an IFUNC: -V shows its resolver'"'"'s variables, as perf' '
	HOME=$TRASH perf probe -x "$LIBC" -V strcpy >expect 2>perf.err &&
	tperf probe -x "$LIBC" -V strcpy >actual 2>err &&
	test_cmp expect actual &&
	test_cmp perf.err err
'

test_expect_success PERF '-n: the text of a real run on stderr, none on stdout' '
	HOME=$TRASH perf probe -n -x "$B/target2" -a square -a "add a b" >out 2>perf.err &&
	test ! -s out &&
	sed "s/all perf tools/all tperf tools/; s/^\tperf record/\ttperf record/" perf.err >expect &&
	tperf probe -n -x "$B/target2" -a square -a "add a b" >out 2>actual &&
	test ! -s out &&
	test_cmp expect actual
'

test_expect_success PERF '-n -v: the lines as perf -v writes them' '
	perf_lines "$B/target2" "add a b" >expect &&
	tperf probe -n -v -x "$B/target2" "add a b" 2>err >/dev/null &&
	sed -n "s/^Writing event: //p" err >actual &&
	test_cmp expect actual
'

test_expect_success '-D: the lines on stdout, no text' '
	tperf probe -x "$B/target0" -D "add a b" >out 2>err &&
	test ! -s err &&
	grep -q "^p:probe_target0/add $B/target0:0x[0-9a-f]* a=" out
'

test_done
