// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Branch stack entries: the names of their flags (see branch.h).
 */
#include <linux/perf_event.h>
#include <string.h>

#include "util/report/branch.h"

char branch__mispred_char(u64 flags)
{
	if (BRANCH_PREDICTED(flags))
		return 'P';
	return BRANCH_MISPRED(flags) ? 'M' : '-';
}

const char *branch__type_name(u64 flags)
{
	static const char *const types[16] = {
		"", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL", "SYSRET",
		"COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX", NULL,
	};
	/* perf 6.1's names of the extended types, those of a non-arm64 build */
	static const char *const new_types[8] = {
		"FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1", "ARCH_2", "ARCH_3", "ARCH_4",
		"ARCH_5",
	};
	unsigned int t = BRANCH_TYPE(flags), n = BRANCH_NEW_TYPE(flags);

	if (t != 15)	/* PERF_BR_EXTEND_ABI */
		return types[t];
	return n < 8 ? new_types[n] : NULL;
}

size_t branch__lbr_chain(const struct perf_event_attr *attr, const struct perf_sample *s,
			 u64 max_stack, u64 *out)
{
	u64 nr = s->callchain_nr < max_stack ? s->callchain_nr : max_stack, i, n;

	if (!(attr->sample_type & PERF_SAMPLE_BRANCH_STACK) ||
	    !(attr->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK) || !s->callchain)
		return 0;
	for (i = 0; i < nr && s->callchain[i] != PERF_CONTEXT_USER; i++)
		;
	if (i == nr)
		return 0;	/* LBR only changes the user part */
	memcpy(out, s->callchain, (i + 1) * sizeof(*out));
	n = i + 1;
	if (!s->branch_nr)
		return n;
	out[n++] = s->branch_entries[0].to;
	for (u64 k = 0; k < s->branch_nr; k++)
		out[n++] = s->branch_entries[k].from;
	return n;
}
