/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Included by srcline-include.c: its functions are the first code of the
 * unit, so the line table's first sequence starts in this file.
 */
static volatile unsigned long sink;

static void __attribute__((noinline)) spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
}
