#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: tracefs (tracefs and uprobe_events: changed, then checked restored)
# tperf probe places a uprobe at an offset the user gives (FUNC+OFFS with
# DWARF, from the symbol table, through a name only the symbol table has,
# and 0xADDR inside a function) only on the first byte of an instruction:
# one inside an instruction is refused, naming the instruction and where
# to probe instead; offsets on a boundary are probed and fire.  The
# functions' instructions are known (tests/probe/boundary.c).
. "$(dirname "$0")/lib.sh"

UE=/sys/kernel/tracing/uprobe_events
cc -O0 -g -o "$TRASH/bnd" "$TESTS_DIR/probe/boundary.c" ||
	fail_all "cannot build tests/probe/boundary.c"
B=$TRASH/bnd
cp "$B" "$B-nodwarf" && strip --strip-debug "$B-nodwarf" ||
	fail_all "cannot strip the debug information of tests/probe/boundary.c"
test "$("$B")" = 36 || fail_all "tests/probe/boundary.c does not compute 36"
cleanup='tperf probe -q -d "grp_t0561:*" 2>/dev/null; :'

# The file offset of function $2 of binary $1 plus $3, in hex (what
# uprobe_events and 0xADDR probes name), from the uprobe line tperf writes
# for the function's entry.  (Stripping the DWARF moves no code: seven,
# which the DWARF does not name, is found in $B-nodwarf.)
foff() {
	local line
	line=$(tperf probe -x "$1" -D "$2") || return 1
	printf "0x%x" $((${line##*:} + $3))
}

test_expect_success 'FUNC+OFFS with DWARF inside an instruction: refused, where to probe said' '
	for off in 2 3 4 5; do
		test_expect_code 234 tperf probe -n -x "$B" "grp_t0561:ev=five+$off" 2>err &&
		echo "tperf: offset $off is inside an instruction of '"'"'five'"'"' (at five+1, 5 bytes): probe five+1 or five+6" >expect &&
		test_cmp expect err || return 1
	done
'

test_expect_success 'FUNC+OFFS with DWARF on a boundary: the uprobe at that byte' '
	for off in 1 6 7 8; do
		tperf probe -x "$B" -D "grp_t0561:ev=five+$off" >actual &&
		echo "p:grp_t0561/ev $B:$(foff "$B" five $off)" >expect &&
		test_cmp expect actual || return 1
	done
'

test_expect_success 'FUNC+OFFS from the symbol table only (no DWARF): refused inside an instruction' '
	test_expect_code 234 tperf probe -n -x "$B-nodwarf" five+2 2>err &&
	echo "tperf: offset 2 is inside an instruction of '"'"'five'"'"' (at five+1, 5 bytes): probe five+1 or five+6" >expect &&
	test_cmp expect err &&
	test_expect_code 234 tperf probe -n -x "$B-nodwarf" seven+3 2>err &&
	echo "tperf: offset 3 is inside an instruction of '"'"'seven'"'"' (at seven, 5 bytes): probe seven or seven+5" >expect &&
	test_cmp expect err &&
	tperf probe -x "$B-nodwarf" -D "seven+5 %ax" >actual &&
	echo "p:probe_bnd_nodwarf/seven $B-nodwarf:$(foff "$B-nodwarf" seven 5) %ax" >expect &&
	test_cmp expect actual
'

test_expect_success 'inside the last instruction: the one boundary before it is suggested' '
	test_expect_code 234 tperf probe -n -x "$B-nodwarf" seven+6 2>err &&
	echo "tperf: offset 6 is inside an instruction of '"'"'seven'"'"' (at seven+5, 2 bytes): probe seven+5" >expect &&
	test_cmp expect err
'

test_expect_success 'a name the DWARF does not know (an alias): checked in the function probed' '
	test_expect_code 234 tperf probe -n -x "$B" five_alias+3 2>err &&
	echo "tperf: offset 3 is inside an instruction of '"'"'five'"'"' (at five+1, 5 bytes): probe five+1 or five+6" >expect &&
	test_cmp expect err &&
	tperf probe -x "$B" -D five_alias+1 >actual &&
	echo "p:probe_bnd/five_alias $B:$(foff "$B" five 1)" >expect &&
	test_cmp expect actual
'

test_expect_success '0xADDR inside an instruction of a function: refused, file offsets suggested' '
	at=$(foff "$B" five 2) && before=$(foff "$B" five 1) && after=$(foff "$B" five 6) &&
	test_expect_code 234 tperf probe -n -x "$B" "$at" 2>err &&
	echo "tperf: $at is inside an instruction of '"'"'five'"'"' (at five+1, 5 bytes): probe $before or $after" >expect &&
	test_cmp expect err &&
	test_expect_code 234 tperf probe -n -x "$B" "$before+1" 2>err &&
	test_cmp expect err &&
	tperf probe -x "$B" -D "$after" >actual &&
	echo "p:probe_bnd/abs_${after#0x} $B:$after" >expect &&
	test_cmp expect actual
'

test_expect_success 'code that does not decode before the offset: refused, not guessed' '
	# 172: -EILSEQ, as perf exits with its negative error code
	test_expect_code 172 tperf probe -n -x "$B-nodwarf" odd+2 2>err &&
	echo "tperf: cannot decode the instruction at odd: offset 2 of '"'"'odd'"'"' cannot be checked for an instruction boundary" >expect &&
	test_cmp expect err
'

# _fini has no size (crti.o's assembly): as perf, it ends where its
# section ends; its instructions: sub $8,%rsp (4 bytes), add $8,%rsp, ret
test_expect_success 'a function without a size (_fini): sized by its section, checked' '
	size=$(readelf -SW "$B-nodwarf" | sed -n "s/.* \.fini  *PROGBITS  *[0-9a-f]*  *[0-9a-f]*  *\([0-9a-f]*\) .*/\1/p") &&
	size=$((0x$size)) && test "$size" -gt 8 &&
	test_expect_code 254 tperf probe -n -x "$B-nodwarf" _fini+$size 2>err &&
	echo "tperf: offset $size is beyond function '"'"'_fini'"'"' ($size bytes)" >expect &&
	test_cmp expect err &&
	test_expect_code 234 tperf probe -n -x "$B-nodwarf" _fini+5 2>err &&
	echo "tperf: offset 5 is inside an instruction of '"'"'_fini'"'"' (at _fini+4, 4 bytes): probe _fini+4 or _fini+8" >expect &&
	test_cmp expect err &&
	at=$(foff "$B-nodwarf" _fini 5) && before=$(foff "$B-nodwarf" _fini 4) &&
	after=$(foff "$B-nodwarf" _fini 8) &&
	test_expect_code 234 tperf probe -n -x "$B-nodwarf" "$at" 2>err &&
	echo "tperf: $at is inside an instruction of '"'"'_fini'"'"' (at _fini+4, 4 bytes): probe $before or $after" >expect &&
	test_cmp expect err &&
	tperf probe -x "$B-nodwarf" -D "grp_t0561:f=_fini+4" >actual &&
	echo "p:grp_t0561/f $B-nodwarf:$before" >expect &&
	test_cmp expect actual
'

# e_machine (2 bytes at offset 18) made EM_AARCH64 (183): the same file,
# read as code tperf does not decode
test_expect_success 'code that is not x86: not checked, and a note says so' '
	cp "$B" arm && printf "\267\000" | dd of=arm bs=1 seek=18 conv=notrunc 2>/dev/null &&
	tperf probe -x arm -D grp_t0561:ev=five+2 >actual 2>err &&
	echo "p:grp_t0561/ev $PWD/arm:$(foff "$B" five 2)" >expect &&
	test_cmp expect actual &&
	echo "tperf: note: '"'"'arm'"'"' is not x86 code: whether '"'"'five+2'"'"' is on an instruction boundary is not checked" >expect &&
	test_cmp expect err
'

test_expect_success 'line and entry probes need no decoding: still placed' '
	tperf probe -x "$B" -D "grp_t0561:l=main:5" >out &&
	grep -q "^p:grp_t0561/l $B:0x[0-9a-f]*$" out &&
	tperf probe -x "$B-nodwarf" -D "grp_t0561:o=odd" >actual &&
	echo "p:grp_t0561/o $B-nodwarf:$(foff "$B-nodwarf" odd 0)" >expect &&
	test_cmp expect actual
'

# tracefs as it was: mounted for the test if it was not, unmounted after
# (call before the clean-ups that need it: they run last first)
tracefs_up() {
	grep -q " /sys/kernel/tracing tracefs " /proc/mounts && return 0
	mount -t tracefs nodev /sys/kernel/tracing &&
	test_when_finished "umount /sys/kernel/tracing"
}

# The events' names, one line a hit.
hits() {
	tperf script -i "$1" -F event 2>/dev/null | sed "s/: *$//; s/^ *//" | sort | uniq -c |
		sed "s/^ *//"
}

test_expect_success ROOT 'offsets on boundaries fire, and the program runs as without them' '
	tracefs_up &&
	cp "$UE" ue.before &&
	test_when_finished "$cleanup" &&
	tperf probe -q -x "$B" "grp_t0561:d1=five+1" &&
	tperf probe -q -x "$B" "grp_t0561:d6=five+6" &&
	tperf probe -q -x "$B" "grp_t0561:alias=five_alias+1" &&
	tperf probe -q -x "$B" "grp_t0561:abs=$(foff "$B-nodwarf" seven 5)" &&
	tperf record -q -o d.data -e "grp_t0561:*" -- "$B" >out &&
	echo 36 >expect &&
	test_cmp expect out &&
	hits d.data >actual &&
	printf "3 grp_t0561:abs\n3 grp_t0561:alias\n3 grp_t0561:d1\n3 grp_t0561:d6\n" >expect &&
	test_cmp expect actual &&
	tperf probe -q -d "grp_t0561:*" &&
	tperf probe -q -x "$B-nodwarf" "grp_t0561:s1=five+1" &&
	tperf probe -q -x "$B-nodwarf" "grp_t0561:s5=seven+5" &&
	tperf record -q -o s.data -e "grp_t0561:*" -- "$B-nodwarf" >out &&
	echo 36 >expect &&
	test_cmp expect out &&
	hits s.data >actual &&
	printf "3 grp_t0561:s1\n3 grp_t0561:s5\n" >expect &&
	test_cmp expect actual &&
	tperf probe -q -d "grp_t0561:*" &&
	test_cmp ue.before "$UE"
'

test_done
