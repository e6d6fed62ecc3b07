// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The program of the instruction-boundary tests of tperf probe (t0561):
 * the functions of boundary-funcs.h, which main() calls three times each,
 * printing 36.
 */
#include <stdio.h>

#include "boundary-funcs.h"

int main(void)
{
	int sum = 0;

	for (int i = 0; i < 3; i++)
		sum += five() + seven();
	printf("%d\n", sum);
	return 0;
}
