// SPDX-License-Identifier: GPL-2.0-or-later
/* The shared library of record-shlib.c. */
static volatile unsigned long sink;

void lib_spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
}
