// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Calls lib_spin() of a shared library built by the test
 * (record-shlib-lib.c as librecordspin.so): its samples must resolve to
 * that library.  Also: argv[1] "wait" sleeps first (for -p tests: the
 * library is mapped before the recording starts), then spins.
 */
#include <string.h>
#include <unistd.h>

void lib_spin(unsigned long n);	/* librecordspin.so, from record-shlib-lib.c */

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "wait"))
		sleep(1);
	lib_spin(argc > 2 ? 400000000UL : 200000000UL);
	return 0;
}
