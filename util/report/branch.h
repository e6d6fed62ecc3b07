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

struct perf_event_attr;

/**
 * branch__lbr_chain - the callchain perf 6.1 makes of an LBR call-stack
 * sample (--call-graph lbr: BRANCH_STACK with CALL_STACK), callee first:
 * the sample's chain up to its PERF_CONTEXT_USER (the kernel's frames),
 * then the first branch's target and every branch's source
 * @attr: the sample's event
 * @s: the sample
 * @max_stack: perf looks for PERF_CONTEXT_USER in the first @max_stack
 * @out: receives the chain (markers included), room for callchain_nr +
 * branch_nr + 1
 *
 * A stack of no branch gives the kernel's frames only (perf reads a
 * branch past the end of the record there).
 * Return: its length, or 0 when the sample's own chain is the chain (not
 * an LBR call stack, no user part).
 */
size_t branch__lbr_chain(const struct perf_event_attr *attr, const struct perf_sample *s,
			 u64 max_stack, u64 *out);

#endif
