/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Branch stack entries (PERF_SAMPLE_BRANCH_STACK) as perf 6.1 reads them:
 * the flag word's fields, the names script and report print for them.
 */
#ifndef TPERF_BRANCH_H
#define TPERF_BRANCH_H

#include <stdbool.h>

#include "util/perf-data/event.h"

/* The third u64 of a perf_branch_entry (the kernel's bitfield, LSB first). */
#define BRANCH_MISPRED(f)	((unsigned int)((f) & 1))
#define BRANCH_PREDICTED(f)	((unsigned int)((f) >> 1 & 1))
#define BRANCH_IN_TX(f)		((unsigned int)((f) >> 2 & 1))
#define BRANCH_ABORT(f)		((unsigned int)((f) >> 3 & 1))
#define BRANCH_CYCLES(f)	((unsigned int)((f) >> 4 & 0xffff))
#define BRANCH_TYPE(f)		((unsigned int)((f) >> 20 & 0xf))
#define BRANCH_SPEC(f)		((unsigned int)((f) >> 24 & 0x3))
#define BRANCH_NEW_TYPE(f)	((unsigned int)((f) >> 26 & 0xf))
#define BRANCH_PRIV(f)		((unsigned int)((f) >> 30 & 0x7))

/** branch__mispred_char - 'P' predicted (it wins), 'M' mispredicted, '-' neither */
char branch__mispred_char(u64 flags);

/**
 * branch__type_name - the entry's type as perf 6.1 prints it: "" unknown,
 * "COND", "CALL" ...; an extended type (PERF_BR_EXTEND_ABI) by its
 * new_type ("FAULT_ALGN" ... "ARCH_5"), NULL past those (perf prints
 * "(null)")
 */
const char *branch__type_name(u64 flags);

#endif
