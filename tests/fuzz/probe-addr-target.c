// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The program fuzz-probe-addr resolves probe definitions against: the
 * Makefile builds it beside the fuzz target (-O2 -g, and a copy stripped
 * of its DWARF), never runs it.  Functions of several shapes: with
 * DWARF, inlined, static, assembly only in the symbol table, one whose
 * first byte is no x86-64 instruction, an alias the DWARF does not name,
 * loops with several lines, and an SDT marker when <sys/sdt.h> is there.
 */
#include <stdio.h>
#include <stdlib.h>
#if __has_include(<sys/sdt.h>)
#include <sys/sdt.h>
#else
#define DTRACE_PROBE1(provider, name, arg) ((void)(arg))
#endif

#include "../probe/boundary-funcs.h"

static inline int square(int v)
{
	return v * v;
}

__attribute__((noinline)) static long sum_squares(int n)
{
	long s = 0;

	for (int i = 0; i < n; i++) {
		s += square(i);
		if (s > 1000)
			s -= 7;
	}
	return s;
}

struct item {
	const char *name;
	int weight;
};

__attribute__((noinline)) int visit(const struct item *it, int n)
{
	int total = 0;

	for (int i = 0; i < n; i++) {
		DTRACE_PROBE1(fz, mark, it[i].weight);
		total += it[i].weight * square(i);
	}
	return total;
}

int main(int argc, char **argv)
{
	struct item items[] = { { "one", 1 }, { "two", argc } };
	long r = sum_squares(argc + 3) + visit(items, 2) + five() + seven();

	printf("%ld %s\n", r, argv[0]);
	return r == 42;
}
