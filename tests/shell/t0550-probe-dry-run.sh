#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: tracefs (tracefs and uprobe_events: changed, then checked restored)
# tperf probe -n: the uprobe lines of functions, lines, variables, returns,
# inlined functions and a shared library, against perf probe -n -v on the
# same binaries (-O0 and -O2); definitions and names validated.
. "$(dirname "$0")/lib.sh"

B=$TRASH/bin
sh "$TESTS_DIR/probe/build.sh" "$B" || fail_all "cannot build the probe targets"

# perf's lines: "Writing event: LINE" of perf probe -n -v (its build-id
# and probe caches kept in the scratch folder).
export PERF_BUILDID_DIR=$TRASH/.debug
perf_lines() {
	HOME=$TRASH perf probe -n -v -x "$1" "$2" 2>&1 | sed -n 's/^Writing event: //p'
}

for bin in target0 target2; do
	for def in 'add a b' 'add $params' 'visit it n' 'visit it->name:string it->weight' \
		   'visit%return $retval' 'main%return $retval' \
		   'square' 'add $comm a:x32' 'visit+4' 'ev=add a' 'grp:ev2=add' \
		   'visit it->id:u16 n:x8' 'add%return'; do
		test_expect_success PERF "$bin '$def': the line perf writes" '
			perf_lines "$B/$bin" "$def" >expect &&
			test -s expect &&
			tperf probe -x "$B/$bin" -D "$def" >actual &&
			test_cmp expect actual
		'
	done
done

test_expect_success PERF 'target0 target.c:60: an absolute line' '
	perf_lines "$B/target0" "target.c:60" >expect &&
	test -s expect &&
	tperf probe -x "$B/target0" -D "target.c:60" >actual &&
	test_cmp expect actual
'

for def in 'add;return*' 'visit;total*' 'main;sum=add*' 'target.c;return*' \
	   'visit;for* i' 'e1=visit;total+=* total'; do
	test_expect_success PERF "target0 '$def': lines matching a pattern, as perf" '
		perf_lines "$B/target0" "$def" >expect &&
		test -s expect &&
		tperf probe -x "$B/target0" -D "$def" >actual &&
		test_cmp expect actual
	'
done

test_expect_success 'a pattern matching no line with code' '
	test_must_fail tperf probe -n -x "$B/target0" "visit;nomatch*" 2>err &&
	echo "tperf: no line with code matches the pattern '"'"'nomatch*'"'"' in '"'"'visit'"'"'" >expect &&
	test_cmp expect err
'

test_expect_success PERF 'target0 visit:4 total i: a relative line' '
	perf_lines "$B/target0" "visit:4 total i" >expect &&
	test -s expect &&
	tperf probe -x "$B/target0" -D "visit:4 total i" >actual &&
	test_cmp expect actual
'

test_expect_success PERF 'target0 visit:4 $vars: every variable at every place' '
	perf_lines "$B/target0" "visit:4 \$vars" >expect &&
	test -s expect &&
	tperf probe -x "$B/target0" -D "visit:4 \$vars" >actual &&
	test_cmp expect actual
'

test_expect_success PERF 'a function of a shared library' '
	perf_lines "$B/O0/libtarget.so" "lib_scale v" >expect &&
	tperf probe -x "$B/O0/libtarget.so" -D "lib_scale v" >actual &&
	test_cmp expect actual &&
	grep -q "^p:probe_libtarget/lib_scale $B/O0/libtarget.so:0x[0-9a-f]* v=" actual
'

test_expect_success 'an inlined function at -O2: one line per instance, one event' '
	tperf probe -x "$B/target2" -D square >actual &&
	test $(wc -l <actual) -ge 2 &&
	test $(cut -d" " -f1 actual | sort -u) = p:probe_target2/square &&
	# 249: -E2BIG, as perf exits with its negative error code
	test_expect_code 249 tperf probe -n -x "$B/target2" --max-probes 1 square 2>err &&
	echo "tperf: '"'"'square'"'"' has more than 1 probe points: raise --max-probes" >expect &&
	test_cmp expect err
'

test_expect_success '--no-inlines skips the inlined instances' '
	test_must_fail tperf probe -n -x "$B/target2" --no-inlines square 2>err &&
	echo "tperf: no function '"'"'square'"'"' in the debug information" >expect &&
	test_cmp expect err
'

test_expect_success 'bitfields, array elements and globals' '
	tperf probe -x "$B/target0" -D "visit it->flag it->kind it[1].tag:string counter" >out &&
	sed "s/^p:probe_target0\/visit [^ ]* //" out >actual &&
	addr=$(nm "$B/target0" | sed -n "s/^0*\([0-9a-f]*\) [dD] counter$/\1/p") &&
	echo "flag=+24(-32(%bp)):b3@0/32 kind=+24(-32(%bp)):b5@3/32 tag=+65(-32(%bp)):string counter=@+0x$addr:s64" >expect &&
	test_cmp expect actual
'

test_expect_success 'a binary without DWARF: symbols work, variables are refused' '
	tperf probe -x "$B/target-nodwarf" -D "add %di:s32 \$comm" >out &&
	grep -q "^p:probe_target-nodwarf/add \|^p:probe_target_nodwarf/add $B/target-nodwarf:0x[0-9a-f]* %di:s32 \$comm$" out &&
	tperf probe -x "$B/target-nodwarf" -D "add%return \$retval" >out &&
	grep -q "^r:probe_target_nodwarf/add__return .* \$retval$" out &&
	test_must_fail tperf probe -n -x "$B/target-nodwarf" "add a" 2>err &&
	grep -q "^tperf: '"'"'$B/target-nodwarf'"'"' has no debug information (DWARF): " err
