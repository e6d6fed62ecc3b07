// SPDX-License-Identifier: GPL-2.0-or-later
/* The shared library of dwarf-unwind.c (libdwarfspin.so): lib_spin -> lib_inner. */
extern volatile unsigned long sink;

__attribute__((noinline)) static int lib_inner(int n)
{
	unsigned long s = 0;

	for (int i = 0; i < n * 20000; i++)
		s = s * 31 + (unsigned long)i + sink;
	sink = s;
	return (int)(s & 1);
}

int lib_spin(int n)
{
	int r = lib_inner(n);

	sink += r;
	return r + 1;
}
