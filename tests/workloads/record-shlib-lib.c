// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The shared library of record-shlib.c, built by t0400 with -shared -fPIC
 * as librecordspin.so (make leaves X-lib.c pairs to their tests).
 */
static volatile unsigned long sink;

void lib_spin(unsigned long n);

void lib_spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
}
