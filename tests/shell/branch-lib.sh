# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the branch-stack tests t0485..t0489 (sourced after lib.sh):
# a small program and synthetic perf.data files of branch stacks on it
# (tests/shell/mk-perf-data-branch.py).

test_lazy_prereq CC 'command -v cc'

# prog: leaf, mid, top, main; offsets() prints "NAME OFFSET" (hex)
make_prog() {
	cat >prog.c <<-\EOC &&
	#include <stdio.h>
	int __attribute__((noinline)) leaf(int x) { return x * 3 + 1; }
	int __attribute__((noinline)) mid(int x) { int s = 0; for (int i = 0; i < x; i++) s += leaf(i); return s; }
	int __attribute__((noinline)) top(int x) { return mid(x) + mid(x + 1); }
	int main(int argc, char **argv) { (void)argv; printf("%d\n", top(argc)); return 0; }
	EOC
	cc -O1 -fno-inline -o prog prog.c
}

# the offset of symbol $1 in prog plus $2 (hex, 0 by default), in hex
off() {
	printf "%x" $((0x$(nm prog | sed -n "s/^0*\([0-9a-f]*\) T $1$/\1/p") + 0x${2:-0}))
}

mkbranch() { python3 "$TESTS_DIR/shell/mk-perf-data-branch.py" "$@"; }

# b.data: every flag of a branch entry (mispredicted, predicted, both,
# in_tx, abort, cycles, each type, the extended types, spec, priv),
# hw_idx, a second process, an entry into the kernel, an empty stack
make_flags_data() {
	L=$(off leaf) M=$(off mid) T=$(off top) N=$(off main) &&
	m2=$(off mid 2) m7=$(off mid 7) m12=$(off mid 12) m22=$(off mid 22) m32=$(off mid 32) &&
	t6=$(off top 6) n6=$(off main 6) &&
	mkbranch b.data prog --hw-idx \
		"br=$m12>$L/1,$m22>$M/2,$t6>$T/3,$n6>$N/4;period=10" \
		"br=$m2>$m12/8,$m7>$m22/50,$m12>$L/100053,$m22>$T/200000,$m32>$M/300000" \
		"br=$m2>$m12/400000,$m7>$m22/500000,$m12>$L/600000,$m22>$T/700000,$m32>$M/800000,$m32>$M/900000,$t6>$T/a00000,$n6>$N/b00000;idx=3" \
		"br=$m2>$m12/c00000,$m7>$m22/d00000,$m12>$L/e00000,$m22>$T/f00000,$m22>$T/4f00000,$m22>$T/8f00000,$m22>$T/1cf00000,$m22>$T/20f00000,$m22>$T/3cf00000;pid=4243" \
		"br=$m2>$m12/1000000,$m7>$m22/2000000,$m12>$L/3000000,$m22>$T/40000000,$m32>$M/80000000,$n6>=ffffffff81000000/1c0000000,=ffffffff81000010>$N/ffff0" \
		"br=;ip=$L"
}

# x.data: branch types across 4K and 2M boundaries, both ways, an extended type
make_cross_data() {
	mkbranch x.data prog \
		"br=$(off mid 2)>$(off leaf)/100000,$(off top 1)>3000/200000,$(off top 1)>400000/100000,4000>$(off top 1)/f00000" \
		"br=$(off mid 2)>$(off top)/100000,$(off mid 2)>2000/c00000,$(off mid 7)>=ffffffff81000000/100000"
}
