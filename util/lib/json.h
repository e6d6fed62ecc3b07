/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Writing JSON text: strings from anywhere (event names from the command
 * line or sysfs, units, process names) quoted so that any JSON reader
 * accepts them.
 */
#ifndef TPERF_JSON_H
#define TPERF_JSON_H

#include <stdio.h>

/*
 * Write @s as a JSON string, quotes included: '"', '\\' and control
 * characters escaped, valid UTF-8 as it is, a byte that is not UTF-8 as
 * \u00XX (its Latin-1 character).
 */
void json__fprint_string(FILE *fp, const char *s);

#endif