'

test_expect_success 'errors name the problem and suggest' '
	test_must_fail tperf probe -n -x "$B/target0" nosuch 2>err &&
	echo "tperf: no function '"'"'nosuch'"'"' in the debug information" >expect &&
	test_cmp expect err &&
	test_must_fail tperf probe -n -x "$B/target0" "target.c:1" 2>err &&
	grep -q "^tperf: line 1 of '"'"'target.c'"'"' has no code; nearest line with code: " err &&
	test_must_fail tperf probe -n -x "$B/target0" "add zz" 2>err &&
	grep -Eq "^tperf: no variable '"'"'zz'"'"' at add\+[0-9]+; available: '"'"'a'"'"', '"'"'b'"'"'$" err &&
	test_must_fail tperf probe -n -x "$B/target0" "visit it->nope" 2>err &&
	echo "tperf: struct item has no member '"'"'nope'"'"'" >expect &&
	test_cmp expect err &&
	test_must_fail tperf probe -n -x "$B/target0" "visit n->x" 2>err &&
	grep -q "is not a pointer" err &&
	test_must_fail tperf probe -n -x "$B/target0" "add a:string" 2>err &&
	grep -q "not a char pointer or array" err &&
	test_must_fail tperf probe -n -x "$B/target0" "add \$retval" 2>err &&
	grep -q "only available at" err
'

# an offset that wraps around (2^64 - 14) escaped the bound and put the
# uprobe inside another function: the traced program then looped
test_expect_success 'an offset beyond the function is refused, also one that wraps around' '
	size=$(nm -S "$B/target0" | sed -n "s/^[0-9a-f]* \([0-9a-f]*\) T add$/\1/p") &&
	size=$((0x$size)) && test "$size" -gt 0 &&
	for off in 0xfffffffffffffff2 $size 100000; do
		test_must_fail tperf probe -n -x "$B/target0" "grp:ev=add+$off" 2>err &&
		echo "tperf: offset $(printf %u $off) is beyond function '"'"'add'"'"' ($size bytes)" >expect &&
		test_cmp expect err || return 1
	done &&
	test_must_fail tperf probe -n -x "$B/target-nodwarf" "add+0xfffffffffffffff2" 2>err &&
	grep -q "^tperf: offset 18446744073709551602 is beyond function '"'"'add'"'"' (" err &&
	tperf probe -x "$B/target0" -D "add+$((size - 1))" >out &&
	grep -q "^p:probe_target0/add $B/target0:0x[0-9a-f]*$" out
'

test_expect_success 'an optimised-out variable is its own message' '
	test_must_fail tperf probe -n -x "$B/target2" "square v" 2>err &&
	grep -Eq "^tperf: variable '"'"'v'"'"' (is not available at|at .* is computed|at .* has been optimised out)" err
'

test_expect_success 'bad definitions: a caret under the bad part' '
	test_must_fail tperf probe -n -x "$B/target0" "add a:u7" 2>err &&
	cat >expect <<-\EOT &&
	tperf: probe syntax error: '"'"'add a:u7'"'"'
	                                  ^ unknown type '"'"'u7'"'"' (use u8..u64, s8..s64, x8..x64 or string)
	EOT
	test_cmp expect err &&
	test_must_fail tperf probe -n -x "$B/target0" "add;rm -rf" 2>err &&
	head -1 err | grep -q "probe syntax error" &&
	test_must_fail tperf probe -n -x "$B/target0" "9ev=add" 2>err &&
	grep -q "invalid event name '"'"'9ev'"'"'" err &&
	test_must_fail tperf probe -n -x "$B/target0" "add a\`id\`" 2>err &&
	grep -q "unexpected character" err &&
	test_must_fail tperf probe -n -x "$B/target0" "add+x" 2>err &&
	grep -q "expected a byte offset" err
'

test_expect_success 'kernel probes: not available' '
	test_must_fail tperf probe do_sys_open 2>err &&
	echo "tperf: kprobes are not available on this kernel (no kprobe_events in tracefs): probe a user binary with -x BINARY" >expect &&
	test_cmp expect err
'

test_expect_success 'a path that is not an ELF file' '
	echo hello >notelf &&
	test_must_fail tperf probe -n -x notelf add 2>err &&
	echo "tperf: '"'"'notelf'"'"' is not an ELF file" >expect &&
	test_cmp expect err
'

test_expect_success PERF '-F lists the symbols as perf does' '
	HOME=$TRASH perf probe -x "$B/target0" -F >expect &&
	tperf probe -x "$B/target0" -F >actual &&
	test_cmp expect actual &&
	HOME=$TRASH perf probe -x "$B/target0" -F "v*" >expect &&
	tperf probe -x "$B/target0" -F "v*" >actual &&
	test_cmp expect actual
'

for f in "*" "!*a*" "*@plt"; do
	for bin in target0 target-nodwarf O2/libtarget.so; do
		test "$f$bin" = "*@pltO2/libtarget.so" && continue	# (no PLT)
		test_expect_success PERF "-F '$f' on $bin: labels, PLT entries, both symbol tables" '
			HOME=$TRASH perf probe -x "$B/$bin" -F "$f" >expect &&
			test -s expect &&
			tperf probe -x "$B/$bin" -F "$f" >actual &&
			test_cmp expect actual
		'
	done
done

test_expect_success PERF '-F of a library lists a symbol of both tables twice, as perf' '
	tperf probe -x "$B/O2/libtarget.so" -F "lib_*" >actual &&
	printf "lib_scale\nlib_scale\n" >expect &&
	test_cmp expect actual
'

test_done
