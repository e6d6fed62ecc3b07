// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86: the CPUID feature string of perf.data ("GenuineIntel,6,85,4":
 * vendor, display family, display model, stepping), from the cpuid
 * instruction (leaf 0 for the vendor, leaf 1 for the signature).
 */
#include <cpuid.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/perf-data/header.h"

/**
 * arch_get_cpuid - see util/perf-data/header.h
 */
int arch_get_cpuid(char *buf, size_t size)
{
	unsigned int a, b, c, d, family, model, stepping;
	char vendor[13];

	if (!__get_cpuid(0, &a, &b, &c, &d))
		return -ENOSYS;
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = '\0';
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return -ENOSYS;
	stepping = a & 0xf;
	model = (a >> 4) & 0xf;
	family = (a >> 8) & 0xf;
	if (family == 0xf)
		family += (a >> 20) & 0xff;
	if (family >= 6)
		model += ((a >> 16) & 0xf) << 4;
	if ((size_t)snprintf(buf, size, "%s,%u,%u,%u", vendor, family, model, stepping) >= size)
		return -ENOSPC;
	return 0;
}
