#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: tracefs (tracefs and uprobe_events: changed, then checked restored)
# tperf probe options beyond the basics, against perf: --filter with -F and
# -V (perf's expressions, or-ed with -F's own), -D/--definition, -k.
. "$(dirname "$0")/lib.sh"

B=$TRASH/bin
sh "$TESTS_DIR/probe/build.sh" "$B" || fail_all "cannot build the probe targets"
export PERF_BUILDID_DIR=$TRASH/.debug

for args in "-F;a* | m*" "-F;(a*|v*) & !*d*" "-F;a* | m* & !a*" "-F;!(a*|m*) & !_* & !*[._]*" \
	    "--filter;v*;-F" "-F;a*;--filter;v*" "-F;--filter;s*" "-F;--filter;!_*;--filter;_*"; do
	test_expect_success PERF "-F filters as perf: '$args'" '
		IFS=";" read -ra a <<<"$args" &&
		HOME=$TRASH perf probe -x "$B/target0" "${a[@]}" >expect &&
		test -s expect &&
		tperf probe -x "$B/target0" "${a[@]}" >actual &&
		test_cmp expect actual
	'
done

for bin in target0 target2; do
	for f in "a*|s*" "a*" "i*" "!a*" "a*&!argv" "!t*&!__*" "nomatch"; do
		for opt in "" "--range" "--externs" "--range --externs"; do
			test_expect_success PERF "-V main $opt --filter '$f' on $bin as perf" '
				HOME=$TRASH perf probe -x "$B/$bin" -V main $opt --filter "$f" >expect &&
				tperf probe -x "$B/$bin" -V main $opt --filter "$f" >actual &&
				test_cmp expect actual
			'
		done
	done
done

