// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Records as perf 6.1 prints them (see event-fprintf.h).  Every field is
 * read within the record's header.size: a short record prints what fits.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/mman.h>

#include "util/perf-data/event-fprintf.h"

/* A NUL-terminated string at @off of @ev, cut at the record's end. */
static const char *rec_str(const union perf_event *ev, size_t off, int *len)
{
	size_t size = ev->header.size;

	if (off >= size) {
		*len = 0;
		return "";
	}
	*len = (int)strnlen((const char *)ev + off, size - off);
	return (const char *)ev + off;
}

static bool fits(const union perf_event *ev, size_t bytes)
{
	return ev->header.size >= bytes;
}

static void fprintf_mmap(FILE *fp, const union perf_event *ev)
{
	const struct perf_record_mmap *m = &ev->mmap;
	int len;
	const char *name = rec_str(ev, sizeof(*m), &len);

	if (!fits(ev, sizeof(*m)))
		return;
	fprintf(fp, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %.*s", (int)m->pid,
		(int)m->tid, m->start, m->len, m->pgoff,
		(ev->header.misc & PERF_RECORD_MISC_MMAP_DATA) ? 'r' : 'x', len, name);
}

static void fprintf_mmap2(FILE *fp, const union perf_event *ev)
{
	const struct perf_record_mmap2 *m = &ev->mmap2;
	int len;
	const char *name = rec_str(ev, sizeof(*m), &len);

	if (!fits(ev, sizeof(*m)))
		return;
	fprintf(fp, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64, (int)m->pid, (int)m->tid,
		m->start, m->len, m->pgoff);
	if (ev->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		unsigned int n = m->build_id_size < 20 ? m->build_id_size : 20;

		fprintf(fp, " <");
		for (unsigned int i = 0; i < n; i++)
			fprintf(fp, "%02x", m->build_id[i]);
		fprintf(fp, ">");
	} else {
		fprintf(fp, " %02x:%02x %" PRIu64 " %" PRIu64, m->maj, m->min, m->ino,
			m->ino_generation);
	}
	fprintf(fp, "]: %c%c%c%c %.*s", (m->prot & PROT_READ) ? 'r' : '-',
		(m->prot & PROT_WRITE) ? 'w' : '-', (m->prot & PROT_EXEC) ? 'x' : '-',
		(m->flags & MAP_SHARED) ? 's' : 'p', len, name);
}

static void fprintf_comm(FILE *fp, const union perf_event *ev)
{
	int len;
	const char *comm = rec_str(ev, sizeof(ev->comm), &len);

	if (!fits(ev, sizeof(ev->comm)))
		return;
	fprintf(fp, "%s: %.*s:%d/%d", (ev->header.misc & PERF_RECORD_MISC_COMM_EXEC) ? " exec" : "",
		len, comm, (int)ev->comm.pid, (int)ev->comm.tid);
}

