// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The shared library of record-shlib.c (built by t0400 with
 * -DRECORD_SHLIB -shared -fPIC as librecordspin.so).  Built alone, as
 * `make workloads` builds every workload, it is a program that spins.
 */
static volatile unsigned long sink;

void lib_spin(unsigned long n);

void lib_spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
}

#ifndef RECORD_SHLIB
int main(void)
{
	lib_spin(100000000UL);
	return 0;
}
#endif
