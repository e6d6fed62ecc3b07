// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An inlined function whose variables live in location lists at -O2 (for
 * the probe tests' -V --range): two instances in main.
 */
#include <stdio.h>
#include <stdlib.h>

static inline int work(int v, int w)
{
	int r = v * w;

	printf("%d\n", r);
	return r + v;
}

int main(int argc, char **argv)
{
	int x = atoi(argv[0]);

	return work(argc, x) + work(x, argc + 1);
}