test_expect_success 'a bad filter: the caret under the bad part' '
	test_must_fail tperf probe -x "$B/target0" -F "a* m*" 2>err &&
	cat >expect <<-\EOT &&
	tperf: filter syntax error: '"'"'a* m*'"'"'
	                                ^ expected a glob, '"'"'!'"'"' or '"'"'('"'"' here, names joined by '"'"'&'"'"' or '"'"'|'"'"'
	EOT
	test_cmp expect err &&
	test_must_fail tperf probe -x "$B/target0" -V main --filter "(a*" 2>err &&
	grep -q "^tperf: filter syntax error: '"'"'(a\*'"'"'$" err
'

test_expect_success PERF '-D prints the lines of each definition, as perf' '
	HOME=$TRASH perf probe -x "$B/target0" -D "add a b" -D "visit%return \$retval" >expect &&
	test $(wc -l <expect) = 2 &&
	tperf probe -x "$B/target0" -D "add a b" -D "visit%return \$retval" >actual &&
	test_cmp expect actual &&
	tperf probe -x "$B/target0" --definition "add a b" >actual &&
	head -1 expect | test_cmp - actual
'

test_expect_success PERF '-v: the lines written, as perf -v prints them' '
	HOME=$TRASH perf probe -n -v -x "$B/target2" "visit it->name:string n" 2>&1 |
		grep "^Writing event: " >expect &&
	test -s expect &&
	tperf probe -n -v -x "$B/target2" "visit it->name:string n" 2>err >/dev/null &&
	grep "^Writing event: " err >actual &&
	test_cmp expect actual
'

test_expect_success ROOT '-D writes nothing' '
	tperf probe -x "$B/target0" -D "t0556=add" >/dev/null &&
	! grep -q "t0556" /sys/kernel/tracing/uprobe_events
'

test_expect_success PERF '-s: sources moved since the build, found as perf finds them' '
	mkdir -p src/a &&
	cp "$TESTS_DIR/probe/inline.c" src/a/ &&
	(cd src/a && cc -O0 -g -o ../moved inline.c) &&
	mv src/a src/b &&
	test_must_fail tperf probe -x src/moved -L main 2>err &&
	echo "tperf: cannot read the source '"'"'$PWD/src/a/inline.c'"'"': No such file or directory (its folder may be given with --source)" >expect &&
	test_cmp expect err &&
	for s in "$PWD/src/b" "$PWD/src/b/"; do
		HOME=$TRASH perf probe -x src/moved -L main -s "$s" >expect &&
		test -s expect &&
		tperf probe -x src/moved -L main -s "$s" >actual &&
		test_cmp expect actual || return 1
	done &&
	tperf probe -x src/moved -D "main;return*" --source src/b >out &&
	grep -q "^p:probe_moved/main " out &&
	test_must_fail tperf probe -x src/moved -L main -s "$PWD/src" 2>err &&
	echo "tperf: cannot find the source '"'"'$PWD/src/a/inline.c'"'"' under '"'"'$PWD/src'"'"' (--source)" >expect &&
	test_cmp expect err
'

for def in "0x1169" "g_t0556:e=0x1169" "0x1169%return \$retval" "0x1169 %di:u32 \$comm"; do
	test_expect_success PERF "an address, '$def': the line perf writes" '
		HOME=$TRASH perf probe -n -v -x "$B/target0" "$def" 2>&1 |
			sed -n "s/^Writing event: //p" >expect &&
		test -s expect &&
		tperf probe -x "$B/target0" -D "$def" >actual &&
		test_cmp expect actual
	'
done

test_expect_success 'an address: +OFFS added; bad ones refused' '
	tperf probe -x "$B/target0" -D "0x1169+4" >actual &&
	echo "p:probe_target0/abs_1169 $B/target0:0x116d" >expect &&
	test_cmp expect actual &&
	test_must_fail tperf probe -n -x "$B/target0" "0x1169 a" 2>err &&
	echo "tperf: a probe on an address takes registers, \$comm and \$retval only: variables need a function or a line" >expect &&
	test_cmp expect err &&
	test_must_fail tperf probe -n -x "$B/target0" "0xfffffff" 2>err &&
	echo "tperf: offset 0xfffffff is in no loadable segment of '"'"'$B/target0'"'"'" >expect &&
	test_cmp expect err &&
	test_must_fail tperf probe -n -x "$B/target0" "0x11g9" 2>err &&
	grep -q "expected a hexadecimal address" err
'

test_expect_success ROOT 'a probe on the address of add fires 5 times' '
	test_when_finished "tperf probe -q -d \"g_t0556:*\" 2>/dev/null; :" &&
	off=$(tperf probe -x "$B/target2" -D add | sed "s/.*:0x\([0-9a-f]*\).*/\1/") &&
	tperf probe -q -x "$B/target2" "g_t0556:ev=0x$off %di:s32" &&
	tperf stat -x, -e g_t0556:ev -- "$B/target2" >/dev/null 2>err &&
	grep -q "^5,,g_t0556:ev," err
'

test_expect_success ROOT '-l: FUNC+OFFSET where no source line starts' '
	test_when_finished "tperf probe -q -d \"g_t0556:*\" 2>/dev/null; :" &&
	tperf probe -q -x "$B/target0" "g_t0556:o=add+4" &&
	tperf probe -q -x "$B/target0" "g_t0556:l=visit:4" &&
	tperf probe -l "g_t0556:*" | sed "s/@.* in / in /" | sort >actual &&
	cat >expect <<-EOT &&
	  g_t0556:l            (on visit:4 in $B/target0)
	  g_t0556:l            (on visit:4 in $B/target0)
	  g_t0556:l            (on visit:4 in $B/target0)
	  g_t0556:l            (on visit:4 in $B/target0)
	  g_t0556:o            (on add+4 in $B/target0)
	EOT
	test_cmp expect actual
'

test_expect_success '-k (kernel probes): not available, said so' '
	test_must_fail tperf probe -k /boot/vmlinux do_sys_open 2>err &&
	echo "tperf: kprobes are not available on this kernel (no kprobe_events in tracefs): probe a user binary with -x BINARY" >expect &&
	test_cmp expect err
'

test_done