static void fprintf_switch(FILE *fp, const union perf_event *ev)
{
	bool out = ev->header.misc & PERF_RECORD_MISC_SWITCH_OUT;
	const char *in_out = !out ? "IN         " :
			     !(ev->header.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ?
			     "OUT        " : "OUT preempt";

	if (ev->header.type == PERF_RECORD_SWITCH || !fits(ev, sizeof(ev->context_switch))) {
		fprintf(fp, " %s", in_out);
		return;
	}
	fprintf(fp, " %s  %s pid/tid: %5d/%-5d", in_out, out ? "next" : "prev",
		(int)ev->context_switch.next_prev_pid, (int)ev->context_switch.next_prev_tid);
}

static void fprintf_ksymbol(FILE *fp, const union perf_event *ev)
{
	int len;
	const char *name = rec_str(ev, sizeof(ev->ksymbol), &len);

	if (!fits(ev, sizeof(ev->ksymbol)))
		return;
	fprintf(fp, " addr %" PRIx64 " len %u type %u flags 0x%x name %.*s", ev->ksymbol.addr,
		ev->ksymbol.len, ev->ksymbol.ksym_type, ev->ksymbol.flags, len, name);
}

static void fprintf_id_index(FILE *fp, const union perf_event *ev)
{
	const struct perf_record_id_index *x = &ev->id_index;
	u64 max;

	if (!fits(ev, sizeof(*x)))
		return;
	max = (ev->header.size - sizeof(*x)) / sizeof(x->entries[0]);
	fprintf(fp, " nr: %" PRIu64, x->nr);
	for (u64 i = 0; i < x->nr && i < max; i++)
		fprintf(fp, "\n ... id: %" PRIu64 "  idx: %" PRIu64 "  cpu: %" PRId64 "  tid: %" PRId64,
			x->entries[i].id, x->entries[i].idx, (int64_t)x->entries[i].cpu,
			(int64_t)x->entries[i].tid);
}

static void fprintf_thread_map(FILE *fp, const union perf_event *ev)
{
	const u8 *p = (const u8 *)ev + 8;
	u64 nr, max;

	if (!fits(ev, 16))
		return;
	memcpy(&nr, p, 8);
	max = (ev->header.size - 16) / 24;	/* { u64 pid; char comm[16]; } */
	fprintf(fp, " nr: %" PRIu64 " thread%s: ", nr, nr > 1 ? "s" : "");
	for (u64 i = 0; i < nr && i < max; i++) {
		u64 pid;

		memcpy(&pid, p + 8 + i * 24, 8);
		fprintf(fp, "%s%d", i ? ", " : "", (int)pid);
	}
}

/* The CPUs of a CPU_MAP record as "0-3,5". */
static void fprintf_cpu_ranges(FILE *fp, const u8 *bits, unsigned int nr)
{
	bool first = true;

	for (unsigned int c = 0; c < nr; c++) {
		unsigned int e = c;

		if (!(bits[c / 8] & (1u << (c % 8))))
			continue;
		while (e + 1 < nr && (bits[(e + 1) / 8] & (1u << ((e + 1) % 8))))
			e++;
		fprintf(fp, e > c ? "%s%u-%u" : "%s%u", first ? "" : ",", c, e);
		first = false;
		c = e;
	}
}

/*
 * A cpu_map_data at @p (before @end) into @bits: a list of u16 CPUs, a mask
 * (perf 6.1 reads a 64-bit mask 10 bytes after the type, a 32-bit one 6),
 * or a range.
 */
static void cpu_map_bits(const u8 *p, const u8 *end, u8 *bits)
{
	u16 type, nr, a, b;

	if (end - p < 8)
		return;
	memcpy(&type, p, 2);
	memcpy(&nr, p + 2, 2);
	if (type == 0) {
		for (unsigned int i = 0; i < nr && p + 4 + 2 * i + 2 <= end; i++) {
			memcpy(&a, p + 4 + 2 * i, 2);
			if (a < 4096)
				bits[a / 8] |= 1u << (a % 8);
		}
	} else if (type == 1) {
		u16 lsz;
		const u8 *m;

		memcpy(&lsz, p + 4, 2);
		m = p + (lsz == 8 ? 10 : 6);
		for (unsigned int i = 0; i < (unsigned int)nr * lsz && m + i < end && i < 512; i++)
			bits[i] = m[i];
	} else if (type == 2) {
		memcpy(&a, p + 4, 2);
		memcpy(&b, p + 6, 2);
		for (unsigned int c = a; c <= b && c < 4096; c++)
			bits[c / 8] |= 1u << (c % 8);
	}
}

/* A list's CPU 65535 (-1, any CPU: a per-thread count), which perf prints first. */
static bool cpu_map_any(const u8 *p, const u8 *end)
{
	u16 type, nr, a;

	if (end - p < 4)
		return false;
	memcpy(&type, p, 2);
	memcpy(&nr, p + 2, 2);
	for (unsigned int i = 0; type == 0 && i < nr && p + 4 + 2 * i + 2 <= end; i++) {
		memcpy(&a, p + 4 + 2 * i, 2);
		if (a == 0xffff)
			return true;
	}
	return false;
}

static void fprintf_cpu_map(FILE *fp, const union perf_event *ev)
{
	const u8 *p = (const u8 *)ev + 8, *end = (const u8 *)ev + ev->header.size;
	u8 bits[512] = { 0 };		/* 4096 CPUs */
	bool any = cpu_map_any(p, end);

	cpu_map_bits(p, end, bits);
	fprintf(fp, ": %s", any ? "-1" : "");
	for (unsigned int i = 0; any && i < sizeof(bits); i++) {
		if (bits[i]) {
			fputc(',', fp);
			break;
		}
	}
	fprintf_cpu_ranges(fp, bits, 4096);
}

/* EVENT_UPDATE: { u64 type, id; data }: unit, scale, name or CPUs of an event. */
static void fprintf_event_update(FILE *fp, const union perf_event *ev)
{
	const u8 *p = (const u8 *)ev + 8;
	u8 bits[512] = { 0 };
	u64 type, id;
	int len;
	const char *str = rec_str(ev, 24, &len);

	if (!fits(ev, 24))
		return;
	memcpy(&type, p, 8);
	memcpy(&id, p + 8, 8);
	fprintf(fp, "\n... id:    %" PRIu64 "\n", id);
	if (type == 0) {
		fprintf(fp, "... unit:  %.*s", len, str);
	} else if (type == 1 && fits(ev, 32)) {
		double scale;

		memcpy(&scale, p + 16, 8);
		fprintf(fp, "... scale: %f", scale);
	} else if (type == 2) {
		fprintf(fp, "... name:  %.*s", len, str);
	} else if (type == 3) {
		cpu_map_bits(p + 16, (const u8 *)ev + ev->header.size, bits);
		fprintf(fp, "... ");
		fprintf_cpu_ranges(fp, bits, 4096);
	} else {
		fprintf(fp, "... unknown type");
	}
}

static void fprintf_bpf_event(FILE *fp, const union perf_event *ev)
{
	const u8 *p = (const u8 *)ev + 8;
	u16 type, flags;
	u32 id;

	if (!fits(ev, 16))
		return;
	memcpy(&type, p, 2);
	memcpy(&flags, p + 2, 2);
	memcpy(&id, p + 4, 4);
	fprintf(fp, " type %u, flags %u, id %u", type, flags, id);
}

static void fprintf_time_conv(FILE *fp, const union perf_event *ev)
{
	const struct perf_record_time_conv *tc = &ev->time_conv;

	if (!fits(ev, 32))
		return;
	fprintf(fp, "\n... Time Shift      %" PRIu64 "\n... Time Muliplier  %" PRIu64
		"\n... Time Zero       %" PRIu64, tc->time_shift, tc->time_mult, tc->time_zero);
	if (fits(ev, sizeof(*tc)))
		fprintf(fp, "\n... Time Cycles     %" PRIu64 "\n... Time Mask       %#" PRIx64
			"\n... Cap Time Zero   %d\n... Cap Time Short  %d", tc->time_cycles,
			tc->time_mask, tc->cap_user_time_zero, tc->cap_user_time_short);
	fprintf(fp, "\n: unhandled!");
}

static void fprintf_details(FILE *fp, const union perf_event *ev)
{
	switch (ev->header.type) {
	case PERF_RECORD_MMAP:
		fprintf_mmap(fp, ev);
		break;
	case PERF_RECORD_MMAP2:
		fprintf_mmap2(fp, ev);
		break;
	case PERF_RECORD_COMM:
		fprintf_comm(fp, ev);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (fits(ev, sizeof(ev->fork)))
			fprintf(fp, "(%d:%d):(%d:%d)", (int)ev->fork.pid, (int)ev->fork.tid,
				(int)ev->fork.ppid, (int)ev->fork.ptid);
		break;
	case PERF_RECORD_LOST:
		if (fits(ev, sizeof(ev->lost)))
			fprintf(fp, " lost %" PRIu64, ev->lost.lost);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (fits(ev, sizeof(ev->lost_samples)))
			fprintf(fp, " lost %" PRIu64, ev->lost_samples.lost);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		fprintf_switch(fp, ev);
		break;
	case PERF_RECORD_KSYMBOL:
		fprintf_ksymbol(fp, ev);
		break;
	case PERF_RECORD_ID_INDEX:
		fprintf_id_index(fp, ev);
		break;
	case PERF_RECORD_THREAD_MAP:
		fprintf_thread_map(fp, ev);
		break;
	case PERF_RECORD_CPU_MAP:
		fprintf_cpu_map(fp, ev);
		break;
	case PERF_RECORD_EVENT_UPDATE:
		fprintf_event_update(fp, ev);
		break;
	case PERF_RECORD_BPF_EVENT:
		fprintf_bpf_event(fp, ev);
		break;
	case PERF_RECORD_TIME_CONV:
		fprintf_time_conv(fp, ev);
		break;
	case PERF_RECORD_FINISHED_ROUND:
	/* script prints what these say (its stat table): only the name here */
	case PERF_RECORD_STAT_CONFIG:
	case PERF_RECORD_STAT:
	case PERF_RECORD_STAT_ROUND:
		break;
	default:
		fprintf(fp, ": unhandled!");
		break;
	}
}

int perf_event__fprintf(FILE *fp, const union perf_event *ev)
{
	const char *name = perf_event__name(ev->header.type);

	if (name)
		fprintf(fp, "PERF_RECORD_%s", name);
	else
		fprintf(fp, "PERF_RECORD_%u", ev->header.type);
	fprintf_details(fp, ev);
	fputc('\n', fp);
	return ferror(fp) ? -EIO : 0;
}

void perf_event__fprintf_raw(FILE *fp, const union perf_event *ev, u64 offset, const char *path)
{
	const u8 *p = (const u8 *)ev;
	unsigned int size = ev->header.size;

	fprintf(fp, "\n%#" PRIx64 "@%s [%#x]: event: %u\n.\n. ... raw event: size %u bytes\n",
		offset, path, size, ev->header.type, size);
	for (unsigned int i = 0; i < size; i += 16) {
		unsigned int n = size - i < 16 ? size - i : 16;

		fprintf(fp, ".  %04x: ", i);
		for (unsigned int j = 0; j < 16; j++) {
			if (j < n)
				fprintf(fp, " %02x", p[i + j]);
			else
				fputs("   ", fp);
		}
		fputs("  ", fp);
		for (unsigned int j = 0; j < 16; j++)
			fputc(j < n ? (isprint(p[i + j]) ? p[i + j] : '.') : ' ', fp);
		fputc('\n', fp);
	}
	fputc('\n', fp);
}

static void fprintf_read(FILE *fp, const struct perf_event_attr *a, const struct perf_sample *s)
{
	u64 rf = a->read_format;

	fprintf(fp, "... sample_read:\n");
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		fprintf(fp, "...... time enabled %016" PRIx64 "\n", s->read.time_enabled);
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		fprintf(fp, "...... time running %016" PRIx64 "\n", s->read.time_running);
	if (rf & PERF_FORMAT_GROUP && s->read.values) {
		unsigned int w = s->read.entry_u64s;

		fprintf(fp, ".... group nr %" PRIu64 "\n", s->read.nr);
		for (u64 i = 0; i < s->read.nr; i++) {
			const u64 *e = s->read.values + i * w;
			unsigned int k = 1;

			fprintf(fp, "..... id %016" PRIx64, (rf & PERF_FORMAT_ID) ? e[k++] : 0);
			fprintf(fp, ", value %016" PRIx64, e[0]);
			if (rf & PERF_FORMAT_LOST)
				fprintf(fp, ", lost %" PRIu64, e[k]);
			fputc('\n', fp);
		}
		return;
	}
	fprintf(fp, "..... id %016" PRIx64 ", value %016" PRIx64, s->read.id, s->read.value);
	if (rf & PERF_FORMAT_LOST)
		fprintf(fp, ", lost %" PRIu64, s->read.lost);
	fputc('\n', fp);
}

static const char *const branch_types[] = {
	"", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL", "SYSRET",
	"COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX", "EXTEND_ABI",
};

/*
 * Before the FP chain of an LBR call-stack sample, perf prints the chain it
 * builds: the kernel part up to PERF_CONTEXT_USER, then the first branch's
 * to and every branch's from.
 */
static void fprintf_lbr_chain(FILE *fp, const struct perf_sample *s)
{
	u64 k = 0;

	while (k < s->callchain_nr && s->callchain[k] != PERF_CONTEXT_USER)
		k++;
	if (k == s->callchain_nr || !s->branch_nr)
		return;
	k++;
	fprintf(fp, "... LBR call chain: nr:%" PRIu64 "\n", k + s->branch_nr + 1);
	for (u64 i = 0; i < k; i++)
		fprintf(fp, "..... %2d: %016" PRIx64 "\n", (int)i, s->callchain[i]);
	fprintf(fp, "..... %2d: %016" PRIx64 "\n", (int)k, s->branch_entries[0].to);
	for (u64 i = 0; i < s->branch_nr; i++)
		fprintf(fp, "..... %2d: %016" PRIx64 "\n", (int)(i + k + 1),
			s->branch_entries[i].from);
}

/*
 * An LBR call stack (PERF_SAMPLE_BRANCH_CALL_STACK) is printed as the nr + 1
 * frames it expands to: the first entry's to, then each entry's from.
 */
static void fprintf_branch_callstack(FILE *fp, const struct perf_sample *s)
{
	fprintf(fp, "... branch callstack: nr:%" PRIu64 "\n", s->branch_nr + 1);
	for (u64 i = 0; i < s->branch_nr; i++) {
		const struct perf_branch_entry_raw *e = &s->branch_entries[i];

		if (!i)
			fprintf(fp, "..... %2d: %016" PRIx64 "\n", 0, e->to);
		fprintf(fp, "..... %2d: %016" PRIx64 "\n", (int)i + 1, e->from);
	}
}

/* perf_branch_entry flags: mispred, predicted, in_tx, abort, cycles:16, type:4 */
static void fprintf_branch_stack(FILE *fp, const struct perf_sample *s)
{
	fprintf(fp, "... branch stack: nr:%" PRIu64 "\n", s->branch_nr);
	for (u64 i = 0; i < s->branch_nr; i++) {
		const struct perf_branch_entry_raw *e = &s->branch_entries[i];
		u64 f = e->flags;

		fprintf(fp, "..... %2d: %016" PRIx64 " -> %016" PRIx64 " %u cycles %s%s%s%s %x %s\n",
			(int)i, e->from, e->to, (unsigned int)((f >> 4) & 0xffff),
			(f & 1) ? "M" : " ", (f & 2) ? "P" : " ", (f & 8) ? "A" : " ",
			(f & 4) ? "T" : " ", 0u, branch_types[(f >> 20) & 0xf]);
	}
}

/* x86's perf_event_x86_regs order */
static const char *const x86_regs[] = {
	"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
	"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
};

const char *perf_reg_name(unsigned int bit, char *buf, size_t size)
{
	if (bit < sizeof(x86_regs) / sizeof(x86_regs[0]))
		return x86_regs[bit];
	if (bit >= 32 && bit < 64)
		snprintf(buf, size, "XMM%u", (bit - 32) / 2);
	else
		snprintf(buf, size, "unknown");
	return buf;
}

static void fprintf_regs(FILE *fp, const char *kind, u64 abi_nr, u64 mask, unsigned int nr,
			 const u64 *regs)
{
	static const char *const abi[] = { "none", "32-bit", "64-bit" };
	unsigned int n = 0;

	fprintf(fp, "... %s regs: mask %#" PRIx64 " ABI %s\n", kind, mask,
		abi_nr < 3 ? abi[abi_nr] : "unknown");
	if (!abi_nr || !regs)
		return;
	for (unsigned int bit = 0; bit < 64 && n < nr; bit++) {
		char name[16];

		if (!(mask & (1ULL << bit)))
			continue;
		fprintf(fp, ".... %-5s 0x%016" PRIx64 "\n", perf_reg_name(bit, name, sizeof(name)),
			regs[n++]);
	}
}

/* "size" is what the kernel filled (dyn_size), "offset" where the size word is */
static void fprintf_ustack(FILE *fp, const union perf_event *ev, const struct perf_sample *s)
{
	long off = -1;

	if (s->user_stack.data)
		off = (const u8 *)s->user_stack.data - (const u8 *)ev - 8;
	else if (s->user_regs.regs)
		off = (const u8 *)(s->user_regs.regs + s->user_regs.nr) - (const u8 *)ev;
	fprintf(fp, "... ustack: size %" PRIu64 ", offset 0x%lx\n",
		s->user_stack.size ? s->user_stack.dyn_size : 0, off < 0 ? 0 : off);
}

static void fprintf_sample(FILE *fp, const union perf_event *ev, const struct perf_event_attr *a,
			   const struct perf_sample *s)
{
	u64 t = a->sample_type;

	fprintf(fp, "(IP, 0x%x): %d/%d: %#" PRIx64 " period: %" PRIu64 " addr: %#" PRIx64 "\n",
		ev->header.misc, (int)s->pid, (int)s->tid, s->ip, s->period, s->addr);
	if (t & PERF_SAMPLE_CALLCHAIN) {
		if ((t & PERF_SAMPLE_BRANCH_STACK) &&
		    (a->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK))
			fprintf_lbr_chain(fp, s);
		fprintf(fp, "... FP chain: nr:%" PRIu64 "\n", s->callchain_nr);
		for (u64 i = 0; i < s->callchain_nr; i++)
			fprintf(fp, "..... %2d: %016" PRIx64 "\n", (int)i, s->callchain[i]);
	}
	if ((t & PERF_SAMPLE_BRANCH_STACK) && (a->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK))
		fprintf_branch_callstack(fp, s);
	else if (t & PERF_SAMPLE_BRANCH_STACK)
		fprintf_branch_stack(fp, s);
	if (t & PERF_SAMPLE_REGS_USER)
		fprintf_regs(fp, "user", s->user_regs.abi, s->user_regs.mask, s->user_regs.nr,
			     s->user_regs.regs);
	if (t & PERF_SAMPLE_REGS_INTR)
		fprintf_regs(fp, "intr", s->intr_regs.abi, s->intr_regs.mask, s->intr_regs.nr,
			     s->intr_regs.regs);
	if (t & PERF_SAMPLE_STACK_USER)
		fprintf_ustack(fp, ev, s);
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		fprintf(fp, "... weight: %" PRIu64, s->weight);
		if (t & PERF_SAMPLE_WEIGHT_STRUCT)
			fprintf(fp, ",0x%x,0x%x", s->ins_lat, s->p_stage_cyc);
		fputc('\n', fp);
	}
	if (t & PERF_SAMPLE_DATA_SRC)
		fprintf(fp, " . data_src: 0x%" PRIx64 "\n", s->data_src);
	if (t & PERF_SAMPLE_PHYS_ADDR)
		fprintf(fp, " .. phys_addr: 0x%" PRIx64 "\n", s->phys_addr);
	if (t & PERF_SAMPLE_TRANSACTION)
		fprintf(fp, "... transaction: %" PRIx64 "\n", s->transaction);
	if (t & PERF_SAMPLE_READ)
		fprintf_read(fp, a, s);
}

