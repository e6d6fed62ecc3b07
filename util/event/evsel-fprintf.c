// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf_event_attr printing in the layout of `perf stat -vv` / `perf record
 * -vv`: a dashed line, "perf_event_attr:", one non-zero field per line
 * (name left-aligned in 32 columns), a dashed line.  Union fields are
 * printed with both names ("{ sample_period, sample_freq }"), bit masks
 * decoded ("IP|TID|TIME").
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "util/event/evsel.h"

struct bit_name {
	uint64_t bit;
	const char *name;
};

/* In perf's order, which is not quite the bit order (IDENTIFIER, REGS_INTR). */
static const struct bit_name sample_type_bits[] = {
	{ PERF_SAMPLE_IP, "IP" }, { PERF_SAMPLE_TID, "TID" }, { PERF_SAMPLE_TIME, "TIME" },
	{ PERF_SAMPLE_ADDR, "ADDR" }, { PERF_SAMPLE_READ, "READ" },
	{ PERF_SAMPLE_CALLCHAIN, "CALLCHAIN" }, { PERF_SAMPLE_ID, "ID" },
	{ PERF_SAMPLE_CPU, "CPU" }, { PERF_SAMPLE_PERIOD, "PERIOD" },
	{ PERF_SAMPLE_STREAM_ID, "STREAM_ID" }, { PERF_SAMPLE_RAW, "RAW" },
	{ PERF_SAMPLE_BRANCH_STACK, "BRANCH_STACK" }, { PERF_SAMPLE_REGS_USER, "REGS_USER" },
	{ PERF_SAMPLE_STACK_USER, "STACK_USER" }, { PERF_SAMPLE_IDENTIFIER, "IDENTIFIER" },
	{ PERF_SAMPLE_REGS_INTR, "REGS_INTR" }, { PERF_SAMPLE_DATA_SRC, "DATA_SRC" },
	{ PERF_SAMPLE_WEIGHT, "WEIGHT" }, { PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR" },
	{ PERF_SAMPLE_AUX, "AUX" }, { PERF_SAMPLE_CGROUP, "CGROUP" },
	{ PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE" },
	{ PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE" },
	{ PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" },
	{ 0, NULL }
};

static const struct bit_name read_format_bits[] = {
	{ PERF_FORMAT_TOTAL_TIME_ENABLED, "TOTAL_TIME_ENABLED" },
	{ PERF_FORMAT_TOTAL_TIME_RUNNING, "TOTAL_TIME_RUNNING" },
	{ PERF_FORMAT_ID, "ID" }, { PERF_FORMAT_GROUP, "GROUP" },
	{ 1ULL << 4 /* PERF_FORMAT_LOST */, "LOST" },
	{ 0, NULL }
};

static const struct bit_name branch_bits[] = {
	{ PERF_SAMPLE_BRANCH_USER, "USER" }, { PERF_SAMPLE_BRANCH_KERNEL, "KERNEL" },
	{ PERF_SAMPLE_BRANCH_HV, "HV" }, { PERF_SAMPLE_BRANCH_ANY, "ANY" },
	{ PERF_SAMPLE_BRANCH_ANY_CALL, "ANY_CALL" },
	{ PERF_SAMPLE_BRANCH_ANY_RETURN, "ANY_RETURN" },
	{ PERF_SAMPLE_BRANCH_IND_CALL, "IND_CALL" }, { PERF_SAMPLE_BRANCH_ABORT_TX, "ABORT_TX" },
	{ PERF_SAMPLE_BRANCH_IN_TX, "IN_TX" }, { PERF_SAMPLE_BRANCH_NO_TX, "NO_TX" },
	{ PERF_SAMPLE_BRANCH_COND, "COND" }, { PERF_SAMPLE_BRANCH_CALL_STACK, "CALL_STACK" },
	{ PERF_SAMPLE_BRANCH_IND_JUMP, "IND_JUMP" }, { PERF_SAMPLE_BRANCH_CALL, "CALL" },
	{ PERF_SAMPLE_BRANCH_NO_FLAGS, "NO_FLAGS" }, { PERF_SAMPLE_BRANCH_NO_CYCLES, "NO_CYCLES" },
	{ PERF_SAMPLE_BRANCH_TYPE_SAVE, "TYPE_SAVE" }, { PERF_SAMPLE_BRANCH_HW_INDEX, "HW_INDEX" },
	{ PERF_SAMPLE_BRANCH_PRIV_SAVE, "PRIV_SAVE" },
	{ 0, NULL }
};

static void fmt_bits(char *buf, size_t size, uint64_t v, const struct bit_name *bits)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; bits[i].name; i++) {
		if (!(v & bits[i].bit))
			continue;
		len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? "|" : "", bits[i].name);
		if (len >= size)
			break;
	}
}

enum fmt { F_UNSIGNED, F_HEX, F_SIGNED, F_SAMPLE_TYPE, F_READ_FORMAT, F_BRANCH };

static int print_field(FILE *fp, const char *name, uint64_t v, enum fmt f)
{
	char buf[512];

	if (!v)
		return 0;
	switch (f) {
	case F_HEX:
		snprintf(buf, sizeof(buf), "%#" PRIx64, v);
		break;
	case F_SIGNED:
		snprintf(buf, sizeof(buf), "%" PRId64, (int64_t)v);
		break;
	case F_SAMPLE_TYPE:
		fmt_bits(buf, sizeof(buf), v, sample_type_bits);
		break;
	case F_READ_FORMAT:
		fmt_bits(buf, sizeof(buf), v, read_format_bits);
		break;
	case F_BRANCH:
		fmt_bits(buf, sizeof(buf), v, branch_bits);
		break;
	default:
		snprintf(buf, sizeof(buf), "%" PRIu64, v);
		break;
	}
	return fprintf(fp, "  %-32s %s\n", name, buf);
}

static const char dashes[] = "------------------------------------------------------------";

/**
 * perf_event_attr__fprintf - print @attr as `perf stat -vv` does
 * @fp: where to
 * @attr: the attr
 * Return: the number of characters printed, or a negative value on error.
 */
int perf_event_attr__fprintf(FILE *fp, const struct perf_event_attr *a)
{
	int ret = 0;

#define U(field) ret += print_field(fp, #field, a->field, F_UNSIGNED)
#define N(name, field, f) ret += print_field(fp, name, a->field, f)
	ret += fprintf(fp, "%s\nperf_event_attr:\n", dashes);
	U(type);
	U(size);
	N("config", config, F_HEX);
	N("{ sample_period, sample_freq }", sample_period, F_UNSIGNED);
	N("sample_type", sample_type, F_SAMPLE_TYPE);
	N("read_format", read_format, F_READ_FORMAT);
	U(disabled);
	U(inherit);
	U(pinned);
	U(exclusive);
	U(exclude_user);
	U(exclude_kernel);
	U(exclude_hv);
	U(exclude_idle);
	U(mmap);
	U(comm);
	U(freq);
	U(inherit_stat);
	U(enable_on_exec);
	U(task);
	U(watermark);
	U(precise_ip);
	U(mmap_data);
	U(sample_id_all);
	U(exclude_host);
	U(exclude_guest);
	U(exclude_callchain_kernel);
	U(exclude_callchain_user);
	U(mmap2);
	U(comm_exec);
	U(use_clockid);
	U(context_switch);
	U(write_backward);
	U(namespaces);
	U(ksymbol);
	U(bpf_event);
	U(aux_output);
	U(cgroup);
	U(text_poke);
	U(build_id);
	U(inherit_thread);
	U(remove_on_exec);
	U(sigtrap);
	N("{ wakeup_events, wakeup_watermark }", wakeup_events, F_UNSIGNED);
	U(bp_type);
	N("{ bp_addr, config1 }", bp_addr, F_HEX);
	N("{ bp_len, config2 }", bp_len, F_HEX);
	N("branch_sample_type", branch_sample_type, F_BRANCH);
	N("sample_regs_user", sample_regs_user, F_HEX);
	U(sample_stack_user);
	N("clockid", clockid, F_SIGNED);
	N("sample_regs_intr", sample_regs_intr, F_HEX);
	U(aux_watermark);
	U(sample_max_stack);
	U(aux_sample_size);
	U(sig_data);
#undef U
#undef N
	ret += fprintf(fp, "%s\n", dashes);
	return ret;
}
