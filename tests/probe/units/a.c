// SPDX-License-Identifier: GPL-2.0-or-later
#include "units.h"

/* static, and of the same name as b.c's */
static __attribute__((noinline)) int helper(int v)
{
	return twice(v) + sq(v) + 1;
}

int (*twice_ptr(void))(int)
{
	return twice;
}

int run_a(int x)
{
	return helper(x) + twice(x + 3);
}