int perf_event__fprintf_dump(FILE *fp, const union perf_event *ev, u64 offset, const char *path,
			     const struct perf_header *h, const struct perf_event_attr *attr,
			     const struct perf_sample *s)
{
	const struct perf_event_attr *first = h->nr_attrs ? &h->attrs[0].attr : NULL;
	unsigned int type = ev->header.type;
	const char *name = perf_event__name(type);
	bool user = type >= PERF_RECORD_USER_TYPE_START;

	perf_event__fprintf_raw(fp, ev, offset, path);
	if (type != PERF_RECORD_SAMPLE && (!first || !first->sample_id_all)) {
		fputs("-1 -1 ", fp);
	} else if (first) {		/* perf prints by the first event's sample_type */
		if (first->sample_type & PERF_SAMPLE_CPU)
			fprintf(fp, "%u ", user ? 0 : s->cpu);
		if (first->sample_type & PERF_SAMPLE_TIME)
			fprintf(fp, "%" PRIu64 " ", user ? 0 : s->time);
	}
	fprintf(fp, "%#" PRIx64 " [%#x]: PERF_RECORD_", offset, ev->header.size);
	if (name)
		fputs(name, fp);
	else
		fprintf(fp, "%u", type);
	if (type == PERF_RECORD_SAMPLE && attr) {
		fprintf_sample(fp, ev, attr, s);
	} else if (type == PERF_RECORD_HEADER_ATTR || type == PERF_RECORD_HEADER_FEATURE ||
		   type == PERF_RECORD_STAT_CONFIG || type == PERF_RECORD_STAT ||
		   type == PERF_RECORD_STAT_ROUND) {
		/*
		 * perf ends these lines with nothing: the next dump's "\n" (the
		 * stat records: what script prints of a round follows on the line)
		 */
	} else {
		fprintf_details(fp, ev);
		fputc('\n', fp);
	}
	return ferror(fp) ? -EIO : 0;
}
