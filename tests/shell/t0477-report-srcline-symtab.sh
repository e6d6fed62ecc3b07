#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Source lines where no line table has the address.  binutils' addr2line,
# which perf runs, then answers from the symbol table: "file.c:?" for a
# local function after a FILE symbol, "??:?" for the others, nothing below
# every function symbol; perf prints "file.c:0", "??:0", or falls back on
# sym+OFFSET and dso[ADDR].  Samples (tests/shell/mk-perf-data.py) at every
# function's start and the byte after, in a program built without -g and
# in a library stripped down to its .dynsym.
. "$(dirname "$0")/lib.sh"
test_lazy_prereq CC 'command -v cc'
test_lazy_prereq CXX 'command -v g++'

cat >"$TRASH/a.c" <<\EOF
static volatile int sink;
static __attribute__((noinline)) void a_local(int x) { sink += x * 3; }
void a_global(int x) { a_local(x); sink += 2; }
EOF
cat >"$TRASH/b.c" <<\EOF
static volatile int sink;
void a_global(int x);
static __attribute__((noinline)) void b_local(int x) { sink += x * 5; }
void b_global(int x) { b_local(x); sink += 1; }
int main(int argc, char **argv) { a_global(argc); b_global(argc); return 0; }
EOF
cat >"$TRASH/lib.c" <<\EOF
static volatile int sink;
static __attribute__((noinline)) void lib_local(int x) { sink += x * 7; }
void lib_exported(int x) { lib_local(x); sink += 3; }
EOF

# the start and the byte after of each function symbol in table $2 of $1
# (the program's text addresses are its file offsets), and .text's start
offsets() {
	readelf -W "$2" "$1" | awk '$4 == "FUNC" && $7 != "UND" { print $2 }' |
		while read -r v; do printf "%x\n%x\n" $((0x$v)) $((0x$v + 1)); done
	readelf -SW "$1" | sed 's/\[ */[/' | awk '$2 == ".text" { print $5 }'
}

# the srcline (or srcfile) of each symbol
sym_key() {
	tperf report -i "$1" --stdio --sort sym,$2 -q | sed -n "s/.*\] \([^ ]*\)  *\([^ ]*\) *$/\1 \2/p" |
		sort -u
}

test_expect_success CC 'a program without -g: its samples and their symbol-table lines' '
	cd "$TRASH" &&
	cc -O1 -o prog a.c b.c &&
	python3 "$TESTS_DIR/shell/mk-perf-data.py" prog.data "$TRASH/prog" \
		$(offsets prog --syms | sort -u)
'

test_expect_success CC 'local functions get the FILE before them, the others ??:0' '
	cd "$TRASH" &&
	sym_key prog.data srcline >lines &&
	grep -qx "a_local a.c:0" lines &&
	grep -qx "b_local b.c:0" lines &&
	grep -qx "frame_dummy crtstuff.c:0" lines &&
	grep -qx "a_global ??:0" lines &&
	grep -qx "b_global ??:0" lines &&
	grep -qx "main ??:0" lines &&
	tperf report -i prog.data --stdio --sort srcfile -q >files &&
	grep -q "%  a\.c *$" files && grep -q "%  crtstuff\.c *$" files &&
	grep -q "%  *$" files && ! grep -q "??" files
'

test_expect_success CC 'script -F srcline prints file.c:0 and nothing for ??:0' '
	cd "$TRASH" &&
	tperf script -i prog.data -F ip,sym,srcline >out &&
	grep -A1 " a_local$" out | grep -qx "  a\.c:0" &&
	grep -A1 " b_local$" out | grep -qx "  b\.c:0" &&
	! grep -A1 " a_global$" out | grep -q "^  [^ ]" &&
	! grep -A1 " main$" out | grep -q "^  [^ ]"
'

# perf's and tperf's report of $1 by each key that follows, and script's srcline
same_lines() {
	f=$1; shift
	for k in "$@"; do
		perf report -i $f --stdio --sort $k 2>/dev/null | grep -v "^#" >expect &&
		tperf report -i $f --stdio --sort $k | grep -v "^#" >actual &&
		test_cmp expect actual || return 1
	done &&
	perf script -i $f -F ip,sym,srcline >expect 2>/dev/null &&
	tperf script -i $f -F ip,sym,srcline >actual &&
	test_cmp expect actual
}

