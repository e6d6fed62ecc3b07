/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Functions of one name in several units, for t0558. */
#ifndef UNITS_H
#define UNITS_H

/* inlined in both units, out of line in a.c too (its address is taken) */
static inline int twice(int x)
{
	int y = x * 2;

	return y + (x & 1);
}

/* a short name (DW_FORM_string, inline in .debug_info), inlined everywhere */
static inline int sq(int x)
{
	return x * x;
}

int do_twice(int x);	/* "twice" is the tail of this name's string */
int run_a(int x);
int run_b(int x);
int (*twice_ptr(void))(int);

#endif
