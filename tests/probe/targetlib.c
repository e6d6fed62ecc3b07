// SPDX-License-Identifier: GPL-2.0-or-later
/* The shared library of the probe tests' target program, with a marker. */
#include <sys/sdt.h>

int lib_scale(int v)
{
	DTRACE_PROBE1(targetlib, scale, v);
	return v * 3;
}