test_expect_success CC,PERF 'the program: perf'"'"'s srcline and srcfile, report and script' '
	cd "$TRASH" &&
	same_lines prog.data srcline srcfile sym,srcline sym,srcfile
'

test_expect_success CC 'a library stripped to its .dynsym: ??:0 above an export, dso[ADDR] below' '
	cd "$TRASH" &&
	cc -O1 -shared -fPIC -o libt.so lib.c &&
	strip --strip-all libt.so &&
	! readelf -SW libt.so | grep -q "\.symtab" &&
	python3 "$TESTS_DIR/shell/mk-perf-data.py" lib.data "$TRASH/libt.so" \
		$(offsets libt.so --dyn-syms | sort -u) &&
	sym_key lib.data srcline >lines &&
	grep -qx "lib_exported ??:0" lines &&
	tperf report -i lib.data --stdio --sort srcline -q >out &&
	grep -q "%  libt\.so\[[0-9a-f]*\]$" out &&
	tperf script -i lib.data -F ip,sym,srcline >out &&
	grep -q "^  libt\.so\[[0-9a-f]*\]$" out
'

# (sym,srcline: perf sizes the column before it has the line of the entry
# below the export, whose symbol no other entry has: "libt.so[104")
test_expect_success CC,PERF 'the library: perf'"'"'s srcline and srcfile, report and script' '
	cd "$TRASH" &&
	same_lines lib.data srcline srcfile sym,srcline
'

