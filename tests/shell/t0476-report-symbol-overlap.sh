#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Symbols that overlap resolve as perf's do: a zero-size symbol (_init)
# extended up to the next symbol covers the PLT entries made after it, and
# perf's lookup takes the first symbol containing the address on its way
# down its tree of symbols.  Samples (tests/shell/mk-perf-data.py) at every
# 4 bytes of .init and the PLT sections and at every function's and
# label's start and start + 1, in unstripped programs built four ways.
# Labels are perf's: in text and data sections, not hidden; of duplicates
# the one that got an end (the last zero-size one) wins.
. "$(dirname "$0")/lib.sh"

# the file offsets (hex) of section $2 of $1, every 4 bytes
section_offsets() {
	readelf -SW "$1" | sed 's/\[ */[/' | awk -v s="$2" '$2 == s { print $5, $6 }' |
		while read -r off size; do
			for ((a = 0; a < 0x$size; a += 4)); do printf "%x\n" $((0x$off + a)); done
		done
}

# .init, the PLT sections, and each function's start and the byte after
offsets() {
	for s in .init .plt .plt.got .plt.sec; do section_offsets "$1" $s; done
	readelf -sW "$1" | awk '($4 == "FUNC" || $4 == "NOTYPE") && $7 != "UND" && $7 != "ABS" { print $2 }' |
		while read -r v; do printf "%x\n%x\n" $((0x$v)) $((0x$v + 1)); done
}

cat >"$TRASH/prog.c" <<\EOF
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <stdio.h>
int twice(int x) { return 2 * x; }
int alias_of_twice(int x) __attribute__((alias("twice")));
/* labels: perf keeps those of text and data sections, but hidden ones */
__asm__(".text\n.globl plain_label\nplain_label:\n\tnop\n"
	".globl hidden_label\n.hidden hidden_label\nhidden_label:\n\tnop\n\tret\n"
	".data\n.globl data_label\ndata_label:\n\t.quad 1\n"
	/* two zero-size labels at one address: perf keeps the later one */
	".text\n.globl a_long_label_name\n.globl b\na_long_label_name:\nb:\n\tnop\n\tret\n");
int main(int argc, char **argv)
{
	long s = labs(argc) + toupper(argc) + (long)strlen(argv[0]) + abs(argc);

	printf("%ld\n", s + twice(argc));
	return 0;
}
EOF

for opts in "-O0" "-O2" "-O2 -Wl,-z,now" "-O2 -fcf-protection=full"; do
	test_expect_success PERF "PLT entries and functions ($opts) as perf resolves them" '
		cc -fno-builtin $opts -o "$TRASH/prog" "$TRASH/prog.c" &&
		cd "$TRASH" &&
		python3 "$TESTS_DIR/shell/mk-perf-data.py" s.data "$TRASH/prog" \
			$(offsets "$TRASH/prog" | sort -u) &&
		perf script -i s.data -F ip,sym,symoff >expect 2>/dev/null &&
		tperf script -i s.data -F ip,sym,symoff >actual &&
		test $(wc -l <expect) -gt 20 &&
		test_cmp expect actual &&
		grep -q "@plt+0x\|_init+0x[1-9a-f]" actual
	'
done

test_expect_success PERF 'the PLT of -O0: PLT0 is _init'\''s, the entries their own' '
	cc -fno-builtin -O0 -o "$TRASH/prog" "$TRASH/prog.c" &&
	cd "$TRASH" &&
	python3 "$TESTS_DIR/shell/mk-perf-data.py" s.data "$TRASH/prog" \
		$(section_offsets "$TRASH/prog" .plt) &&
	perf script -i s.data -F ip,sym >expect 2>/dev/null &&
	tperf script -i s.data -F ip,sym >actual &&
	test_cmp expect actual &&
	grep -q " _init$" actual && grep -q "@plt$" actual
'

# perf makes PLT symbols only for a file it found other symbols in: a
# stripped program whose .dynsym defines nothing keeps its PLT unresolved
test_expect_success PERF 'a stripped program with no symbol of its own: no PLT names either' '
	printf "%s\n" "#include <stdio.h>" "#include <string.h>" \
		"int main(int c, char **v) { puts(v[0]); return strlen(v[0]) > 100; }" >np.c &&
	cc -O2 -o np np.c && strip np &&
	! readelf -W --dyn-syms np | awk "NR > 3 && \$7 != \"UND\"" | grep -q . &&
	python3 "$TESTS_DIR/shell/mk-perf-data.py" s.data "$PWD/np" \
		$(section_offsets np .plt) &&
	perf script -i s.data -F ip,sym >expect 2>/dev/null &&
	tperf script -i s.data -F ip,sym >actual &&
	test_cmp expect actual &&
	! grep -q "@plt" actual
'

# Memory no file backs is named as perf names it: the map's basename
# ("//anon" is "anon"), which the DSO key also sorts by.
test_expect_success 'anonymous memory: the DSO "anon"' '
	cd "$TRASH" &&
	python3 "$TESTS_DIR/shell/mk-perf-data.py" anon.data //anon 10 20 30 &&
	tperf report -i anon.data --stdio --sort dso >out 2>/dev/null &&
	grep -q "^ *100\.00%  anon *$" out &&
	if test_have_prereq PERF; then
		perf report -i anon.data --stdio 2>/dev/null | grep -v "^# (Tip" >expect &&
		tperf report -i anon.data --stdio 2>/dev/null | grep -v "^# (Tip" >actual &&
		test_cmp expect actual
	fi
'

test_done
