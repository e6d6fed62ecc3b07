// SPDX-License-Identifier: GPL-2.0-or-later
/* The shared library of the probe tests' target program. */
int lib_scale(int v)
{
	return v * 3;
}