# An inline function of a header used by four units: the link keeps one
# copy, and each unit's DWARF range points at it.  addr2line takes the
# first unit in .debug_info (and, its sequence starting in the header,
# names that unit's file); libdw's dwarf_addrdie() may find another.
test_expect_success CXX 'a function several units claim: the first unit, as addr2line' '
	cd "$TRASH" &&
	printf "%s\n" "inline __attribute__((noinline)) unsigned long mix(unsigned long x)" \
		"{ for (int i = 0; i < 8; i++) x = x * 31 + (x >> 7); return x; }" >h.h &&
	for u in a b c d; do
		printf "#include \"h.h\"\nunsigned long %s_use(unsigned long v) { return mix(v); }\n" \
			$u >$u.cpp || exit 1
	done &&
	printf "%s\n" "#include \"h.h\"" "int main(int c, char **) { return (int)mix(c); }" >m.cpp &&
	g++ -O2 -g -o cm m.cpp a.cpp b.cpp c.cpp d.cpp &&
	v=$(nm cm | sed -n "s/^0*\([0-9a-f]*\) W _Z3mixm$/\1/p") &&
	test -n "$v" &&
	want=$(addr2line -e cm 0x$v) && want=${want##*/} &&
	python3 "$TESTS_DIR/shell/mk-perf-data.py" cm.data "$TRASH/cm" $v &&
	tperf script -i cm.data -F ip,sym,srcline >out &&
	grep -qx "  $want" out &&
	if test_have_prereq PERF; then
		perf script -i cm.data -F ip,sym,srcline >expect 2>/dev/null &&
		test_cmp expect out
	fi
'

# Callchains keyed by source line: a frame without one (a PLT entry, named
# by the symbol before it) goes before its siblings with one, as in perf.
test_expect_success CC 'srcline keys: a frame without a line before its equal siblings' '
	cd "$TRASH" &&
	printf "%s\n" "#include <stdio.h>" "static volatile int sink;" \
		"__attribute__((noinline)) void lined(int x) { sink += x; }" \
		"int main(int argc, char **argv)" "{" "	lined(argc);" "	puts(argv[0]);" \
		"	lined(argc + 1);" "	return 0;" "}" >plt.c &&
	cc -O0 -g -o plt plt.c &&
	l=$(nm plt | awk "\$3 == \"lined\" { print \$1 }") && l=$(printf %x $((0x$l + 4))) &&
	p=$(readelf -SW plt | sed "s/\[ */[/" | awk "\$2 == \".plt\" { print \$4 }") &&
	test -n "$p" &&
	objdump -d plt | awk "/<main>:/,/^\$/" | grep -A1 "call" |
		sed -n "s/^ *\([0-9a-f]*\):.*/\1/p" | grep -v "^$" >ret &&
	test $(wc -l <ret) = 6 &&
	sed -n "2p;4p;6p" ret >rets &&
	chains=$(while read -r r; do echo "$l,$r $p,$r"; done <rets) &&
	python3 "$TESTS_DIR/shell/mk-perf-data.py" plt.data "$TRASH/plt" -g $chains \
		"$l,$p,$(head -1 rets)" &&
	tperf report -i plt.data --stdio --no-children -g graph,0,callee,srcline >out &&
	sed -n "/\[\.\] lined/,/^\$/p" out | grep -- "--[0-9.]*%--" | head -1 |
		grep -q -- "--14\.29%--_init$" &&
	tperf report -i plt.data --stdio --children -g graph,0,caller,srcline >out &&
	sed -n "/\[\.\] main/,/^\$/p" out | grep -- "--[0-9.]*%--" |
		grep -A1 -- "--28\.57%--main plt\.c:" | grep -c -- "--14\.29%--_init$" >n &&
	test $(cat n) = 2
'

test_expect_success CC,PERF 'srcline keys with frames without a line: perf'"'"'s graphs' '
	cd "$TRASH" &&
	for o in "--children -g graph,0,caller,srcline" "--no-children -g graph,0,callee,srcline" \
		 "-g fractal,0,callee,srcline" "--no-children -g folded,0,caller,srcline"; do
		perf report -i plt.data --stdio $o 2>/dev/null | grep -v "^# (Tip" >expect &&
		tperf report -i plt.data --stdio $o 2>/dev/null | grep -v "^# (Tip" >actual &&
		test_cmp expect actual || exit 1
	done
'

# the file offset of virtual address $2 in ELF file $1 (hex)
file_offset() {
	readelf -lW "$1" | awk '$1 == "LOAD" { print $2, $3, $6 }' | while read -r o v sz; do
		if [ "$2" -ge $((v)) ] && [ "$2" -lt $((v + sz)) ]; then
			printf "%x\n" $(($2 - v + o))
		fi
	done
}

# A data object's "+0x" offset is the entry's address less the object's
# mapped start: small for a callchain frame's entry (the frame's address),
# wrapped for a sample's (perf keeps the DSO-relative address there).
test_expect_success CC 'a data object in samples and callchains: perf'"'"'s offsets' '
	cd "$TRASH" &&
	printf "%s\n" "int table[4096] = { 1 };" \
		"__attribute__((noinline)) int f(int i) { return table[i]; }" \
		"int main(int c, char **v) { (void)v; return f(c); }" >obj.c &&
	cc -O1 -o obj obj.c &&
	t=$(nm obj | awk "\$3 == \"table\" { print \$1 }") &&
	m=$(nm obj | awk "\$3 == \"main\" { print \$1 }") &&
	off=$(file_offset obj $((0x$t + 16))) &&
	test -n "$off" &&
	python3 "$TESTS_DIR/shell/mk-perf-data.py" objg.data "$TRASH/obj" -g $m,$off,$m &&
	python3 "$TESTS_DIR/shell/mk-perf-data.py" objs.data "$TRASH/obj" $off $m &&
	tperf report -i objg.data --stdio --children -g none >out 2>/dev/null &&
	grep -q "%  symprobe  obj  *\[\.\] table+0x10$" out &&
	tperf report -i objs.data --stdio >out 2>/dev/null &&
	grep -q "%  symprobe  obj  *\[\.\] table+0xffff8[0-9a-f]*10$" out &&
	if test_have_prereq PERF; then
		for f in objg.data objs.data; do
			for o in --children --no-children; do
				perf report -i $f --stdio $o 2>/dev/null | grep -v "^# (Tip" >expect &&
				tperf report -i $f --stdio $o 2>/dev/null | grep -v "^# (Tip" >actual &&
				test_cmp expect actual || exit 1
			done
		done
	fi
'

test_done
