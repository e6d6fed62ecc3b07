// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <stdlib.h>

#include "units.h"

static __attribute__((noinline)) int helper(int v)
{
	return twice(v - 1) * sq(v + 2) - 3;
}

int __attribute__((noinline)) do_twice(int x)
{
	return twice(x) + 5;
}

int run_b(int x)
{
	return helper(x) + sq(x);
}

int main(int argc, char **argv)
{
	int v = argc > 1 ? atoi(argv[1]) : 3;

	printf("%d %d %d %d\n", run_a(v), run_b(v), do_twice(v), twice_ptr()(v));
	return 0;
}
